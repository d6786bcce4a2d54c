/* Group-independent parts of the MSM: the task pool, scalar classification
 * and signed-digit recoding (the "plan"), and the cost model that picks the
 * window. msm_impl.h does the point arithmetic for each group. */
#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/msm.h"

#define MSM_MAX_WINDOW 16
/* Digit code for a zero digit; other codes are (|d| - 1) | (sign << 15).
 * Digits lie in (-2^(c-1), 2^(c-1)], so no non-zero digit encodes to 0xFFFF. */
#define MSM_DIGIT_ZERO 0xFFFFu

/* Dynamic task pool (MSM-internal until the shared cz_parallel_for lands on
 * main; the lead will unify them): runs fn(ctx, task, worker) for every task
 * in [0, n_tasks) on at most `threads` workers, the caller's thread being
 * worker 0. Tasks are handed out one at a time, so uneven tasks balance. */
typedef void (*msm_task_fn)(void *ctx, size_t task, unsigned worker);
/* Returns how much longer (thread CPU ms) the busiest other worker ran than
 * the caller, i.e. what this call adds to the critical path beyond the
 * caller's own CPU time: with it, cz_msm_opts reports the time the MSM would
 * take on idle cores even when the machine is shared. */
double cz_msm_run_tasks(size_t n_tasks, unsigned threads, msm_task_fn fn, void *ctx);
double cz_msm_thread_cpu_ms(void);

/* One segment with the group's base type erased. */
typedef struct {
  const uint8_t *bases;
  size_t n_bases;
  const cz_scalar *scalars;
  const cz_fr *frs;
  size_t n_scalars;
  const uint64_t *density;
  const cz_fr_packed *packed;
} msm_seg;

/* Relative costs for the window model, in field multiplications. */
typedef struct {
  double inv; /* one field inversion */
} msm_costs;

/* The scalars sorted into classes and recoded. term_base[t] is the base of
 * the t-th non-trivial scalar, digits[w * n_terms + t] its digit code in
 * window w; ones[] are the bases whose scalar is 1. */
typedef struct {
  size_t n_zero, n_one, n_terms;
  const uint8_t **term_base;
  uint16_t *digits;
  const uint8_t **ones;
  unsigned c, n_windows, chunks;
  bool affine;
  bool vec; /* batched affine additions 8 lanes at a time (AVX-512 IFMA) */
  unsigned threads;
  double extra_critical_ms; /* cz_msm_run_tasks results of the planning passes */
  /* Equal scalars (msm_group.c): n_other non-trivial scalars came in, and
   * n_terms distinct ones are left. Each of the n_multi terms that stands
   * for several bases, multi_term[g], has its bases in multi_base[
   * multi_off[g] .. multi_off[g + 1]); the group's code sums them and points
   * term_base at the sum before the bucket phase. */
  size_t n_other, n_multi, n_members;
  size_t *multi_off, *multi_term;
  const uint8_t **multi_base;
} msm_plan;

/* Validates the segments, classifies and recodes the scalars (in parallel),
 * groups equal scalars where that pays (cz_msm_group below) and fixes c,
 * chunks and the bucket form (opts' inputs override the cost model).
 * base_size is sizeof the affine point type. */
cz_err cz_msm_plan_build(msm_plan *plan, const msm_seg *segs, size_t n_segs, size_t base_size,
                         unsigned n_threads, const cz_msm_opts *opts, const msm_costs *costs);
void cz_msm_plan_free(msm_plan *plan);

/* Grouping equal scalars: sum_i k P_i = k (sum_i P_i), so bases that share a
 * scalar cost one addition each instead of one per window. PoSt witnesses
 * repeat many values (WinningPoSt proves one sector 66 times: the same
 * comm_c, comm_r_last and top-of-tree hashes in every slot). Tried on MSMs of
 * MSM_GROUP_MIN..MSM_GROUP_MAX non-trivial scalars, where its table costs
 * 44 bytes a scalar, and only when the first MSM_GROUP_PROBE of them hold
 * an equal pair (so random scalars, such as H's, pay for the probe alone);
 * given up when fewer than 1/16 fold away. */
#define MSM_GROUP_MIN ((size_t)1 << 10)
#define MSM_GROUP_MAX ((size_t)1 << 22)
#define MSM_GROUP_PROBE ((size_t)1 << 12)

/* kv[t] is term t's scalar (canonical, 0 for an identity base, which is
 * then dropped) and plan->term_base[t] its base, for t < plan->n_terms. On
 * success with grouping, term_base and kv are compacted to the distinct
 * scalars, n_terms lowered and the multi_* arrays filled; without, the plan
 * is left as it was. CZ_ERR_NOMEM only when the result arrays cannot be
 * had (a table that cannot be had just means no grouping). */
cz_err cz_msm_group(msm_plan *plan, uint64_t (*kv)[4]);
/* Whether two of kv[0..n) are equal (false also when out of memory). */
bool cz_msm_group_any_equal(uint64_t (*kv)[4], size_t n);

/* Lays a worker's many small arrays out in one block: a pass with base NULL
 * counts the bytes (MSM_CARVE_SLACK included), then a pass over the block
 * hands out 64-byte-aligned pieces. One block per worker is one scratch
 * block (util/bigbuf.h) kept between MSMs; separate mallocs came back as
 * fresh pages, about 100 faults (1.5 ms) per worker per MSM on these VMs. */
typedef struct {
  uint8_t *base;
  size_t used;
} msm_carve;
#define MSM_CARVE_SLACK 64
static inline void *msm_carve_take(msm_carve *c, size_t bytes) {
  uintptr_t at = ((uintptr_t)c->base + c->used + 63) & ~(uintptr_t)63;
  c->used = at - (uintptr_t)c->base + bytes;
  return c->base ? (void *)at : NULL;
}

static inline unsigned msm_windows(unsigned c) { return 255 / c + 1; }
/* Batch size of the affine accumulation into nb buckets: large enough to
 * amortise the inversion, small enough that few additions hit a bucket that
 * is already in the batch (about batch / 16 of them at nb / 8). */
static inline size_t msm_batch_size(size_t nb) {
  size_t b = nb / 8;
  return b < 32 ? 32 : b > 256 ? 256 : b;
}

#endif
