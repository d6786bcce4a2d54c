/* Radix-2/4 NTT over Fr.
 *
 * Forward is decimation in frequency (natural in, bit-reversed out), inverse
 * is decimation in time (bit-reversed in, natural out), so the pair needs no
 * permutation. Butterflies read twiddles from one precomputed table
 * tw[i] = omega^i, i <= n/2: the inverse root is free because
 * omega^-e = omega^(n/2 - e) * omega^(n/2) = -tw[n/2 - e] (including e = 0,
 * tw[n/2] = -1), and the minus sign is absorbed by swapping add and sub.
 *
 * Cache blocking: the first stages of the DIF (the last of the DIT) have
 * strides above the block size and run as radix-4 passes over the whole
 * vector, two stages per pass (half the memory traffic of radix-2); the
 * remaining stages touch only aligned blocks of CZ_NTT_BLOCK elements, which
 * stay in L2 and run to completion one block at a time, with twiddles from a
 * compact table of the block's own roots. Both levels split their work over
 * the thread budget with cz_parallel_for. */
#include "cuzk/ntt.h"
#include <stdint.h>
#include <stdlib.h>
#include "cuzk/cpu.h"
#include "cuzk/parallel.h"
#include "ec/mont.h"
#include "ntt/ntt_impl.h"

/* 2^13 elements = 256 KiB: with its twiddles, well inside a 1 MiB L2. */
#ifndef BLOCK_LOG
#define BLOCK_LOG 13
#endif

static void *alloc_fr(size_t count) {
  size_t bytes = count * sizeof(cz_fr);
  bytes = (bytes + 63) & ~(size_t)63; /* aligned_alloc wants a multiple */
  return aligned_alloc(64, bytes ? bytes : 64);
}

cz_fr *cz_ntt_alloc_fr(size_t count) { return alloc_fr(count); }

static cz_fr *power_table(const cz_fr *base, size_t count) {
  cz_fr *t = alloc_fr(count);
  if (!t) return NULL;
  cz_fr p = CZ_FR_ONE;
  for (size_t i = 0; i < count; i++) {
    t[i] = p;
    ntt_fr_mul(&p, &p, base);
  }
  return t;
}

cz_err cz_ntt_domain_new(cz_ntt_domain **out, unsigned log_n) {
  if (!out || log_n > CZ_NTT_MAX_LOG) return CZ_ERR_INVALID_ARG;
  cz_ntt_domain *d = calloc(1, sizeof *d);
  if (!d) return CZ_ERR_NOMEM;
  d->log_n = log_n;
  d->n = (size_t)1 << log_n;
  cz_fr_root_of_unity(&d->omega, log_n);
  cz_fr_inv(&d->omega_inv, &d->omega);
  cz_fr nf;
  cz_fr_from_u64(&nf, d->n);
  cz_fr_inv(&d->n_inv, &nf);
  cz_fr_from_u64(&d->g, CZ_FR_GENERATOR);
  cz_fr_inv(&d->g_inv, &d->g);

  d->half = d->n / 2;
  d->tw = power_table(&d->omega, d->half + 1);
  unsigned blog = log_n < BLOCK_LOG ? log_n : BLOCK_LOG;
  d->blk_half = ((size_t)1 << blog) / 2;
  d->tw_blk = alloc_fr(d->blk_half + 1);
  if (!d->tw || !d->tw_blk) { cz_ntt_domain_free(d); return CZ_ERR_NOMEM; }
  size_t stride = d->half ? d->half / (d->blk_half ? d->blk_half : 1) : 0;
  for (size_t i = 0; i <= d->blk_half; i++) d->tw_blk[i] = d->tw[i * stride];
  if (cz_cpu_has_ifma()) cz_ntt_ifma_domain_init(d);
  *out = d;
  return CZ_OK;
}

cz_err cz_ntt_domain_for_size(cz_ntt_domain **out, size_t m) {
  unsigned k = 0;
  while (((size_t)1 << k) < m) {
    k++;
    if (k >= CZ_FR_TWO_ADICITY) return CZ_ERR_INVALID_ARG;
  }
  return cz_ntt_domain_new(out, k);
}

