/* NTT over Fr: every transform against a naive O(n^2) DFT at small sizes,
 * self-inversion up to 2^16, bit-identical results for every thread budget,
 * and the Groth16 H polynomial against schoolbook polynomial arithmetic
 * (A*B - C = H*Z exactly for a satisfied system) and against bellperson's
 * step-by-step recipe for unsatisfied inputs. */
#include "rand_field.h"
#include "ifma_skip.h"
#include "cuzk/cpu.h"
#include "cuzk/ntt.h"
#include "ntt/ntt_impl.h" /* the IFMA path's test knobs */
#include <stdint.h>

static cz_fr *rand_vec(size_t n) {
  cz_fr *v = malloc((n ? n : 1) * sizeof *v);
  for (size_t i = 0; i < n; i++) v[i] = check_rand_fr();
  return v;
}

static cz_fr *copy_vec(const cz_fr *v, size_t n) {
  cz_fr *r = malloc((n ? n : 1) * sizeof *r);
  memcpy(r, v, n * sizeof *r);
  return r;
}

static size_t rev(size_t i, unsigned k) {
  size_t r = 0;
  for (unsigned b = 0; b < k; b++) r |= ((i >> b) & 1) << (k - 1 - b);
  return r;
}

static int vec_eq(const cz_fr *a, const cz_fr *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!cz_fr_eq(&a[i], &b[i])) return 0;
  return 1;
}

/* out[j] = scale * sum_i in[i] shift^i root^(i j), straight from the definition. */
static void naive_dft(cz_fr *out, const cz_fr *in, size_t n, const cz_fr *root, const cz_fr *shift,
                      const cz_fr *scale) {
  cz_fr rj = CZ_FR_ONE; /* root^j */
  for (size_t j = 0; j < n; j++) {
    cz_fr acc = CZ_FR_ZERO, p = *scale, step; /* p = scale * (shift root^j)^i */
    cz_fr_mul(&step, shift, &rj);
    for (size_t i = 0; i < n; i++) {
      cz_fr t;
      cz_fr_mul(&t, &in[i], &p);
      cz_fr_add(&acc, &acc, &t);
      cz_fr_mul(&p, &p, &step);
    }
    out[j] = acc;
    cz_fr_mul(&rj, &rj, root);
  }
}

static void check_domain_constants(const cz_ntt_domain *d) {
  size_t n = cz_ntt_domain_size(d);
  unsigned k = cz_ntt_domain_log_size(d);
  CHECK_EQ_INT(n, (size_t)1 << k);
  /* omega has order exactly n: omega^n = 1 and, for n > 1, omega^(n/2) = -1. */
  cz_fr t, minus_one, nf;
  uint64_t e = n;
  cz_fr_pow(&t, cz_ntt_domain_omega(d), &e, 1);
  CHECK(cz_fr_is_one(&t));
  cz_fr_neg(&minus_one, &CZ_FR_ONE);
  if (n > 1) {
    e = n / 2;
    cz_fr_pow(&t, cz_ntt_domain_omega(d), &e, 1);
    CHECK(cz_fr_eq(&t, &minus_one));
  }
  cz_fr_mul(&t, cz_ntt_domain_omega(d), cz_ntt_domain_omega_inv(d));
  CHECK(cz_fr_is_one(&t));
  cz_fr_from_u64(&nf, n);
  cz_fr_mul(&t, &nf, cz_ntt_domain_size_inv(d));
  CHECK(cz_fr_is_one(&t));
  cz_fr seven;
  cz_fr_from_u64(&seven, 7);
  CHECK(cz_fr_eq(cz_ntt_domain_coset_gen(d), &seven));
  cz_fr_mul(&t, cz_ntt_domain_coset_gen(d), cz_ntt_domain_coset_gen_inv(d));
  CHECK(cz_fr_is_one(&t));
}

/* The plain transforms of x at 2^k against the naive DFT (want: n
 * elements of scratch). */
