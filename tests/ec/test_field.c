/* Fp and Fr: field axioms, inversion, square roots, byte encodings and
 * roots of unity on random elements, on the portable and ADX paths alike. */
#include "rand_field.h"
#include "cuzk/cpu.h"
#include "cuzk/fp.h"
#include "cuzk/fr.h"
#include "ec/mont.h" /* the portable add/sub as the reference */

static void fp_axioms(void) {
  for (int i = 0; i < 200; i++) {
    cz_fp a = check_rand_fp(), b = check_rand_fp(), c = check_rand_fp(), t1, t2, t3;
    cz_fp_add(&t1, &a, &b);
    cz_fp_mul(&t1, &t1, &c);
    cz_fp_mul(&t2, &a, &c);
    cz_fp_mul(&t3, &b, &c);
    cz_fp_add(&t2, &t2, &t3);
    CHECK(cz_fp_eq(&t1, &t2));
    cz_fp_sub(&t1, &a, &b);
    cz_fp_add(&t1, &t1, &b);
    CHECK(cz_fp_eq(&t1, &a));
    cz_fp_neg(&t1, &a);
    cz_fp_add(&t1, &t1, &a);
    CHECK(cz_fp_is_zero(&t1));
    cz_fp_sqr(&t1, &a);
    cz_fp_mul(&t2, &a, &a);
    CHECK(cz_fp_eq(&t1, &t2));
    cz_fp_dbl(&t1, &a);
    cz_fp_add(&t2, &a, &a);
    CHECK(cz_fp_eq(&t1, &t2));
    CHECK(cz_fp_inv(&t1, &a));
    cz_fp_mul(&t1, &t1, &a);
    CHECK(cz_fp_is_one(&t1));
    cz_fp_sqr(&t1, &a);
    CHECK(cz_fp_is_square(&t1));
    CHECK(cz_fp_sqrt(&t2, &t1));
    cz_fp_sqr(&t2, &t2);
    CHECK(cz_fp_eq(&t1, &t2));
    /* -1 is a non-residue mod p (p = 3 mod 4), so -a^2 has no root. */
    cz_fp_neg(&t1, &t1);
    CHECK(!cz_fp_is_square(&t1) || cz_fp_is_zero(&a));
    CHECK(!cz_fp_sqrt(&t2, &t1) || cz_fp_is_zero(&a));
  }
  cz_fp z = CZ_FP_ZERO, t;
  CHECK(!cz_fp_inv(&t, &z));
}

static void fr_axioms(void) {
  for (int i = 0; i < 200; i++) {
    cz_fr a = check_rand_fr(), b = check_rand_fr(), c = check_rand_fr(), t1, t2, t3;
    cz_fr_add(&t1, &a, &b);
    cz_fr_mul(&t1, &t1, &c);
    cz_fr_mul(&t2, &a, &c);
    cz_fr_mul(&t3, &b, &c);
    cz_fr_add(&t2, &t2, &t3);
    CHECK(cz_fr_eq(&t1, &t2));
    CHECK(cz_fr_inv(&t1, &a));
    cz_fr_mul(&t1, &t1, &a);
    CHECK(cz_fr_is_one(&t1));
    cz_fr_sqr(&t1, &a);
    CHECK(cz_fr_sqrt(&t2, &t1));
    cz_fr_sqr(&t2, &t2);
    CHECK(cz_fr_eq(&t1, &t2));
    cz_fr seven;
    cz_fr_from_u64(&seven, 7); /* 7 generates Fr*, so 7 a^2 is a non-residue */
    cz_fr_mul(&t1, &t1, &seven);
    CHECK(!cz_fr_is_square(&t1) && !cz_fr_sqrt(&t2, &t1));
  }
}

static void batch_inverse(void) {
  cz_fp in[9], out[9];
  for (int i = 0; i < 9; i++) in[i] = check_rand_fp();
  in[4] = CZ_FP_ZERO;
  cz_fp_batch_inv(out, in, 9);
  for (int i = 0; i < 9; i++) {
    cz_fp t;
    cz_fp_inv(&t, &in[i]);
    CHECK(cz_fp_eq(&t, &out[i]));
  }
  cz_fr fin[5], fout[5];
  for (int i = 0; i < 5; i++) fin[i] = check_rand_fr();
  cz_fr_batch_inv(fout, fin, 5);
  for (int i = 0; i < 5; i++) {
    cz_fr t;
    cz_fr_mul(&t, &fout[i], &fin[i]);
    CHECK(cz_fr_is_one(&t));
  }
}

