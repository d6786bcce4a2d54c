/* The GPU prover's host side, on any device (czg_ops). Per proof:
 *
 *   CPU thread 1: prep_msm   split L, A, B_G1 scalars into 0 / 1 / other
 *   CPU thread 2: b_g2_msm   the G2 MSM (cz_msm), all the way
 *   this thread:  ntt_msm_h  H on the device, then its MSM with the H bases
 *                            staged batch by batch through the pinned pool
 *                 batch_add  (after prep) the sum of the scalar-1 bases
 *                 tail_msm   the MSM of the other scalars, batch by batch
 *   then A, B, C as the CPU backend assembles them (cz_g16_assemble).
 *
 * Batches are sized to the device's free memory (cz_gpu_plan_batch) and staged
 * through the pool; the parameters are never pinned as a whole. */
#include <stdio.h>
#include "cuzk/clock.h"
#include <stdlib.h>
#include <string.h>
#include "cuda/czg_host.h"
#include "groth16/g16_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

static void timing_line(const cz_prove_timing *hook, const char *name, uint64_t ns) {
  if (hook && hook->quiet) return;
  fprintf(stderr, "CUZK_TIMING: %s_ms=%llu\n", name, (unsigned long long)((ns + 500000) / 1000000));
  fflush(stderr);
}

enum { M_L, M_A, M_B1, M_COUNT };

typedef struct {
  const cz_groth16_params *p;
  const cz_assignment *as;
  bool skip_b1;
  czg_split split[M_COUNT];
  cz_err err;
  uint64_t ns;
} prep_job;

/* The G1 bases of vector v from point i: decoded points, or (a mapped
 * key) the encodings, which are as long as a point, so that the split's
 * pointers step over them alike and the staging decodes them. */
static const cz_g1_affine *g1_bases(const cz_groth16_params *p, g16_vec v, size_t i) {
  return (const cz_g1_affine *)cz_g16_point_at(p, v, i);
}

static void *prep_thread(void *v) {
  _Static_assert(sizeof(cz_g1_affine) == CZ_G1_UNCOMPRESSED_BYTES, "encodings step as points");
  prep_job *j = v;
  uint64_t t0 = cz_now_ns();
  const cz_groth16_params *p = j->p;
  const cz_assignment *as = j->as;
  const size_t n_in = as->n_inputs, n_aux = as->n_aux, bi = as->b_input.count;
  cz_msm_g1_segment seg[2];
  memset(seg, 0, sizeof seg);
  seg[0] = (cz_msm_g1_segment){g1_bases(p, G16_L, 0), p->n_l, NULL, NULL, n_aux, NULL, &as->aux};
  j->err = cz_gpu_split_g1(&j->split[M_L], seg, 1);
  if (j->err == CZ_OK) {
    seg[0] = (cz_msm_g1_segment){g1_bases(p, G16_A, 0), n_in, NULL, as->inputs, n_in, NULL, NULL};
    seg[1] = (cz_msm_g1_segment){g1_bases(p, G16_A, n_in), p->n_a - n_in, NULL, NULL, n_aux,
                                 as->a_aux.bits,           &as->aux};
    j->err = cz_gpu_split_g1(&j->split[M_A], seg, 2);
  }
  if (j->err == CZ_OK && !j->skip_b1) {
    seg[0] = (cz_msm_g1_segment){g1_bases(p, G16_B_G1, 0), bi,  NULL, as->inputs, n_in,
                                 as->b_input.bits,         NULL};
    seg[1] = (cz_msm_g1_segment){
        g1_bases(p, G16_B_G1, bi), p->n_b_g1 - bi, NULL, NULL, n_aux, as->b_aux.bits, &as->aux};
    j->err = cz_gpu_split_g1(&j->split[M_B1], seg, 2);
  }
  for (int m = 0; m < M_COUNT; m++) j->split[m].encoded = cz_groth16_params_is_mapped(p);
  j->ns = cz_now_ns() - t0;
  return NULL;
}

typedef struct {
  const cz_groth16_params *p;
  const cz_assignment *as;
  unsigned threads;
  cz_g2 b2;
  cz_err err;
  uint64_t ns;
} g2_job;

