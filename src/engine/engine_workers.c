/* The workers: each takes the most urgent queued job it may run, collects
 * same-circuit jobs into a batch, reserves memory and the SRS, calls the
 * prover (NORMAL and LOW jobs at the background niceness) and records the
 * answer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>
#include "cuzk/clock.h"
#include "engine/engine_internal.h"

cz_job *cz_engine_pop_locked(cz_engine *e, cz_priority min_prio) {
  for (int p = CZ_PRIO_CRITICAL; p >= (int)min_prio; p--) {
    cz_job *j = e->qhead[p];
    if (j) {
      cz_engine_unqueue_locked(e, j);
      return j;
    }
  }
  return NULL;
}

static void mark_running_locked(cz_engine *e, cz_worker *w, cz_job *j) {
  uint64_t now = cz_now_ms();
  j->state = JOB_RUNNING;
  j->start_ms = now;
  j->t.queue_wait_ms = now - j->submit_ms;
  e->pending[j->req.kind]--;
  e->running[j->req.kind]++;
  w->current = j;
  char d[32];
  snprintf(d, sizeof d, "worker=%u", w->index);
  cz_engine_timeline(e, "START", j->id, d);
}

static bool higher_queued(cz_engine *e, cz_priority p) {
  for (int q = CZ_PRIO_CRITICAL; q > (int)p; q--)
    if (e->qhead[q]) return true;
  return false;
}

/* Same-circuit jobs join the first one until the batch is full, the wait
 * runs out or a higher-priority job arrives (caller holds mu). */
