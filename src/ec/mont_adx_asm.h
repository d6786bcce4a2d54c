/* The MULX/ADCX/ADOX Montgomery-product templates of mont_adx.c (see its
 * header comment for the method), and the Fr product as an inline function
 * so that kernels made of little else (the NTT butterflies) avoid two calls
 * (dispatcher and backend) and the spills around them per multiplication.
 * Only for x86-64 with CZ_MONT_ADX, and only to be run when
 * cz_mont_use_adx is set. */
#ifndef CUZK_EC_MONT_ADX_ASM_H
#define CUZK_EC_MONT_ADX_ASM_H
#include <stdint.h>
#include "ec/mont.h"

#ifdef CZ_MONT_ADX

/* Templates take operand strings: O(name) for a named register operand,
 * K(name) for its 32-bit half (for xor-zeroing), "%%rdx" for MULX's source. */
#define O(x) "%[" #x "]"
#define K(x) "%k[" #x "]"
#define RDX "%%rdx"
#define A_(off) #off "(%[a])"
#define M_(off) #off "(%[m])"

/* ---- rows of the interleaved product, shared by both widths ---- */

/* Row 0: (T, Z) = a * b[0]; no accumulator yet, one carry chain. */
#define ROW0_START(T0, T1) \
  "movq 0(%[b]), %%rdx\n\t" \
  "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */ \
  "mulxq " A_(0) ", " T0 ", " T1 "\n\t"
#define ROW0_STEP(off, Tj, Tk) \
  "mulxq " A_(off) ", %[lo], " Tk \
                   "\n\t" \
                   "adcxq %[lo], " Tj "\n\t"
#define ROW0_END(off, Tlast, Z) \
  "mulxq " A_(off) ", %[lo], " Z \
                   "\n\t" \
                   "adcxq %[lo], " Tlast \
                   "\n\t" \
                   "adcq $0, " Z "\n\t"

/* Row i > 0: (T, Z) += a * b[i], Z zero on entry (ZK: its 32-bit name).
 * ADOX adds the low halves into word j, ADCX the high halves into j+1. */
#define ROW_START(boff, ZK) \
  "movq " #boff \
  "(%[b]), %%rdx\n\t" \
  "xorl " ZK ", " ZK "\n\t"
#define ROW_STEP(off, Tj, Tk) \
  "mulxq " A_(off) ", %[lo], %[hi]\n\t"                    \
  "adoxq %[lo], " Tj "\n\t"                                \
  "adcxq %[hi], " Tk "\n\t"
/* The last high half goes into Z, then Z takes the pending OF carry
 * (lo is zeroed by a mov, which keeps the flags). */
#define ROW_END(off, Tlast, Z) \
  ROW_STEP(off, Tlast, Z) \
  "movl $0, %k[lo]\n\t" \
  "adoxq %[lo], " Z "\n\t"

/* Reduction of a row: q = T0 * minv mod 2^64, (T, Z) += q * m. T0 becomes
 * 0 (that is how q is chosen), so the value shifted one word down is in
 * T1..Z, and T0 serves as the zero register for the last OF carry.
 * RED_STEP(j) adds the high half of q*m[j-1] and the low half of q*m[j],
 * which both land on word j. */
#define RED_START(T0) \
  "movq " T0 ", %%rdx\n\t"                                 \
  "imulq %[minv], %%rdx\n\t"                               \
  "xorl %k[lo], %k[lo]\n\t" /* imul leaves CF/OF set */     \
  "mulxq " M_(0) ", %[lo], %[hi]\n\t"                      \
  "adoxq %[lo], " T0 "\n\t"
#define RED_STEP(off, Tj) \
  "adcxq %[hi], " Tj "\n\t"                                \
  "mulxq " M_(off) ", %[lo], %[hi]\n\t"                    \
  "adoxq %[lo], " Tj "\n\t"
#define RED_END(T0, Z) \
  "adcxq %[hi], " Z \
  "\n\t" \
  "adoxq " T0 ", " Z "\n\t"

/* t = t >= m ? t - m : t, with one scratch register per limb. */
#define SUB_FIRST(t, s) \
  "movq " t ", " s \
  "\n\t" \
  "subq " M_(0) ", " s "\n\t"
#define SUB_NEXT(off, t, s) \
  "movq " t ", " s \
  "\n\t" \
  "sbbq " M_(off) ", " s "\n\t"
#define TAKE(t, s) "cmovncq " s ", " t "\n\t"

/* ---- Fr: 4 limbs, five accumulator registers used in rotation ---- */

#define FR_ROW0(t0, t1, t2, t3, z) \
  ROW0_START(O(t0), O(t1)) \
  ROW0_STEP(8, O(t1), O(t2)) ROW0_STEP(16, O(t2), O(t3)) ROW0_END(24, O(t3), O(z))
#define FR_ROW(boff, t0, t1, t2, t3, z) \
  ROW_START(boff, K(z)) \
  ROW_STEP(0, O(t0), O(t1)) \
  ROW_STEP(8, O(t1), O(t2)) ROW_STEP(16, O(t2), O(t3)) ROW_END(24, O(t3), O(z))
#define FR_RED(t0, t1, t2, t3, z) \
  RED_START(O(t0)) RED_STEP(8, O(t1)) RED_STEP(16, O(t2)) RED_STEP(24, O(t3)) RED_END(O(t0), O(z))
#define FR_FINAL(t0, t1, t2, t3, s0, s1, s2, s3) \
  SUB_FIRST(t0, s0) \
  SUB_NEXT(8, t1, s1) \
  SUB_NEXT(16, t2, s2) SUB_NEXT(24, t3, s3) TAKE(t0, s0) TAKE(t1, s1) TAKE(t2, s2) TAKE(t3, s3)

/* r = a b / 2^256 mod r_Fr, fully reduced; a, b fully reduced. r may alias
 * a or b (the result is written after the asm has read both). The arrays
 * are passed as memory operands as well, so no "memory" clobber is needed
 * and the caller's values may stay in registers across the product. */
static const uint64_t MONT_ADX_FR_MOD[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                            0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t MONT_ADX_FR_INV = 0xfffffffeffffffffULL;
static inline __attribute__((always_inline)) void mont_adx_fr_mul(uint64_t r[4],
                                                                  const uint64_t a[4],
                                                                  const uint64_t b[4]) {
  uint64_t r0, r1, r2, r3, r4, lo, hi;
  const uint64_t *pa = a, *pb = b;
  __asm__(FR_ROW0(r0, r1, r2, r3, r4) FR_RED(r0, r1, r2, r3, r4) FR_ROW(8, r1, r2, r3, r4, r0)
              FR_RED(r1, r2, r3, r4, r0) FR_ROW(16, r2, r3, r4, r0, r1) FR_RED(r2, r3, r4, r0, r1)
                  FR_ROW(24, r3, r4, r0, r1, r2) FR_RED(r3, r4, r0, r1, r2)
                      FR_FINAL(O(r4), O(r0), O(r1), O(r2), O(lo), O(hi), O(r3), O(a))
          : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
            [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+r"(pa), [b] "+r"(pb)
          : [m] "r"(MONT_ADX_FR_MOD), [minv] "m"(MONT_ADX_FR_INV), "m"(*(const uint64_t(*)[4])a),
            "m"(*(const uint64_t(*)[4])b), "m"(MONT_ADX_FR_MOD)
          : "rdx", "cc");
  r[0] = r4;
  r[1] = r0;
  r[2] = r1;
  r[3] = r2;
}

#endif /* CZ_MONT_ADX */
#endif
