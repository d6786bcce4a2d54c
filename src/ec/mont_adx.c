/* x86-64 Montgomery multiplication and squaring with MULX/ADCX/ADOX for
 * Fp (6 limbs) and Fr (4 limbs).
 *
 * Method: CIOS with the multiply and the reduce of each row interleaved.
 * MULX leaves the flags alone, so two carry chains run side by side: ADOX
 * adds the low halves of a row of partial products, ADCX the high halves.
 * Both moduli have spare top bits (p < 2^381, r < 2^255), so the running
 * value stays below 2m < 2^(64n) and one extra word per row is enough: the
 * carry out of a row's top word is never lost and no final carry word is
 * kept. The result is reduced once (subtract m when it is >= m), so it is
 * the same fully reduced value the portable path gives, bit for bit.
 *
 * Squaring uses the same routine (as blst does on its MULX path); see the
 * note at cz_fp_sqr_adx.
 *
 * The code only needs an assembler that knows the instructions, not
 * -madx/-mbmi2; it must only be *run* on a CPU with BMI2 and ADX (the
 * dispatch in field_impl.h checks cz_cpu_has_adx()). Other architectures
 * compile this file to nothing. */
#include "cuzk/fp.h"
#include "cuzk/fp2.h"
#include "cuzk/fr.h"
#include "ec/mont.h"
#include "ec/fp_inline.h"

#ifdef CZ_MONT_ADX
#include <x86intrin.h>
#endif

#ifdef CZ_MONT_ADX

/* Moduli and -m^(-1) mod 2^64, local to this file (the asm reads them
 * through a register operand; "memory" tells the compiler so). */
static const uint64_t P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                              0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t P_INV = 0x89f3fffcfffcfffdULL;
/* (Fr's modulus is in mont_adx_asm.h, with its inline product.) */

#include "ec/mont_adx_asm.h"

/* ---- Fp: 6 limbs, seven accumulator registers used in rotation ---- */

/* clang-format off: one step per line, which clang-format cannot settle on */
#define FP_ROW0(t0, t1, t2, t3, t4, t5, z) \
  ROW0_START(O(t0), O(t1)) \
  ROW0_STEP(8, O(t1), O(t2)) \
  ROW0_STEP(16, O(t2), O(t3)) \
  ROW0_STEP(24, O(t3), O(t4)) \
  ROW0_STEP(32, O(t4), O(t5)) \
  ROW0_END(40, O(t5), O(z))
#define FP_ROW(boff, t0, t1, t2, t3, t4, t5, z) \
  ROW_START(boff, K(z)) \
  ROW_STEP(0, O(t0), O(t1)) \
  ROW_STEP(8, O(t1), O(t2)) \
  ROW_STEP(16, O(t2), O(t3)) \
  ROW_STEP(24, O(t3), O(t4)) \
  ROW_STEP(32, O(t4), O(t5)) \
  ROW_END(40, O(t5), O(z))
#define FP_RED(t0, t1, t2, t3, t4, t5, z) \
  RED_START(O(t0)) \
  RED_STEP(8, O(t1)) \
  RED_STEP(16, O(t2)) \
  RED_STEP(24, O(t3)) \
  RED_STEP(32, O(t4)) \
  RED_STEP(40, O(t5)) \
  RED_END(O(t0), O(z))
#define FP_FINAL(t0, t1, t2, t3, t4, t5, s0, s1, s2, s3, s4, s5) \
  SUB_FIRST(t0, s0) \
  SUB_NEXT(8, t1, s1) \
  SUB_NEXT(16, t2, s2) \
  SUB_NEXT(24, t3, s3) \
  SUB_NEXT(32, t4, s4) \
  SUB_NEXT(40, t5, s5) \
  TAKE(t0, s0) \
  TAKE(t1, s1) \
  TAKE(t2, s2) \
  TAKE(t3, s3) \
  TAKE(t4, s4) \
  TAKE(t5, s5)
/* clang-format on */

/* The six rows of a product, each reduced: the value, below 2p, ends in
 * the seven words from r6 on (row i keeps its value from r(i mod 7) on). */
/* One row and its reduction a line, which clang-format cannot keep. */
/* clang-format off */
#define FP_ROWS_REDUCED                                                          \
  FP_ROW0(r0, r1, r2, r3, r4, r5, r6) FP_RED(r0, r1, r2, r3, r4, r5, r6)          \
  FP_ROW(8, r1, r2, r3, r4, r5, r6, r0) FP_RED(r1, r2, r3, r4, r5, r6, r0)        \
  FP_ROW(16, r2, r3, r4, r5, r6, r0, r1) FP_RED(r2, r3, r4, r5, r6, r0, r1)       \
  FP_ROW(24, r3, r4, r5, r6, r0, r1, r2) FP_RED(r3, r4, r5, r6, r0, r1, r2)       \
  FP_ROW(32, r4, r5, r6, r0, r1, r2, r3) FP_RED(r4, r5, r6, r0, r1, r2, r3)       \
  FP_ROW(40, r5, r6, r0, r1, r2, r3, r4) FP_RED(r5, r6, r0, r1, r2, r3, r4)
