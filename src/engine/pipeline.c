/* The two-stage pipeline: synthesis threads feed the proving (calling)
 * thread, in item order, through a bounded window. One run may carry the
 * items of several jobs (a batch): they are proved job after job, so the
 * next job's synthesis overlaps the current job's proving, and a failure or
 * a cancellation ends only its own job (its other items are skipped). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/clock.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

typedef struct {
  cz_job *const *jobs;
  const cz_batch_pipeline *p;
  size_t n;           /* items of all jobs */
  size_t *job_of;     /* item -> job */
  size_t *local;      /* item -> its index within the job */
  const size_t *n_items;
  cz_err *errs;       /* per job */
  char (*msgs)[512];
  bool *dead;         /* per job: failed or cancelled, skip its items */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t next_synth;  /* next item to start synthesizing */
  size_t proved;      /* items proved (or taken by the prover) */
  size_t window;
  /* Items whose synthesis started and whose state is not yet proved or
   * discarded: at most window (next_synth - proved). Reported in
   * SYNTH_START (in_flight=) so a log shows partitions stream. */
  size_t alive;
  void **state;
  bool *ready;        /* synthesized (state set) or skipped (state NULL) */
  bool stop;          /* a thread could not start: nothing more runs */
} pipe_run;

/* Job j failed (first error wins); its remaining items are skipped.
 * Caller holds r->mu. */
static void job_fail_locked(pipe_run *r, size_t j, cz_err err, const char *msg) {
  if (!r->dead[j]) {
    r->dead[j] = true;
    r->errs[j] = err;
    snprintf(r->msgs[j], sizeof r->msgs[j], "%s", msg && msg[0] ? msg : cz_err_str(err));
  }
  pthread_cond_broadcast(&r->cv);
}

static void *synth_main(void *arg) {
  pipe_run *r = arg;
  const cz_batch_pipeline *p = r->p;
  pthread_mutex_lock(&r->mu);
  for (;;) {
    while (!r->stop && r->next_synth < r->n && r->next_synth >= r->proved + r->window)
      pthread_cond_wait(&r->cv, &r->mu);
    if (r->stop || r->next_synth >= r->n) break;
    size_t k = r->next_synth++, j = r->job_of[k], i = r->local[k];
    cz_job *job = r->jobs[j];
    if (r->dead[j]) { /* skipped: the prover passes over it */
      r->ready[k] = true;
      pthread_cond_broadcast(&r->cv);
      continue;
    }
    size_t in_flight = ++r->alive;
    pthread_mutex_unlock(&r->mu);
    char d[64], msg[512] = "";
    snprintf(d, sizeof d, "item=%zu,in_flight=%zu", i, in_flight);
    /* The engine-wide cap (pipeline.max_parallel_synthesis), taken before
     * SYNTH_START: the wait for a slot is not synthesis time. */
    bool slot = false;
    bool go = cz_job_synth_begin(job, &slot);
    if (go) go = cz_job_event(job, "SYNTH_START", d);
    if (go) cz_job_item_state(job, i, CZ_PART_SYNTHESIZING, 0);
    uint64_t t0 = cz_now_ms();
    void *st = NULL;
    cz_err err = go ? p->synthesize(p->ctx, j, i, &st, msg, sizeof msg) : CZ_ERR_INVALID_ARG;
    uint64_t ms = cz_now_ms() - t0;
    cz_job_synth_end(job, slot);
    if (go && err == CZ_OK) {
      snprintf(d, sizeof d, "item=%zu,synth_ms=%llu", i, (unsigned long long)ms);
      go = cz_job_event(job, "SYNTH_END", d);
      cz_job_add_timing(job, ms, 0);
      cz_job_item_state(job, i, CZ_PART_SYNTHESIZED, ms);
      snprintf(d, sizeof d, "item=%zu", i);
      if (go) go = cz_job_event(job, "GPU_QUEUE", d);
    }
    if (err != CZ_OK || !go) cz_job_item_state(job, i, CZ_PART_FAILED, 0);
    pthread_mutex_lock(&r->mu);
    if (err != CZ_OK || !go) {
      if (err == CZ_OK && st) p->discard(p->ctx, j, i, st);
      st = NULL;
      job_fail_locked(r, j, go ? err : CZ_ERR_INVALID_ARG, go ? msg : "cancelled");
    } else if (r->dead[j] || r->stop) { /* nobody will prove it */
      p->discard(p->ctx, j, i, st);
      st = NULL;
    }
    if (!st) r->alive--;
    r->state[k] = st;
    r->ready[k] = true;
    pthread_cond_broadcast(&r->cv);
  }
  pthread_mutex_unlock(&r->mu);
  return NULL;
}

