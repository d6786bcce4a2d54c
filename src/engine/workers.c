/* The workers: each takes the most urgent queued job it may run, collects
 * same-circuit jobs into a batch, and runs them (job_run.c; NORMAL and LOW
 * jobs at the background niceness). */
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
      if (q->req.kind == first->req.kind &&
          q->req.registered_proof == first->req.registered_proof) {
        cz_engine_unqueue_locked(e, q);
        mark_running_locked(e, w, q);
        batch[n++] = q;
      }
      q = next;
    }
    if (n >= cap || e->stopping || higher_queued(e, first->prio) || atomic_load(&batch[0]->cancel))
      break;
    if (pthread_cond_timedwait(&e->work_cv, &e->mu, &deadline) == ETIMEDOUT) break;
  }
  w->current = batch[0];
  return n;
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
  cz_jobs_run(r->e, r->batch, r->n);
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
  cz_jobs_run(e, batch, n);
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
  cz_job *one[1], **batch = calloc(cap, sizeof *batch);
  if (!batch) batch = one, cap = 1; /* no batches, but jobs still run */
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
    if (cap > 1 && e->ops[j->req.kind].batch) n = collect_batch(e, w, batch, cap);
    /* Pinned while this worker holds them: a job answered early stays in
     * the table until the whole batch is over. */
    for (size_t i = 0; i < n; i++) batch[i]->pins++;
    pthread_mutex_unlock(&e->mu);
    run_jobs(e, batch, n);
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < n; i++) batch[i]->pins--;
    w->current = NULL;
    cz_engine_prune_locked(e);
  }
  pthread_mutex_unlock(&e->mu);
  if (batch != one) free(batch);
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
  cz_devices_start(&e->devs);
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