static void encodings(void) {
  uint8_t p_be[48], buf[48], le[48];
  for (int i = 0; i < 6; i++)
    for (int k = 0; k < 8; k++) p_be[47 - 8 * i - k] = (uint8_t)(CZ_FP_MODULUS[i] >> (8 * k));
  cz_fp a;
  CHECK(cz_fp_from_bytes_be(&a, p_be) == CZ_ERR_NONCANONICAL);
  p_be[47] -= 1; /* p - 1 is fine and equals -1 */
  CHECK(cz_fp_from_bytes_be(&a, p_be) == CZ_OK);
  cz_fp m1;
  cz_fp_neg(&m1, &CZ_FP_ONE);
  CHECK(cz_fp_eq(&a, &m1));
  cz_fp_to_bytes_be(buf, &a);
  CHECK_MEM(buf, p_be, 48);
  cz_fp_to_bytes_le(le, &a);
  for (int i = 0; i < 48; i++) CHECK(le[i] == p_be[47 - i]);
  cz_fp b;
  CHECK(cz_fp_from_bytes_le(&b, le) == CZ_OK && cz_fp_eq(&a, &b));
  CHECK(cz_fp_is_lexicographically_largest(&a));
  CHECK(!cz_fp_is_lexicographically_largest(&CZ_FP_ONE));

  uint8_t r_le[32];
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 8; k++) r_le[8 * i + k] = (uint8_t)(CZ_FR_MODULUS[i] >> (8 * k));
  cz_fr f;
  CHECK(cz_fr_from_bytes_le(&f, r_le) == CZ_ERR_NONCANONICAL);
  cz_fr_from_u64(&f, 0x1234);
  uint8_t fb[32] = {0};
  cz_fr_to_bytes_le(fb, &f);
  CHECK(fb[0] == 0x34 && fb[1] == 0x12 && fb[2] == 0);
  /* 2^512 - 1 reduced: (2^256-1)(2^256+1) = wide value; check via arithmetic. */
  uint8_t wide[64];
  memset(wide, 0xff, sizeof wide);
  cz_fr w, expect, two256m1;
  cz_fr_from_wide_le(&w, wide);
  uint8_t ones[32];
  memset(ones, 0xff, 32);
  memset(wide, 0, 64);
  memcpy(wide, ones, 32);
  cz_fr_from_wide_le(&two256m1, wide); /* 2^256 - 1 mod r */
  cz_fr one = CZ_FR_ONE, t;
  cz_fr_add(&t, &two256m1, &one);         /* 2^256 */
  cz_fr_mul(&expect, &two256m1, &t);      /* (2^256-1) 2^256 */
  cz_fr_add(&expect, &expect, &two256m1); /* + 2^256 - 1 = 2^512 - 1 */
  CHECK(cz_fr_eq(&w, &expect));
}

static void roots_of_unity(void) {
  for (unsigned k = 0; k <= 32; k += 4) {
    cz_fr w, t;
    cz_fr_root_of_unity(&w, k);
    t = w;
    for (unsigned i = 0; i < k; i++) cz_fr_sqr(&t, &t);
    CHECK(cz_fr_is_one(&t));
    if (k > 0) {
      t = w;
      for (unsigned i = 0; i + 1 < k; i++) cz_fr_sqr(&t, &t);
      CHECK(!cz_fr_is_one(&t)); /* primitive */
    }
  }
  /* The 2^32 root is 7^((r-1)/2^32). */
  uint64_t e[4];
  for (int i = 0; i < 4; i++)
    e[i] = (CZ_FR_MODULUS[i] >> 32) | (i < 3 ? CZ_FR_MODULUS[i + 1] << 32 : 0);
  cz_fr seven, w, x;
  cz_fr_from_u64(&seven, 7);
  cz_fr_pow(&x, &seven, e, 4);
  cz_fr_root_of_unity(&w, 32);
  CHECK(cz_fr_eq(&w, &x));
}

