/* The H scalars of a snarkjs proof (zkey_internal.h), with cuzk's NTT.
 *
 * snarkjs (groth16_prove.js) and rapidsnark evaluate A, B and C = a o b on
 * the odd powers w^(2j+1) of the 2n-th root of unity w and hand the values
 * of A B - C there to the MSM: on the even powers (the domain) the
 * polynomial vanishes, so its values on the odd ones fix it, and the zkey's
 * H points are the matching Lagrange bases divided by delta. No division by
 * Z is needed (Z = -2 on that coset; the points hold it).
 *
 * Roots: snarkjs's n-th root of unity comes from 5 (the least non-residue
 * mod r), cuzk's from 7 (bellperson's), and one is the other to the odd
 * power K below: w_js = w_cuzk^K for every 2-power order. So snarkjs's
 * constraint j, at w_js^j = w_cuzk^(K j), is put at cuzk's index (K j) mod
 * n when a and b are built (zkey_row_of), and the value snarkjs pairs with
 * H point j, at shift * w_js^j, is read back from index (K j) mod n.
 *
 * Per vector: DIF with w^-1 (natural in, n * coefficients out, bit-reversed
 * order), times shift^i / n at the position of coefficient i, DIT with w
 * (values at shift * w_cuzk^m, natural order): two transforms, as
 * bellperson's coset step; three vectors make six. */
#include <stdlib.h>
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "groth16/zkey_internal.h"

static unsigned bit_rev(size_t x, unsigned bits) {
  size_t r = 0;
  for (unsigned i = 0; i < bits; i++) r = (r << 1) | ((x >> i) & 1);
  return (unsigned)r;
}

/* A table of 2^bits entries t[i] = base^rev(i) * k; NULL: out of memory. */
static cz_fr *rev_powers(const cz_fr *base, unsigned bits, const cz_fr *k) {
  size_t m = (size_t)1 << bits;
  cz_fr *pw = malloc(m * sizeof *pw), *t = malloc(m * sizeof *t);
  if (pw && t) {
    pw[0] = *k;
    for (size_t i = 1; i < m; i++) cz_fr_mul(&pw[i], &pw[i - 1], base);
    for (size_t i = 0; i < m; i++) t[i] = pw[bit_rev(i, bits)];
  } else {
    free(t);
    t = NULL;
  }
  free(pw);
  return t;
}

/* w_js(2^32) = w_cuzk(2^32)^K: 5^((r-1)/2^32) against 7^((r-1)/2^32)
 * (tests/groth16/test_zkey.c checks it); both sides squared down alike. */
void cz_zkey_snarkjs_root(cz_fr *w, unsigned log_n) {
  const uint64_t k = ZKEY_ROOT_EXP;
  cz_fr ours;
  cz_fr_root_of_unity(&ours, log_n);
  cz_fr_pow(w, &ours, &k, 1);
}

cz_err cz_zkey_hpoly_init(cz_zkey *z) {
  cz_err e = cz_ntt_domain_new(&z->dom, z->log_n);
  if (e != CZ_OK) return e;
  cz_zkey_snarkjs_root(&z->shift, z->log_n + 1);
  z->perm_k = ZKEY_ROOT_EXP & (z->domain_size - 1);
  /* shift^rev(p) / n at bit-reversed position p = hi * 2^lo + lo_part:
   * rev(p) = rev_lo(lo_part) * 2^hi_bits + rev_hi(hi). */
  unsigned lo = z->log_n / 2, hi = z->log_n - lo;
  z->lo_bits = lo;
  cz_fr step = z->shift; /* shift^(2^hi) */
  for (unsigned i = 0; i < hi; i++) cz_fr_sqr(&step, &step);
  z->scale_lo = rev_powers(&step, lo, cz_ntt_domain_size_inv(z->dom));
  z->scale_hi = rev_powers(&z->shift, hi, &CZ_FR_ONE);
  return z->scale_lo && z->scale_hi ? CZ_OK : CZ_ERR_NOMEM;
}

void cz_zkey_hpoly_free(cz_zkey *z) {
  cz_ntt_domain_free(z->dom);
  free(z->scale_lo);
  free(z->scale_hi);
  z->dom = NULL;
  z->scale_lo = z->scale_hi = NULL;
}

typedef struct {
  const cz_zkey *z;
  cz_fr *a, *b, *c;
} hp_ctx;

static void scale_worker(void *p, size_t begin, size_t end, unsigned w) {
  (void)w;
  const hp_ctx *k = p;
  const cz_zkey *z = k->z;
  const size_t mask = ((size_t)1 << z->lo_bits) - 1;
  for (size_t i = begin; i < end; i++) {
    cz_fr f;
    cz_fr_mul(&f, &z->scale_hi[i >> z->lo_bits], &z->scale_lo[i & mask]);
    cz_fr_mul(&k->a[i], &k->a[i], &f);
  }
}

static void product_worker(void *p, size_t begin, size_t end, unsigned w) {
  (void)w;
  const hp_ctx *k = p;
  for (size_t i = begin; i < end; i++) cz_fr_mul(&k->c[i], &k->a[i], &k->b[i]);
}

static void join_worker(void *p, size_t begin, size_t end, unsigned w) {
  (void)w;
  const hp_ctx *k = p;
  for (size_t i = begin; i < end; i++) {
    cz_fr_mul(&k->a[i], &k->a[i], &k->b[i]);
    cz_fr_sub(&k->a[i], &k->a[i], &k->c[i]);
  }
}

static void gather_worker(void *p, size_t begin, size_t end, unsigned w) {
  (void)w;
  const hp_ctx *k = p;
  for (size_t j = begin; j < end; j++) k->b[j] = k->a[zkey_row_of(k->z, j)];
}

/* Values on the domain -> values at shift * w_cuzk^m, in place. */
static void to_odd_coset(const cz_zkey *z, cz_fr *v, unsigned threads) {
  cz_ntt_forward_inv_root(z->dom, v, threads);
  hp_ctx k = {z, v, NULL, NULL};
  cz_parallel_for(z->domain_size, threads, scale_worker, &k);
  cz_ntt_inverse_fwd_root(z->dom, v, threads);
}

void cz_zkey_hpoly(const cz_zkey *z, cz_fr *a, cz_fr *b, cz_fr *c, unsigned threads) {
  const size_t n = z->domain_size;
  hp_ctx k = {z, a, b, c};
  cz_parallel_for(n, threads, product_worker, &k);
  to_odd_coset(z, a, threads);
  to_odd_coset(z, b, threads);
  to_odd_coset(z, c, threads);
  cz_parallel_for(n, threads, join_worker, &k);
  cz_parallel_for(n, threads, gather_worker, &k);
}