static void *g2_thread(void *v) {
  g2_job *j = v;
  uint64_t t0 = cz_now_ns();
  const cz_groth16_params *p = j->p;
  const cz_assignment *as = j->as;
  g16_msm_seg seg[2];
  cz_g16_b_segments(seg, p, G16_B_G2, as);
  j->err = cz_g16_msm_g2(&j->b2, seg, 2, j->threads);
  j->ns = cz_now_ns() - t0;
  return NULL;
}

/* Points per batch for this device now, or 0 (then CZ_ERR_NOMEM). */
static size_t batch_points(czg_backend_state *st, size_t n, size_t per_point) {
  size_t free_b = 0;
  if (st->ops.mem_free(st->ops.ctx, &free_b) != CZ_OK) return 0;
  /* Leave a tenth of the free memory to the driver and other users. */
  return cz_gpu_plan_batch(n, free_b - free_b / 10, st->ops.msm_reserve_bytes, per_point,
                           st->max_batch);
}

/* A batch of m points did not fit on the device although its free memory
 * said it would (fragmentation, another process): the next batches take
 * half as many. false when m was one point already. */
static bool shrink(czg_backend_state *st, const char *step, size_t *bs, size_t m) {
  if (m <= 1) return false;
  *bs = m / 2;
  __atomic_fetch_add(&st->oom_retries, 1, __ATOMIC_RELAXED);
  fprintf(stderr, "cuzk %s: out of device memory in %s with %zu points; retrying with %zu\n",
          st->ops.name, step, m, *bs);
  return true;
}

/* What one batched step stages and runs: stage copies points [first,
 * first + m) into buf (of m * bytes_per_point bytes), decoding them when
 * they are a mapped key's file encodings (CZ_ERR_* for a point that does
 * not decode), run sums them. */
typedef struct {
  const char *name;
  size_t n, stage_bytes_per_point, device_bytes_per_point;
  cz_err (*stage)(const void *src, size_t first, size_t m, uint8_t *buf, bool encoded);
  bool encoded;
  cz_err (*run)(czg_backend_state *st, const void *src, size_t first, size_t m, uint8_t *buf,
                cz_g1 *part);
  const void *src;
} batched_step;

/* *out = the sum over batches of step->run, batches sized to the device's
 * free memory and halved after an out-of-memory error. */
static cz_err run_batched(czg_backend_state *st, const batched_step *step, cz_g1 *out) {
  cz_g1_set_identity(out);
  size_t n = step->n, bs = batch_points(st, n, step->device_bytes_per_point);
  if (n && !bs) return CZ_ERR_NOMEM;
  for (size_t first = 0; first < n;) {
    size_t m = n - first < bs ? n - first : bs;
    unsigned slot;
    uint8_t *buf = cz_gpu_pool_acquire(&st->pool, m * step->stage_bytes_per_point, &slot);
    if (!buf) return CZ_ERR_NOMEM;
    cz_g1 part;
    cz_err e = step->stage(step->src, first, m, buf, step->encoded);
    if (e == CZ_OK) e = step->run(st, step->src, first, m, buf, &part);
    cz_gpu_pool_release(&st->pool, slot);
    if (e == CZ_ERR_NOMEM && shrink(st, step->name, &bs, m)) continue;
    if (e != CZ_OK) return e;
    cz_g1_add(out, out, &part);
    first += m;
  }
  return CZ_OK;
}

/* Contiguous points (a mapped key's encodings are as long as a point,
 * their encodings checked but not the curve, as in prover_msm_mapped.c). */
static cz_err stage_h(const void *src, size_t first, size_t m, uint8_t *buf, bool encoded) {
  const cz_g1_affine *p = (const cz_g1_affine *)src + first;
  size_t bad = 0;
  if (encoded)
    return cz_g16_decode_points(buf, (const uint8_t *)p, m, false, CZ_POINT_ENCODING, &bad);
  memcpy(buf, p, m * sizeof(cz_g1_affine));
  return CZ_OK;
}

/* Points gathered through pointers (into decoded points or encodings). A
 * mapped key's encodings are copied together, a run at a time on the
 * stack, and each run decoded in one call: the decoder works 8 points at a
 * time, not one per call, and the hot path allocates nothing. */