/* Edge elements as raw limbs (any value below the modulus is an element):
 * 0, 1, 2, small and single-limb values, limb boundaries 2^(64k) - 1 and
 * 2^(64k), the top of the range (m - 1, m - 2, (m - 1)/2, (m + 1)/2) and, for
 * Fp, 2^380 +- 1 and the largest value with a full top limb pattern. */
static int edge_limbs(uint64_t out[][6], const uint64_t *m, int n) {
  int k = 0;
  memset(out, 0, 40 * 6 * sizeof(uint64_t));
  k++; /* 0 */
  out[k++][0] = 1;
  out[k++][0] = 2;
  out[k++][0] = 0xffffffffULL;
  for (int j = 0; j < n; j++) { /* 2^(64(j+1)) - 1 and 2^(64j) */
    for (int i = 0; i <= j; i++) out[k][i] = ~0ULL;
    if (j + 1 < n) k++;
    else memset(out[k], 0, sizeof out[k]); /* 2^(64n) - 1 is >= m: skip */
    out[k++][j] = 1;
  }
  uint64_t borrow = 1; /* m - 1 */
  for (int i = 0; i < n; i++) {
    out[k][i] = m[i] - borrow;
    borrow = m[i] < borrow;
  }
  k++;
  memcpy(out[k], out[k - 1], sizeof out[k]);
  out[k][0] -= 1;
  k++;                        /* m - 2 (m odd) */
  for (int i = 0; i < n; i++) /* (m - 1)/2 */
    out[k][i] = (out[k - 2][i] >> 1) | (i + 1 < n ? out[k - 2][i + 1] << 63 : 0);
  k++;
  memcpy(out[k], out[k - 1], sizeof out[k]);
  out[k][0] += 1;
  k++; /* (m + 1)/2 */
  memcpy(out[k], m, sizeof out[k][0] * n);
  out[k][n - 1] -= 1;                                /* below m, */
  for (int i = 0; i < n - 1; i++) out[k][i] = ~0ULL; /* low limbs full */
  k++;
  if (n == 6) {
    out[k][5] = 1ULL << 60;
    k++; /* 2^380 */
    out[k][5] = 1ULL << 60;
    out[k][0] = 1;
    k++; /* 2^380 + 1 */
    for (int i = 0; i < 5; i++) out[k][i] = ~0ULL;
    out[k][5] = (1ULL << 60) - 1;
    k++; /* 2^380 - 1 */
  } else {
    out[k][3] = 1ULL << 62;
    k++; /* 2^254 */
    for (int i = 0; i < 3; i++) out[k][i] = ~0ULL;
    out[k][3] = (1ULL << 62) - 1;
    k++; /* 2^254 - 1 */
  }
  return k;
}

/* The _adx entry points exist only where mont_adx.c compiles them. */
#ifdef CZ_MONT_ADX
#define ADX_ONLY(call) call
#else
#define ADX_ONLY(call) (void)0
#endif

/* The Fp paths on every pair of edge elements (the _adx ones when the CPU has ADX). */
static void fp_paths_agree_on_edges(uint64_t efp[][6], int nfp, bool adx) {
  (void)adx;
  for (int i = 0; i < nfp; i++)
    for (int j = 0; j < nfp; j++) {
      cz_fp a, b, x, y;
      memcpy(a.l, efp[i], 48);
      memcpy(b.l, efp[j], 48);
      cz_fp_mul_portable(&x, &a, &b);
      CHECK(limbs_lt(x.l, CZ_FP_MODULUS, 6));
      cz_fp_mul(&y, &a, &b);
      CHECK(cz_fp_eq(&x, &y));
      if (adx) {
        ADX_ONLY(cz_fp_mul_adx(&y, &a, &b));
        CHECK(cz_fp_eq(&x, &y));
      }
      mont_add(x.l, a.l, b.l, CZ_FP_MODULUS, 6);
      cz_fp_add(&y, &a, &b);
      CHECK(cz_fp_eq(&x, &y));
      mont_sub(x.l, a.l, b.l, CZ_FP_MODULUS, 6);
      cz_fp_sub(&y, &a, &b);
      CHECK(cz_fp_eq(&x, &y));
    }
  for (int i = 0; i < nfp; i++) {
    cz_fp a, x, y;
    memcpy(a.l, efp[i], 48);
    cz_fp_sqr_portable(&x, &a);
    cz_fp_sqr(&y, &a);
    CHECK(cz_fp_eq(&x, &y));
    if (adx) {
      ADX_ONLY(cz_fp_sqr_adx(&y, &a));
      CHECK(cz_fp_eq(&x, &y));
    }
    mont_add(x.l, a.l, a.l, CZ_FP_MODULUS, 6);
    cz_fp_dbl(&y, &a);
    CHECK(cz_fp_eq(&x, &y));
    static const uint64_t zero[6];
    mont_sub(x.l, zero, a.l, CZ_FP_MODULUS, 6);
    cz_fp_neg(&y, &a);
    CHECK(cz_fp_eq(&x, &y));
  }
}

