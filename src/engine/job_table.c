/* The job table: lookup by request_id, the queue's insert and removal,
 * finished jobs and their retention, await, cancel, and the list of live
 * jobs (submit is job_submit.c). Callers of the _locked functions hold
 * e->mu. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/clock.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

static size_t hash_id(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
  return (size_t)(h % CZ_ENGINE_BUCKETS);
}

/* The job a request_id names now: a superseded one stays in the table (a
 * worker or an awaiter may still hold it, shutdown must still see it) until
 * it ages out, but no id reaches it. */
cz_job *cz_engine_lookup_locked(cz_engine *e, const char *id) {
  for (cz_job *j = e->buckets[hash_id(id)]; j; j = j->hnext)
    if (!j->superseded && strcmp(j->id, id) == 0) return j;
  return NULL;
}

static void job_drop_model(cz_job *j) {
  const cz_proof_ops *ops = j->e ? &j->e->ops[j->req.kind] : NULL;
  if (j->model && ops && ops->free_model) ops->free_model(j->e->ops_self[j->req.kind], j->model);
  j->model = NULL;
  j->ctx.model = NULL;
}

void cz_job_free(cz_job *j) {
  job_drop_model(j);
  free(j->items);
  free(j->out);
  free(j->proof);
  free(j->blob);
  free(j->vps);
  free(j);
}

static void unlink_job(cz_engine *e, cz_job *j) {
  cz_job **pp = &e->buckets[hash_id(j->id)];
  while (*pp != j) pp = &(*pp)->hnext;
  *pp = j->hnext;
  e->n_jobs--;
}

/* Drop the oldest finished jobs beyond the retention limit (never one an
 * awaiter or a batch still holds). */
void cz_engine_prune_locked(cz_engine *e) {
  cz_job **pp = &e->fin_head, *prev = NULL;
  while (e->n_finished > e->cfg.max_finished_jobs && *pp) {
    cz_job *j = *pp;
    if (j->waiters || j->pins) {
      prev = j;
      pp = &j->fnext;
      continue;
    }
    *pp = j->fnext;
    if (e->fin_tail == j) e->fin_tail = prev;
    e->n_finished--;
    unlink_job(e, j);
    cz_job_free(j);
  }
}

void cz_engine_insert_locked(cz_engine *e, cz_job *j) {
  size_t b = hash_id(j->id);
  j->hnext = e->buckets[b];
  e->buckets[b] = j;
  e->n_jobs++;
  j->seq = e->seq++;
  j->submit_ms = cz_now_ms();
  j->state = JOB_QUEUED;
  e->pending[j->req.kind]++;
}

void cz_engine_enqueue_locked(cz_engine *e, cz_job *j) {
  if (e->qtail[j->prio]) e->qtail[j->prio]->qnext = j;
  else e->qhead[j->prio] = j;
  e->qtail[j->prio] = j;
  /* Broadcast: a worker that takes only urgent jobs must not be the only
   * one woken for a NORMAL job. */
  pthread_cond_broadcast(&e->work_cv);
}

uint32_t cz_engine_queue_position_locked(cz_engine *e, const cz_job *j) {
  uint32_t n = 0;
  for (int p = CZ_PRIO_CRITICAL; p >= (int)j->prio; p--)
    for (cz_job *q = e->qhead[p]; q && q != j; q = q->qnext) n++;
  return n;
}

void cz_engine_finish_locked(cz_engine *e, cz_job *j, cz_job_status st, const char *why) {
  uint64_t now = cz_now_ms();
  if (j->state == JOB_QUEUED) {
    e->pending[j->req.kind]--;
    j->t.queue_wait_ms = now - j->submit_ms;
  } else if (j->state == JOB_RUNNING) {
    e->running[j->req.kind]--;
  }
  j->state = JOB_DONE;
  j->status = st;
  /* The request's bytes and its model are no longer needed: only the
   * result is kept. */
  cz_membudget_release(&e->budget, j->blob_len + j->model_bytes);
  j->blob_len = 0;
  j->model_bytes = 0;
  job_drop_model(j);
  free(j->blob);
  free(j->vps);
  j->blob = NULL;
  j->vps = NULL;
  memset(&j->req.vanilla_proof, 0, sizeof j->req.vanilla_proof);
  j->req.vanilla_proofs = NULL;
  j->req.n_vanilla_proofs = 0;
  j->req.randomness = j->req.comm_r_old = j->req.comm_r_new = j->req.comm_d_new = (cz_bytes){0};
  j->t.total_ms = now - j->submit_ms;
  if (why && why != j->error) snprintf(j->error, sizeof j->error, "%s", why);
  cz_proof_kind k = j->req.kind;
  if (st == CZ_JOB_COMPLETED) {
    e->completed[k]++;
    e->dur_sum[k] += j->t.total_ms;
    e->dur_count[k]++;
    cz_histogram_observe(&e->dur_hist[k], (now - j->submit_ms) * 1000000u);
  } else if (st == CZ_JOB_FAILED) {
    e->failed[k]++;
  } else {
    e->cancelled[k]++;
  }
  j->fnext = NULL;
  if (e->fin_tail) e->fin_tail->fnext = j;
  else e->fin_head = j;
  e->fin_tail = j;
  e->n_finished++;
  pthread_cond_broadcast(&e->done_cv);
  char detail[64];
  static const char *const names[] = {"unknown", "completed", "failed", "cancelled", "timeout"};
  snprintf(detail, sizeof detail, "status=%s,total_ms=%llu", names[st],
           (unsigned long long)j->t.total_ms);
  cz_engine_timeline(e, "END", j->id, detail);
  cz_engine_prune_locked(e);
}