#define GATHER_RUN 256
static cz_err gather(cz_g1_affine *dst, const cz_g1_affine *const *src, size_t m, bool encoded) {
  if (!encoded) {
    for (size_t i = 0; i < m; i++) dst[i] = *src[i];
    return CZ_OK;
  }
  cz_g1_affine enc[GATHER_RUN]; /* 24 KiB of encodings (as long as points) */
  for (size_t i = 0; i < m; i += GATHER_RUN) {
    size_t n = m - i < GATHER_RUN ? m - i : GATHER_RUN, bad = 0;
    for (size_t j = 0; j < n; j++) memcpy(&enc[j], src[i + j], sizeof enc[j]);
    cz_err e =
        cz_g16_decode_points(dst + i, (const uint8_t *)enc, n, false, CZ_POINT_ENCODING, &bad);
    if (e != CZ_OK) return e;
  }
  return CZ_OK;
}

static cz_err run_h(czg_backend_state *st, const void *src, size_t first, size_t m, uint8_t *buf,
                    cz_g1 *part) {
  (void)src;
  return st->ops.msm_h(st->ops.ctx, (const cz_g1_affine *)buf, first, m, part);
}

static cz_err run_msm_h(czg_backend_state *st, const cz_g1_affine *bases, size_t n, bool encoded,
                        cz_g1 *out) {
  batched_step step = {.name = "msm_h",
                       .encoded = encoded,
                       .n = n,
                       .stage_bytes_per_point = sizeof(cz_g1_affine),
                       .device_bytes_per_point = st->ops.msm_bytes_per_point,
                       .stage = stage_h,
                       .run = run_h,
                       .src = bases};
  return run_batched(st, &step, out);
}

static cz_err stage_one(const void *src, size_t first, size_t m, uint8_t *buf, bool encoded) {
  const czg_split *s = src;
  return gather((cz_g1_affine *)buf, s->one + first, m, encoded);
}
static cz_err run_add(czg_backend_state *st, const void *src, size_t first, size_t m, uint8_t *buf,
                      cz_g1 *part) {
  (void)src, (void)first;
  return st->ops.batch_add(st->ops.ctx, (const cz_g1_affine *)buf, m, part);
}

static cz_err run_batch_add(czg_backend_state *st, const czg_split *s, cz_g1 *out) {
  batched_step step = {.name = "batch_add",
                       .n = s->n_one,
                       .stage_bytes_per_point = sizeof(cz_g1_affine),
                       .device_bytes_per_point = st->ops.add_bytes_per_point,
                       .stage = stage_one,
                       .encoded = s->encoded,
                       .run = run_add,
                       .src = s};
  return run_batched(st, &step, out);
}

/* one staging buffer: the bases, then their scalars */
static cz_err stage_other(const void *src, size_t first, size_t m, uint8_t *buf, bool encoded) {
  const czg_split *s = src;
  memcpy(buf + m * sizeof(cz_g1_affine), s->k + first, m * sizeof(cz_scalar));
  return gather((cz_g1_affine *)buf, s->other + first, m, encoded);
}
static cz_err run_other(czg_backend_state *st, const void *src, size_t first, size_t m,
                        uint8_t *buf, cz_g1 *part) {
  (void)src, (void)first;
  const cz_scalar *k = (const cz_scalar *)(buf + m * sizeof(cz_g1_affine));
  return st->ops.msm(st->ops.ctx, (const cz_g1_affine *)buf, k, m, part);
}

static cz_err run_tail(czg_backend_state *st, const czg_split *s, cz_g1 *out) {
  batched_step step = {.name = "tail_msm",
                       .n = s->n_other,
                       .stage_bytes_per_point = sizeof(cz_g1_affine) + sizeof(cz_scalar),
                       .device_bytes_per_point = st->ops.msm_bytes_per_point,
                       .stage = stage_other,
                       .encoded = s->encoded,
                       .run = run_other,
                       .src = s};
  return run_batched(st, &step, out);
}

/* Contiguous points and scalars, staged as stage_other's buffer. */
typedef struct {
  const cz_g1_affine *pts;
  const cz_scalar *k;
} plain_msm;

static cz_err stage_plain(const void *src, size_t first, size_t m, uint8_t *buf, bool encoded) {
  (void)encoded;
  const plain_msm *s = src;
  memcpy(buf, s->pts + first, m * sizeof(cz_g1_affine));
  memcpy(buf + m * sizeof(cz_g1_affine), s->k + first, m * sizeof(cz_scalar));
  return CZ_OK;
}