static void naive_plain(const cz_ntt_domain *d, unsigned k, const cz_fr *x, cz_fr *want,
                        unsigned threads) {
  size_t n = (size_t)1 << k;
  const cz_fr *w = cz_ntt_domain_omega(d), *wi = cz_ntt_domain_omega_inv(d);
  const cz_fr *ninv = cz_ntt_domain_size_inv(d);
  cz_fr *y;
  /* forward: natural in, bit-reversed out */
  naive_dft(want, x, n, w, &CZ_FR_ONE, &CZ_FR_ONE);
  y = copy_vec(x, n);
  cz_ntt_forward(d, y, threads);
  int ok = 1;
  for (size_t j = 0; j < n; j++) ok &= cz_fr_eq(&y[rev(j, k)], &want[j]);
  CHECK(ok);
  /* inverse: bit-reversed in, natural out, undoes forward */
  cz_ntt_inverse(d, y, threads);
  CHECK(vec_eq(y, x, n));
  /* natural-order fft */
  memcpy(y, x, n * sizeof *y);
  cz_ntt_fft(d, y, threads);
  CHECK(vec_eq(y, want, n));
  free(y);

  /* forward with the inverse root, no scaling */
  naive_dft(want, x, n, wi, &CZ_FR_ONE, &CZ_FR_ONE);
  y = copy_vec(x, n);
  cz_ntt_forward_inv_root(d, y, threads);
  ok = 1;
  for (size_t j = 0; j < n; j++) ok &= cz_fr_eq(&y[rev(j, k)], &want[j]);
  CHECK(ok);
  free(y);

  /* ifft = n^-1 DFT with omega^-1, natural order */
  naive_dft(want, x, n, wi, &CZ_FR_ONE, ninv);
  y = copy_vec(x, n);
  cz_ntt_ifft(d, y, threads);
  CHECK(vec_eq(y, want, n));
  free(y);
  /* inverse on bit-reversed input equals ifft of the natural input */
  y = malloc(n * sizeof *y);
  for (size_t i = 0; i < n; i++) y[rev(i, k)] = x[i];
  cz_ntt_inverse(d, y, threads);
  CHECK(vec_eq(y, want, n));
  /* the DIT with the forward root: bit-reversed in, plain DFT out */
  naive_dft(want, x, n, w, &CZ_FR_ONE, &CZ_FR_ONE);
  for (size_t i = 0; i < n; i++) y[rev(i, k)] = x[i];
  cz_ntt_inverse_fwd_root(d, y, threads);
  CHECK(vec_eq(y, want, n));
  free(y);
}

/* The coset transforms of x at 2^k against the naive DFT, and the bit
 * reversal. */
static void naive_coset(const cz_ntt_domain *d, unsigned k, const cz_fr *x, cz_fr *want,
                        unsigned threads) {
  size_t n = (size_t)1 << k;
  const cz_fr *w = cz_ntt_domain_omega(d), *wi = cz_ntt_domain_omega_inv(d);
  const cz_fr *ninv = cz_ntt_domain_size_inv(d), *g = cz_ntt_domain_coset_gen(d);
  const cz_fr *gi = cz_ntt_domain_coset_gen_inv(d);
  cz_fr *y;
  /* coset_fft: evaluations at g omega^j */
  naive_dft(want, x, n, w, g, &CZ_FR_ONE);
  y = copy_vec(x, n);
  cz_ntt_coset_fft(d, y, threads);
  CHECK(vec_eq(y, want, n));
  cz_ntt_icoset_fft(d, y, threads);
  CHECK(vec_eq(y, x, n));
  /* icoset_fft on its own: coefficients i get n^-1 g^-i sum_j x_j omega^-ij */
  memcpy(y, x, n * sizeof *y);
  cz_ntt_icoset_fft(d, y, threads);
  naive_dft(want, x, n, wi, &CZ_FR_ONE, ninv);
  cz_fr p = CZ_FR_ONE;
  for (size_t i = 0; i < n; i++) {
    cz_fr_mul(&want[i], &want[i], &p);
    cz_fr_mul(&p, &p, gi);
  }
  CHECK(vec_eq(y, want, n));
  free(y);

  /* bit reversal is the permutation rev, and an involution */
  y = copy_vec(x, n);
  cz_ntt_bit_reverse(d, y, threads);
  int ok = 1;
  for (size_t i = 0; i < n; i++) ok &= cz_fr_eq(&y[i], &x[rev(i, k)]);
  CHECK(ok);
  free(y);
}

