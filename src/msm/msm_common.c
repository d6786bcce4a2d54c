/* Group-independent MSM machinery: task pool, scalar plan, window choice. */
#include <math.h>
#include <time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/cpu.h"
#include "msm/msm_internal.h"
#include "util/bigbuf.h"

/* ---- task pool --------------------------------------------------------- */

/* n_threads, at most 256; 0 -> online cores. */
static unsigned msm_resolve_threads(unsigned n_threads) {
  if (n_threads) return n_threads > 256 ? 256 : n_threads;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

typedef struct {
  msm_task_fn fn;
  void *ctx;
  size_t n_tasks;
  atomic_size_t next;
} pool_job;

typedef struct {
  pool_job *job;
  unsigned worker;
  double cpu_ms;
} pool_arg;

double cz_msm_thread_cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static void pool_drain(pool_job *job, unsigned worker) {
  for (;;) {
    size_t t = atomic_fetch_add(&job->next, 1);
    if (t >= job->n_tasks) return;
    job->fn(job->ctx, t, worker);
  }
}

static void *pool_thread(void *p) {
  pool_arg *a = p;
  double t0 = cz_msm_thread_cpu_ms();
  pool_drain(a->job, a->worker);
  a->cpu_ms = cz_msm_thread_cpu_ms() - t0;
  return NULL;
}

double cz_msm_run_tasks(size_t n_tasks, unsigned threads, msm_task_fn fn, void *ctx) {
  if (n_tasks == 0) return 0;
  unsigned workers = threads ? threads : 1;
  if (workers > n_tasks) workers = (unsigned)n_tasks;
  pool_job job = {fn, ctx, n_tasks, 0};
  pthread_t tid[256];
  pool_arg args[256];
  unsigned started = 0;
  for (unsigned w = 1; w < workers; w++) {
    args[started] = (pool_arg){&job, w, 0};
    /* A thread that cannot start just leaves its share to the others. */
    if (pthread_create(&tid[started], NULL, pool_thread, &args[started]) == 0) started++;
  }
  double t0 = cz_msm_thread_cpu_ms();
  pool_drain(&job, 0);
  double mine = cz_msm_thread_cpu_ms() - t0, longest = 0;
  for (unsigned i = 0; i < started; i++) {
    pthread_join(tid[i], NULL);
    if (args[i].cpu_ms > longest) longest = args[i].cpu_ms;
  }
  return longest > mine ? longest - mine : 0;
}

/* ---- scalars ----------------------------------------------------------- */

/* Scalars per classification chunk: a multiple of 64 so that chunks start on
 * density words. */
#define PRE_CHUNK ((size_t)1 << 14)

static bool limbs_ge(const uint64_t *a, const uint64_t *b) {
  for (int i = 3; i >= 0; i--)
    if (a[i] != b[i]) return a[i] > b[i];
  return true;
}
static void limbs_sub(uint64_t *a, const uint64_t *b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t d = a[i] - b[i] - borrow;
    borrow = (a[i] < b[i]) | ((a[i] == b[i]) & borrow);
    a[i] = d;
  }
}

/* k mod r for any 256-bit k (2^256 < 3r, so two subtractions at most). */
static void scalar_get(uint64_t out[4], const msm_seg *s, size_t i) {
  if (s->frs || s->packed) {
    cz_fr x;
    if (s->packed) cz_fr_packed_get(s->packed, i, &x);
    else x = s->frs[i];
    cz_scalar t;
    cz_fr_to_scalar(&t, &x);
    memcpy(out, t.l, 32);
    return;
  }
  memcpy(out, s->scalars[i].l, 32);
  while (limbs_ge(out, CZ_FR_MODULUS)) limbs_sub(out, CZ_FR_MODULUS);
}

enum { CLS_ZERO, CLS_ONE, CLS_OTHER };

/* Montgomery-form elements are fully reduced, so 0 and 1 compare directly;
 * canonical ones are classified after reduction. */