static size_t collect_batch(cz_engine *e, cz_worker *w, cz_job **batch, size_t cap) {
  size_t n = 1;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += (time_t)(e->cfg.max_batch_wait_ms / 1000);
  deadline.tv_nsec += (long)(e->cfg.max_batch_wait_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
  const cz_job *first = batch[0];
  for (;;) {
    for (cz_job *q = e->qhead[first->prio]; q && n < cap;) {
      cz_job *next = q->qnext;
      if (q->req.kind == first->req.kind && q->req.registered_proof == first->req.registered_proof) {
        cz_engine_unqueue_locked(e, q);
        mark_running_locked(e, w, q);
        batch[n++] = q;
      }
      q = next;
    }
    if (n >= cap || e->stopping || higher_queued(e, first->prio) ||
        atomic_load(&batch[0]->cancel))
      break;
    if (pthread_cond_timedwait(&e->work_cv, &e->mu, &deadline) == ETIMEDOUT) break;
  }
  w->current = batch[0];
  return n;
}

/* Reserve memory and the SRS for a job; false (job finished) on failure. */
static bool prepare(cz_engine *e, cz_job *j, const cz_engine_prover *pv) {
  char msg[512] = "";
  uint64_t need = pv->mem_estimate ? pv->mem_estimate(pv->self, &j->req) : 0;
  if (need && cz_job_mem_reserve(j, need) != CZ_OK) {
    snprintf(msg, sizeof msg, "%s", atomic_load(&j->cancel) ? "cancelled while waiting for memory"
                                                           : "memory budget exceeded");
    goto fail;
  }
  const char *cid = pv->circuit_id ? pv->circuit_id(pv->self, &j->req) : NULL;
  if (cid) {
    uint64_t load_ms = 0;
    cz_err st = cz_srs_acquire(e->srs, cid, true, &j->srs, NULL, &load_ms, msg, sizeof msg);
    j->t.srs_load_ms = load_ms;
    if (st != CZ_OK) goto fail;
  }
  return true;
fail:
  cz_job_mem_release(j, j->mem_reserved);
  pthread_mutex_lock(&e->mu);
  cz_engine_finish_locked(e, j, atomic_load(&j->cancel) ? CZ_JOB_CANCELLED : CZ_JOB_FAILED, msg);
  pthread_mutex_unlock(&e->mu);
  return false;
}

static void complete(cz_engine *e, cz_job *j, cz_err err, uint8_t *proof, size_t len,
                     const char *msg) {
  cz_job_mem_release(j, j->mem_reserved);
  if (j->srs) cz_srs_release(e->srs, j->srs), j->srs = NULL;
  for (unsigned i = 0; i < j->n_extra_srs; i++) cz_srs_release(e->srs, j->extra_srs[i]);
  j->n_extra_srs = 0;
  pthread_mutex_lock(&e->mu);
  if (atomic_load(&j->cancel)) {
    free(proof);
    cz_engine_finish_locked(e, j, CZ_JOB_CANCELLED, "cancelled while running");
  } else if (err != CZ_OK) {
    free(proof);
    char why[512];
    snprintf(why, sizeof why, "%s", msg && msg[0] ? msg : cz_err_str(err));
    cz_engine_finish_locked(e, j, CZ_JOB_FAILED, why);
  } else if (!proof || !len) {
    free(proof);
    cz_engine_finish_locked(e, j, CZ_JOB_FAILED, "the prover returned no proof");
  } else {
    j->proof = proof;
    j->proof_len = len;
    cz_engine_finish_locked(e, j, CZ_JOB_COMPLETED, NULL);
  }
  pthread_mutex_unlock(&e->mu);
}

void cz_job_finish(cz_job *job, cz_err err, uint8_t *proof, size_t proof_len, const char *msg) {
  if (job->answered) {
    free(proof);
    return;
  }
  job->answered = true; /* only the batch's worker thread touches it */
  complete(job->e, job, err, proof, proof_len, msg);
}

static void run_one(cz_engine *e, cz_job *j) {
  const cz_engine_prover *pv = &e->provers[j->req.kind];
  if (!prepare(e, j, pv)) return;
  uint8_t *proof = NULL;
  size_t len = 0;
  char msg[512] = "";
  cz_err err = CZ_OK;
  if (!cz_job_event(j, "PROVE", pv->name)) err = CZ_ERR_INVALID_ARG;
  else err = pv->prove(pv->self, &j->req, j, &proof, &len, msg, sizeof msg);
  complete(e, j, err, proof, len, msg);
}

static void run_batch(cz_engine *e, cz_job **batch, size_t n) {
  const cz_engine_prover *pv = &e->provers[batch[0]->req.kind];
  char d[32];
  snprintf(d, sizeof d, "size=%zu", n);
  cz_engine_timeline(e, "BATCH", batch[0]->id, d);
  pthread_mutex_lock(&e->mu);
  for (size_t i = 0; i < n; i++) batch[i]->batch_size = (uint32_t)n;
  pthread_mutex_unlock(&e->mu);
  size_t m = 0; /* the jobs that got their memory and SRS */
  for (size_t i = 0; i < n; i++)
    if (prepare(e, batch[i], pv)) batch[m++] = batch[i];
  if (!m) return;
  const cz_job_request **reqs = calloc(m, sizeof *reqs);
  uint8_t **proofs = calloc(m, sizeof *proofs);
  size_t *lens = calloc(m, sizeof *lens);
  cz_err *errs = calloc(m, sizeof *errs);
  char(*msgs)[512] = calloc(m, sizeof *msgs);
  if (!reqs || !proofs || !lens || !errs || !msgs) {
    for (size_t i = 0; i < m; i++) complete(e, batch[i], CZ_ERR_NOMEM, NULL, 0, "out of memory");
  } else {
    for (size_t i = 0; i < m; i++) reqs[i] = &batch[i]->req, errs[i] = CZ_ERR_INVALID_ARG;
    /* Pinned: a job answered early (cz_job_finish) stays in the table while
     * the batch still holds its pointer. */
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < m; i++) batch[i]->pins++;
    pthread_mutex_unlock(&e->mu);
    pv->prove_batch(pv->self, reqs, batch, m, proofs, lens, errs, msgs);
    for (size_t i = 0; i < m; i++) {
      if (batch[i]->answered) free(proofs[i]);
      else complete(e, batch[i], errs[i], proofs[i], lens[i], msgs[i]);
    }
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < m; i++) batch[i]->pins--;
    cz_engine_prune_locked(e);
    pthread_mutex_unlock(&e->mu);
  }
  free(reqs);
  free(proofs);
  free(lens);
  free(errs);
  free(msgs);
}