void cz_ntt_domain_free(cz_ntt_domain *d) {
  if (!d) return;
  free(d->tw);
  free(d->tw_blk);
  cz_ntt_ifma_domain_free(d);
  free(d);
}

size_t cz_ntt_domain_size(const cz_ntt_domain *d) { return d->n; }
unsigned cz_ntt_domain_log_size(const cz_ntt_domain *d) { return d->log_n; }
const cz_fr *cz_ntt_domain_omega(const cz_ntt_domain *d) { return &d->omega; }
const cz_fr *cz_ntt_domain_omega_inv(const cz_ntt_domain *d) { return &d->omega_inv; }
const cz_fr *cz_ntt_domain_size_inv(const cz_ntt_domain *d) { return &d->n_inv; }
const cz_fr *cz_ntt_domain_coset_gen(const cz_ntt_domain *d) { return &d->g; }
const cz_fr *cz_ntt_domain_coset_gen_inv(const cz_ntt_domain *d) { return &d->g_inv; }

/* ---- butterflies --------------------------------------------------------- */

#define fr_add ntt_fr_add
#define fr_sub ntt_fr_sub

/* tw has half+1 entries omega_(2 half)^i; the twiddle for exponent e, or for
 * -e with the sign folded into the butterfly (see the file comment). */
static inline const cz_fr *twid(const cz_fr *tw, size_t half, size_t e, int inv) {
  return inv ? &tw[half - e] : &tw[e];
}

/* DIF: (u, v) <- (u + v, (u - v) w); with w = -t for the inverse root. */
static inline void bf_dif(cz_fr *u, cz_fr *v, const cz_fr *t, int inv) {
  cz_fr d;
  if (inv) fr_sub(&d, v, u);
  else fr_sub(&d, u, v);
  fr_add(u, u, v);
  ntt_fr_mul(v, &d, t);
}

/* DIT: (u, v) <- (u + v w, u - v w); with w = -t for the inverse root. */
static inline void bf_dit(cz_fr *u, cz_fr *v, const cz_fr *t, int inv) {
  cz_fr m;
  ntt_fr_mul(&m, v, t);
  if (inv) { fr_add(v, u, &m); fr_sub(u, u, &m); }
  else { fr_sub(v, u, &m); fr_add(u, u, &m); }
}

/* Both butterflies with twiddle 1 (exponent 0; for the inverse root t = -1,
 * which gives the same result): (u, v) <- (u + v, u - v), no multiplication.
 * Column 0 of every stage has it, so the small stages save most of their
 * muls: n muls in all, two stages' worth. */
static inline void bf_one(cz_fr *u, cz_fr *v) {
  cz_fr d;
  fr_sub(&d, u, v);
  fr_add(u, u, v);
  *v = d;
}

/* ---- passes -------------------------------------------------------------- */

/* One pass over the rectangle of blocks [b0, b1) x columns [j0, j1). A
 * radix-2 pass runs the stage of half-size h: (blk, j) is the pair
 * (blk*2h + j, +h), j < h. A radix-4 pass runs the stages of half-sizes 2g
 * and g (g = h here): (blk, j) is the quadruple base + {0, g, 2g, 3g},
 * base = blk*4g + j, j < g. Twiddle exponents are scaled into the table:
 * omega_(2h)^j = tw[j * half/h]. */
typedef struct {
  cz_fr *x;
  size_t h;
  const cz_fr *tw;
  size_t half;
  int inv, dit, radix4;
  const cz_fr *scale; /* DIT only: multiply every output by *scale (or NULL) */
} pass_ctx;