static int scalar_class(const msm_seg *s, size_t i) {
  if (s->packed) return (int)cz_fr_packed_class(s->packed, i); /* CLS_* */
  if (s->frs) {
    if (cz_fr_is_zero(&s->frs[i])) return CLS_ZERO;
    return cz_fr_is_one(&s->frs[i]) ? CLS_ONE : CLS_OTHER;
  }
  uint64_t k[4];
  scalar_get(k, s, i);
  if ((k[1] | k[2] | k[3]) != 0 || k[0] > 1) return CLS_OTHER;
  return k[0] == 0 ? CLS_ZERO : CLS_ONE;
}

static inline bool density_bit(const uint64_t *d, size_t i) {
  return !d || ((d[i >> 6] >> (i & 63)) & 1);
}

/* Bits [pos, pos + c) of k (zero past bit 255), c <= 16. */
static inline unsigned scalar_bits(const uint64_t k[4], unsigned pos, unsigned c) {
  unsigned idx = pos >> 6, sh = pos & 63;
  if (idx >= 4) return 0;
  uint64_t v = k[idx] >> sh;
  if (sh + c > 64 && idx + 1 < 4) v |= k[idx + 1] << (64 - sh);
  return (unsigned)(v & ((1u << c) - 1));
}

typedef struct {
  size_t seg, begin, end;
  size_t used, n_zero, n_one, n_terms;  /* pass 1 */
  size_t base_off, ones_off, terms_off; /* prefix sums */
} pre_chunk;

typedef struct {
  const msm_seg *segs;
  pre_chunk *chunks;
  size_t base_size;
  msm_plan *plan;
  uint64_t (*kv)[4]; /* non-NULL: pre_fill keeps the scalars here, unrecoded */
} pre_ctx;

/* Classes of packed scalars [begin, end) (begin a multiple of 64) a word
 * at a time, from the bits alone. */
static void packed_count(const msm_seg *s, size_t begin, size_t end, size_t cnt[3]) {
  const cz_fr_packed *v = s->packed;
  for (size_t i = begin; i < end; i += 64) {
    size_t w = i >> 6;
    uint64_t live = s->density ? s->density[w] : ~(uint64_t)0;
    if (end - i < 64) live &= ((uint64_t)1 << (end - i)) - 1;
    uint64_t one = v->one[w] & live, other = v->other[w] & live;
    cnt[CLS_ONE] += (size_t)__builtin_popcountll(one);
    cnt[CLS_OTHER] += (size_t)__builtin_popcountll(other);
    cnt[CLS_ZERO] += (size_t)__builtin_popcountll(live & ~(one | other));
  }
}

static void pre_count(void *vctx, size_t task, unsigned worker) {
  (void)worker;
  pre_ctx *ctx = vctx;
  pre_chunk *ch = &ctx->chunks[task];
  const msm_seg *s = &ctx->segs[ch->seg];
  size_t cnt[3] = {0, 0, 0};
  if (s->packed) {
    packed_count(s, ch->begin, ch->end, cnt);
  } else {
    for (size_t i = ch->begin; i < ch->end; i++)
      if (density_bit(s->density, i)) cnt[scalar_class(s, i)]++;
  }
  ch->n_zero = cnt[CLS_ZERO];
  ch->n_one = cnt[CLS_ONE];
  ch->n_terms = cnt[CLS_OTHER];
  ch->used = cnt[0] + cnt[1] + cnt[2];
}

/* Signed digits of k into dst[w * stride]: d_w = bits_w + carry, and
 * d_w > 2^(c-1) becomes d_w - 2^c with a carry into the next window.
 * k < r < 2^255 and n_windows = floor(255/c) + 1 leave the top window at
 * most 2^(c-1). Branch-free (random digits would mispredict half the
 * branches): with neg = d > half and mask = -neg, the magnitude is d or
 * 2^c - d. One of 0 (d = 0, or d = 2^c with a carry out) wraps to
 * MSM_DIGIT_ZERO. */
static void recode(uint16_t *dst, size_t stride, const uint64_t k[4], unsigned c, unsigned nw) {
  const unsigned half = 1u << (c - 1), full = 1u << c;
  unsigned carry = 0;
  for (unsigned w = 0; w < nw; w++, dst += stride) {
    unsigned d = scalar_bits(k, w * c, c) + carry;
    unsigned neg = (half - d) >> 31, mask = 0u - neg;
    unsigned mag = (d ^ mask) + ((full + 1) & mask);
    *dst = (uint16_t)((mag - 1) | (neg << 15));
    carry = neg;
  }
}