cz_err cz_gpu_msm_batched(czg_backend_state *st, const cz_g1_affine *pts, const cz_scalar *k,
                          size_t n, cz_g1 *out) {
  plain_msm src = {pts, k};
  batched_step step = {.name = "msm",
                       .n = n,
                       .stage_bytes_per_point = sizeof(cz_g1_affine) + sizeof(cz_scalar),
                       .device_bytes_per_point = st->ops.msm_bytes_per_point,
                       .stage = stage_plain,
                       .run = run_other,
                       .src = &src};
  return run_batched(st, &step, out);
}

cz_err cz_gpu_batch_add_batched(czg_backend_state *st, const cz_g1_affine *pts, size_t n,
                                cz_g1 *out) {
  batched_step step = {.name = "batch_add",
                       .n = n,
                       .stage_bytes_per_point = sizeof(cz_g1_affine),
                       .device_bytes_per_point = st->ops.add_bytes_per_point,
                       .stage = stage_h, /* a plain copy of the points */
                       .run = run_add,
                       .src = pts};
  return run_batched(st, &step, out);
}

/* Phase times of one call, summed over its proofs. */
typedef struct {
  uint64_t prep, ntt_h, msm_h, batch_add, tail, b_g2;
} gpu_times;

static cz_err prove_one(czg_backend_state *st, const cz_groth16_params *p, cz_assignment *as,
                        unsigned log_n, const cz_fr *r, const cz_fr *s, cz_groth16_proof *proof,
                        unsigned th, gpu_times *t) {
  prep_job pj;
  g2_job gj;
  memset(&pj, 0, sizeof pj);
  memset(&gj, 0, sizeof gj);
  pj.p = gj.p = p;
  pj.as = gj.as = as;
  pj.skip_b1 = cz_fr_is_zero(r); /* as the CPU backend: b1 is unused when r = 0 */
  gj.threads = th;
  pthread_t tp, tg;
  if (pthread_create(&tp, NULL, prep_thread, &pj) != 0) return CZ_ERR_NOMEM;
  if (pthread_create(&tg, NULL, g2_thread, &gj) != 0) {
    pthread_join(tp, NULL);
    for (int m = 0; m < M_COUNT; m++) cz_gpu_split_free(&pj.split[m]);
    return CZ_ERR_NOMEM;
  }
  cz_g1 h, g[M_COUNT], part;
  /* The device is one worker's from H to the tail MSM; another worker's
   * prep_msm and G2 MSM (started above) run on the CPU meanwhile. */
  pthread_mutex_lock(&st->device);
  uint64_t t0 = cz_now_ns(), t1;
  cz_err e = st->ops.ntt_h(st->ops.ctx, as->a, as->b, as->c, as->n_constraints, log_n);
  t1 = cz_now_ns();
  t->ntt_h += t1 - t0;
  t0 = t1;
  if (e == CZ_OK) {
    /* a, b (and c, when the caller gave one) now live on the device:
     * release them as the CPU backend does */
    cz_pool_give(as->a);
    cz_pool_give(as->b);
    cz_pool_give(as->c);
    as->a = as->b = as->c = NULL;
    e = run_msm_h(st, cz_g16_point_at(p, G16_H, 0), p->n_h, cz_groth16_params_is_mapped(p), &h);
  }
  t1 = cz_now_ns();
  t->msm_h += t1 - t0;
  pthread_join(tp, NULL);
  if (e == CZ_OK) e = pj.err;
  t->prep += pj.ns;
  t0 = cz_now_ns();
  for (int m = 0; m < M_COUNT && e == CZ_OK; m++) e = run_batch_add(st, &pj.split[m], &g[m]);
  t1 = cz_now_ns();
  t->batch_add += t1 - t0;
  t0 = t1;
  for (int m = 0; m < M_COUNT && e == CZ_OK; m++) {
    e = run_tail(st, &pj.split[m], &part);
    if (e == CZ_OK) cz_g1_add(&g[m], &g[m], &part);
  }
  t1 = cz_now_ns();
  t->tail += t1 - t0;
  pthread_mutex_unlock(&st->device);
  for (int m = 0; m < M_COUNT; m++) cz_gpu_split_free(&pj.split[m]);
  pthread_join(tg, NULL);
  if (e == CZ_OK) e = gj.err;
  t->b_g2 += gj.ns;
  if (e != CZ_OK) return e;
  t0 = cz_now_ns();
  cz_g16_assemble(&p->vk, r, s, &h, &g[M_L], &g[M_A], &g[M_B1], &gj.b2, proof);
  t->batch_add += cz_now_ns() - t0;
  return CZ_OK;
}