static void run_radix2(const pass_ctx *c, size_t b0, size_t b1, size_t j0, size_t j1) {
  size_t h = c->h, s = c->half / h;
  for (size_t blk = b0; blk < b1; blk++) {
    cz_fr *u = c->x + blk * 2 * h;
    for (size_t j = j0; j < j1; j++) {
      const cz_fr *t = twid(c->tw, c->half, j * s, c->inv);
      if (j == 0) {
        bf_one(&u[j], &u[j + h]);
        if (c->scale) { ntt_fr_mul(&u[j], &u[j], c->scale); ntt_fr_mul(&u[j + h], &u[j + h], c->scale); }
      } else if (c->dit) {
        bf_dit(&u[j], &u[j + h], t, c->inv);
        if (c->scale) { ntt_fr_mul(&u[j], &u[j], c->scale); ntt_fr_mul(&u[j + h], &u[j + h], c->scale); }
      } else {
        bf_dif(&u[j], &u[j + h], t, c->inv);
      }
    }
  }
}

static void run_radix4(const pass_ctx *c, size_t b0, size_t b1, size_t j0, size_t j1) {
  size_t g = c->h, s1 = c->half / (2 * g);
  int inv = c->inv;
  for (size_t blk = b0; blk < b1; blk++) {
    cz_fr *p = c->x + blk * 4 * g;
    for (size_t j = j0; j < j1; j++) {
      cz_fr *p0 = &p[j], *p1 = p0 + g, *p2 = p1 + g, *p3 = p2 + g;
      const cz_fr *ta = twid(c->tw, c->half, j * s1, inv);        /* omega_4g^j */
      const cz_fr *tb = twid(c->tw, c->half, (j + g) * s1, inv);  /* omega_4g^(j+g) */
      const cz_fr *tc = twid(c->tw, c->half, 2 * j * s1, inv);    /* omega_2g^j */
      if (j == 0) { /* ta = tc = 1 */
        if (c->dit) {
          bf_one(p0, p1);
          bf_one(p2, p3);
          bf_one(p0, p2);
          bf_dit(p1, p3, tb, inv);
          if (c->scale) {
            ntt_fr_mul(p0, p0, c->scale); ntt_fr_mul(p1, p1, c->scale);
            ntt_fr_mul(p2, p2, c->scale); ntt_fr_mul(p3, p3, c->scale);
          }
        } else {
          bf_one(p0, p2);
          bf_dif(p1, p3, tb, inv);
          bf_one(p0, p1);
          bf_one(p2, p3);
        }
      } else if (c->dit) {
        bf_dit(p0, p1, tc, inv);
        bf_dit(p2, p3, tc, inv);
        bf_dit(p0, p2, ta, inv);
        bf_dit(p1, p3, tb, inv);
        if (c->scale) {
          ntt_fr_mul(p0, p0, c->scale); ntt_fr_mul(p1, p1, c->scale);
          ntt_fr_mul(p2, p2, c->scale); ntt_fr_mul(p3, p3, c->scale);
        }
      } else {
        bf_dif(p0, p2, ta, inv);
        bf_dif(p1, p3, tb, inv);
        bf_dif(p0, p1, tc, inv);
        bf_dif(p2, p3, tc, inv);
      }
    }
  }
}

/* A whole pass over len elements. */
static void run_pass(const pass_ctx *c, size_t len) {
  if (c->radix4) run_radix4(c, 0, len / (4 * c->h), 0, c->h);
  else run_radix2(c, 0, len / (2 * c->h), 0, c->h);
}

/* Outer passes split by columns: a worker takes chunks of COLS columns and
 * walks every block for them, so the (strided, scattered) twiddles of a chunk
 * are read from memory once and then hit in L1 for all blocks, while the data
 * are still read as runs of COLS consecutive elements. */
#define COLS 64

typedef struct {
  pass_ctx p;
  size_t n;
} outer_ctx;

static void outer_worker(void *ctx, size_t c0, size_t c1, unsigned worker) {
  (void)worker;
  const outer_ctx *o = ctx;
  size_t h = o->p.h, cols = h; /* columns: j in [0, h) */
  size_t blocks = o->n / ((o->p.radix4 ? 4 : 2) * h);
  size_t j0 = c0 * COLS, j1 = c1 * COLS < cols ? c1 * COLS : cols;
  for (size_t j = j0; j < j1; j += COLS) {
    size_t je = j + COLS < j1 ? j + COLS : j1;
    if (o->p.radix4) run_radix4(&o->p, 0, blocks, j, je);
    else run_radix2(&o->p, 0, blocks, j, je);
  }
}

