/* The CUDA kernels' arithmetic (src/cuda/czg_arith.h) run on the CPU and
 * compared with the library: Fp and Fr on 32-bit limbs, XYZZ additions
 * with every special case, the signed-digit recoding, the radix-2^k NTT
 * passes against cz_ntt, and the bucket MSM against cz_msm. */
#include "check.h"
#include "cuda/czg_arith.h"
#include "cuda/czg_host.h"
#include "cuzk/g1.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "rand_field.h"

static void test_constants(void) {
  CHECK_MEM(CZG_P, CZ_FP_MODULUS, sizeof CZG_P);
  CHECK_MEM(CZG_R, CZ_FR_MODULUS, sizeof CZG_R);
  CHECK_MEM(CZG_FP_ONE, &CZ_FP_ONE, sizeof CZG_FP_ONE);
}

static void test_fields(void) {
  for (int i = 0; i < 2000; i++) {
    cz_fp a = check_rand_fp(), b = check_rand_fp(), want;
    if (i == 0) a = CZ_FP_ZERO;
    if (i == 1) {
      cz_fp_neg(&a, &CZ_FP_ONE);
      b = a;
    } /* p - 1 */
    czg_fp r;
    cz_fp_mul(&want, &a, &b);
    czg_fp_mul(&r, (const czg_fp *)&a, (const czg_fp *)&b);
    CHECK_MEM(&r, &want, sizeof r);
    cz_fp_add(&want, &a, &b);
    czg_fp_add(&r, (const czg_fp *)&a, (const czg_fp *)&b);
    CHECK_MEM(&r, &want, sizeof r);
    cz_fp_sub(&want, &a, &b);
    czg_fp_sub(&r, (const czg_fp *)&a, (const czg_fp *)&b);
    CHECK_MEM(&r, &want, sizeof r);
    cz_fp_neg(&want, &a);
    czg_fp_neg(&r, (const czg_fp *)&a);
    CHECK_MEM(&r, &want, sizeof r);

    cz_fr x = check_rand_fr(), y = check_rand_fr(), wr;
    if (i == 0) x = CZ_FR_ZERO;
    if (i == 1) {
      cz_fr_neg(&x, &CZ_FR_ONE);
      y = x;
    }
    czg_fr s;
    cz_fr_mul(&wr, &x, &y);
    czg_fr_mul(&s, (const czg_fr *)&x, (const czg_fr *)&y);
    CHECK_MEM(&s, &wr, sizeof s);
    cz_fr_add(&wr, &x, &y);
    czg_fr_add(&s, (const czg_fr *)&x, (const czg_fr *)&y);
    CHECK_MEM(&s, &wr, sizeof s);
    cz_fr_sub(&wr, &x, &y);
    czg_fr_sub(&s, (const czg_fr *)&x, (const czg_fr *)&y);
    CHECK_MEM(&s, &wr, sizeof s);
    uint64_t canon[4];
    cz_fr_to_canonical(canon, &x);
    czg_fr_from_mont(&s, (const czg_fr *)&x);
    CHECK_MEM(&s, canon, sizeof s);
  }
}

static bool xyzz_equals(const czg_xyzz *x, const cz_g1 *want) {
  cz_g1 got;
  cz_g1_xyzz_to_jacobian(&got, (const cz_g1_xyzz *)x);
  return cz_g1_eq(&got, want);
}

