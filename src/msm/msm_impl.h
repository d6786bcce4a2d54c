/* One source for the MSM of G1 and G2. Include after defining:
 *   F, FF(x)         the coordinate field and its function names (fpi_##x)
 *   F_ZERO, F_ONE    its zero and Montgomery one
 *   F_ADD, F_SUB     inline add and subtract (same contract as FF(add/sub))
 *   AFF, JAC, XYZZ   the point types
 *   GN(x)            the group's function names (cz_g1_##x)
 *   SEG              the public segment type (cz_msm_g1_segment)
 *   MSM(x)           the public MSM names (cz_msm_g1##x)
 * Uses the group's public point functions and the field's inline layer, which
 * picks the ADX or portable backend at run time.
 *
 * The stages are in their own headers, included below in this order:
 * msm_batch_impl.h (batched affine addition), msm_bucket_impl.h (a
 * window's buckets and their reduction) and msm_sums_impl.h (scalars equal
 * to 1, equal scalars); this file holds the driver and the entry points. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "msm/msm_internal.h"
#include "util/bigbuf.h"

/* Inversion cost in field multiplications (safegcd: ~40 Fp muls), for the
 * window model. */
#define MSM_INV_COST 50.0
/* Bucket counts below this use XYZZ even in batch-affine mode (the top
 * window has few buckets, so a batch would mostly collide). */
#define MSM_MIN_AFFINE_BUCKETS 256
/* Points summed per batched tree when adding up the scalars equal to 1. */
#define MSM_ONES_BLOCK 2048

#include "msm/msm_batch_impl.h"
#include "msm/msm_bucket_impl.h"
#include "msm/msm_sums_impl.h"

/* ---- driver ------------------------------------------------------------- */

/* One worker's affine-bucket state, set up by its first affine window; a
 * cache line of its own, as its counters change with every point. */
typedef struct {
  _Alignas(64) GN(msm_acc) acc;
  bool ready;
} GN(msm_worker);

typedef struct {
  const msm_plan *plan;
  size_t window_tasks, ones_parts;
  JAC *partial; /* window_tasks window partials, then ones_parts sums */
  GN(msm_worker) * workers;
  AFF *buckets; /* bucket_stride buckets per worker */
  size_t bucket_stride;
  atomic_int failed;
} GN(msm_ctx);

/* Copies of a window's nb buckets for t terms (see msm_window_affine): up to
 * the worker's bucket room, and at most one bucket per 16 terms, so that
 * folding the copies stays cheap against the terms' own additions. */
static size_t GN(msm_copies)(size_t nb, size_t t, size_t room) {
  size_t rep = 1;
  while (nb * rep * 2 <= room && nb * rep * 2 * 16 <= t) rep *= 2;
  return rep;
}

static void GN(msm_task)(void *vctx, size_t task, unsigned worker) {
  GN(msm_ctx) *ctx = vctx;
  const msm_plan *plan = ctx->plan;
  bool ok;
  if (task < ctx->window_tasks) {
    unsigned w = (unsigned)(task / plan->chunks), j = (unsigned)(task % plan->chunks);
    size_t k0 = plan->n_terms * j / plan->chunks, k1 = plan->n_terms * (j + 1) / plan->chunks;
    /* The top window holds the bits above (n_windows - 1) c, so its digits
     * are at most 2^top_bits and it needs fewer buckets. */
    size_t nb = (size_t)1 << (plan->c - 1);
    if (w == plan->n_windows - 1) {
      unsigned top_bits = 255 - w * plan->c;
      if (((size_t)1 << top_bits) < nb) nb = (size_t)1 << top_bits;
    }
    const uint16_t *dig = plan->digits + (size_t)w * plan->n_terms;
    GN(msm_worker) *wk = &ctx->workers[worker];
    size_t rep = GN(msm_copies)(nb, k1 - k0, ctx->bucket_stride);
    if (plan->affine && nb * rep >= MSM_MIN_AFFINE_BUCKETS) {
      if (!wk->ready)
        wk->ready = GN(msm_acc_init)(&wk->acc, ctx->buckets + worker * ctx->bucket_stride,
                                     ctx->bucket_stride, plan->vec);
      ok = wk->ready;
      if (ok) GN(msm_window_affine)(&ctx->partial[task], plan, dig, k0, k1, nb, rep, &wk->acc);
    } else ok = GN(msm_window_xyzz)(&ctx->partial[task], plan, dig, k0, k1, nb);
  } else {
    size_t j = task - ctx->window_tasks, P = ctx->ones_parts;
    size_t a = plan->n_one * j / P, b = plan->n_one * (j + 1) / P;
    ok = GN(msm_sum_points)(&ctx->partial[task], (const AFF *const *)(plan->ones + a), b - a,
                            plan->vec);
  }
  if (!ok) atomic_store(&ctx->failed, 1);
}

