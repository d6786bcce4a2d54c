/* The per-job two-stage pipeline: synthesis threads feed the proving
 * (calling) thread, in item order, through a bounded window. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_internal.h"

typedef struct {
  cz_job *job;
  const cz_pipeline *p;
  size_t n;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t next_synth;  /* next item to start synthesizing */
  size_t proved;      /* items proved (or taken by the prover) */
  size_t window;
  void **state;
  bool *ready;
  bool stop;
  cz_err err;
  char msg[512];
} pipe_run;

static void fail_locked(pipe_run *r, cz_err err, const char *msg) {
  if (r->err == CZ_OK) {
    r->err = err;
    snprintf(r->msg, sizeof r->msg, "%s", msg && msg[0] ? msg : cz_err_str(err));
  }
  r->stop = true;
  pthread_cond_broadcast(&r->cv);
}

static void *synth_main(void *arg) {
  pipe_run *r = arg;
  pthread_mutex_lock(&r->mu);
  for (;;) {
    while (!r->stop && r->next_synth < r->n && r->next_synth >= r->proved + r->window)
      pthread_cond_wait(&r->cv, &r->mu);
    if (r->stop || r->next_synth >= r->n) break;
    size_t i = r->next_synth++;
    pthread_mutex_unlock(&r->mu);
    char d[64], msg[512] = "";
    snprintf(d, sizeof d, "item=%zu", i);
    bool go = cz_job_event(r->job, "SYNTH_START", d);
    uint64_t t0 = cz_engine_now_ms();
    void *st = NULL;
    cz_err err = go ? r->p->synthesize(r->p->ctx, i, &st, msg, sizeof msg) : CZ_ERR_INVALID_ARG;
    uint64_t ms = cz_engine_now_ms() - t0;
    if (go && err == CZ_OK) {
      snprintf(d, sizeof d, "item=%zu,synth_ms=%llu", i, (unsigned long long)ms);
      go = cz_job_event(r->job, "SYNTH_END", d);
      cz_job_add_timing(r->job, ms, 0);
      snprintf(d, sizeof d, "item=%zu", i);
      if (go) go = cz_job_event(r->job, "GPU_QUEUE", d);
    }
    pthread_mutex_lock(&r->mu);
    if (err != CZ_OK || !go) {
      if (err == CZ_OK && st) r->p->discard(r->p->ctx, i, st);
      fail_locked(r, go ? err : CZ_ERR_INVALID_ARG, go ? msg : "cancelled");
      break;
    }
    if (r->stop) { /* nobody will prove it */
      r->p->discard(r->p->ctx, i, st);
      break;
    }
    r->state[i] = st;
    r->ready[i] = true;
    pthread_cond_broadcast(&r->cv);
  }
  pthread_mutex_unlock(&r->mu);
  return NULL;
}

cz_err cz_job_pipeline(cz_job *job, const cz_pipeline *p, size_t n, char *msg, size_t msg_len) {
  if (!p || !p->synthesize || !p->prove || !p->discard) return CZ_ERR_INVALID_ARG;
  if (n == 0) return CZ_OK;
  unsigned conc = p->synthesis_concurrency ? p->synthesis_concurrency : 1;
  unsigned depth = p->max_queue_depth ? p->max_queue_depth : 1;
  if (conc > n) conc = (unsigned)n;
  pipe_run r = {.job = job, .p = p, .n = n, .window = (size_t)conc + depth};
  r.state = calloc(n, sizeof *r.state);
  r.ready = calloc(n, sizeof *r.ready);
  pthread_t *th = calloc(conc, sizeof *th);
  if (!r.state || !r.ready || !th) {
    free(r.state), free(r.ready), free(th);
    if (msg) snprintf(msg, msg_len, "out of memory");
    return CZ_ERR_NOMEM;
  }
  pthread_mutex_init(&r.mu, NULL);
  pthread_cond_init(&r.cv, NULL);
  unsigned started = 0;
  for (; started < conc; started++)
    if (pthread_create(&th[started], NULL, synth_main, &r) != 0) break;
  if (!started) {
    pthread_mutex_lock(&r.mu);
    fail_locked(&r, CZ_ERR_NOMEM, "cannot start a synthesis thread");
    pthread_mutex_unlock(&r.mu);
  }
  /* The proving stage: this thread, items in order. */
  for (size_t i = 0; i < n; i++) {
    pthread_mutex_lock(&r.mu);
    while (!r.stop && !r.ready[i]) pthread_cond_wait(&r.cv, &r.mu);
    if (r.stop) {
      pthread_mutex_unlock(&r.mu);
      break;
    }
    void *st = r.state[i];
    r.state[i] = NULL;
    r.ready[i] = false;
    pthread_mutex_unlock(&r.mu);
    char d[64], m[512] = "";
    snprintf(d, sizeof d, "item=%zu", i);
    cz_err err = CZ_OK;
    bool go = cz_job_event(job, "GPU_PICKUP", d) && cz_job_event(job, "GPU_START", d);
    uint64_t t0 = cz_engine_now_ms();
    if (go) err = p->prove(p->ctx, i, st, m, sizeof m);
    else p->discard(p->ctx, i, st);
    uint64_t ms = cz_engine_now_ms() - t0;
    if (go && err == CZ_OK) {
      snprintf(d, sizeof d, "item=%zu,gpu_ms=%llu", i, (unsigned long long)ms);
      go = cz_job_event(job, "GPU_END", d);
      cz_job_add_timing(job, 0, ms);
    }
    pthread_mutex_lock(&r.mu);
    r.proved = i + 1;
    if (err != CZ_OK || !go) fail_locked(&r, go ? err : CZ_ERR_INVALID_ARG, go ? m : "cancelled");
    pthread_cond_broadcast(&r.cv);
    pthread_mutex_unlock(&r.mu);
  }
  for (unsigned t = 0; t < started; t++) pthread_join(th[t], NULL);
  for (size_t i = 0; i < n; i++)
    if (r.ready[i]) p->discard(p->ctx, i, r.state[i]);
  if (r.err != CZ_OK && msg) snprintf(msg, msg_len, "%s", r.msg);
  cz_err err = r.err;
  pthread_mutex_destroy(&r.mu);
  pthread_cond_destroy(&r.cv);
  free(r.state), free(r.ready), free(th);
  return err;
}
