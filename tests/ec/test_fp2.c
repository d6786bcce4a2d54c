/* Fp2: field axioms, inversion, square roots and the sign rule. */
#include "rand_field.h"
#include "cuzk/cpu.h"
#include "cuzk/fp2.h"
#include "ec/fp_inline.h"

/* Raw Fp limbs (any value below p is a valid Montgomery-form element) at
 * the edges of the lazy-reduction bounds: 0, 1, 2, p-1, p-2, (p-1)/2,
 * (p+1)/2, 2^64-1, 2^380 and 2^380-1 (p ~ 2^380.7), all-ones low limbs. */
static int fp_edges(cz_fp out[16]) {
  static const uint64_t half[6] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                   0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                   0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL}; /* (p-1)/2 */
  int k = 0;
  memset(out, 0, 16 * sizeof *out);
  k++; /* 0 */
  out[k++].l[0] = 1;
  out[k++].l[0] = 2;
  for (uint64_t d = 1; d <= 2; d++, k++) { /* p-1, p-2 */
    memcpy(out[k].l, CZ_FP_MODULUS, 48);
    out[k].l[0] -= d;
  }
  memcpy(out[k++].l, half, 48);
  memcpy(out[k].l, half, 48);
  out[k++].l[0] += 1; /* (p+1)/2 */
  out[k++].l[0] = ~0ULL;
  out[k++].l[5] = 1ULL << 60; /* 2^380 */
  for (int i = 0; i < 5; i++) out[k].l[i] = ~0ULL;
  out[k++].l[5] = (1ULL << 60) - 1;                /* 2^380 - 1 */
  for (int i = 0; i < 5; i++) out[k].l[i] = ~0ULL; /* 2^320 - 1 */
  k++;
  return k;
}

/* The ADX path's lazily reduced Fp2 mul/sqr give the portable path's bits
 * (fully reduced) on every pair of edge elements and on random ones. */
static void fp2_paths_agree(void) {
  if (!cz_cpu_has_adx()) return;
  cz_fp e[16];
  int n = fp_edges(e);
  for (int i = 0; i < n; i++) CHECK(limbs_lt(e[i].l, CZ_FP_MODULUS, 6));
  for (int i = 0; i < n * n; i++)
    for (int j = 0; j < n * n; j++) {
      cz_fp2 a = {e[i / n], e[i % n]}, b = {e[j / n], e[j % n]}, x, y;
      cz_cpu_force_portable(true);
      cz_fp2_mul(&x, &a, &b);
      cz_cpu_force_portable(false);
      CHECK(limbs_lt(x.c0.l, CZ_FP_MODULUS, 6) && limbs_lt(x.c1.l, CZ_FP_MODULUS, 6));
#ifdef CZ_MONT_ADX
      cz_fp2_mul_adx(&y, &a, &b);
      CHECK(cz_fp2_eq(&x, &y));
      if (j == 0) {
        cz_cpu_force_portable(true);
        cz_fp2_sqr(&x, &a);
        cz_cpu_force_portable(false);
        cz_fp2_sqr_adx(&y, &a);
        CHECK(cz_fp2_eq(&x, &y));
        y = a;
        cz_fp2_sqr_adx(&y, &y); /* aliased */
        CHECK(cz_fp2_eq(&x, &y));
      }
#else
      (void)y;
#endif
    }
  for (int i = 0; i < 20000; i++) {
    cz_fp2 a = check_rand_fp2(), b = check_rand_fp2(), x, y;
    if (i & 1) b.c0 = e[check_rand64() % n]; /* mixed edge and random */
    cz_cpu_force_portable(true);
    cz_fp2_mul(&x, &a, &b);
    cz_cpu_force_portable(false);
    y = a;
    fp2i_mul(&y, &y, &b); /* aliased, through the inline dispatch */
    CHECK(cz_fp2_eq(&x, &y));
    cz_cpu_force_portable(true);
    cz_fp2_sqr(&x, &a);
    cz_cpu_force_portable(false);
    fp2i_sqr(&y, &a);
    CHECK(cz_fp2_eq(&x, &y));
  }
}

/* cz_fp2_sqrt_any (decompression's root): a root of either sign for every
 * square, agreeing with cz_fp2_sqrt up to sign, false for non-squares;
 * including real and pure-imaginary inputs (its a1 = 0 branch, and the
 * d+ / d- branches are both taken over random squares). */
static void sqrt_any(void) {
  cz_fp2 nr = {CZ_FP_ONE, CZ_FP_ONE}; /* 1 + u, a non-residue */
  for (int i = 0; i < 200; i++) {
    cz_fp2 b = check_rand_fp2(), a, r, s, t, neg;
    if (i % 4 == 1) b.c1 = CZ_FP_ZERO; /* a real */
    if (i % 4 == 2) b.c0 = CZ_FP_ZERO; /* a real (negative) */
    if (i % 8 == 3) {
      b.c0 = CZ_FP_ZERO;
      b.c1 = CZ_FP_ZERO;
    }
    cz_fp2_sqr(&a, &b);
    CHECK(cz_fp2_sqrt_any(&r, &a));
    cz_fp2_sqr(&t, &r);
    CHECK(cz_fp2_eq(&t, &a));
    CHECK(cz_fp2_sqrt(&s, &a));
    cz_fp2_neg(&neg, &s);
    CHECK(cz_fp2_eq(&r, &s) || cz_fp2_eq(&r, &neg));
    if (!cz_fp2_is_zero(&a)) {
      cz_fp2_mul(&a, &a, &nr);
      CHECK(!cz_fp2_sqrt_any(&r, &a));
    }
    cz_fp2 c = check_rand_fp2(); /* pure imaginary c u: a square for every c */
    c.c0 = CZ_FP_ZERO;
    CHECK(cz_fp2_sqrt_any(&r, &c) == cz_fp2_is_square(&c));
    cz_fp2_sqr(&t, &r);
    CHECK(cz_fp2_eq(&t, &c));
  }
}

