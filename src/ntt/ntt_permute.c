/* The bit-reversal permutation, in tiles that read and write whole cache
 * lines, and the natural-order power scaling of cz_ntt_coset_fft. */
#include <stdlib.h>
#include "ntt/ntt_impl.h"

/* ---- bit reversal ------------------------------------------------------------ */

/* Tiles of T x T elements, T = 2^TILE_LOG: with i = (a, m, b) = a 2^(k-t) +
 * m 2^t + b (a, b < T), rev(i) = (rev_t(b), rev(m), rev_t(a)). The tile of
 * middle m (T rows of T contiguous elements) and the tile of middle rev(m)
 * trade places transposed: each element is read and written once, by rows
 * of T elements (8 cache lines). */
#define TILE_LOG 4
#define TILE ((size_t)1 << TILE_LOG)

typedef struct {
  cz_fr *x;
  unsigned log_n;
} rev_ctx;

static void tile_load(cz_fr t[TILE][TILE], const cz_fr *x, size_t row_stride) {
  for (size_t a = 0; a < TILE; a++)
    for (size_t b = 0; b < TILE; b++) t[a][b] = x[a * row_stride + b];
}

/* x's tile (a, b) = t[rev b][rev a]. */
static void tile_store_transposed(cz_fr *x, size_t row_stride, cz_fr t[TILE][TILE]) {
  for (size_t a = 0; a < TILE; a++) {
    size_t ra = ntt_rev_bits(a, TILE_LOG);
    for (size_t b = 0; b < TILE; b++) x[a * row_stride + b] = t[ntt_rev_bits(b, TILE_LOG)][ra];
  }
}

static void rev_tiles(void *ctx, size_t m0, size_t m1, unsigned worker) {
  (void)worker;
  const rev_ctx *r = ctx;
  unsigned mid_bits = r->log_n - 2 * TILE_LOG;
  size_t row_stride = (size_t)1 << (r->log_n - TILE_LOG);
  cz_fr ta[TILE][TILE], tb[TILE][TILE];
  for (size_t m = m0; m < m1; m++) {
    size_t mr = ntt_rev_bits(m, mid_bits);
    if (mr < m) continue; /* the pair's other tile does it */
    cz_fr *xa = r->x + m * TILE, *xb = r->x + mr * TILE;
    tile_load(ta, xa, row_stride);
    if (mr != m) {
      tile_load(tb, xb, row_stride);
      tile_store_transposed(xa, row_stride, tb);
    }
    tile_store_transposed(xb, row_stride, ta);
  }
}

static void rev_pairs(void *ctx, size_t i0, size_t i1, unsigned worker) {
  (void)worker;
  const rev_ctx *r = ctx;
  for (size_t i = i0; i < i1; i++) {
    size_t j = ntt_rev_bits(i, r->log_n);
    if (i < j) {
      cz_fr t = r->x[i];
      r->x[i] = r->x[j];
      r->x[j] = t;
    }
  }
}

void cz_ntt_bit_reverse(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  rev_ctx r = {a, d->log_n};
  unsigned threads = ntt_threads(d->n, n_threads);
  if (d->log_n < 2 * TILE_LOG) cz_parallel_for(d->n, threads, rev_pairs, &r);
  else cz_parallel_for((size_t)1 << (d->log_n - 2 * TILE_LOG), threads, rev_tiles, &r);
}

/* ---- natural-order scaling ----------------------------------------------------- */

/* x[i] *= c base^i = lo[i % 2^lo_log] hi[i >> lo_log], from two tables of
 * about sqrt(n) entries. */
typedef struct {
  cz_fr *x;
  unsigned lo_log;
  cz_fr *lo, *hi;
} scale_ctx;

static void scale_worker(void *ctx, size_t i0, size_t i1, unsigned worker) {
  (void)worker;
  const scale_ctx *s = ctx;
  size_t mask = ((size_t)1 << s->lo_log) - 1;
  for (size_t i = i0; i < i1; i++) {
    cz_fr f;
    ntt_fr_mul(&f, &s->lo[i & mask], &s->hi[i >> s->lo_log]);
    ntt_fr_mul(&s->x[i], &s->x[i], &f);
  }
}

static cz_fr *powers(const cz_fr *start, const cz_fr *step, size_t count) {
  cz_fr *t = cz_ntt_alloc_fr(count), p = *start;
  for (size_t j = 0; t && j < count; j++) {
    t[j] = p;
    ntt_fr_mul(&p, &p, step);
  }
  return t;
}

void cz_ntt_scale_natural(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                          unsigned n_threads) {
  scale_ctx s = {x, (d->log_n + 1) / 2, NULL, NULL};
  cz_fr step_hi = *base;
  for (unsigned i = 0; i < s.lo_log; i++) cz_fr_sqr(&step_hi, &step_hi);
  s.lo = powers(c, base, (size_t)1 << s.lo_log);
  s.hi = powers(&CZ_FR_ONE, &step_hi, (size_t)1 << (d->log_n - s.lo_log));
  if (s.lo && s.hi) {
    cz_parallel_for(d->n, ntt_threads(d->n, n_threads), scale_worker, &s);
  } else { /* no room for the tables: one running power */
    cz_fr p = *c;
    for (size_t i = 0; i < d->n; i++) {
      ntt_fr_mul(&x[i], &x[i], &p);
      ntt_fr_mul(&p, &p, base);
    }
  }
  free(s.lo);
  free(s.hi);
}