static void test_xyzz(void) {
  const cz_g1_affine id = {CZ_FP_ZERO, CZ_FP_ZERO};
  for (int it = 0; it < 50; it++) {
    cz_g1_affine p = check_rand_g1_affine(), q = check_rand_g1_affine(), np;
    cz_g1_affine_neg(&np, &p);
    cz_g1 want, jp, jq;
    cz_g1_from_affine(&jp, &p);
    cz_g1_from_affine(&jq, &q);
    czg_xyzz acc;
    czg_xyzz_set_identity(&acc);
    czg_xyzz_add_affine(&acc, (const czg_affine *)&id, false); /* id + id */
    cz_g1_set_identity(&want);
    CHECK(xyzz_equals(&acc, &want));
    czg_xyzz_add_affine(&acc, (const czg_affine *)&p, false); /* id + p */
    CHECK(xyzz_equals(&acc, &jp));
    czg_xyzz_add_affine(&acc, (const czg_affine *)&q, false); /* p + q */
    cz_g1_add(&want, &jp, &jq);
    CHECK(xyzz_equals(&acc, &want));
    czg_xyzz_add_affine(&acc, (const czg_affine *)&q, true); /* - q */
    CHECK(xyzz_equals(&acc, &jp));
    czg_xyzz_add_affine(&acc, (const czg_affine *)&p, false); /* p + p: doubling */
    cz_g1_dbl(&want, &jp);
    CHECK(xyzz_equals(&acc, &want));
    czg_xyzz b;
    czg_xyzz_set_identity(&b);
    czg_xyzz_add_affine(&b, (const czg_affine *)&np, false);
    czg_xyzz_add_affine(&b, (const czg_affine *)&np, false); /* -2p */
    czg_xyzz_add(&acc, &b);                                  /* 2p - 2p */
    cz_g1_set_identity(&want);
    CHECK(xyzz_equals(&acc, &want));
    /* xyzz + xyzz, and the doubling inside it */
    czg_xyzz u, v;
    czg_xyzz_set_identity(&u);
    czg_xyzz_set_identity(&v);
    czg_xyzz_add_affine(&u, (const czg_affine *)&p, false);
    czg_xyzz_add_affine(&u, (const czg_affine *)&q, false);
    czg_xyzz_add_affine(&v, (const czg_affine *)&q, false);
    czg_xyzz_add_affine(&v, (const czg_affine *)&p, false);
    czg_xyzz_add(&u, &v); /* equal points, different Z: 2 (p + q) */
    cz_g1_add(&want, &jp, &jq);
    cz_g1_dbl(&want, &want);
    CHECK(xyzz_equals(&u, &want));
    czg_xyzz_add(&u, &v); /* 3 (p + q) */
    cz_g1 t;
    cz_g1_add(&t, &jp, &jq);
    cz_g1_add(&want, &want, &t);
    CHECK(xyzz_equals(&u, &want));
    uint32_t k = (uint32_t)(check_rand64() % 100000);
    czg_xyzz_mul_small(&u, &v, k);
    cz_scalar ks = {{k, 0, 0, 0}};
    cz_g1_mul(&want, &t, &ks);
    CHECK(xyzz_equals(&u, &want));
  }
}

/* Recoding: sum_w d_w 2^(c w) == k for every width, with all-ones runs (the
 * raw = 2^c case) and r - 1. */
static void test_digits(void) {
  for (unsigned c = 1; c <= 16; c++) {
    for (int it = 0; it < 40; it++) {
      cz_fr x = check_rand_fr();
      if (it == 0) cz_fr_neg(&x, &CZ_FR_ONE);
      if (it == 1) x = CZ_FR_ZERO;
      if (it == 2) x = CZ_FR_ONE;
      if (it == 3) { /* 2^254 - 1: every window all ones */
        uint64_t v[4] = {~0ULL, ~0ULL, ~0ULL, (1ULL << 62) - 1};
        cz_fr_from_canonical(&x, v);
      }
      czg_fr k;
      czg_fr_from_mont(&k, (const czg_fr *)&x);
      unsigned nw = czg_msm_windows(c);
      uint32_t keys[256], vals[256];
      czg_msm_digits(&k, 7, c, keys, vals, 1);
      cz_fr acc = CZ_FR_ZERO, pow2 = CZ_FR_ONE, two, d;
      cz_fr_from_u64(&two, 2);
      uint32_t half = 1u << (c - 1);
      for (unsigned w = 0; w < nw; w++) {
        if (keys[w] != CZG_KEY_NONE) {
          CHECK(keys[w] / half == w);
          CHECK((vals[w] & ~CZG_NEG_BIT) == 7);
          cz_fr_from_u64(&d, keys[w] % half + 1);
          cz_fr_mul(&d, &d, &pow2);
          if (vals[w] & CZG_NEG_BIT) cz_fr_sub(&acc, &acc, &d);
          else cz_fr_add(&acc, &acc, &d);
        }
        for (unsigned b = 0; b < c; b++) cz_fr_mul(&pow2, &pow2, &two);
      }
      CHECK(cz_fr_eq(&acc, &x));
    }
  }
}