/* clang-format on */

void cz_fp_mul_adx(cz_fp *r, const cz_fp *a, const cz_fp *b) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi;
  const uint64_t *pa = a->l, *pb = b->l;
  /* Row i keeps its value in the seven words from r(i mod 7) on. */
  __asm__(
      FP_ROWS_REDUCED FP_FINAL(O(r6), O(r0), O(r1), O(r2), O(r3), O(r4), O(lo), O(hi), O(r5), O(a),
                               O(b), RDX)
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
        [r5] "=&r"(r5), [r6] "=&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+r"(pa), [b] "+r"(pb)
      : [m] "r"(P), [minv] "m"(P_INV)
      : "rdx", "cc", "memory");
  r->l[0] = r6;
  r->l[1] = r0;
  r->l[2] = r1;
  r->l[3] = r2;
  r->l[4] = r3;
  r->l[5] = r4;
}

/* The same product without its final subtraction, for chains of products
 * whose values need not be canonical: with a, b < 2p the rows stay below
 * a + p < 3p < 2^383 (so the seven words hold them, as for reduced inputs)
 * and the result is below a b / 2^384 + p < 1.5 p, since 4p < 2^384. Such
 * a result may feed either product again (the full one then returns the
 * canonical value), never an addition, a comparison or an inversion. */
void cz_fp_mul_adx_lazy(cz_fp *r, const cz_fp *a, const cz_fp *b) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi;
  const uint64_t *pa = a->l, *pb = b->l;
  __asm__(FP_ROWS_REDUCED
          : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
            [r5] "=&r"(r5), [r6] "=&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi)
          : [a] "r"(pa), [b] "r"(pb), [m] "r"(P), [minv] "m"(P_INV)
          : "rdx", "cc", "memory");
  r->l[0] = r6;
  r->l[1] = r0;
  r->l[2] = r1;
  r->l[3] = r2;
  r->l[4] = r3;
  r->l[5] = r4;
}

/* A dedicated square (21 products for the 12-limb square, then REDC of its
 * low half plus its high half) was written and passed the agreement tests,
 * but measured the same as this in a dependent chain and with four
 * independent chains (~38 vs ~39 ns under load): the six serial reduction
 * rounds set the latency either way. So squaring is a multiplication. */
void cz_fp_sqr_adx(cz_fp *r, const cz_fp *a) { cz_fp_mul_adx(r, a, a); }

/* ---- Fp2 with lazy reduction ----
 * blst's mul_mont_384x idea, written here from the math: Karatsuba forms
 * its three products as full 768-bit integers and combines them before any
 * reduction, so each output coefficient is reduced once (2 reductions, not
 * 3). Both combined values are below p 2^384:
 *   c0 = a0 b0 - a1 b1, plus p 2^384 when negative: in [0, p 2^384);
 *   c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 = a0 b1 + a1 b0 < 2p^2 < p 2^384.
 * For T < p 2^384 with low and high halves T = L + H 2^384 (H < p),
 * T / 2^384 = L / 2^384 + H (mod p), and the Montgomery reduction of L
 * alone, (L + Q p) / 2^384, is at most p, so one modular addition of H
 * (sum < 2p) gives the fully reduced result the portable path gives. */

/* out = a * b, 12 words; the schoolbook rows of cz_fp_mul_adx without the
 * reduction, the low word of each row stored as it becomes final.
 * a and b below 2^384 (not necessarily reduced). */
static inline __attribute__((always_inline)) void mul_384x384_adx(uint64_t out[12],
                                                                  const uint64_t a[6],
                                                                  const uint64_t b[6]) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi;
  const uint64_t *pa = a, *pb = b;
#define ST(x, off) "movq %[" #x "], " #off "(%[out])\n\t"
  /* volatile: the result leaves through memory, not through the outputs. */
  __asm__ volatile(
      FP_ROW0(r0, r1, r2, r3, r4, r5, r6) ST(r0, 0) FP_ROW(8, r1, r2, r3, r4, r5, r6, r0) ST(r1, 8)
          FP_ROW(16, r2, r3, r4, r5, r6, r0, r1) ST(r2, 16) FP_ROW(24, r3, r4, r5, r6, r0, r1, r2)
              ST(r3, 24) FP_ROW(32, r4, r5, r6, r0, r1, r2, r3) ST(r4, 32)
                  FP_ROW(40, r5, r6, r0, r1, r2, r3, r4) ST(r5, 40) ST(r6, 48) ST(r0, 56) ST(r1, 64)
                      ST(r2, 72) ST(r3, 80) ST(r4, 88)
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
        [r5] "=&r"(r5), [r6] "=&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+r"(pa), [b] "+r"(pb)
      : [out] "r"(out)
      : "rdx", "cc", "memory");