static cz_err gpu_prove(const cz_prover_backend *self, const cz_groth16_params *params,
                        cz_assignment *as, size_t n, cz_groth16_proof *proofs,
                        const cz_prove_opts *opts) {
  czg_backend_state *st = self->state;
  const cz_prove_opts def = {0};
  if (!opts) opts = &def;
  if ((opts->r == NULL) != (opts->s == NULL)) return CZ_ERR_INVALID_ARG;
  if (!n) return CZ_OK;
  if (!params || !as || !proofs) return CZ_ERR_INVALID_ARG;
  uint64_t start = cz_now_ns();
  /* bellperson's domain: the least 2^k >= m, k < 32 */
  unsigned log_n = 0;
  while (log_n < 32 && ((size_t)1 << log_n) < as[0].n_constraints) log_n++;
  if (log_n >= 32)
    return cz_msg_err(opts->msg, opts->msg_len, CZ_ERR_INVALID_ARG, "no domain for %zu constraints",
                      as[0].n_constraints);
  gpu_times t = {0};
  cz_err e = CZ_OK;
  for (size_t i = 0; i < n && e == CZ_OK; i++) {
    if (as[i].n_constraints != as[0].n_constraints) {
      cz_msg(opts->msg, opts->msg_len, "assignment %zu has another constraint count", i);
      e = CZ_ERR_INVALID_ARG;
      break;
    }
    if ((e = cz_g16_check_fit(params, &as[i], (size_t)1 << log_n, opts->msg, opts->msg_len)) !=
        CZ_OK)
      break;
    cz_fr r, s;
    if ((e = cz_g16_blinding(opts, i, &r, &s)) != CZ_OK) break;
    e = prove_one(st, params, &as[i], log_n, &r, &s, &proofs[i], opts->n_threads, &t);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    if (e == CZ_ERR_NOMEM)
      cz_msg(opts->msg, opts->msg_len, "out of memory (host or %s device)", st->ops.name);
    else if (e == CZ_ERR_DEVICE) cz_msg(opts->msg, opts->msg_len, "%s: device error", st->ops.name);
    else if (e != CZ_OK)
      cz_msg(opts->msg, opts->msg_len, "%s device failed (%s)", st->ops.name, cz_err_str(e));
  }
  if (e != CZ_OK) return e;
  const cz_prove_timing *hook = opts->timing;
  /* The original cuzk's phase names, then the library's phases (metrics). */
  timing_line(hook, "prep_msm", t.prep);
  timing_line(hook, "ntt_msm_h", t.ntt_h + t.msm_h);
  timing_line(hook, "b_g2_msm", t.b_g2);
  cz_prove_timing_emit(hook, CZ_PHASE_NTT_H, t.ntt_h);
  cz_prove_timing_emit(hook, CZ_PHASE_MSM_H, t.msm_h);
  cz_prove_timing_emit(hook, CZ_PHASE_MSM_B_G2, t.b_g2);
  cz_prove_timing_emit(hook, CZ_PHASE_BATCH_ADD, t.batch_add);
  cz_prove_timing_emit(hook, CZ_PHASE_TAIL_MSM, t.tail);
  cz_prove_timing_emit(hook, CZ_PHASE_TOTAL, cz_now_ns() - start);
  return CZ_OK;
}

void cz_gpu_backend_init(cz_prover_backend *b, czg_backend_state *st, const czg_ops *ops) {
  memset(st, 0, sizeof *st);
  st->ops = *ops;
  /* two buffers: one being filled while the device reads the other */
  cz_gpu_pool_init(&st->pool, 2, ops->host_alloc, ops->host_free, ops->ctx);
  pthread_mutex_init(&st->device, NULL);
  b->name = ops->name;
  b->prove = gpu_prove;
  b->state = st;
}

void cz_gpu_backend_destroy(czg_backend_state *st) {
  cz_gpu_pool_destroy(&st->pool);
  pthread_mutex_destroy(&st->device);
  if (st->ops.close) st->ops.close(st->ops.ctx);
  memset(st, 0, sizeof *st);
}