/* The Fr paths on every pair of edge elements. */
static void fr_paths_agree_on_edges(uint64_t efr[][6], int nfr, bool adx) {
  (void)adx;
  for (int i = 0; i < nfr; i++)
    for (int j = 0; j < nfr; j++) {
      cz_fr a, b, x, y;
      memcpy(a.l, efr[i], 32);
      memcpy(b.l, efr[j], 32);
      cz_fr_mul_portable(&x, &a, &b);
      CHECK(limbs_lt(x.l, CZ_FR_MODULUS, 4));
      cz_fr_mul(&y, &a, &b);
      CHECK(cz_fr_eq(&x, &y));
      if (adx) {
        ADX_ONLY(cz_fr_mul_adx(&y, &a, &b));
        CHECK(cz_fr_eq(&x, &y));
      }
      if (i == j) {
        cz_fr_sqr_portable(&x, &a);
        cz_fr_sqr(&y, &a);
        CHECK(cz_fr_eq(&x, &y));
        if (adx) {
          ADX_ONLY(cz_fr_sqr_adx(&y, &a));
          CHECK(cz_fr_eq(&x, &y));
        }
      }
      mont_add(x.l, a.l, b.l, CZ_FR_MODULUS, 4);
      cz_fr_add(&y, &a, &b);
      CHECK(cz_fr_eq(&x, &y));
      mont_sub(x.l, a.l, b.l, CZ_FR_MODULUS, 4);
      cz_fr_sub(&y, &a, &b);
      CHECK(cz_fr_eq(&x, &y));
    }
}

/* Both fields' paths on random elements, and in place (r aliasing a and b). */
static void paths_agree_random(void) {
  for (int i = 0; i < 20000; i++) {
    cz_fp a = check_rand_fp(), b = check_rand_fp(), x, y;
    if (i & 1) b = a; /* squares through mul as well */
    cz_fp_mul_portable(&x, &a, &b);
    cz_fp_mul(&y, &a, &b);
    CHECK(cz_fp_eq(&x, &y));
    cz_fp_sqr_portable(&x, &a);
    cz_fp_sqr(&y, &a);
    CHECK(cz_fp_eq(&x, &y));
    mont_add(x.l, a.l, b.l, CZ_FP_MODULUS, 6);
    cz_fp_add(&y, &a, &b);
    CHECK(cz_fp_eq(&x, &y));
    mont_sub(x.l, a.l, b.l, CZ_FP_MODULUS, 6);
    cz_fp_sub(&y, &a, &b);
    CHECK(cz_fp_eq(&x, &y));
    cz_fr c = check_rand_fr(), d = check_rand_fr(), u, v;
    cz_fr_mul_portable(&u, &c, &d);
    cz_fr_mul(&v, &c, &d);
    CHECK(cz_fr_eq(&u, &v));
    cz_fr_sqr_portable(&u, &c);
    cz_fr_sqr(&v, &c);
    CHECK(cz_fr_eq(&u, &v));
    mont_add(u.l, c.l, d.l, CZ_FR_MODULUS, 4);
    cz_fr_add(&v, &c, &d);
    CHECK(cz_fr_eq(&u, &v));
    mont_sub(u.l, c.l, d.l, CZ_FR_MODULUS, 4);
    cz_fr_sub(&v, &c, &d);
    CHECK(cz_fr_eq(&u, &v));
  }
  /* In-place use (r aliasing a and b) gives the same as separate outputs. */
  cz_fp a = check_rand_fp(), b = check_rand_fp(), x;
  cz_fp_mul(&x, &a, &b);
  cz_fp_mul(&a, &a, &b);
  CHECK(cz_fp_eq(&x, &a));
  cz_fp_mul(&x, &a, &b);
  cz_fp_mul(&b, &a, &b);
  CHECK(cz_fp_eq(&x, &b));
  cz_fp_sqr(&x, &a);
  cz_fp_sqr(&a, &a);
  CHECK(cz_fp_eq(&x, &a));
  cz_fp_sub(&x, &a, &b);
  cz_fp_sub(&b, &a, &b);
  CHECK(cz_fp_eq(&x, &b));
}