#undef ST
}

/* out = (L + Q p) / 2^384 <= p for the 6-word L, Q chosen so the division
 * is exact: the six reduction rounds of cz_fp_mul_adx with no products
 * between them (the word entering at the top of each round is zero). */
static inline __attribute__((always_inline)) void redc_lo_adx(uint64_t out[6],
                                                              const uint64_t t[6]) {
  uint64_t r0 = t[0], r1 = t[1], r2 = t[2], r3 = t[3], r4 = t[4], r5 = t[5], r6 = 0, lo, hi;
  __asm__(FP_RED(r0, r1, r2, r3, r4, r5, r6) FP_RED(r1, r2, r3, r4, r5, r6, r0)
              FP_RED(r2, r3, r4, r5, r6, r0, r1) FP_RED(r3, r4, r5, r6, r0, r1, r2)
                  FP_RED(r4, r5, r6, r0, r1, r2, r3) FP_RED(r5, r6, r0, r1, r2, r3, r4)
          : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [r4] "+r"(r4),
            [r5] "+r"(r5), [r6] "+r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi)
          : [m] "r"(P), [minv] "m"(P_INV)
          : "rdx", "cc", "memory");
  out[0] = r6;
  out[1] = r0;
  out[2] = r1;
  out[3] = r2;
  out[4] = r3;
  out[5] = r4;
}

/* r = T / 2^384 mod p, fully reduced, for T < p 2^384. */
static inline void redc_768(cz_fp *r, const uint64_t t[12]) {
  uint64_t x[6];
  redc_lo_adx(x, t);
  mont_add6_x86(r->l, x, t + 6, P); /* x <= p, H < p: the sum is below 2p */
}

/* r = a + b over n words, no reduction; returns the carry out. */
static inline unsigned char add_plain(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                      const int n) {
  unsigned char c = 0;
  for (int i = 0; i < n; i++) {
    unsigned long long s;
    c = _addcarry_u64(c, a[i], b[i], &s);
    r[i] = s;
  }
  return c;
}
/* r = a - b over n words; returns the borrow out. */
static inline unsigned char sub_plain(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                      const int n) {
  unsigned char c = 0;
  for (int i = 0; i < n; i++) {
    unsigned long long d;
    c = _subborrow_u64(c, a[i], b[i], &d);
    r[i] = d;
  }
  return c;
}

void cz_fp2_mul_adx(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
  uint64_t sa[6], sb[6], t0[12], t1[12], t2[12], pm[6];
  add_plain(sa, a->c0.l, a->c1.l, 6); /* < 2p < 2^382: no carry out */
  add_plain(sb, b->c0.l, b->c1.l, 6);
  mul_384x384_adx(t0, a->c0.l, b->c0.l);
  mul_384x384_adx(t1, a->c1.l, b->c1.l);
  mul_384x384_adx(t2, sa, sb);
  sub_plain(t2, t2, t0, 12);
  sub_plain(t2, t2, t1, 12);
  uint64_t mask = 0 - (uint64_t)sub_plain(t0, t0, t1, 12);
  for (int i = 0; i < 6; i++) pm[i] = P[i] & mask;
  add_plain(t0 + 6, t0 + 6, pm, 6); /* + p 2^384 when negative (mod 2^768) */
  redc_768(&r->c0, t0);
  redc_768(&r->c1, t2);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, with a0 + a1 and 2 a0
 * left unreduced (< 2p): the Montgomery product of a value below 2p and
 * one below p is (x y + Q p) / 2^384 < (2p^2) / 2^384 + p < 1.25 p, still
 * fully reduced by cz_fp_mul_adx's single final subtraction. */
void cz_fp2_sqr_adx(cz_fp2 *r, const cz_fp2 *a) {
  cz_fp s, d, t;
  add_plain(s.l, a->c0.l, a->c1.l, 6);
  mont_sub6_x86(d.l, a->c0.l, a->c1.l, P);
  add_plain(t.l, a->c0.l, a->c0.l, 6);
  cz_fp_mul_adx(&r->c1, &t, &a->c1); /* reads a before r->c0 is written */
  cz_fp_mul_adx(&r->c0, &s, &d);
}

/* ---- Fr: 4 limbs (the product is inline in mont_adx_asm.h) ---- */

void cz_fr_mul_adx(cz_fr *r, const cz_fr *a, const cz_fr *b) { mont_adx_fr_mul(r->l, a->l, b->l); }

void cz_fr_sqr_adx(cz_fr *r, const cz_fr *a) { cz_fr_mul_adx(r, a, a); }

#endif /* CZ_MONT_ADX */