static void run_now(cz_engine *e, cz_job **batch, size_t n) {
  if (n > 1) run_batch(e, batch, n);
  else run_one(e, batch[0]);
}

typedef struct {
  cz_engine *e;
  cz_job **batch;
  size_t n;
  int nice;
} background_run;

/* On Linux the nice value belongs to the thread, and threads inherit it
 * from the one that creates them: set here, it covers every thread the
 * job starts (synthesis, pipeline, parallel kernels). */
static void *background_main(void *arg) {
  background_run *r = arg;
  id_t tid = (id_t)syscall(SYS_gettid);
  errno = 0;
  int now = getpriority(PRIO_PROCESS, tid);
  if (errno == 0) {
    int want = now + r->nice > 19 ? 19 : now + r->nice;
    (void)setpriority(PRIO_PROCESS, tid, want); /* refused: run as before */
  }
  run_now(r->e, r->batch, r->n);
  return NULL;
}

/* NORMAL and LOW jobs run in a thread of their own at the background
 * niceness; HIGH and CRITICAL ones in the worker itself. */
static void run_jobs(cz_engine *e, cz_job **batch, size_t n) {
  if (e->cfg.background_nice > 0 && batch[0]->prio < CZ_PRIO_HIGH) {
    background_run r = {e, batch, n, e->cfg.background_nice};
    pthread_t t;
    if (pthread_create(&t, NULL, background_main, &r) == 0) {
      pthread_join(t, NULL);
      return;
    }
  }
  run_now(e, batch, n);
}

typedef struct {
  cz_engine *e;
  cz_worker *w;
} worker_arg;

static void *worker_loop(void *arg) {
  worker_arg a = *(worker_arg *)arg;
  free(arg);
  cz_engine *e = a.e;
  cz_worker *w = a.w;
  size_t cap = e->cfg.max_batch_size > 1 ? e->cfg.max_batch_size : 1;
  cz_job **batch = calloc(cap, sizeof *batch);
  pthread_mutex_lock(&e->mu);
  for (;;) {
    cz_job *j = cz_engine_pop_locked(e, w->min_prio);
    if (!j) {
      if (e->stopping) break;
      pthread_cond_wait(&e->work_cv, &e->mu);
      continue;
    }
    mark_running_locked(e, w, j);
    if (!e->drain && e->stopping) atomic_store(&j->cancel, true);
    size_t n = 1;
    batch[0] = j;
    if (batch && cap > 1 && e->provers[j->req.kind].prove_batch)
      n = collect_batch(e, w, batch, cap);
    pthread_mutex_unlock(&e->mu);
    run_jobs(e, batch, n);
    pthread_mutex_lock(&e->mu);
    w->current = NULL;
  }
  pthread_mutex_unlock(&e->mu);
  free(batch);
  return NULL;
}

cz_err cz_engine_start(cz_engine *e) {
  pthread_mutex_lock(&e->mu);
  if (e->started) {
    pthread_mutex_unlock(&e->mu);
    return CZ_ERR_INVALID_ARG;
  }
  e->started = true;
  pthread_mutex_unlock(&e->mu);
  for (unsigned i = 0; i < e->n_workers; i++) {
    worker_arg *a = malloc(sizeof *a);
    e->workers[i].index = i;
    if (!a) return CZ_ERR_NOMEM;
    a->e = e;
    a->w = &e->workers[i];
    if (pthread_create(&e->workers[i].thread, NULL, worker_loop, a) != 0) {
      free(a);
      e->n_workers = i; /* the ones that started are joined at shutdown */
      return i ? CZ_OK : CZ_ERR_NOMEM;
    }
  }
  return CZ_OK;
}