static cz_err GN(msm_run)(JAC *out, const msm_seg *segs, size_t n_segs, unsigned n_threads,
                          cz_msm_opts *opts) {
  GN(set_identity)(out);
  double cpu0 = cz_msm_thread_cpu_ms();
  msm_plan plan;
  msm_costs costs = {MSM_INV_COST};
  cz_err err = cz_msm_plan_build(&plan, segs, n_segs, sizeof(AFF), n_threads, opts, &costs);
  if (err) return err;
  AFF *group_pts;
  if (!GN(msm_group_sums)(&plan, &group_pts)) {
    cz_pool_give(group_pts);
    cz_msm_plan_free(&plan);
    return CZ_ERR_NOMEM;
  }
  GN(msm_ctx) ctx = {&plan, 0, 0, NULL, NULL, NULL, 0, 0};
  if (plan.n_terms) ctx.window_tasks = (size_t)plan.n_windows * plan.chunks;
  /* Every worker reuses one bucket set, all of them in one scratch block:
   * fresh pages per window cost more in faults than the window's additions
   * on these VMs, and the faults do not run in parallel. */
  size_t nb_max = (size_t)1 << (plan.c - 1);
  if (plan.affine && ctx.window_tasks) {
    ctx.bucket_stride = nb_max;
    ctx.buckets = cz_pool_take((size_t)plan.threads * nb_max * sizeof(AFF));
  }
  ctx.workers = aligned_alloc(64, plan.threads * sizeof *ctx.workers);
  if (ctx.workers) memset(ctx.workers, 0, plan.threads * sizeof *ctx.workers);
  if (plan.n_one) {
    size_t parts = (plan.n_one + 4 * MSM_ONES_BLOCK - 1) / (4 * MSM_ONES_BLOCK);
    ctx.ones_parts = parts < 2 * plan.threads ? parts : 2 * plan.threads;
  }
  size_t tasks = ctx.window_tasks + ctx.ones_parts;
  ctx.partial = malloc((tasks ? tasks : 1) * sizeof *ctx.partial);
  double extra = 0;
  if (ctx.partial && ctx.workers && (ctx.buckets || !ctx.bucket_stride))
    extra = cz_msm_run_tasks(tasks, plan.threads, GN(msm_task), &ctx);
  else atomic_store(&ctx.failed, 1);
  if (ctx.workers)
    for (unsigned i = 0; i < plan.threads; i++) GN(msm_acc_free)(&ctx.workers[i].acc);
  free(ctx.workers);
  cz_pool_give(ctx.buckets);
  if (atomic_load(&ctx.failed)) {
    free(ctx.partial);
    cz_pool_give(group_pts);
    cz_msm_plan_free(&plan);
    return CZ_ERR_NOMEM;
  }
  /* Horner over the windows, top first: acc = 2^c acc + window_w. */
  JAC acc;
  GN(set_identity)(&acc);
  if (plan.n_terms) {
    for (unsigned w = plan.n_windows; w-- > 0;) {
      if (w != plan.n_windows - 1)
        for (unsigned i = 0; i < plan.c; i++) GN(dbl)(&acc, &acc);
      for (unsigned j = 0; j < plan.chunks; j++)
        GN(add)(&acc, &acc, &ctx.partial[(size_t)w * plan.chunks + j]);
    }
  }
  for (size_t j = 0; j < ctx.ones_parts; j++)
    GN(add)(&acc, &acc, &ctx.partial[ctx.window_tasks + j]);
  *out = acc;
  if (opts) {
    opts->used_window_bits = plan.n_terms ? plan.c : 0;
    opts->used_point_chunks = plan.n_terms ? plan.chunks : 0;
    opts->used_batch_affine = plan.n_terms && plan.affine;
    opts->used_ifma = plan.vec;
    opts->n_zero = plan.n_zero;
    opts->n_one = plan.n_one;
    opts->n_other = plan.n_other;
    opts->n_distinct = plan.n_terms;
    opts->n_multi = plan.n_multi;
    opts->cpu_critical_ms = cz_msm_thread_cpu_ms() - cpu0 + plan.extra_critical_ms + extra;
  }
  free(ctx.partial);
  cz_pool_give(group_pts);
  cz_msm_plan_free(&plan);
  return CZ_OK;
}

/* ---- public entry points ------------------------------------------------ */

cz_err MSM(_segments)(JAC *out, const SEG *segs, size_t n_segs, unsigned n_threads,
                      cz_msm_opts *opts) {
  if (!out) return CZ_ERR_INVALID_ARG;
  GN(set_identity)(out);
  if (n_segs && !segs) return CZ_ERR_INVALID_ARG;
  msm_seg *g = malloc((n_segs ? n_segs : 1) * sizeof *g);
  if (!g) return CZ_ERR_NOMEM;
  for (size_t i = 0; i < n_segs; i++)
    g[i] = (msm_seg){(const uint8_t *)segs[i].bases,
                     segs[i].n_bases,
                     segs[i].scalars,
                     segs[i].frs,
                     segs[i].n_scalars,
                     segs[i].density,
                     segs[i].packed};
  cz_err err = GN(msm_run)(out, g, n_segs, n_threads, opts);
  free(g);
  return err;
}

cz_err MSM()(JAC *out, const AFF *bases, const cz_scalar *scalars, size_t n, unsigned n_threads) {
  SEG s = {bases, n, scalars, NULL, n, NULL, NULL};
  return MSM(_segments)(out, &s, 1, n_threads, NULL);
}

cz_err MSM(_fr)(JAC *out, const AFF *bases, const cz_fr *scalars, size_t n, unsigned n_threads) {
  SEG s = {bases, n, NULL, scalars, n, NULL, NULL};
  return MSM(_segments)(out, &s, 1, n_threads, NULL);
}