static void outer_pass(const pass_ctx *c, size_t n, unsigned threads) {
  outer_ctx o = {*c, n};
  cz_parallel_for((c->h + COLS - 1) / COLS, threads, outer_worker, &o);
}

/* All stages with half-size < bsize inside blocks of bsize elements, in the
 * order the direction needs (DIF: large to small; DIT: small to large). */
typedef struct {
  cz_fr *x;
  size_t bsize;
  const cz_fr *tw;
  size_t half;
  int inv, dit;
  const cz_fr *scale; /* applied by the last DIT stage when the block is everything */
} block_ctx;

static void run_block(const block_ctx *b, cz_fr *x) {
  size_t len = b->bsize;
  unsigned stages = 0;
  while (((size_t)1 << stages) < len) stages++;
  pass_ctx c = {x, 0, b->tw, b->half, b->inv, b->dit, 0, NULL};
  if (!b->dit) {
    size_t h = len / 2;
    for (; stages >= 2; stages -= 2, h /= 4) {
      c.h = h / 2; c.radix4 = 1;
      run_pass(&c, len);
    }
    if (stages) { c.h = h; c.radix4 = 0; run_pass(&c, len); }
  } else {
    size_t h = 1;
    if (stages & 1) {
      c.h = 1; c.radix4 = 0; c.scale = stages == 1 ? b->scale : NULL;
      run_pass(&c, len);
      h = 2; stages--;
    }
    for (; stages >= 2; stages -= 2, h *= 4) {
      c.h = h; c.radix4 = 1; c.scale = stages == 2 ? b->scale : NULL;
      run_pass(&c, len);
    }
  }
}

static void block_worker(void *ctx, size_t b0, size_t b1, unsigned worker) {
  (void)worker;
  const block_ctx *b = ctx;
  for (size_t i = b0; i < b1; i++) run_block(b, b->x + i * b->bsize);
}

/* The block size for n elements and t threads: the cache block, but small
 * enough that every thread gets a block when n allows. */
static size_t pick_block(const cz_ntt_domain *d, unsigned threads) {
  size_t bsize = 2 * d->blk_half;
  while (bsize > 64 && d->n / bsize < threads) bsize /= 2;
  return bsize;
}

typedef struct {
  pass_ctx c;
  const cz_fr *scale; /* for the DIT's last pass */
  size_t n;
  unsigned threads;
} outer_stages;

static void outer_stage(void *ctx, size_t h, int radix4, int last) {
  outer_stages *s = ctx;
  s->c.h = h;
  s->c.radix4 = radix4;
  s->c.scale = last ? s->scale : NULL;
  outer_pass(&s->c, s->n, s->threads);
}

/* The whole transform: DIF (dit = 0) or DIT (dit = 1), root omega or omega^-1
 * (inv), outputs multiplied by *scale when not NULL (DIT only). */
static void transform(const cz_ntt_domain *d, cz_fr *x, int dit, int inv, const cz_fr *scale,
                      unsigned n_threads) {
  size_t n = d->n;
  if (n == 1) {
    if (scale) ntt_fr_mul(x, x, scale);
    return;
  }
  unsigned threads = ntt_threads(n, n_threads);
  size_t bsize = pick_block(d, threads);
  if (ntt_use_ifma() && bsize >= 64 && d->vtw_fwd) {
    cz_ntt_ifma_transform(d, x, dit, inv, scale, bsize, threads);
    return;
  }
  unsigned outer = ntt_outer_count(d->log_n, bsize);
  block_ctx bc = {x, bsize, d->tw_blk, d->blk_half, inv, dit, outer == 0 ? scale : NULL};
  outer_stages st = {{x, 0, d->tw, d->half, inv, dit, 0, NULL}, scale, n, threads};
  if (!dit) ntt_outer_stages(n, bsize, outer, dit, outer_stage, &st);
  cz_parallel_for(n / bsize, threads, block_worker, &bc);
  if (dit) ntt_outer_stages(n, bsize, outer, dit, outer_stage, &st);
}

