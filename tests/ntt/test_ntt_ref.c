/* ctest-label: slow (about half a minute of CPU: 2^20 x three budgets;
 * the sanitizer run skips it)
 *
 * The blocked NTT against a textbook radix-2 transform kept here: every
 * size from 2^1 to 2^20, thread budgets 1, 2 and 3, on each field path
 * (IFMA where the CPU has it, ADX, portable C; above 2^18 the selected
 * path alone), bit for bit: the four raw
 * transforms and cz_ntt_h_poly (against bellperson's seven-transform recipe
 * spelled out with the reference). Small block and level sizes then force
 * three and four levels of panels at small n, with and without the
 * per-thread buffers. */
#include "rand_field.h"
#include "ifma_skip.h"
#include "cuzk/cpu.h"
#include "cuzk/ntt.h"
#include "ntt/ntt_impl.h" /* the layout knobs */
#include <stdint.h>

#define MAX_LOG 20
#define ALL_PATHS_MAX_LOG 18

/* ---- the reference ------------------------------------------------------- */

static size_t rev(size_t i, unsigned k) {
  size_t r = 0;
  for (unsigned b = 0; b < k; b++) r |= ((i >> b) & 1) << (k - 1 - b);
  return r;
}

static void permute(cz_fr *x, unsigned k) {
  for (size_t i = 0; i < ((size_t)1 << k); i++) {
    size_t j = rev(i, k);
    if (i < j) {
      cz_fr t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
}

/* x[j] <- sum_i x_i root^(i j), natural order in and out: the iterative
 * Cooley-Tukey transform on the bit-reversed input, twiddles by repeated
 * multiplication. */
static void ref_dft(cz_fr *x, unsigned k, const cz_fr *root) {
  size_t n = (size_t)1 << k;
  permute(x, k);
  for (size_t len = 2; len <= n; len *= 2) {
    cz_fr wl = *root; /* root^(n / len) */
    for (size_t s = len; s < n; s *= 2) cz_fr_sqr(&wl, &wl);
    for (size_t i = 0; i < n; i += len) {
      cz_fr w = CZ_FR_ONE;
      for (size_t j = 0; j < len / 2; j++) {
        cz_fr u = x[i + j], v;
        cz_fr_mul(&v, &x[i + j + len / 2], &w);
        cz_fr_add(&x[i + j], &u, &v);
        cz_fr_sub(&x[i + j + len / 2], &u, &v);
        cz_fr_mul(&w, &w, &wl);
      }
    }
  }
}

/* x[i] *= c base^i */
static void ref_scale(cz_fr *x, size_t n, const cz_fr *base, const cz_fr *c) {
  cz_fr p = *c;
  for (size_t i = 0; i < n; i++) {
    cz_fr_mul(&x[i], &x[i], &p);
    cz_fr_mul(&p, &p, base);
  }
}

/* bellperson's H: ifft, coset_fft each; (a b - c) / Z(g); icoset_fft. */
static void ref_h(cz_fr *a, cz_fr *b, cz_fr *c, const cz_ntt_domain *d) {
  unsigned k = cz_ntt_domain_log_size(d);
  size_t n = cz_ntt_domain_size(d);
  const cz_fr *w = cz_ntt_domain_omega(d), *wi = cz_ntt_domain_omega_inv(d);
  const cz_fr *ninv = cz_ntt_domain_size_inv(d), *g = cz_ntt_domain_coset_gen(d);
  cz_fr *v[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    ref_dft(v[i], k, wi);
    ref_scale(v[i], n, g, ninv);
    ref_dft(v[i], k, w);
  }
  cz_fr zinv;
  uint64_t e = n;
  cz_fr_pow(&zinv, g, &e, 1);
  cz_fr_sub(&zinv, &zinv, &CZ_FR_ONE);
  cz_fr_inv(&zinv, &zinv);
  for (size_t i = 0; i < n; i++) {
    cz_fr_mul(&a[i], &a[i], &b[i]);
    cz_fr_sub(&a[i], &a[i], &c[i]);
    cz_fr_mul(&a[i], &a[i], &zinv);
  }
  ref_dft(a, k, wi);
  ref_scale(a, n, cz_ntt_domain_coset_gen_inv(d), ninv);
}

/* ---- the comparison --------------------------------------------------------- */

static cz_fr *rand_vec(size_t n) {
  cz_fr *v = malloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++) v[i] = check_rand_fr();
  return v;
}

static cz_fr *copy_vec(const cz_fr *v, size_t n) {
  cz_fr *r = malloc(n * sizeof *r);
  memcpy(r, v, n * sizeof *r);
  return r;
}

/* What each transform must give on x, from the reference. */
typedef struct {
  size_t n;
  cz_fr *x, *fwd, *fwd_inv_root, *inv, *inv_fwd_root;
  cz_fr *ha, *hb, *hc, *h; /* h_poly's inputs and result */
} expected;

static void expected_make(expected *e, const cz_ntt_domain *d) {
  unsigned k = cz_ntt_domain_log_size(d);
  size_t n = e->n = cz_ntt_domain_size(d);
  const cz_fr *w = cz_ntt_domain_omega(d), *wi = cz_ntt_domain_omega_inv(d);
  e->x = rand_vec(n);
  /* forward: DFT in bit-reversed order; inverse: from bit-reversed input */
  e->fwd = copy_vec(e->x, n);
  ref_dft(e->fwd, k, w);
  permute(e->fwd, k);
  e->fwd_inv_root = copy_vec(e->x, n);
  ref_dft(e->fwd_inv_root, k, wi);
  permute(e->fwd_inv_root, k);
  e->inv = copy_vec(e->x, n);
  permute(e->inv, k);
  ref_dft(e->inv, k, wi);
  ref_scale(e->inv, n, &CZ_FR_ONE, cz_ntt_domain_size_inv(d));
  e->inv_fwd_root = copy_vec(e->x, n);
  permute(e->inv_fwd_root, k);
  ref_dft(e->inv_fwd_root, k, w);
  e->ha = rand_vec(n);
  e->hb = rand_vec(n);
  e->hc = rand_vec(n);
  e->h = copy_vec(e->ha, n);
  cz_fr *b = copy_vec(e->hb, n), *c = copy_vec(e->hc, n);
  ref_h(e->h, b, c, d);
  free(b);
  free(c);
}

static void expected_free(expected *e) {
  cz_fr *v[] = {e->x, e->fwd, e->fwd_inv_root, e->inv, e->inv_fwd_root, e->ha, e->hb, e->hc, e->h};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) free(v[i]);
}