/* Every transform at sizes 1..2^8 against the naive DFT. */
static void test_naive(void) {
  for (unsigned k = 0; k <= 8; k++) {
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
    check_domain_constants(d);
    size_t n = (size_t)1 << k;
    cz_fr *x = rand_vec(n), *want = malloc(n * sizeof *want);
    unsigned threads = (unsigned)(k % 3 + 1);
    naive_plain(d, k, x, want, threads);
    naive_coset(d, k, x, want, threads);
    free(x);
    free(want);
    cz_ntt_domain_free(d);
  }
}

/* Round trips at larger sizes, where the outer (strided) passes run. */
static void test_roundtrip(void) {
  static const unsigned logs[] = {9, 12, 13, 14, 15, 16};
  for (size_t t = 0; t < sizeof logs / sizeof *logs; t++) {
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_new(&d, logs[t]) == CZ_OK);
    size_t n = cz_ntt_domain_size(d);
    cz_fr *x = rand_vec(n), *y = copy_vec(x, n);
    cz_ntt_forward(d, y, 2);
    CHECK(!vec_eq(y, x, n));
    cz_ntt_inverse(d, y, 2);
    CHECK(vec_eq(y, x, n));
    cz_ntt_ifft(d, y, 1);
    cz_ntt_fft(d, y, 3);
    CHECK(vec_eq(y, x, n));
    cz_ntt_coset_fft(d, y, 2);
    cz_ntt_icoset_fft(d, y, 2);
    CHECK(vec_eq(y, x, n));
    free(x);
    free(y);
    cz_ntt_domain_free(d);
  }
}

/* Spot-check a large transform against the definition at a few outputs. */
static void test_large_spot(void) {
  cz_ntt_domain *d;
  CHECK(cz_ntt_domain_new(&d, 15) == CZ_OK);
  size_t n = cz_ntt_domain_size(d);
  cz_fr *x = rand_vec(n), *y = copy_vec(x, n);
  cz_ntt_fft(d, y, 2);
  static const size_t js[] = {0, 1, 2, 12345, 32767};
  for (size_t t = 0; t < sizeof js / sizeof *js; t++) {
    cz_fr wj, p = CZ_FR_ONE, acc = CZ_FR_ZERO, term;
    uint64_t e = js[t];
    cz_fr_pow(&wj, cz_ntt_domain_omega(d), &e, 1);
    for (size_t i = 0; i < n; i++) {
      cz_fr_mul(&term, &x[i], &p);
      cz_fr_add(&acc, &acc, &term);
      cz_fr_mul(&p, &p, &wj);
    }
    CHECK(cz_fr_eq(&acc, &y[js[t]]));
  }
  free(x);
  free(y);
  cz_ntt_domain_free(d);
}

/* Results do not depend on the thread budget (bit for bit). */
static void test_threads(void) {
  static const unsigned logs[] = {6, 13, 16};
  static const unsigned budgets[] = {2, 3, 4, 7, 0};
  for (size_t t = 0; t < sizeof logs / sizeof *logs; t++) {
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_new(&d, logs[t]) == CZ_OK);
    size_t n = cz_ntt_domain_size(d);
    cz_fr *x = rand_vec(n), *f1 = copy_vec(x, n), *i1 = copy_vec(x, n), *c1 = copy_vec(x, n);
    cz_ntt_forward(d, f1, 1);
    cz_ntt_inverse(d, i1, 1);
    cz_ntt_icoset_fft(d, c1, 1);
    for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
      cz_fr *y = copy_vec(x, n);
      cz_ntt_forward(d, y, budgets[b]);
      CHECK_MEM(y, f1, n * sizeof *y);
      memcpy(y, x, n * sizeof *y);
      cz_ntt_inverse(d, y, budgets[b]);
      CHECK_MEM(y, i1, n * sizeof *y);
      memcpy(y, x, n * sizeof *y);
      cz_ntt_icoset_fft(d, y, budgets[b]);
      CHECK_MEM(y, c1, n * sizeof *y);
      free(y);
    }
    free(x);
    free(f1);
    free(i1);
    free(c1);
    cz_ntt_domain_free(d);
  }
}