/* Sorts a chunk's scalars into the plan's ones and terms, recoding each
 * term (or keeping its scalar in ctx->kv, to be grouped first). */
static void pre_fill(void *vctx, size_t task, unsigned worker) {
  (void)worker;
  pre_ctx *ctx = vctx;
  pre_chunk *ch = &ctx->chunks[task];
  const msm_seg *s = &ctx->segs[ch->seg];
  msm_plan *plan = ctx->plan;
  const uint8_t *base = s->bases + ch->base_off * ctx->base_size;
  size_t one = ch->ones_off, t = ch->terms_off;
  for (size_t i = ch->begin; i < ch->end; i++) {
    if (!density_bit(s->density, i)) continue;
    __builtin_prefetch(base + 8 * ctx->base_size); /* the identity check below */
    /* Witnesses are mostly bits: classify Montgomery 0 and 1 before paying
     * for the conversion to canonical form. */
    int cls = s->frs || s->packed ? scalar_class(s, i) : CLS_OTHER;
    if (cls != CLS_OTHER) {
      if (cls == CLS_ONE) plan->ones[one++] = base;
      base += ctx->base_size;
      continue;
    }
    uint64_t k[4];
    scalar_get(k, s, i);
    if ((k[1] | k[2] | k[3]) == 0 && k[0] <= 1) {
      if (k[0] == 1) plan->ones[one++] = base;
      base += ctx->base_size;
      continue;
    }
    plan->term_base[t] = base;
    /* An identity base (all-zero bytes) gets zero digits: the bucket loop
     * then never sees it and may assume its points are regular. */
    bool id_base = true;
    for (size_t j = 0; j < ctx->base_size && id_base; j++) id_base = base[j] == 0;
    if (id_base) memset(k, 0, sizeof k);
    if (ctx->kv) memcpy(ctx->kv[t], k, sizeof k);
    else recode(plan->digits + t, plan->n_terms, k, plan->c, plan->n_windows);
    t++;
    base += ctx->base_size;
  }
}

/* ---- window choice ----------------------------------------------------- */

/* Modelled time (in field multiplications on the busiest worker) of the bucket
 * phase: each of n_windows * chunks tasks adds its terms into 2^(c-1)
 * buckets and then reduces them with two additions per bucket. The first
 * point into an empty bucket is a copy. Costs per addition: batched affine
 * ~6M + bookkeeping + the inversion shared by a batch; XYZZ mixed 8M + 2S;
 * reduction ~16M (affine buckets, batched lanes, 2 x 6M + bookkeeping) or
 * 28M (XYZZ). Constants checked against cuzk-bench msm --window. */
static double model_time(size_t terms, unsigned c, unsigned chunks, bool affine, unsigned threads,
                         const msm_costs *costs) {
  double nb = (double)((size_t)1 << (c - 1));
  double t = (double)terms / chunks;
  double filled = nb * (1.0 - exp(-t / nb));
  double adds = t - filled;
  double per_add = affine ? 7.0 + costs->inv / (double)msm_batch_size((size_t)nb) : 11.0;
  double reduce = nb * (affine ? 16.0 : 28.0);
  double tasks = (double)msm_windows(c) * chunks;
  double rounds = ceil(tasks / threads);
  return rounds * (adds * per_add + t * 0.5 + reduce);
}

static void choose_window(msm_plan *plan, const cz_msm_opts *opts, const msm_costs *costs) {
  unsigned want_c = opts ? opts->window_bits : 0;
  unsigned want_chunks = opts ? opts->point_chunks : 0;
  cz_msm_accumulate acc = opts ? opts->accumulate : CZ_MSM_ACC_AUTO;
  double best = INFINITY;
  plan->c = 1;
  plan->chunks = 1;
  plan->affine = false;
  unsigned max_chunks = 4 * plan->threads;
  for (unsigned c = 1; c <= MSM_MAX_WINDOW; c++) {
    if (want_c && c != want_c) continue;
    for (unsigned ch = 1; ch <= max_chunks; ch++) {
      if (want_chunks && ch != want_chunks) continue;
      if (!want_chunks && ch > 1 && plan->n_terms / ch < 64) break;
      for (int a = 0; a < 2; a++) {
        if ((acc == CZ_MSM_ACC_XYZZ && a) || (acc == CZ_MSM_ACC_BATCH_AFFINE && !a)) continue;
        double m = model_time(plan->n_terms, c, ch, a, plan->threads, costs);
        if (m < best) {
          best = m;
          plan->c = c;
          plan->chunks = ch;
          plan->affine = a;
        }
      }
    }
  }
  if (want_chunks) plan->chunks = want_chunks;
  plan->n_windows = msm_windows(plan->c);
}