/* Both multiplication paths, and the x86-64 add/sub against the portable
 * C, give the same bits: on every pair of edge elements and on random ones. */
static void paths_agree(void) {
  static uint64_t efp[40][6], efr[40][6];
  int nfp = edge_limbs(efp, CZ_FP_MODULUS, 6), nfr = edge_limbs(efr, CZ_FR_MODULUS, 4);
  for (int i = 0; i < nfp; i++) CHECK(limbs_lt(efp[i], CZ_FP_MODULUS, 6));
  for (int i = 0; i < nfr; i++) CHECK(limbs_lt(efr[i], CZ_FR_MODULUS, 4));
  bool adx = cz_cpu_has_adx();
  fp_paths_agree_on_edges(efp, nfp, adx);
  fr_paths_agree_on_edges(efr, nfr, adx);
  paths_agree_random();
}

/* The binary-GCD inversion equals Fermat's a^(m-2) on random elements, on
 * every edge element, and on 0 (false, r = 0) and 1. */
static void inv_matches_fermat(void) {
  static uint64_t efp[40][6], efr[40][6];
  int nfp = edge_limbs(efp, CZ_FP_MODULUS, 6), nfr = edge_limbs(efr, CZ_FR_MODULUS, 4);
  for (int i = 0; i < nfp + 300; i++) {
    cz_fp a = i < nfp ? (cz_fp){{0}} : check_rand_fp(), x, y;
    if (i < nfp) memcpy(a.l, efp[i], 48);
    bool ok = cz_fp_inv(&x, &a);
    CHECK(ok == cz_fp_inv_fermat(&y, &a));
    CHECK(ok == !cz_fp_is_zero(&a));
    CHECK(cz_fp_eq(&x, &y));
    CHECK(limbs_lt(x.l, CZ_FP_MODULUS, 6));
  }
  for (int i = 0; i < nfr + 300; i++) {
    cz_fr a = i < nfr ? (cz_fr){{0}} : check_rand_fr(), x, y;
    if (i < nfr) memcpy(a.l, efr[i], 32);
    bool ok = cz_fr_inv(&x, &a);
    CHECK(ok == cz_fr_inv_fermat(&y, &a));
    CHECK(ok == !cz_fr_is_zero(&a));
    CHECK(cz_fr_eq(&x, &y));
    CHECK(limbs_lt(x.l, CZ_FR_MODULUS, 4));
  }
  cz_fp x = CZ_FP_ONE, one = CZ_FP_ONE;
  CHECK(!cz_fp_inv(&x, &CZ_FP_ZERO) && cz_fp_is_zero(&x));
  CHECK(cz_fp_inv(&x, &one) && cz_fp_is_one(&x));
  cz_fp m1;
  cz_fp_neg(&m1, &one);
  CHECK(cz_fp_inv(&x, &m1) && cz_fp_eq(&x, &m1)); /* (-1)^-1 = -1 */
  cz_fp two, half;
  cz_fp_add(&two, &one, &one);
  CHECK(cz_fp_inv(&half, &two));
  cz_fp_add(&x, &half, &half);
  CHECK(cz_fp_is_one(&x));
  cz_fr y = CZ_FR_ONE, fone = CZ_FR_ONE;
  CHECK(!cz_fr_inv(&y, &CZ_FR_ZERO) && cz_fr_is_zero(&y));
  CHECK(cz_fr_inv(&y, &fone) && cz_fr_is_one(&y));
  /* In place. */
  cz_fp a = check_rand_fp(), b;
  cz_fp_inv(&b, &a);
  cz_fp_inv(&a, &a);
  CHECK(cz_fp_eq(&a, &b));
}

/* Exponents that exercise the sliding window of cz_fp_pow: 0, 1, small
 * values, window-boundary bit patterns, single bits anywhere, all ones,
 * and random words; the reference is bit-by-bit square-and-multiply. */