static void run(pipe_run *r, unsigned conc) {
  const cz_batch_pipeline *p = r->p;
  pthread_t *th = calloc(conc, sizeof *th);
  unsigned started = 0;
  if (th)
    for (; started < conc; started++)
      if (pthread_create(&th[started], NULL, synth_main, r) != 0) break;
  if (!started) {
    pthread_mutex_lock(&r->mu);
    r->stop = true;
    pthread_mutex_unlock(&r->mu);
  }
  /* The proving stage: this thread, items in order. */
  for (size_t k = 0; k < r->n; k++) {
    size_t j = r->job_of[k], i = r->local[k];
    cz_job *job = r->jobs[j];
    pthread_mutex_lock(&r->mu);
    while (!r->stop && !r->ready[k]) pthread_cond_wait(&r->cv, &r->mu);
    if (r->stop) {
      pthread_mutex_unlock(&r->mu);
      break;
    }
    void *st = r->state[k];
    r->state[k] = NULL;
    r->ready[k] = false;
    bool dead = r->dead[j];
    pthread_mutex_unlock(&r->mu);
    cz_err err = CZ_OK;
    bool go = true;
    char d[64], m[512] = "";
    if (st && dead) {
      p->discard(p->ctx, j, i, st);
    } else if (st) {
      snprintf(d, sizeof d, "item=%zu", i);
      go = cz_job_event(job, "GPU_PICKUP", d) && cz_job_event(job, "GPU_START", d);
      if (go) cz_job_item_state(job, i, CZ_PART_PROVING, 0);
      uint64_t t0 = cz_now_ms();
      if (go) err = p->prove(p->ctx, j, i, st, m, sizeof m);
      else p->discard(p->ctx, j, i, st);
      uint64_t ms = cz_now_ms() - t0;
      if (go && err == CZ_OK) {
        snprintf(d, sizeof d, "item=%zu,gpu_ms=%llu", i, (unsigned long long)ms);
        go = cz_job_event(job, "GPU_END", d);
        cz_job_add_timing(job, 0, ms);
        cz_job_item_state(job, i, CZ_PART_DONE, ms);
      } else {
        cz_job_item_state(job, i, CZ_PART_FAILED, 0);
      }
    } else {
      cz_job_item_state(job, i, CZ_PART_FAILED, 0); /* skipped */
    }
    pthread_mutex_lock(&r->mu);
    if (st) r->alive--; /* proved or discarded above */
    r->proved = k + 1;
    if (err != CZ_OK || !go) job_fail_locked(r, j, go ? err : CZ_ERR_INVALID_ARG, go ? m : "cancelled");
    pthread_cond_broadcast(&r->cv);
    bool last = i + 1 == r->n_items[j];
    cz_err job_err = r->errs[j];
    pthread_mutex_unlock(&r->mu);
    /* errs[j] / msgs[j] are final: no other item of job j is left. */
    if (last && p->job_done) p->job_done(p->ctx, j, job_err, r->msgs[j]);
  }
  for (unsigned t = 0; t < started; t++) pthread_join(th[t], NULL);
  for (size_t k = 0; k < r->n; k++)
    if (r->ready[k] && r->state[k]) p->discard(p->ctx, r->job_of[k], r->local[k], r->state[k]);
  if (!started)
    for (size_t k = 0; k < r->n; k++)
      job_fail_locked(r, r->job_of[k], CZ_ERR_NOMEM, "cannot start a synthesis thread");
  free(th);
}