/* ---- plan -------------------------------------------------------------- */

/* Sizes of the plan's arrays (n or 1 entries: never a zero-byte block).
 * term_base is sized for the scalars before grouping, digits after. */
static size_t at_least_1(size_t n) { return n ? n : 1; }

void cz_msm_plan_free(msm_plan *plan) {
  cz_pool_give(plan->term_base);
  cz_pool_give(plan->digits);
  cz_pool_give(plan->ones);
  if (plan->multi_off) {
    cz_pool_give(plan->multi_off);
    cz_pool_give(plan->multi_term);
    cz_pool_give(plan->multi_base);
  }
  memset(plan, 0, sizeof *plan);
}

/* Whether the first MSM_GROUP_PROBE non-trivial scalars hold an equal pair. */
static bool probe_equal(const msm_seg *segs, size_t n_segs) {
  uint64_t(*kv)[4] = malloc(MSM_GROUP_PROBE * sizeof *kv);
  if (!kv) return false;
  size_t m = 0;
  for (size_t s = 0; s < n_segs && m < MSM_GROUP_PROBE; s++)
    for (size_t i = 0; i < segs[s].n_scalars && m < MSM_GROUP_PROBE; i++)
      if (density_bit(segs[s].density, i) && scalar_class(&segs[s], i) == CLS_OTHER)
        scalar_get(kv[m++], &segs[s], i);
  bool eq = cz_msm_group_any_equal(kv, m);
  free(kv);
  return eq;
}

/* Recodes the grouped terms' scalars, in chunks of PRE_CHUNK. */
typedef struct {
  msm_plan *plan;
  uint64_t (*kv)[4];
} recode_ctx;

static void recode_chunk(void *vctx, size_t task, unsigned worker) {
  (void)worker;
  recode_ctx *r = vctx;
  msm_plan *p = r->plan;
  size_t end = (task + 1) * PRE_CHUNK < p->n_terms ? (task + 1) * PRE_CHUNK : p->n_terms;
  for (size_t t = task * PRE_CHUNK; t < end; t++)
    recode(p->digits + t, p->n_terms, r->kv[t], p->c, p->n_windows);
}

/* The chunks' offsets (prefix sums of their counts) and the plan's totals
 * (n_zero, n_one, n_terms = n_other). CZ_ERR_INVALID_ARG when a segment's
 * used count is not its bases', or one with no scalars has bases. */
static cz_err prefix_sums(msm_plan *plan, pre_chunk *chunks, size_t n_chunks, const msm_seg *segs,
                          size_t n_segs) {
  size_t used_in_seg = 0, ones = 0, terms = 0;
  cz_err err = CZ_OK;
  for (size_t i = 0; i < n_chunks; i++) {
    if (i == 0 || chunks[i].seg != chunks[i - 1].seg) used_in_seg = 0;
    chunks[i].base_off = used_in_seg;
    chunks[i].ones_off = ones;
    chunks[i].terms_off = terms;
    used_in_seg += chunks[i].used;
    ones += chunks[i].n_one;
    terms += chunks[i].n_terms;
    plan->n_zero += chunks[i].n_zero;
    bool last = i + 1 == n_chunks || chunks[i + 1].seg != chunks[i].seg;
    if (last && used_in_seg != segs[chunks[i].seg].n_bases) err = CZ_ERR_INVALID_ARG;
  }
  for (size_t s = 0; s < n_segs; s++)
    if (segs[s].n_scalars == 0 && segs[s].n_bases != 0) err = CZ_ERR_INVALID_ARG;
  plan->n_one = ones;
  plan->n_terms = plan->n_other = terms;
  return err;
}