static void pow_window(void) {
  for (int t = 0; t < 600; t++) {
    uint64_t e[6] = {0};
    if (t < 64) e[0] = (uint64_t)t;
    else if (t < 64 + 384) e[(t - 64) / 64] = 1ULL << ((t - 64) % 64);
    else if (t < 460) e[0] = 0x21ULL << (t - 448); /* 100001: two windows */
    else if (t < 470)
      for (int i = 0; i <= t - 460 && i < 6; i++) e[i] = ~0ULL;
    else
      for (int i = 0; i < 6; i++) e[i] = check_rand64() >> (t % 7) * 9;
    cz_fp a = check_rand_fp(), want = CZ_FP_ONE, have;
    for (int bit = 383; bit >= 0; bit--) {
      cz_fp_sqr(&want, &want);
      if ((e[bit / 64] >> (bit % 64)) & 1) cz_fp_mul(&want, &want, &a);
    }
    cz_fp_pow(&have, &a, e, 6);
    CHECK(cz_fp_eq(&have, &want));
    cz_fr b = check_rand_fr(), wr = CZ_FR_ONE, hr;
    for (int bit = 255; bit >= 0; bit--) {
      cz_fr_sqr(&wr, &wr);
      if ((e[bit / 64] >> (bit % 64)) & 1) cz_fr_mul(&wr, &wr, &b);
    }
    cz_fr_pow(&hr, &b, e, 4);
    CHECK(cz_fr_eq(&hr, &wr));
  }
}

/* The lazy Fp product (cz_fp_mul_adx_lazy) on operands below 2p: its
 * result is below 2p and one conditional subtraction from the canonical
 * product, and the full ADX product of such operands is canonical. Edge
 * elements, each also as itself + p, and random ones. */
static void lazy_product_of(const cz_fp *a, const cz_fp *b, const cz_fp *want) {
#ifdef CZ_MONT_ADX
  static const uint64_t two_p[6] = {0x73fdffffffff5556ULL, 0x3d57fffd62a7ffffULL,
                                    0xce61a541ed61ec48ULL, 0xc8ee9709e70a257eULL,
                                    0x96374f6c869759aeULL, 0x340223d472ffcd34ULL};
  cz_fp y;
  cz_fp_mul_adx_lazy(&y, a, b);
  CHECK(limbs_lt(y.l, two_p, 6));
  mont_add(y.l, y.l, CZ_FP_ZERO.l, CZ_FP_MODULUS, 6); /* the one subtraction */
  CHECK(cz_fp_eq(&y, want));
  cz_fp_mul_adx(&y, a, b);
  CHECK(cz_fp_eq(&y, want));
#else
  (void)a;
  (void)b;
  (void)want;
#endif
}

static void plus_p(cz_fp *r, const cz_fp *a) {
  unsigned char c = 0;
  for (int i = 0; i < 6; i++) {
    unsigned __int128 s = (unsigned __int128)a->l[i] + CZ_FP_MODULUS[i] + c;
    r->l[i] = (uint64_t)s;
    c = (unsigned char)(s >> 64);
  }
}

static void lazy_product(void) {
  if (!cz_cpu_has_adx()) return;
  static uint64_t efp[40][6];
  int n = edge_limbs(efp, CZ_FP_MODULUS, 6);
  for (int i = 0; i < n + 2000; i++)
    for (int j = 0; j < (i < n ? n : 1); j++) {
      cz_fp a, b, ap, bp, want;
      if (i < n) {
        memcpy(a.l, efp[i], 48);
        memcpy(b.l, efp[j], 48);
      } else {
        a = check_rand_fp();
        b = check_rand_fp();
      }
      cz_fp_mul_portable(&want, &a, &b);
      plus_p(&ap, &a);
      plus_p(&bp, &b);
      lazy_product_of(&a, &b, &want);
      lazy_product_of(&ap, &b, &want);
      lazy_product_of(&a, &bp, &want);
      lazy_product_of(&ap, &bp, &want);
    }
}

int main(void) {
  pow_window();
  for (int pass = 0; pass < 2; pass++) {
    cz_cpu_force_portable(pass == 1);
    fp_axioms();
    fr_axioms();
    batch_inverse();
    encodings();
    roots_of_unity();
  }
  cz_cpu_force_portable(false);
  paths_agree();
  lazy_product();
  inv_matches_fermat();
  return check_report("test_field");
}