/* A satisfied system's a, b, c: m random constraints with c = a*b, zero-padded. */
static void satisfied_abc(cz_fr **a, cz_fr **b, cz_fr **c, size_t n, size_t m) {
  *a = calloc(n, sizeof **a);
  *b = calloc(n, sizeof **b);
  *c = calloc(n, sizeof **c);
  for (size_t i = 0; i < m; i++) {
    (*a)[i] = check_rand_fr();
    (*b)[i] = check_rand_fr();
    cz_fr_mul(&(*c)[i], &(*a)[i], &(*b)[i]);
  }
}

static void poly_eval(cz_fr *r, const cz_fr *coeffs, size_t len, const cz_fr *x) {
  cz_fr acc = CZ_FR_ZERO;
  for (size_t i = len; i-- > 0;) {
    cz_fr_mul(&acc, &acc, x);
    cz_fr_add(&acc, &acc, &coeffs[i]);
  }
  *r = acc;
}

/* H by schoolbook arithmetic: interpolate A, B, C with the naive inverse DFT,
 * P = A*B - C, divide by X^n - 1 (remainder must vanish), compare H. */
static void test_h_naive(void) {
  static const size_t ms[] = {1, 2, 3, 5, 8, 13, 31, 64, 100, 200};
  for (size_t t = 0; t < sizeof ms / sizeof *ms; t++) {
    size_t m = ms[t];
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_for_size(&d, m) == CZ_OK);
    size_t n = cz_ntt_domain_size(d);
    CHECK(n >= m && (n == 1 || n / 2 < m));
    cz_fr *a, *b, *c;
    satisfied_abc(&a, &b, &c, n, m);
    cz_fr *A = malloc(n * sizeof *A), *B = malloc(n * sizeof *B), *C = malloc(n * sizeof *C);
    naive_dft(A, a, n, cz_ntt_domain_omega_inv(d), &CZ_FR_ONE, cz_ntt_domain_size_inv(d));
    naive_dft(B, b, n, cz_ntt_domain_omega_inv(d), &CZ_FR_ONE, cz_ntt_domain_size_inv(d));
    naive_dft(C, c, n, cz_ntt_domain_omega_inv(d), &CZ_FR_ONE, cz_ntt_domain_size_inv(d));
    cz_fr *P = calloc(2 * n, sizeof *P), *Q = calloc(n, sizeof *Q);
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) {
        cz_fr t2;
        cz_fr_mul(&t2, &A[i], &B[j]);
        cz_fr_add(&P[i + j], &P[i + j], &t2);
      }
    for (size_t i = 0; i < n; i++) cz_fr_sub(&P[i], &P[i], &C[i]);
    /* P = Q (X^n - 1) + R: from the top, X^i = X^(i-n) X^n. */
    for (size_t i = 2 * n; i-- > n;) {
      cz_fr_add(&Q[i - n], &Q[i - n], &P[i]);
      cz_fr_add(&P[i - n], &P[i - n], &P[i]);
      P[i] = CZ_FR_ZERO;
    }
    int rem_zero = 1;
    for (size_t i = 0; i < n; i++) rem_zero &= cz_fr_is_zero(&P[i]);
    CHECK(rem_zero); /* the test data is a satisfied system */
    cz_ntt_h_poly(d, a, b, c, (unsigned)(t % 3 + 1));
    CHECK(vec_eq(a, Q, n)); /* includes a[n-1] = Q[n-1] = 0 (deg H <= n-2) */
    CHECK(cz_fr_is_zero(&a[n - 1]));
    free(a);
    free(b);
    free(c);
    free(A);
    free(B);
    free(C);
    free(P);
    free(Q);
    cz_ntt_domain_free(d);
  }
}

/* At larger sizes: A(tau) B(tau) - C(tau) = H(tau) Z(tau) at a random tau,
 * with A, B, C interpolated by the (naive-checked) ifft. */
