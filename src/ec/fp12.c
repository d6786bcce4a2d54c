/* The tower Fp6 = Fp2[v]/(v^3 - xi), xi = 1 + u, and Fp12 = Fp6[w]/(w^2 - v). */
#include <pthread.h>
#include "cuzk/fp12.h"
#include "ec/fp_inline.h"

#define FP_ONE_LIMBS \
  { \
    0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, \
        0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL \
  }
#define FP2_ONE_INIT \
  { \
    {FP_ONE_LIMBS}, { \
      { 0 } \
    } \
  }
#define FP6_ONE_INIT \
  { \
    FP2_ONE_INIT, {{{0}}, {{0}}}, { \
      {{0}}, { \
        { 0 } \
      } \
    } \
  }

const cz_fp6 CZ_FP6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
const cz_fp6 CZ_FP6_ONE = FP6_ONE_INIT;
const cz_fp12 CZ_FP12_ONE = {FP6_ONE_INIT, {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

/* ---------------------------------------------------------------- Fp6 */

void cz_fp6_add(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b) {
  fp2i_add(&r->c0, &a->c0, &b->c0);
  fp2i_add(&r->c1, &a->c1, &b->c1);
  fp2i_add(&r->c2, &a->c2, &b->c2);
}
void cz_fp6_sub(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b) {
  fp2i_sub(&r->c0, &a->c0, &b->c0);
  fp2i_sub(&r->c1, &a->c1, &b->c1);
  fp2i_sub(&r->c2, &a->c2, &b->c2);
}
void cz_fp6_neg(cz_fp6 *r, const cz_fp6 *a) {
  fp2i_neg(&r->c0, &a->c0);
  fp2i_neg(&r->c1, &a->c1);
  fp2i_neg(&r->c2, &a->c2);
}

/* Karatsuba over the three coefficients: 6 Fp2 multiplications. */
void cz_fp6_mul(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b) {
  cz_fp2 t0, t1, t2, s, u, c0, c1, c2;
  fp2i_mul(&t0, &a->c0, &b->c0);
  fp2i_mul(&t1, &a->c1, &b->c1);
  fp2i_mul(&t2, &a->c2, &b->c2);
  /* c0 = t0 + xi ((a1 + a2)(b1 + b2) - t1 - t2) */
  fp2i_add(&s, &a->c1, &a->c2);
  fp2i_add(&u, &b->c1, &b->c2);
  fp2i_mul(&s, &s, &u);
  fp2i_sub(&s, &s, &t1);
  fp2i_sub(&s, &s, &t2);
  fp2i_mul_by_nonresidue(&s, &s);
  fp2i_add(&c0, &s, &t0);
  /* c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2 */
  fp2i_add(&s, &a->c0, &a->c1);
  fp2i_add(&u, &b->c0, &b->c1);
  fp2i_mul(&s, &s, &u);
  fp2i_sub(&s, &s, &t0);
  fp2i_sub(&s, &s, &t1);
  fp2i_mul_by_nonresidue(&u, &t2);
  fp2i_add(&c1, &s, &u);
  /* c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1 */
  fp2i_add(&s, &a->c0, &a->c2);
  fp2i_add(&u, &b->c0, &b->c2);
  fp2i_mul(&s, &s, &u);
  fp2i_sub(&s, &s, &t0);
  fp2i_sub(&s, &s, &t2);
  fp2i_add(&c2, &s, &t1);
  r->c0 = c0;
  r->c1 = c1;
  r->c2 = c2;
}

/* Chung-Hasan SQR2: 2 multiplications and 3 squarings in Fp2. */
void cz_fp6_sqr(cz_fp6 *r, const cz_fp6 *a) {
  cz_fp2 s0, s1, s2, s3, s4, t;
  fp2i_sqr(&s0, &a->c0);
  fp2i_mul(&s1, &a->c0, &a->c1);
  fp2i_dbl(&s1, &s1);
  fp2i_sub(&s2, &a->c0, &a->c1);
  fp2i_add(&s2, &s2, &a->c2);
  fp2i_sqr(&s2, &s2);
  fp2i_mul(&s3, &a->c1, &a->c2);
  fp2i_dbl(&s3, &s3);
  fp2i_sqr(&s4, &a->c2);
  /* c2 = s1 + s2 + s3 - s0 - s4 (computed before c0, c1 overwrite r) */
  fp2i_add(&t, &s1, &s2);
  fp2i_add(&t, &t, &s3);
  fp2i_sub(&t, &t, &s0);
  fp2i_sub(&r->c2, &t, &s4);
  fp2i_mul_by_nonresidue(&s3, &s3);
  fp2i_add(&r->c0, &s3, &s0);
  fp2i_mul_by_nonresidue(&s4, &s4);
  fp2i_add(&r->c1, &s4, &s1);
}

/* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2. */
void cz_fp6_mul_by_nonresidue(cz_fp6 *r, const cz_fp6 *a) {
  cz_fp2 t;
  fp2i_mul_by_nonresidue(&t, &a->c2);
  r->c2 = a->c1;
  r->c1 = a->c0;
  r->c0 = t;
}

/* r = a * (b0 + b1 v): 5 Fp2 multiplications. */
static void fp6_mul_by_01(cz_fp6 *r, const cz_fp6 *a, const cz_fp2 *b0, const cz_fp2 *b1) {
  cz_fp2 t0, t1, s, u, c0, c1, c2;
  fp2i_mul(&t0, &a->c0, b0);
  fp2i_mul(&t1, &a->c1, b1);
  /* c0 = t0 + xi a2 b1 */
  fp2i_mul(&s, &a->c2, b1);
  fp2i_mul_by_nonresidue(&s, &s);
  fp2i_add(&c0, &s, &t0);
  /* c1 = (a0 + a1)(b0 + b1) - t0 - t1 */
  fp2i_add(&s, &a->c0, &a->c1);
  fp2i_add(&u, b0, b1);
  fp2i_mul(&s, &s, &u);
  fp2i_sub(&s, &s, &t0);
  fp2i_sub(&c1, &s, &t1);
  /* c2 = a2 b0 + t1 */
  fp2i_mul(&s, &a->c2, b0);
  fp2i_add(&c2, &s, &t1);
  r->c0 = c0;
  r->c1 = c1;
  r->c2 = c2;
}

/* r = a * (b1 v): 3 Fp2 multiplications. */
static void fp6_mul_by_1(cz_fp6 *r, const cz_fp6 *a, const cz_fp2 *b1) {
  cz_fp2 c0, c1, c2;
  fp2i_mul(&c0, &a->c2, b1);
  fp2i_mul_by_nonresidue(&c0, &c0);
  fp2i_mul(&c1, &a->c0, b1);
  fp2i_mul(&c2, &a->c1, b1);
  r->c0 = c0;
  r->c1 = c1;
  r->c2 = c2;
}

static void fp6_mul_fp2(cz_fp6 *r, const cz_fp6 *a, const cz_fp2 *b) {
  fp2i_mul(&r->c0, &a->c0, b);
  fp2i_mul(&r->c1, &a->c1, b);
  fp2i_mul(&r->c2, &a->c2, b);
}

/* Via the norm to Fp2: 1/a = adj(a) / N(a). */
bool cz_fp6_inv(cz_fp6 *r, const cz_fp6 *a) {
  cz_fp2 t0, t1, t2, s, n;
  /* t0 = a0^2 - xi a1 a2 */
  fp2i_sqr(&t0, &a->c0);
  fp2i_mul(&s, &a->c1, &a->c2);
  fp2i_mul_by_nonresidue(&s, &s);
  fp2i_sub(&t0, &t0, &s);
  /* t1 = xi a2^2 - a0 a1 */
  fp2i_sqr(&t1, &a->c2);
  fp2i_mul_by_nonresidue(&t1, &t1);
  fp2i_mul(&s, &a->c0, &a->c1);
  fp2i_sub(&t1, &t1, &s);
  /* t2 = a1^2 - a0 a2 */
  fp2i_sqr(&t2, &a->c1);
  fp2i_mul(&s, &a->c0, &a->c2);
  fp2i_sub(&t2, &t2, &s);
  /* n = a0 t0 + xi (a2 t1 + a1 t2) */
  fp2i_mul(&n, &a->c2, &t1);
  fp2i_mul(&s, &a->c1, &t2);
  fp2i_add(&n, &n, &s);
  fp2i_mul_by_nonresidue(&n, &n);
  fp2i_mul(&s, &a->c0, &t0);
  fp2i_add(&n, &n, &s);
  if (!cz_fp2_inv(&n, &n)) {
    *r = CZ_FP6_ZERO;
    return false;
  }
  fp2i_mul(&r->c0, &t0, &n);
  fp2i_mul(&r->c1, &t1, &n);
  fp2i_mul(&r->c2, &t2, &n);
  return true;
}

bool cz_fp6_eq(const cz_fp6 *a, const cz_fp6 *b) {
  return cz_fp2_eq(&a->c0, &b->c0) && cz_fp2_eq(&a->c1, &b->c1) && cz_fp2_eq(&a->c2, &b->c2);
}
bool cz_fp6_is_zero(const cz_fp6 *a) {
  return cz_fp2_is_zero(&a->c0) && cz_fp2_is_zero(&a->c1) && cz_fp2_is_zero(&a->c2);
}

/* ---------------------------------------------------------- Frobenius */

/* For k = 0..11:
 *   v_coef[k]  = xi^((p^k - 1)/3)   (v^(p^k) = v_coef[k] v)
 *   v2_coef[k] = v_coef[k]^2         (v^(2 p^k))
 *   w_coef[k]  = xi^((p^k - 1)/6)   (w^(p^k) = w_coef[k] w)
 * Computed once from their definition, using (p^k - 1)/n =
 * (p - 1)/n * (1 + p + ... + p^(k-1)), so xi^((p^k-1)/n) is the product of
 * the Fp2 Frobenius images of xi^((p-1)/n) and no big exponent is needed. */
static cz_fp2 v_coef[12], v2_coef[12], w_coef[12];
static pthread_once_t frob_once = PTHREAD_ONCE_INIT;

/* a^(p^k) in Fp2: conjugation for odd k. */
static void fp2_frobenius(cz_fp2 *r, const cz_fp2 *a, unsigned k) {
  if (k & 1) fp2i_conj(r, a);
  else *r = *a;
}

/* (p - 1) / d as little-endian limbs, d small and dividing p - 1. */
static void p_minus_one_over(uint64_t q[CZ_FP_LIMBS], uint64_t d) {
  unsigned __int128 rem = 0;
  for (int i = CZ_FP_LIMBS; i-- > 0;) {
    uint64_t limb = CZ_FP_MODULUS[i] - (i == 0); /* p is odd: no borrow */
    unsigned __int128 cur = (rem << 64) | limb;
    q[i] = (uint64_t)(cur / d);
    rem = cur % d;
  }
}

static void frob_init(void) {
  const cz_fp2 xi = {CZ_FP_ONE, CZ_FP_ONE};
  uint64_t e3[CZ_FP_LIMBS], e6[CZ_FP_LIMBS];
  p_minus_one_over(e3, 3);
  p_minus_one_over(e6, 6);
  cz_fp2 g3, g6, t;
  cz_fp2_pow(&g3, &xi, e3, CZ_FP_LIMBS);
  cz_fp2_pow(&g6, &xi, e6, CZ_FP_LIMBS);
  v_coef[0] = CZ_FP2_ONE;
  w_coef[0] = CZ_FP2_ONE;
  for (unsigned k = 1; k < 12; k++) {
    fp2_frobenius(&t, &g3, k - 1);
    fp2i_mul(&v_coef[k], &v_coef[k - 1], &t);
    fp2_frobenius(&t, &g6, k - 1);
    fp2i_mul(&w_coef[k], &w_coef[k - 1], &t);
  }
  for (unsigned k = 0; k < 12; k++) fp2i_sqr(&v2_coef[k], &v_coef[k]);
}

void cz_fp6_frobenius(cz_fp6 *r, const cz_fp6 *a, unsigned power) {
  pthread_once(&frob_once, frob_init);
  unsigned k = power % 12;
  fp2_frobenius(&r->c0, &a->c0, k);
  fp2_frobenius(&r->c1, &a->c1, k);
  fp2_frobenius(&r->c2, &a->c2, k);
  fp2i_mul(&r->c1, &r->c1, &v_coef[k]);
  fp2i_mul(&r->c2, &r->c2, &v2_coef[k]);
}

void cz_fp12_frobenius(cz_fp12 *r, const cz_fp12 *a, unsigned power) {
  pthread_once(&frob_once, frob_init);
  unsigned k = power % 12;
  cz_fp6_frobenius(&r->c0, &a->c0, k);
  cz_fp6_frobenius(&r->c1, &a->c1, k);
  fp6_mul_fp2(&r->c1, &r->c1, &w_coef[k]);
}

/* --------------------------------------------------------------- Fp12 */

/* Karatsuba: 3 Fp6 multiplications. */
void cz_fp12_mul(cz_fp12 *r, const cz_fp12 *a, const cz_fp12 *b) {
  cz_fp6 t0, t1, s, u;
  cz_fp6_mul(&t0, &a->c0, &b->c0);
  cz_fp6_mul(&t1, &a->c1, &b->c1);
  cz_fp6_add(&s, &a->c0, &a->c1);
  cz_fp6_add(&u, &b->c0, &b->c1);
  cz_fp6_mul(&s, &s, &u);
  cz_fp6_sub(&s, &s, &t0);
  cz_fp6_sub(&r->c1, &s, &t1);
  cz_fp6_mul_by_nonresidue(&t1, &t1);
  cz_fp6_add(&r->c0, &t0, &t1);
}

/* Complex squaring: (a0 + a1 w)^2 = (a0 + a1)(a0 + v a1) - ab - v ab + 2 ab w,
 * ab = a0 a1: 2 Fp6 multiplications. */
void cz_fp12_sqr(cz_fp12 *r, const cz_fp12 *a) {
  cz_fp6 ab, s, t;
  cz_fp6_mul(&ab, &a->c0, &a->c1);
  cz_fp6_add(&s, &a->c0, &a->c1);
  cz_fp6_mul_by_nonresidue(&t, &a->c1);
  cz_fp6_add(&t, &t, &a->c0);
  cz_fp6_mul(&s, &s, &t);
  cz_fp6_sub(&s, &s, &ab);
  cz_fp6_mul_by_nonresidue(&t, &ab);
  cz_fp6_sub(&r->c0, &s, &t);
  cz_fp6_add(&r->c1, &ab, &ab);
}

/* Squaring in Fp4 = Fp2[s]/(s^2 - xi): (a + b s)^2 = (a^2 + xi b^2) + 2ab s,
 * with 2ab = (a + b)^2 - a^2 - b^2: 3 Fp2 squarings. */
static void fp4_sqr(cz_fp2 *r0, cz_fp2 *r1, const cz_fp2 *a, const cz_fp2 *b) {
  cz_fp2 t0, t1, t2;
  fp2i_sqr(&t0, a);
  fp2i_sqr(&t1, b);
  fp2i_add(&t2, a, b);
  fp2i_sqr(&t2, &t2);
  fp2i_sub(&t2, &t2, &t0);
  fp2i_sub(r1, &t2, &t1);
  fp2i_mul_by_nonresidue(&t1, &t1);
  fp2i_add(r0, &t1, &t0);
}

/* Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth
 * degree extensions" (PKC 2010). Fp12 = Fp4[t]/(t^3 - s) with Fp4 =
 * Fp2[s]/(s^2 - xi), s = w^3, t = w; the Fp4 coefficients are the pairs
 * (c0.c0, c1.c1), (c1.c0, c0.c2), (c0.c1, c1.c2). For an element of the
 * cyclotomic subgroup each output coefficient is 3 A^2 -/+ 2 conj-part, so a
 * squaring costs 3 Fp4 squarings (9 Fp2 squarings) instead of 2 Fp6 muls. */
void cz_fp12_cyclotomic_sqr(cz_fp12 *r, const cz_fp12 *a) {
  cz_fp2 z0 = a->c0.c0, z4 = a->c0.c1, z3 = a->c0.c2;
  cz_fp2 z2 = a->c1.c0, z1 = a->c1.c1, z5 = a->c1.c2;
  cz_fp2 t0, t1, t2, t3;

  fp4_sqr(&t0, &t1, &z0, &z1);
  /* z0 = 3 t0 - 2 z0, z1 = 3 t1 + 2 z1 */
  fp2i_sub(&z0, &t0, &z0);
  fp2i_dbl(&z0, &z0);
  fp2i_add(&z0, &z0, &t0);
  fp2i_add(&z1, &t1, &z1);
  fp2i_dbl(&z1, &z1);
  fp2i_add(&z1, &z1, &t1);

  fp4_sqr(&t0, &t1, &z2, &z3);
  fp4_sqr(&t2, &t3, &z4, &z5);
  /* z4 = 3 t0 - 2 z4, z5 = 3 t1 + 2 z5 */
  fp2i_sub(&z4, &t0, &z4);
  fp2i_dbl(&z4, &z4);
  fp2i_add(&z4, &z4, &t0);
  fp2i_add(&z5, &t1, &z5);
  fp2i_dbl(&z5, &z5);
  fp2i_add(&z5, &z5, &t1);
  /* z2 = 3 xi t3 + 2 z2, z3 = 3 t2 - 2 z3 */
  fp2i_mul_by_nonresidue(&t0, &t3);
  fp2i_add(&z2, &t0, &z2);
  fp2i_dbl(&z2, &z2);
  fp2i_add(&z2, &z2, &t0);
  fp2i_sub(&z3, &t2, &z3);
  fp2i_dbl(&z3, &z3);
  fp2i_add(&z3, &z3, &t2);

  r->c0.c0 = z0;
  r->c0.c1 = z4;
  r->c0.c2 = z3;
  r->c1.c0 = z2;
  r->c1.c1 = z1;
  r->c1.c2 = z5;
}

/* a * (b0 + b1 w) with b0 = c0 + c1 v, b1 = c4 v (a Miller-loop line):
 * Karatsuba over w, aa = a0 b0, bb = a1 b1, r = aa + bb v + ((a0 + a1)(b0 + b1)
 * - aa - bb) w, with sparse Fp6 products: 13 Fp2 multiplications, not 18. */
void cz_fp12_mul_by_014(cz_fp12 *r, const cz_fp12 *a, const cz_fp2 *c0, const cz_fp2 *c1,
                        const cz_fp2 *c4) {
  cz_fp6 aa, bb, s;
  cz_fp2 o;
  fp6_mul_by_01(&aa, &a->c0, c0, c1);
  fp6_mul_by_1(&bb, &a->c1, c4);
  fp2i_add(&o, c1, c4);
  cz_fp6_add(&s, &a->c1, &a->c0);
  fp6_mul_by_01(&s, &s, c0, &o);
  cz_fp6_sub(&s, &s, &aa);
  cz_fp6_sub(&r->c1, &s, &bb);
  cz_fp6_mul_by_nonresidue(&bb, &bb);
  cz_fp6_add(&r->c0, &bb, &aa);
}

/* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2). */
bool cz_fp12_inv(cz_fp12 *r, const cz_fp12 *a) {
  cz_fp6 n, t;
  cz_fp6_sqr(&n, &a->c0);
  cz_fp6_sqr(&t, &a->c1);
  cz_fp6_mul_by_nonresidue(&t, &t);
  cz_fp6_sub(&n, &n, &t);
  if (!cz_fp6_inv(&n, &n)) {
    r->c0 = CZ_FP6_ZERO;
    r->c1 = CZ_FP6_ZERO;
    return false;
  }
  cz_fp6_mul(&r->c0, &a->c0, &n);
  cz_fp6_mul(&r->c1, &a->c1, &n);
  cz_fp6_neg(&r->c1, &r->c1);
  return true;
}

void cz_fp12_conj(cz_fp12 *r, const cz_fp12 *a) {
  r->c0 = a->c0;
  cz_fp6_neg(&r->c1, &a->c1);
}

void cz_fp12_pow(cz_fp12 *r, const cz_fp12 *a, const uint64_t *e, size_t n) {
  cz_fp12 acc = CZ_FP12_ONE, base = *a;
  for (size_t i = n; i-- > 0;)
    for (int bit = 63; bit >= 0; bit--) {
      cz_fp12_sqr(&acc, &acc);
      if ((e[i] >> bit) & 1) cz_fp12_mul(&acc, &acc, &base);
    }
  *r = acc;
}

bool cz_fp12_eq(const cz_fp12 *a, const cz_fp12 *b) {
  return cz_fp6_eq(&a->c0, &b->c0) && cz_fp6_eq(&a->c1, &b->c1);
}
bool cz_fp12_is_one(const cz_fp12 *a) { return cz_fp12_eq(a, &CZ_FP12_ONE); }

/* The 12 Fp coefficients in serialization order: lowest tower position up,
 * c0 before c1 at every level. */
static void fp12_coeffs(cz_fp *out[12], cz_fp12 *a) {
  cz_fp6 *h[2] = {&a->c0, &a->c1};
  for (int i = 0; i < 2; i++) {
    cz_fp2 *q[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
    for (int j = 0; j < 3; j++) {
      out[6 * i + 2 * j] = &q[j]->c0;
      out[6 * i + 2 * j + 1] = &q[j]->c1;
    }
  }
}

void cz_fp12_to_bytes(uint8_t out[576], const cz_fp12 *a) {
  cz_fp12 t = *a;
  cz_fp *c[12];
  fp12_coeffs(c, &t);
  for (int i = 0; i < 12; i++) cz_fp_to_bytes_be(out + CZ_FP_BYTES * i, c[i]);
}

cz_err cz_fp12_from_bytes(cz_fp12 *r, const uint8_t in[576]) {
  cz_fp12 t;
  cz_fp *c[12];
  fp12_coeffs(c, &t);
  for (int i = 0; i < 12; i++) {
    cz_err e = cz_fp_from_bytes_be(c[i], in + CZ_FP_BYTES * i);
    if (e != CZ_OK) return e;
  }
  *r = t;
  return CZ_OK;
}