/* cz_fp2_pow's sliding window against bit-by-bit square-and-multiply. */
static void pow_window(void) {
  for (int t = 0; t < 200; t++) {
    uint64_t e[6] = {0};
    if (t < 40) e[0] = (uint64_t)t;
    else if (t < 140) e[t % 6] = 1ULL << (t * 7 % 64);
    else if (t < 150) e[0] = 0x21ULL << (t - 140) * 5;
    else
      for (int i = 0; i < 6; i++) e[i] = check_rand64() >> (t % 5) * 13;
    cz_fp2 a = check_rand_fp2(), want = CZ_FP2_ONE, have;
    for (int bit = 383; bit >= 0; bit--) {
      cz_fp2_sqr(&want, &want);
      if ((e[bit / 64] >> (bit % 64)) & 1) cz_fp2_mul(&want, &want, &a);
    }
    cz_fp2_pow(&have, &a, e, 6);
    CHECK(cz_fp2_eq(&have, &want));
  }
}

static void axioms(void) {
  for (int i = 0; i < 100; i++) {
    cz_fp2 a = check_rand_fp2(), b = check_rand_fp2(), c = check_rand_fp2(), t1, t2, t3;
    cz_fp2_add(&t1, &a, &b);
    cz_fp2_mul(&t1, &t1, &c);
    cz_fp2_mul(&t2, &a, &c);
    cz_fp2_mul(&t3, &b, &c);
    cz_fp2_add(&t2, &t2, &t3);
    CHECK(cz_fp2_eq(&t1, &t2));
    cz_fp2_sqr(&t1, &a);
    cz_fp2_mul(&t2, &a, &a);
    CHECK(cz_fp2_eq(&t1, &t2));
    CHECK(cz_fp2_inv(&t1, &a));
    cz_fp2_mul(&t1, &t1, &a);
    CHECK(cz_fp2_is_one(&t1));
    /* u^2 = -1 */
    cz_fp2 u = {CZ_FP_ZERO, CZ_FP_ONE}, m1;
    cz_fp2_sqr(&t1, &u);
    cz_fp2_neg(&m1, &CZ_FP2_ONE);
    CHECK(cz_fp2_eq(&t1, &m1));
    /* mul_by_nonresidue = mul by (1 + u) */
    cz_fp2 nr = {CZ_FP_ONE, CZ_FP_ONE};
    cz_fp2_mul(&t1, &a, &nr);
    cz_fp2_mul_by_nonresidue(&t2, &a);
    CHECK(cz_fp2_eq(&t1, &t2));
    /* conj = Frobenius: a^p */
    cz_fp2_pow(&t1, &a, CZ_FP_MODULUS, CZ_FP_LIMBS);
    cz_fp2_conj(&t2, &a);
    CHECK(cz_fp2_eq(&t1, &t2));
    cz_fp2_sqr(&t1, &a);
    CHECK(cz_fp2_is_square(&t1));
    CHECK(cz_fp2_sqrt(&t2, &t1));
    cz_fp2_sqr(&t3, &t2);
    CHECK(cz_fp2_eq(&t3, &t1));
    /* a square times a non-residue is not a square; (1+u) is a non-residue. */
    cz_fp2_mul(&t1, &t1, &nr);
    CHECK(!cz_fp2_is_square(&t1) && !cz_fp2_sqrt(&t2, &t1));
    /* exactly one of a, -a is lexicographically largest (a != 0) */
    cz_fp2_neg(&t1, &a);
    CHECK(cz_fp2_is_lexicographically_largest(&a) != cz_fp2_is_lexicographically_largest(&t1));
  }
  /* sqrt of pure-imaginary and real non-square-in-Fp elements */
  cz_fp2 a = {CZ_FP_ZERO, CZ_FP_ONE}, s, t;
  CHECK(cz_fp2_sqrt(&s, &a));
  cz_fp2_sqr(&t, &s);
  CHECK(cz_fp2_eq(&t, &a));
  cz_fp2 m1;
  cz_fp2_neg(&m1, &CZ_FP2_ONE);
  CHECK(cz_fp2_sqrt(&s, &m1));
  cz_fp2_sqr(&t, &s);
  CHECK(cz_fp2_eq(&t, &m1));
}

int main(void) {
  fp2_paths_agree();
  pow_window();
  /* The axioms on the portable path, then on the automatic choice. */
  for (int pass = 0; pass < 2; pass++) {
    cz_cpu_force_portable(pass == 0);
    axioms();
    sqrt_any();
  }
  cz_cpu_force_portable(false);
  return check_report("test_fp2");
}