static void test_h_identity(void) {
  static const size_t ms[] = {1000, 4097, 40000};
  for (size_t t = 0; t < sizeof ms / sizeof *ms; t++) {
    size_t m = ms[t];
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_for_size(&d, m) == CZ_OK);
    size_t n = cz_ntt_domain_size(d);
    cz_fr *a, *b, *c;
    satisfied_abc(&a, &b, &c, n, m);
    cz_fr *A = copy_vec(a, n), *B = copy_vec(b, n), *C = copy_vec(c, n);
    cz_ntt_ifft(d, A, 2);
    cz_ntt_ifft(d, B, 2);
    cz_ntt_ifft(d, C, 2);
    cz_ntt_h_poly(d, a, b, c, 2);
    CHECK(cz_fr_is_zero(&a[n - 1]));
    cz_fr tau = check_rand_fr(), va, vb, vc, vh, z, lhs, rhs;
    poly_eval(&va, A, n, &tau);
    poly_eval(&vb, B, n, &tau);
    poly_eval(&vc, C, n, &tau);
    poly_eval(&vh, a, n - 1, &tau);
    uint64_t e = n;
    cz_fr_pow(&z, &tau, &e, 1);
    cz_fr_sub(&z, &z, &CZ_FR_ONE);
    cz_fr_mul(&lhs, &va, &vb);
    cz_fr_sub(&lhs, &lhs, &vc);
    cz_fr_mul(&rhs, &vh, &z);
    CHECK(cz_fr_eq(&lhs, &rhs));
    free(a);
    free(b);
    free(c);
    free(A);
    free(B);
    free(C);
    cz_ntt_domain_free(d);
  }
}

/* For arbitrary (unsatisfied) inputs, h_poly equals bellperson's recipe
 * spelled out with the natural-order transforms, for any thread budget. */
static void test_h_recipe(void) {
  static const unsigned logs[] = {0, 1, 2, 5, 10, 14};
  for (size_t t = 0; t < sizeof logs / sizeof *logs; t++) {
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_new(&d, logs[t]) == CZ_OK);
    size_t n = cz_ntt_domain_size(d);
    cz_fr *a = rand_vec(n), *b = rand_vec(n), *c = rand_vec(n);
    cz_fr *ra = copy_vec(a, n), *rb = copy_vec(b, n), *rc = copy_vec(c, n);
    cz_ntt_ifft(d, ra, 1);
    cz_ntt_coset_fft(d, ra, 1);
    cz_ntt_ifft(d, rb, 1);
    cz_ntt_coset_fft(d, rb, 1);
    cz_ntt_ifft(d, rc, 1);
    cz_ntt_coset_fft(d, rc, 1);
    cz_fr zinv;
    uint64_t e = n;
    cz_fr_pow(&zinv, cz_ntt_domain_coset_gen(d), &e, 1);
    cz_fr_sub(&zinv, &zinv, &CZ_FR_ONE);
    CHECK(cz_fr_inv(&zinv, &zinv));
    for (size_t i = 0; i < n; i++) {
      cz_fr_mul(&ra[i], &ra[i], &rb[i]);
      cz_fr_sub(&ra[i], &ra[i], &rc[i]);
      cz_fr_mul(&ra[i], &ra[i], &zinv);
    }
    cz_ntt_icoset_fft(d, ra, 1);
    for (unsigned threads = 1; threads <= 3; threads++) {
      cz_fr *x = copy_vec(a, n), *y = copy_vec(b, n), *z = copy_vec(c, n);
      cz_ntt_h_poly(d, x, y, z, threads);
      CHECK_MEM(x, ra, n * sizeof *x);
      free(x);
      free(y);
      free(z);
    }
    free(a);
    free(b);
    free(c);
    free(ra);
    free(rb);
    free(rc);
    cz_ntt_domain_free(d);
  }
}

static void test_args(void) {
  cz_ntt_domain *d = NULL;
  CHECK(cz_ntt_domain_new(&d, CZ_NTT_MAX_LOG + 1) == CZ_ERR_INVALID_ARG);
  CHECK(d == NULL);
  CHECK(cz_ntt_domain_new(NULL, 3) == CZ_ERR_INVALID_ARG);
  /* bellperson refuses domains of 2^32 (exp >= S). */
  CHECK(cz_ntt_domain_for_size(&d, ((size_t)1 << 31) + 1) == CZ_ERR_INVALID_ARG);
  CHECK(cz_ntt_domain_for_size(&d, 0) == CZ_OK);
  CHECK_EQ_INT(cz_ntt_domain_size(d), 1);
  cz_ntt_domain_free(d);
  CHECK(cz_ntt_domain_for_size(&d, 1025) == CZ_OK);
  CHECK_EQ_INT(cz_ntt_domain_log_size(d), 11);
  cz_ntt_domain_free(d);
  cz_ntt_domain_free(NULL);
  /* The last block prefetches no next region: p = NULL is an empty region,
   * with no arithmetic on the null pointer (UBSan in the fuzz build found
   * NULL + 0 proving a zkey on the scalar path; test-asan traps it here). */
  ntt_lines l;
  ntt_lines_init(&l, NULL, 0, 4);
  ntt_lines_step(&l);
  CHECK(l.at == NULL && l.end == NULL);
  CHECK_EQ_INT(l.per_step, 0);
}

