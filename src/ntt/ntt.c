/* Radix-2 NTT over Fr: the domain, the pass structure (see ntt_impl.h for
 * the layout) and the public transforms.
 *
 * A transform is an ntt_job run as passes over memory: the DIF's levels
 * from the top, one pass over the blocks (the DIF's block stages, the coset
 * step, the DIT's block stages, whichever the job has), then the DIT's
 * levels from the bottom. Each pass hands its items (blocks or panels) to
 * the workers in small chunks from a shared counter, so a worker that the
 * machine slows down takes fewer. Kernels come from ntt_ifma.c when the
 * IFMA path is on, else from ntt_scalar.c. */
#include "cuzk/ntt.h"
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "cuzk/cpu.h"
#include "cuzk/parallel.h"
#include "ec/mont.h"
#include "ntt/ntt_impl.h"
#include "util/bigbuf.h"

unsigned cz_ntt_block_log = NTT_BLOCK_LOG;
unsigned cz_ntt_level_max_log = 11;
int cz_ntt_no_scratch = 0;
unsigned cz_ntt_tw_full_max_log = 24;

static void *alloc_fr(size_t count) {
  size_t bytes = count * sizeof(cz_fr);
  bytes = (bytes + 63) & ~(size_t)63; /* aligned_alloc wants a multiple */
  return aligned_alloc(64, bytes ? bytes : 64);
}

cz_fr *cz_ntt_alloc_fr(size_t count) { return alloc_fr(count); }

/* base^i for i < count, on huge pages as far as whole ones go: the panels
 * read it h_lo apart, a TLB miss per row on 4 KiB pages. (cz_huge_alloc
 * would advise the whole rounded-up block, and the single element past
 * n/2 would then take a 2 MiB page of its own.) */
static cz_fr *power_table(const cz_fr *base, size_t count) {
  const size_t huge = (size_t)2 << 20;
  size_t bytes = count * sizeof(cz_fr);
  cz_fr *t =
      bytes < 2 * huge ? alloc_fr(count) : aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
  if (!t) return NULL;
  if (bytes >= 2 * huge) cz_advise_huge(t, bytes / huge * huge);
  cz_fr p = CZ_FR_ONE;
  for (size_t i = 0; i < count; i++) {
    t[i] = p;
    ntt_fr_mul(&p, &p, base);
  }
  return t;
}

/* t[rev_bits(e, bits)] = base^e for e < 2^bits. */
static cz_fr *rev_power_table(const cz_fr *base, unsigned bits) {
  size_t count = (size_t)1 << bits;
  cz_fr *t = alloc_fr(count);
  if (!t) return NULL;
  cz_fr p = CZ_FR_ONE;
  for (size_t e = 0; e < count; e++) {
    t[ntt_rev_bits(e, bits)] = p;
    ntt_fr_mul(&p, &p, base);
  }
  return t;
}

/* omega^i for i <= half: one table, or above 2^cz_ntt_tw_full_max_log the
 * split pair (tw_lo: omega^j, j < 2^L; tw_hi: omega^(2^L q), q <= half >>
 * L; L about half of log2(half)). The split costs a product per twiddle a
 * panel fetches, and saves half a vector's memory (2.1 GB at 2^27). */
static int twiddle_tables(cz_ntt_domain *d) {
  if (d->log_n <= cz_ntt_tw_full_max_log || d->log_n < 4) {
    d->tw = power_table(&d->omega, d->half + 1);
    return d->tw != NULL;
  }
  unsigned half_log = d->log_n - 1;
  d->tw_lo_log = (half_log + 1) / 2;
  d->tw_lo_mask = ((size_t)1 << d->tw_lo_log) - 1;
  cz_fr step = d->omega;
  for (unsigned i = 0; i < d->tw_lo_log; i++) cz_fr_sqr(&step, &step);
  d->tw_lo = power_table(&d->omega, d->tw_lo_mask + 1);
  d->tw_hi = power_table(&step, (d->half >> d->tw_lo_log) + 1);
  return d->tw_lo && d->tw_hi;
}