void cz_ntt_forward(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  transform(d, a, 0, 0, NULL, n_threads);
}
void cz_ntt_inverse(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  transform(d, a, 1, 1, &d->n_inv, n_threads);
}
void cz_ntt_forward_inv_root(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  transform(d, a, 0, 1, NULL, n_threads);
}
void cz_ntt_inverse_fwd_root(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  transform(d, a, 1, 0, NULL, n_threads);
}

/* ---- permutation and power scaling --------------------------------------- */

/* factor(i) = lo[i & mask] * hi[i >> lo_log]: base^i (times a constant folded
 * into lo) from two tables of about sqrt(n) entries each. With rev set the
 * exponent is rev(i) instead of i, built from the reversed halves:
 * rev_k(hi*2^s + lo) = rev_s(lo) * 2^(k-s) + rev_(k-s)(hi). */
typedef struct {
  cz_fr *x;
  unsigned log_n, lo_log;
  cz_fr *lo, *hi;
  int permute;      /* natural result y[i] = x[rev(i)] * factor(i) */
  const cz_fr *sub; /* permute only: then y[i] -= sub[rev(i)] * sub_k */
  cz_fr sub_k;
} scale_ctx;

static cz_err scale_tables(scale_ctx *s, unsigned log_n, const cz_fr *base, const cz_fr *c,
                           int rev) {
  s->log_n = log_n;
  s->lo_log = (log_n + 1) / 2;
  unsigned hi_log = log_n - s->lo_log;
  size_t nlo = (size_t)1 << s->lo_log, nhi = (size_t)1 << hi_log;
  s->lo = alloc_fr(nlo);
  s->hi = alloc_fr(nhi);
  if (!s->lo || !s->hi) { free(s->lo); free(s->hi); return CZ_ERR_NOMEM; }
  /* natural: lo[j] = c base^j, hi[j] = base^(j 2^lo_log).
   * reversed: lo[j] = c base^(rev_lo(j) 2^hi_log), hi[j] = base^rev_hi(j). */
  cz_fr step_lo = *base, step_hi = *base, p;
  for (unsigned i = 0; i < (rev ? hi_log : 0); i++) cz_fr_sqr(&step_lo, &step_lo);
  for (unsigned i = 0; i < (rev ? 0 : s->lo_log); i++) cz_fr_sqr(&step_hi, &step_hi);
  p = *c;
  for (size_t j = 0; j < nlo; j++) {
    s->lo[rev ? ntt_rev_bits(j, s->lo_log) : j] = p;
    ntt_fr_mul(&p, &p, &step_lo);
  }
  p = CZ_FR_ONE;
  for (size_t j = 0; j < nhi; j++) {
    s->hi[rev ? ntt_rev_bits(j, hi_log) : j] = p;
    ntt_fr_mul(&p, &p, &step_hi);
  }
  return CZ_OK;
}

static inline void factor(cz_fr *f, const scale_ctx *s, size_t i) {
  ntt_fr_mul(f, &s->lo[i & (((size_t)1 << s->lo_log) - 1)], &s->hi[i >> s->lo_log]);
}

static void scale_worker(void *ctx, size_t i0, size_t i1, unsigned worker) {
  (void)worker;
  const scale_ctx *s = ctx;
  cz_fr f;
  if (!s->permute) {
    if (ntt_use_ifma()) {
      cz_ntt_ifma_scale(s->x, s->lo, s->hi, s->lo_log, i0, i1);
      return;
    }
    for (size_t i = i0; i < i1; i++) {
      factor(&f, s, i);
      ntt_fr_mul(&s->x[i], &s->x[i], &f);
    }
    return;
  }
  /* Each swap pair {i, rev(i)} belongs to the worker that owns its smaller index. */
  if (ntt_use_ifma()) {
    cz_ntt_ifma_scale_permute(s->x, s->lo, s->hi, s->lo_log, s->log_n, i0, i1, s->sub,
                              &s->sub_k);
    return;
  }
  for (size_t i = i0; i < i1; i++) {
    size_t r = ntt_rev_bits(i, s->log_n);
    if (r >= i) ntt_scale_permute_pair(s->x, s->lo, s->hi, s->lo_log, i, r, s->sub, &s->sub_k);
  }
}