static void test_ntt(void) {
  for (unsigned log_n = 0; log_n <= 12; log_n++) {
    size_t n = (size_t)1 << log_n;
    cz_ntt_domain *d;
    CHECK_EQ_INT(cz_ntt_domain_new(&d, log_n), CZ_OK);
    cz_fr *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) x[i] = check_rand_fr();
    const unsigned ks[] = {1, 3, 9, 10};
    for (unsigned ki = 0; ki < 4; ki++) {
      unsigned k = ks[ki];
      /* DIF with omega: cz_ntt_forward (natural in, bit-reversed out) */
      memcpy(y, x, n * sizeof *y);
      cz_gpu_emu_ntt(y, log_n, cz_ntt_domain_omega(d), true, k);
      cz_ntt_forward(d, x, 1);
      CHECK_MEM(y, x, n * sizeof *y);
      /* DIT with omega: cz_ntt_inverse_fwd_root (bit-reversed in, natural out) */
      memcpy(y, x, n * sizeof *y);
      cz_gpu_emu_ntt(y, log_n, cz_ntt_domain_omega(d), false, k);
      cz_ntt_inverse_fwd_root(d, x, 1);
      CHECK_MEM(y, x, n * sizeof *y);
      /* DIF with omega^-1: cz_ntt_forward_inv_root */
      memcpy(y, x, n * sizeof *y);
      cz_gpu_emu_ntt(y, log_n, cz_ntt_domain_omega_inv(d), true, k);
      cz_ntt_forward_inv_root(d, x, 1);
      CHECK_MEM(y, x, n * sizeof *y);
    }
    /* the plan: passes of at most k bits covering every index bit once */
    czg_ntt_pass ps[32];
    unsigned np = czg_ntt_plan(ps, log_n, 9, true), bits = 0;
    for (unsigned p = 0; p < np; p++) {
      CHECK(ps[p].k <= 9);
      bits += ps[p].k;
    }
    CHECK_EQ_INT(bits, log_n);
    free(x);
    free(y);
    cz_ntt_domain_free(d);
  }
  czg_ntt_pass ps[32];
  CHECK_EQ_INT(czg_ntt_plan(ps, 27, 9, true), 3); /* 2^27 in three passes */
  CHECK_EQ_INT(czg_ntt_plan(ps, 27, 10, false), 3);
}

static void test_msm(void) {
  const size_t n = 60;
  cz_g1_affine *pts = malloc(n * sizeof *pts);
  cz_scalar *k = malloc(n * sizeof *k);
  for (size_t i = 0; i < n; i++) {
    pts[i] = check_rand_g1_affine();
    cz_fr x = check_rand_fr();
    cz_fr_to_scalar(&k[i], &x);
  }
  /* identity bases, repeated points (doubling in a bucket), p and -p, and
   * scalars 0, 1, r - 1 */
  memset(&pts[3], 0, sizeof pts[3]);
  pts[5] = pts[4];
  k[5] = k[4];
  cz_g1_affine_neg(&pts[7], &pts[6]);
  k[7] = k[6];
  memset(&k[8], 0, sizeof k[8]);
  k[9] = (cz_scalar){{1, 0, 0, 0}};
  cz_fr m1;
  cz_fr_neg(&m1, &CZ_FR_ONE);
  cz_fr_to_scalar(&k[10], &m1);
  cz_g1 want, got;
  CHECK_EQ_INT(cz_msm_g1(&want, pts, k, n, 1), CZ_OK);
  const unsigned cs[] = {1, 2, 5, 8, 11, 13};
  for (unsigned i = 0; i < sizeof cs / sizeof *cs; i++) {
    cz_gpu_emu_msm(&got, pts, k, n, cs[i]);
    CHECK(cz_g1_eq(&got, &want));
  }
  cz_gpu_emu_msm(&got, pts, k, 0, 4);
  CHECK(cz_g1_is_identity(&got));
  free(pts);
  free(k);
}

/* The emulated device's H (the device's pass order, coset scaling by
 * bit-reversed position, no permutation) equals cz_ntt_h_poly. */
static void test_h(void) {
  for (unsigned log_n = 0; log_n <= 11; log_n += 1) {
    size_t n = (size_t)1 << log_n, m = n - (n > 2 ? n / 3 : 0);
    cz_fr *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c);
    cz_fr *h = malloc(n * sizeof *h);
    for (size_t i = 0; i < m; i++) {
      a[i] = check_rand_fr();
      b[i] = check_rand_fr();
      c[i] = check_rand_fr();
    }
    czg_ops ops;
    cz_gpu_emu_ops(&ops, 1 << 20);
    CHECK_EQ_INT(ops.ntt_h(ops.ctx, a, b, c, m, log_n), CZ_OK);
    CHECK_EQ_INT(ops.h_read(ops.ctx, h), CZ_OK);
    cz_ntt_domain *d;
    CHECK_EQ_INT(cz_ntt_domain_new(&d, log_n), CZ_OK);
    cz_ntt_h_poly(d, a, b, c, 1);
    CHECK_MEM(h, a, n * sizeof *h);
    ops.close(ops.ctx);
    cz_ntt_domain_free(d);
    free(a);
    free(b);
    free(c);
    free(h);
  }
}

int main(void) {
  test_h();
  test_constants();
  test_fields();
  test_xyzz();
  test_digits();
  test_ntt();
  test_msm();
  return check_report("test_czg_arith");
}