void cz_jobs_pipeline(cz_job *const *jobs, size_t n_jobs, const size_t *n_items,
                      const cz_batch_pipeline *p, cz_err *errs, char (*msgs)[512]) {
  size_t n = 0;
  for (size_t j = 0; j < n_jobs; j++) n += n_items[j];
  if (!p || !p->synthesize || !p->prove || !p->discard) {
    for (size_t j = 0; j < n_jobs; j++)
      if (n_items[j]) errs[j] = CZ_ERR_INVALID_ARG, snprintf(msgs[j], 512, "bad pipeline");
    return;
  }
  for (size_t j = 0; j < n_jobs; j++)
    if (n_items[j]) {
      errs[j] = CZ_OK;
      msgs[j][0] = 0;
      cz_job_items_begin(jobs[j], n_items[j]);
    }
  if (n == 0) return;
  unsigned conc = p->serial ? 1 : p->synthesis_concurrency ? p->synthesis_concurrency : 1;
  if (conc > n) conc = (unsigned)n;
  pipe_run r = {.jobs = jobs, .p = p, .n = n, .n_items = n_items, .errs = errs, .msgs = msgs,
                .window = cz_pipeline_window(p->synthesis_concurrency, p->max_queue_depth,
                                             p->serial)};
  r.job_of = calloc(n, sizeof *r.job_of);
  r.local = calloc(n, sizeof *r.local);
  r.dead = calloc(n_jobs, sizeof *r.dead);
  r.state = calloc(n, sizeof *r.state);
  r.ready = calloc(n, sizeof *r.ready);
  if (!r.job_of || !r.local || !r.dead || !r.state || !r.ready) {
    for (size_t j = 0; j < n_jobs; j++)
      if (n_items[j]) errs[j] = CZ_ERR_NOMEM, snprintf(msgs[j], 512, "out of memory");
  } else {
    size_t k = 0;
    for (size_t j = 0; j < n_jobs; j++)
      for (size_t i = 0; i < n_items[j]; i++, k++) r.job_of[k] = j, r.local[k] = i;
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    run(&r, conc);
    pthread_mutex_destroy(&r.mu);
    pthread_cond_destroy(&r.cv);
  }
  free(r.job_of), free(r.local), free(r.dead), free(r.state), free(r.ready);
}

/* ---- One job: cz_pipeline's callbacks without the job index ---------------- */

static cz_err one_synthesize(void *ctx, size_t job, size_t i, void **state, char *msg,
                             size_t msg_len) {
  const cz_pipeline *p = ctx;
  (void)job;
  return p->synthesize(p->ctx, i, state, msg, msg_len);
}

static cz_err one_prove(void *ctx, size_t job, size_t i, void *state, char *msg, size_t msg_len) {
  const cz_pipeline *p = ctx;
  (void)job;
  return p->prove(p->ctx, i, state, msg, msg_len);
}

static void one_discard(void *ctx, size_t job, size_t i, void *state) {
  const cz_pipeline *p = ctx;
  (void)job;
  p->discard(p->ctx, i, state);
}

size_t cz_pipeline_window(unsigned synthesis_concurrency, unsigned max_queue_depth, bool serial) {
  if (serial) return 1;
  return (size_t)(synthesis_concurrency ? synthesis_concurrency : 1) +
         (max_queue_depth ? max_queue_depth : 1);
}

cz_err cz_job_pipeline(cz_job *job, const cz_pipeline *p, size_t n, char *msg, size_t msg_len) {
  if (!p || !p->synthesize || !p->prove || !p->discard) return CZ_ERR_INVALID_ARG;
  if (n == 0) return CZ_OK;
  cz_batch_pipeline bp = {one_synthesize, one_prove, one_discard, (void *)p,
                          p->synthesis_concurrency, p->max_queue_depth, NULL, p->serial};
  cz_err err = CZ_OK;
  char m[1][512] = {""};
  cz_jobs_pipeline(&job, 1, &n, &bp, &err, m);
  if (err != CZ_OK && msg) cz_msg(msg, msg_len, "%s", m[0]);
  return err;
}