cz_err cz_msm_plan_build(msm_plan *plan, const msm_seg *segs, size_t n_segs, size_t base_size,
                         unsigned n_threads, const cz_msm_opts *opts, const msm_costs *costs) {
  memset(plan, 0, sizeof *plan);
  plan->threads = msm_resolve_threads(n_threads);
  if (opts && (opts->window_bits > MSM_MAX_WINDOW || opts->accumulate > CZ_MSM_ACC_BATCH_AFFINE))
    return CZ_ERR_INVALID_ARG;
  size_t n_chunks = 0;
  for (size_t s = 0; s < n_segs; s++) {
    const msm_seg *g = &segs[s];
    if (g->n_scalars && (!!g->scalars + !!g->frs + !!g->packed) != 1) return CZ_ERR_INVALID_ARG;
    if (g->packed && g->packed->n < g->n_scalars) return CZ_ERR_INVALID_ARG;
    if ((g->n_bases && !g->bases) ||
        (g->n_scalars && g->density == NULL && g->n_bases != g->n_scalars))
      return CZ_ERR_INVALID_ARG;
    if (g->n_bases > g->n_scalars) return CZ_ERR_INVALID_ARG;
    n_chunks += (g->n_scalars + PRE_CHUNK - 1) / PRE_CHUNK;
  }
  pre_chunk *chunks = calloc(n_chunks ? n_chunks : 1, sizeof *chunks);
  if (!chunks) return CZ_ERR_NOMEM;
  size_t k = 0;
  for (size_t s = 0; s < n_segs; s++)
    for (size_t b = 0; b < segs[s].n_scalars; b += PRE_CHUNK) {
      chunks[k].seg = s;
      chunks[k].begin = b;
      chunks[k].end = b + PRE_CHUNK < segs[s].n_scalars ? b + PRE_CHUNK : segs[s].n_scalars;
      k++;
    }
  pre_ctx ctx = {segs, chunks, base_size, plan, NULL};
  plan->extra_critical_ms += cz_msm_run_tasks(n_chunks, plan->threads, pre_count, &ctx);

  cz_err err = prefix_sums(plan, chunks, n_chunks, segs, n_segs);
  if (err) {
    free(chunks);
    return err;
  }
  size_t ones = plan->n_one, terms = plan->n_terms;
  /* Not an input of the window model: both paths must pick the same
   * windows, so that their results are the same bits. cz_cpu_use_ifma is
   * false where the 8-lane code is not built (CZ_IFMA undefined). */
  plan->vec = !(opts && opts->no_ifma) && cz_cpu_use_ifma();
  plan->term_base = cz_pool_take(at_least_1(terms) * sizeof *plan->term_base);
  plan->ones = cz_pool_take(at_least_1(ones) * sizeof *plan->ones);
  bool group = !(opts && opts->no_grouping) && terms >= MSM_GROUP_MIN && terms <= MSM_GROUP_MAX &&
               probe_equal(segs, n_segs);
  if (group) ctx.kv = cz_pool_take(terms * sizeof *ctx.kv);
  if (!plan->term_base || !plan->ones) err = CZ_ERR_NOMEM;
  if (!err && ctx.kv) {
    /* Collect, group, then choose the window for the terms that are left. */
    plan->extra_critical_ms += cz_msm_run_tasks(n_chunks, plan->threads, pre_fill, &ctx);
    err = cz_msm_group(plan, ctx.kv);
  }
  if (!err) {
    choose_window(plan, opts, costs);
    plan->digits = cz_pool_take(at_least_1(plan->n_terms) * plan->n_windows * sizeof *plan->digits);
    if (!plan->digits) err = CZ_ERR_NOMEM;
  }
  if (!err && ctx.kv) {
    recode_ctx r = {plan, ctx.kv};
    plan->extra_critical_ms += cz_msm_run_tasks((plan->n_terms + PRE_CHUNK - 1) / PRE_CHUNK,
                                                plan->threads, recode_chunk, &r);
  } else if (!err)
    plan->extra_critical_ms += cz_msm_run_tasks(n_chunks, plan->threads, pre_fill, &ctx);
  if (ctx.kv) cz_pool_give(ctx.kv);
  free(chunks);
  if (err) cz_msm_plan_free(plan);
  return err;
}