/* rev_lo and rev_hi for base (see the domain's comment). */
static int coset_tables(cz_ntt_domain *d, int which, const cz_fr *base) {
  unsigned b = d->blk_log, hi_bits = d->log_n - b;
  cz_fr step = *base; /* base^(2^(k-b)) */
  for (unsigned i = 0; i < hi_bits; i++) cz_fr_sqr(&step, &step);
  d->rev_lo[which] = rev_power_table(&step, b);
  d->rev_hi[which] = rev_power_table(base, hi_bits);
  return d->rev_lo[which] && d->rev_hi[which];
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
  if (!twiddle_tables(d)) {
    cz_ntt_domain_free(d);
    return CZ_ERR_NOMEM;
  }
  d->blk_log = log_n < cz_ntt_block_log ? log_n : cz_ntt_block_log;
  d->blk_half = ((size_t)1 << d->blk_log) / 2;
  d->tw_blk = alloc_fr(d->blk_half + 1);
  if (!d->tw_blk || !coset_tables(d, 0, &d->g) || !coset_tables(d, 1, &d->g_inv)) {
    cz_ntt_domain_free(d);
    return CZ_ERR_NOMEM;
  }
  size_t stride = d->half ? d->half / (d->blk_half ? d->blk_half : 1) : 0;
  for (size_t i = 0; i <= d->blk_half; i++) {
    cz_fr tmp;
    d->tw_blk[i] = *ntt_tw_at(d, i * stride, &tmp);
  }
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
  free(d->tw_lo);
  free(d->tw_hi);
  free(d->tw_blk);
  for (int i = 0; i < 2; i++) {
    free(d->rev_lo[i]);
    free(d->rev_hi[i]);
  }
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

/* ---- scheduling ------------------------------------------------------------ */

typedef void (*item_fn)(void *ctx, size_t i0, size_t i1, void *scratch);

typedef struct {
  atomic_size_t next;
  size_t count, chunk, share; /* grabs: (count - next) / share items, at least chunk */
  item_fn fn;
  void *ctx;
  char *scratch; /* per worker: scratch + worker * scratch_bytes, or NULL */
  size_t scratch_bytes;
} sched;

static void sched_worker(void *ctx, size_t w0, size_t w1, unsigned worker) {
  (void)w0;
  (void)w1;
  sched *s = ctx;
  void *scratch = s->scratch ? s->scratch + (size_t)worker * s->scratch_bytes : NULL;
  size_t i = atomic_load_explicit(&s->next, memory_order_relaxed);
  for (;;) {
    if (i >= s->count) break;
    /* guided: a share of what is left, so that the last grabs are small
     * and the workers finish together */
    size_t take = (s->count - i) / s->share;
    if (take < s->chunk) take = s->chunk;
    if (!atomic_compare_exchange_weak_explicit(&s->next, &i, i + take, memory_order_relaxed,
                                               memory_order_relaxed))
      continue;
    s->fn(s->ctx, i, i + take < s->count ? i + take : s->count, scratch);
    i = atomic_load_explicit(&s->next, memory_order_relaxed);
  }
}

/* fn over items [0, count) on up to threads workers: each grab takes a
 * 1 / (2 workers) share of the items left, at least one item. */
static void for_items(size_t count, unsigned threads, item_fn fn, void *ctx, char *scratch,
                      size_t scratch_bytes) {
  unsigned workers = cz_parallel_workers(count, threads);
  sched s = {0, count, 1, 2 * (size_t)(workers ? workers : 1), fn, ctx, scratch, scratch_bytes};
  atomic_init(&s.next, 0);
  cz_parallel_for(workers, workers, sched_worker, &s);
}

/* ---- passes ---------------------------------------------------------------- */

typedef struct {
  ntt_block_pass p;
  int ifma;
} block_run;

static void block_items(void *ctx, size_t b0, size_t b1, void *scratch) {
  const block_run *r = ctx;
  if (r->ifma && cz_ntt_ifma_blocks(&r->p, b0, b1, scratch)) return;
  cz_ntt_scalar_blocks(&r->p, b0, b1);
}

typedef struct {
  ntt_level_pass p;
  int ifma;
} level_run;

static void level_items(void *ctx, size_t q0, size_t q1, void *scratch) {
  const level_run *r = ctx;
  if (r->ifma && cz_ntt_ifma_panels(&r->p, q0, q1, scratch)) return;
  cz_ntt_scalar_panels(&r->p, q0, q1, scratch);
}

/* The block size for n elements and t threads: the domain's block, but
 * small enough that every thread gets a block when n allows. */
static size_t pick_block(const cz_ntt_domain *d, unsigned threads) {
  size_t bsize = 2 * d->blk_half;
  while (bsize > 64 && d->n / bsize < threads) bsize /= 2;
  return bsize;
}

/* Everything one cz_ntt_run needs to know about its passes. */
typedef struct {
  const cz_ntt_domain *d;
  cz_fr *x;
  unsigned threads, outer, levels;
  size_t bsize;
  int ifma;
  char *scratch; /* threads * scratch_bytes, 64-byte aligned, or NULL */
  size_t scratch_bytes;
} plan;

/* Level i (0 = the lowest) of the outer stages: its first stage's half-size
 * and stage count, the outer stages split as evenly as possible. */
static void level_geometry(const plan *pl, unsigned i, size_t *h_lo, unsigned *rows_log) {
  unsigned below = 0;
  for (unsigned j = 0; j < i; j++) below += (pl->outer + j) / pl->levels;
  *rows_log = (pl->outer + i) / pl->levels;
  *h_lo = pl->bsize << below;
}

static void run_level(const plan *pl, unsigned i, int dit, int inv, const cz_fr *pre_mul,
                      const cz_fr *scale) {
  size_t h_lo;
  unsigned rows_log;
  level_geometry(pl, i, &h_lo, &rows_log);
  size_t width = NTT_PANEL_W < h_lo ? NTT_PANEL_W : h_lo;
  size_t spans = pl->d->n / (h_lo << rows_log);
  level_run r = {{pl->d, pl->x, h_lo, width, spans, rows_log, dit, inv, pre_mul, scale}, pl->ifma};
  for_items(pl->d->n / (width << rows_log), pl->threads, level_items, &r, pl->scratch,
            pl->scratch_bytes);
}

/* Per worker: the largest buffer a kernel of this plan may use, a panel or
 * (IFMA) a block in vector form, at 40 bytes per element. */
static size_t scratch_bytes(const plan *pl) {
  size_t most = pl->bsize;
  for (unsigned i = 0; i < pl->levels; i++) {
    size_t h_lo;
    unsigned rows_log;
    level_geometry(pl, i, &h_lo, &rows_log);
    size_t panel = (NTT_PANEL_W < h_lo ? NTT_PANEL_W : h_lo) << rows_log;
    if (panel > most) most = panel;
  }
  return (most * 40 + 63) & ~(size_t)63;
}

static void plan_make(plan *pl, const cz_ntt_domain *d, cz_fr *x, unsigned n_threads) {
  pl->d = d;
  pl->x = x;
  pl->threads = ntt_threads(d->n, n_threads);
  pl->bsize = pick_block(d, pl->threads);
  pl->outer = 0;
  for (size_t b = pl->bsize; b < d->n; b *= 2) pl->outer++;
  unsigned max = cz_ntt_level_max_log ? cz_ntt_level_max_log : 1;
  pl->levels = (pl->outer + max - 1) / max;
  pl->ifma = ntt_use_ifma() && d->vtw_fwd && pl->bsize >= 16;
  pl->scratch_bytes = scratch_bytes(pl);
  pl->scratch = cz_ntt_no_scratch ? NULL : cz_pool_take(pl->threads * pl->scratch_bytes + 64);
}

static void plan_done(plan *pl) { cz_pool_give(pl->scratch); }

/* The job on a single element: every transform is the identity. */
static void run_one(const cz_ntt_domain *d, cz_fr *x, const ntt_job *job) {
  if (job->pre_mul) ntt_fr_mul(x, x, job->pre_mul);
  if (job->coset >= 0) {
    cz_fr f;
    ntt_coset_block(&f, d, job, 0);
    ntt_fr_mul(&f, &f, &d->rev_lo[job->coset][0]);
    ntt_fr_mul(x, x, &f);
    if (job->sub) {
      cz_fr t;
      ntt_fr_mul(&t, job->sub, &job->sub_k);
      ntt_fr_sub(x, x, &t);
    }
  }
  if (job->dit && job->scale) ntt_fr_mul(x, x, job->scale);
}

void cz_ntt_run(const cz_ntt_domain *d, cz_fr *x, const ntt_job *job, unsigned n_threads) {
  if (d->n == 1) {
    run_one(d, x, job);
    return;
  }
  plan pl;
  plan_make(&pl, d, x, n_threads);
  char *scratch = pl.scratch;
  if (scratch) pl.scratch = (char *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
  const cz_fr *pre = job->pre_mul;
  if (job->dif)
    for (unsigned i = pl.levels; i-- > 0; pre = NULL) run_level(&pl, i, 0, job->dif_inv, pre, NULL);
  int dit_levels = job->dit && pl.levels;
  block_run br = {{d, x, pl.bsize, job, pre, job->dit && !dit_levels ? job->scale : NULL}, pl.ifma};
  for_items(d->n / pl.bsize, pl.threads, block_items, &br, pl.scratch, pl.scratch_bytes);
  if (job->dit)
    for (unsigned i = 0; i < pl.levels; i++)
      run_level(&pl, i, 1, job->dit_inv, NULL, i + 1 == pl.levels ? job->scale : NULL);
  pl.scratch = scratch;
  plan_done(&pl);
}

/* ---- the public transforms ------------------------------------------------- */

static void transform(const cz_ntt_domain *d, cz_fr *x, int dit, int inv, const cz_fr *scale,
                      unsigned n_threads) {
  ntt_job job = {!dit, inv, dit, inv, NULL, -1, CZ_FR_ZERO, NULL, CZ_FR_ZERO, scale};
  cz_ntt_run(d, x, &job, n_threads);
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

void cz_ntt_fft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  cz_ntt_forward(d, a, n_threads);
  cz_ntt_bit_reverse(d, a, n_threads);
}

void cz_ntt_ifft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  cz_ntt_bit_reverse(d, a, n_threads);
  cz_ntt_inverse(d, a, n_threads);
}

void cz_ntt_coset_fft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  cz_ntt_scale_natural(d, a, &d->g, &CZ_FR_ONE, n_threads);
  cz_ntt_fft(d, a, n_threads);
}

void cz_ntt_icoset_fft(const cz_ntt_domain *d, cz_fr *a, unsigned n_threads) {
  /* ifft without its n^-1 (DIF with the inverse root leaves bit-reversed
   * coefficients), x_i *= n^-1 g^-i in the same pass, then the permutation. */
  ntt_job job = {1, 1, 0, 0, NULL, 1, d->n_inv, NULL, CZ_FR_ZERO, NULL};
  cz_ntt_run(d, a, &job, n_threads);
  cz_ntt_bit_reverse(d, a, n_threads);
}