static void copy_result(const cz_job *j, cz_job_result *out) {
  snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
  out->kind = j->req.kind;
  out->t = j->t;
  out->proof = NULL;
  out->proof_len = 0;
  out->error[0] = 0;
  if (j->state != JOB_DONE) {
    out->status = CZ_JOB_TIMEOUT;
    return;
  }
  out->status = j->status;
  snprintf(out->error, sizeof out->error, "%s", j->error);
  if (j->status == CZ_JOB_COMPLETED && j->proof_len) {
    out->proof = malloc(j->proof_len);
    if (out->proof) {
      memcpy(out->proof, j->proof, j->proof_len);
      out->proof_len = j->proof_len;
    } else {
      out->status = CZ_JOB_FAILED;
      snprintf(out->error, sizeof out->error, "out of memory copying the proof");
    }
  }
}

cz_err cz_engine_await(cz_engine *e, const char *job_id, uint64_t timeout_ms, cz_job_result *out) {
  memset(out, 0, sizeof *out);
  pthread_mutex_lock(&e->mu);
  cz_job *j = job_id ? cz_engine_lookup_locked(e, job_id) : NULL;
  if (!j) {
    pthread_mutex_unlock(&e->mu);
    return CZ_ERR_NOT_FOUND;
  }
  j->waiters++;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += (time_t)(timeout_ms / 1000);
  deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
  while (j->state != JOB_DONE) {
    if (timeout_ms == 0) pthread_cond_wait(&e->done_cv, &e->mu);
    else if (pthread_cond_timedwait(&e->done_cv, &e->mu, &deadline) == ETIMEDOUT) break;
  }
  j->waiters--;
  copy_result(j, out);
  pthread_mutex_unlock(&e->mu);
  return CZ_OK;
}

void cz_engine_unqueue_locked(cz_engine *e, cz_job *j) {
  cz_job **pp = &e->qhead[j->prio], *prev = NULL;
  while (*pp != j) prev = *pp, pp = &(*pp)->qnext;
  *pp = j->qnext;
  if (e->qtail[j->prio] == j) e->qtail[j->prio] = prev;
  j->qnext = NULL;
}

cz_err cz_engine_cancel(cz_engine *e, const char *job_id, bool *was_running) {
  *was_running = false;
  pthread_mutex_lock(&e->mu);
  cz_job *j = job_id ? cz_engine_lookup_locked(e, job_id) : NULL;
  if (!j) {
    pthread_mutex_unlock(&e->mu);
    return CZ_ERR_NOT_FOUND;
  }
  if (j->state == JOB_QUEUED) {
    cz_engine_unqueue_locked(e, j);
    atomic_store(&j->cancel, true);
    cz_engine_timeline(e, "CANCELLED", j->id, "queued");
    cz_engine_finish_locked(e, j, CZ_JOB_CANCELLED, "cancelled while queued");
  } else if (j->state == JOB_RUNNING) {
    *was_running = true;
    atomic_store(&j->cancel, true);
    cz_engine_timeline(e, "CANCELLED", j->id, "running");
  }
  pthread_mutex_unlock(&e->mu);
  return CZ_OK;
}

static void job_info_locked(const cz_job *j, uint64_t now, cz_job_info *o) {
  memset(o, 0, sizeof *o);
  snprintf(o->job_id, sizeof o->job_id, "%s", j->id);
  o->kind = j->req.kind;
  o->priority = j->prio;
  o->running = j->state == JOB_RUNNING;
  o->batch_size = j->batch_size ? j->batch_size : 1;
  o->age_ms = now - j->submit_ms;
  o->running_ms = o->running ? now - j->start_ms : 0;
  o->n_partitions = j->n_items;
  size_t n = j->n_items < CZ_ENGINE_MAX_PARTITIONS ? j->n_items : CZ_ENGINE_MAX_PARTITIONS;
  if (n) memcpy(o->partitions, j->items, n * sizeof *o->partitions);
}

size_t cz_engine_list_jobs(cz_engine *e, cz_job_info *out, size_t cap) {
  size_t n = 0;
  uint64_t now = cz_now_ms();
  pthread_mutex_lock(&e->mu);
  for (size_t b = 0; b < CZ_ENGINE_BUCKETS && n < cap; b++)
    for (cz_job *j = e->buckets[b]; j && n < cap; j = j->hnext)
      if (j->state == JOB_RUNNING) job_info_locked(j, now, &out[n++]);
  for (int p = CZ_PRIO_CRITICAL; p > CZ_PRIO_UNSPECIFIED && n < cap; p--)
    for (cz_job *j = e->qhead[p]; j && n < cap; j = j->qnext) job_info_locked(j, now, &out[n++]);
  pthread_mutex_unlock(&e->mu);
  return n;
}