typedef void (*transform_fn)(const cz_ntt_domain *, cz_fr *, unsigned);

static int same(transform_fn f, const cz_ntt_domain *d, const cz_fr *x, const cz_fr *want,
                unsigned threads) {
  size_t n = cz_ntt_domain_size(d);
  cz_fr *y = copy_vec(x, n);
  f(d, y, threads);
  int ok = memcmp(y, want, n * sizeof *y) == 0;
  free(y);
  return ok;
}

static int same_h(const cz_ntt_domain *d, const expected *e, unsigned threads) {
  size_t n = e->n;
  cz_fr *a = copy_vec(e->ha, n), *b = copy_vec(e->hb, n), *c = copy_vec(e->hc, n);
  cz_ntt_h_poly(d, a, b, c, threads);
  int ok = memcmp(a, e->h, n * sizeof *a) == 0;
  free(a);
  free(b);
  free(c);
  return ok;
}

/* The path selected now, every thread budget: failures name the case. */
static void check_all(const cz_ntt_domain *d, const expected *e, const char *path) {
  unsigned k = cz_ntt_domain_log_size(d);
  for (unsigned t = 1; t <= 3; t++) {
    int ok[5] = {same(cz_ntt_forward, d, e->x, e->fwd, t),
                 same(cz_ntt_forward_inv_root, d, e->x, e->fwd_inv_root, t),
                 same(cz_ntt_inverse, d, e->x, e->inv, t),
                 same(cz_ntt_inverse_fwd_root, d, e->x, e->inv_fwd_root, t), same_h(d, e, t)};
    static const char *what[5] = {"forward", "forward_inv_root", "inverse", "inverse_fwd_root",
                                  "h_poly"};
    for (int i = 0; i < 5; i++) {
      CHECK(ok[i]);
      if (!ok[i])
        fprintf(stderr, "  %s differs: 2^%u, %u threads, %s path, blocks 2^%u, levels <= %u\n",
                what[i], k, t, path, cz_ntt_block_log, cz_ntt_level_max_log);
    }
  }
}

/* Sizes lo..hi on the three paths (the IFMA one where the CPU runs it),
 * or on the path the CPU selects alone above all_paths_max: the paths
 * differ in the field's arithmetic, which every size below checks, and
 * the largest sizes cost most of the test. */
static void sweep_paths(unsigned lo, unsigned hi, unsigned all_paths_max) {
  for (unsigned k = lo; k <= hi; k++) {
    cz_ntt_domain *d;
    CHECK(cz_ntt_domain_new(&d, k) == CZ_OK);
    expected e;
    expected_make(&e, d);
    const char *selected = cz_cpu_use_ifma() ? "ifma" : cz_cpu_use_adx() ? "adx" : "portable";
    check_all(d, &e, selected);
    if (k <= all_paths_max) {
      cz_cpu_disable_ifma(true);
      if (strcmp(selected, "ifma") == 0) check_all(d, &e, cz_cpu_use_adx() ? "adx" : "portable");
      cz_cpu_disable_ifma(false);
      cz_cpu_force_portable(true);
      if (strcmp(selected, "portable") != 0) check_all(d, &e, "portable");
      cz_cpu_force_portable(false);
    }
    expected_free(&e);
    cz_ntt_domain_free(d);
  }
}

static void sweep(unsigned lo, unsigned hi) { sweep_paths(lo, hi, hi); }

int main(int argc, char **argv) {
  const char *missing = ifma_missing();
  /* An argument K stops the first sweep at 2^K (a quicker run by hand). */
  unsigned max_log = argc > 1 ? (unsigned)atoi(argv[1]) : MAX_LOG;
  sweep_paths(1, max_log <= MAX_LOG ? max_log : MAX_LOG, ALL_PATHS_MAX_LOG);
  /* Blocks of 16 and levels of at most 2 stages: up to five levels of
   * panels by 2^14, also in place and on the IFMA path's scalar fallback. */
  cz_ntt_block_log = 4;
  cz_ntt_level_max_log = 2;
  sweep(5, 14);
  cz_ntt_no_scratch = 1;
  sweep(9, 12);
  cz_ntt_no_scratch = 0;
  /* Levels of 3 stages over blocks of 64. */
  cz_ntt_block_log = 6;
  cz_ntt_level_max_log = 3;
  sweep(10, 15);
  /* The split twiddle table (what domains above 2^24 keep), at sizes
   * where the full one is the reference: on panels, in place, and as the
   * default blocks and levels see it. */
  cz_ntt_tw_full_max_log = 0;
  sweep(10, 15);
  cz_ntt_no_scratch = 1;
  sweep(9, 12);
  cz_ntt_no_scratch = 0;
  cz_ntt_block_log = NTT_BLOCK_LOG;
  cz_ntt_level_max_log = 11;
  sweep(15, 17);
  return check_report_unless("test_ntt_ref", missing);
}