/* Every transform and pointwise pass gives the same bits on the IFMA path
 * as on the portable path (forced with cz_cpu_force_portable), at sizes that
 * use only blocks (2^6..2^13), add radix-2 and radix-4 outer passes, with
 * block sizes shrunk by the thread count, and odd ranges for the workers. */
typedef void (*transform_fn)(const cz_ntt_domain *, cz_fr *, unsigned);
static void test_paths(void) {
  static const unsigned logs[] = {6, 7, 9, 13, 14, 16};
  static const transform_fn fns[] = {
      cz_ntt_forward, cz_ntt_inverse, cz_ntt_forward_inv_root, cz_ntt_inverse_fwd_root,
      cz_ntt_fft,     cz_ntt_ifft,    cz_ntt_coset_fft,        cz_ntt_icoset_fft};
  for (size_t t = 0; t < sizeof logs / sizeof *logs; t++) {
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_new(&d, logs[t]) == CZ_OK);
    size_t n = cz_ntt_domain_size(d);
    unsigned threads = (unsigned)(t % 3 + 1);
    cz_fr *x = rand_vec(n), *p = malloc(n * sizeof *p), *v = malloc(n * sizeof *v);
    for (size_t f = 0; f < sizeof fns / sizeof *fns; f++) {
      memcpy(p, x, n * sizeof *p);
      memcpy(v, x, n * sizeof *v);
      cz_cpu_force_portable(true);
      fns[f](d, p, threads);
      cz_cpu_force_portable(false);
      fns[f](d, v, threads);
      CHECK_MEM(p, v, n * sizeof *p);
    }
    if (logs[t] <= 14) { /* the H polynomial: transforms plus the combine pass */
      cz_fr *b = rand_vec(n), *c = rand_vec(n), *b2 = copy_vec(b, n), *c2 = copy_vec(c, n);
      memcpy(p, x, n * sizeof *p);
      memcpy(v, x, n * sizeof *v);
      cz_cpu_force_portable(true);
      cz_ntt_h_poly(d, p, b, c, threads);
      cz_cpu_force_portable(false);
      cz_ntt_h_poly(d, v, b2, c2, threads);
      CHECK_MEM(p, v, n * sizeof *p);
      free(b);
      free(c);
      free(b2);
      free(c2);
    }
    free(x);
    free(p);
    free(v);
    cz_ntt_domain_free(d);
  }
}

static void run_all(void) {
  test_naive();
  test_roundtrip();
  test_large_spot();
  test_threads();
  test_h_naive();
  test_h_identity();
  test_h_recipe();
}

int main(void) {
  test_args();
  /* Without IFMA every run below takes a scalar path: they still run (and
   * can fail), but the test ends SKIPPED, since its vector half did not. */
  const char *missing = ifma_missing();
  run_all(); /* the automatic choice: IFMA where the CPU has it */
  /* The scalar paths against the definition too (test_paths below compares
   * them with the vector path on larger sizes). */
  cz_cpu_disable_ifma(true);
  test_naive(); /* the scalar fast path (ADX where the CPU has it) */
  test_h_naive();
  cz_cpu_disable_ifma(false);
  cz_cpu_force_portable(true);
  test_naive(); /* and the portable C path */
  cz_cpu_force_portable(false);
  test_paths();
  /* Again without per-thread buffers: panels in place, and the IFMA path
   * falling back to the scalar kernels. */
  cz_ntt_no_scratch = 1;
  test_paths();
  cz_ntt_no_scratch = 0;
  return check_report_unless("test_ntt", missing);
}