/* x[i] *= c * base^e(i), e(i) = i (rev = 0) or rev(i) (rev = 1); with permute,
 * also x[i] <-> x[rev(i)] first (rev must be 0). Falls back to a serial
 * running power when the small tables cannot be allocated. */
static void scale_powers_sub(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                             int rev, int permute, const cz_fr *sub, const cz_fr *sub_k,
                             unsigned n_threads) {
  scale_ctx s = {x, 0, 0, NULL, NULL, permute, sub, sub ? *sub_k : CZ_FR_ZERO};
  if (scale_tables(&s, d->log_n, base, c, rev) != CZ_OK) {
    if (permute) cz_ntt_bit_reverse(d, x, 1);
    cz_fr p = *c;
    for (size_t i = 0; i < d->n; i++) {
      size_t e = rev ? ntt_rev_bits(i, d->log_n) : i;
      cz_fr f;
      cz_fr_pow(&f, base, (const uint64_t[]){e}, 1);
      ntt_fr_mul(&f, &f, &p);
      ntt_fr_mul(&x[i], &x[i], &f);
      if (sub) {
        ntt_fr_mul(&f, &sub[ntt_rev_bits(i, d->log_n)], sub_k);
        ntt_fr_sub(&x[i], &x[i], &f);
      }
    }
    return;
  }
  cz_parallel_for(d->n, ntt_threads(d->n, n_threads), scale_worker, &s);
  free(s.lo);
  free(s.hi);
}

static void scale_powers(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                         int rev, int permute, unsigned n_threads) {
  scale_powers_sub(d, x, base, c, rev, permute, NULL, NULL, n_threads);
}

void cz_ntt_permute_scale_sub(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                              const cz_fr *sub, const cz_fr *k, unsigned n_threads) {
  scale_powers_sub(d, x, base, c, 0, 1, sub, k, n_threads);
}

void cz_ntt_scale_powers(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                         int rev, int permute, unsigned n_threads) {
  scale_powers(d, x, base, c, rev, permute, n_threads);
}

typedef struct {
  cz_fr *x;
  unsigned log_n;
} rev_ctx;

static void rev_worker(void *ctx, size_t i0, size_t i1, unsigned worker) {
  (void)worker;
  const rev_ctx *r = ctx;
  for (size_t i = i0; i < i1; i++) {
    size_t j = ntt_rev_bits(i, r->log_n);
    if (i < j) { cz_fr t = r->x[i]; r->x[i] = r->x[j]; r->x[j] = t; }
  }
}

void cz_ntt_bit_reverse(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  rev_ctx r = {a, d->log_n};
  cz_parallel_for(d->n, ntt_threads(d->n, n_threads), rev_worker, &r);
}

/* ---- natural-order transforms -------------------------------------------- */

void cz_ntt_fft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  cz_ntt_forward(d, a, n_threads);
  cz_ntt_bit_reverse(d, a, n_threads);
}

void cz_ntt_ifft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  cz_ntt_bit_reverse(d, a, n_threads);
  cz_ntt_inverse(d, a, n_threads);
}

void cz_ntt_coset_fft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  scale_powers(d, a, &d->g, &CZ_FR_ONE, 0, 0, n_threads);
  cz_ntt_fft(d, a, n_threads);
}

void cz_ntt_icoset_fft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  /* ifft without its n^-1, then x_i *= n^-1 g^-i in the same pass as the
   * permutation: DIF with the inverse root leaves bit-reversed coefficients. */
  cz_ntt_forward_inv_root(d, a, n_threads);
  scale_powers(d, a, &d->g_inv, &d->n_inv, 0, 1, n_threads);
}
