/* The job table: submit (checks, deep copy, parse, dedup by request_id and
 * input), await, cancel, the queue's insert and removal, finished jobs and
 * their retention, and the list of live jobs. Callers of the _locked
 * functions hold e->mu. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include "cuzk/clock.h"
#include "cuzk/sha256.h"
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
static cz_job *lookup(cz_engine *e, const char *id) {
  for (cz_job *j = e->buckets[hash_id(id)]; j; j = j->hnext)
    if (!j->superseded && strcmp(j->id, id) == 0) return j;
  return NULL;
}

static void job_drop_model(cz_job *j) {
  if (j->model && j->free_model) j->free_model(j->model_self, j->model);
  j->model = NULL;
}

void cz_job_free(cz_job *j) {
  job_drop_model(j);
  free(j->items);
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

static void random_uuid(char out[37]) {
  static atomic_uint_fast64_t fallback = 0;
  uint8_t b[16];
  if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
    /* Unique within the process is all a job id needs. */
    uint64_t x = atomic_fetch_add(&fallback, 1) ^ cz_now_ms() << 20;
    for (int i = 0; i < 16; i++) b[i] = (uint8_t)(x >> (8 * (i % 8))) ^ (uint8_t)i;
  }
  b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
  b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
  snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
           b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
           b[15]);
}

/* Deep copy of a request into one blob. */
static cz_err copy_request(cz_job *j, const cz_job_request *r) {
  size_t total = r->vanilla_proof.len + r->randomness.len + r->comm_r_old.len +
                 r->comm_r_new.len + r->comm_d_new.len;
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) total += r->vanilla_proofs[i].len;
  j->blob = malloc(total ? total : 1);
  j->blob_len = total;
  j->vps = r->n_vanilla_proofs ? calloc(r->n_vanilla_proofs, sizeof *j->vps) : NULL;
  if (!j->blob || (r->n_vanilla_proofs && !j->vps)) return CZ_ERR_NOMEM;
  uint8_t *p = j->blob;
  j->req = *r;
  j->req.request_id = j->id;
#define COPY(dst, src)                                  \
  do {                                                  \
    if ((src).len) memcpy(p, (src).data, (src).len);    \
    (dst).data = p;                                     \
    (dst).len = (src).len;                              \
    p += (src).len;                                     \
  } while (0)
  COPY(j->req.vanilla_proof, r->vanilla_proof);
  COPY(j->req.randomness, r->randomness);
  COPY(j->req.comm_r_old, r->comm_r_old);
  COPY(j->req.comm_r_new, r->comm_r_new);
  COPY(j->req.comm_d_new, r->comm_d_new);
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) COPY(j->vps[i], r->vanilla_proofs[i]);
#undef COPY
  j->req.vanilla_proofs = j->vps;
  return CZ_OK;
}

static void put_u64(cz_sha256_ctx *c, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
  cz_sha256_update(c, b, sizeof b);
}

/* What decides the proof, as SHA-256 over every field and every byte
 * length, then the digest of the copied bytes (one contiguous blob, hashed
 * one-shot: SHA-NI through OpenSSL, where the streaming code is portable C
 * and a PoRep C1 is megabytes). Priority is left
 * out: it orders the queue and does not change the proof, so a retry that
 * raises it joins the job instead of restarting it. request_id is the key
 * the digest is compared under, not part of it. */
static void input_digest(cz_job *j) {
  const cz_job_request *r = &j->req;
  uint8_t blob[CZ_SHA256_BYTES];
  cz_sha256_digest(blob, j->blob, j->blob_len);
  cz_sha256_ctx c;
  cz_sha256_init(&c);
  cz_sha256_update(&c, "cuzk-job-input-v1", 17);
  put_u64(&c, (uint64_t)r->kind);
  put_u64(&c, r->sector_size);
  put_u64(&c, r->registered_proof);
  put_u64(&c, r->sector_number);
  put_u64(&c, r->miner_id);
  put_u64(&c, r->partition_index);
  put_u64(&c, r->vanilla_proof.len);
  put_u64(&c, r->randomness.len);
  put_u64(&c, r->comm_r_old.len);
  put_u64(&c, r->comm_r_new.len);
  put_u64(&c, r->comm_d_new.len);
  put_u64(&c, r->n_vanilla_proofs);
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) put_u64(&c, r->vanilla_proofs[i].len);
  cz_sha256_update(&c, blob, sizeof blob);
  cz_sha256_final(&c, j->input);
}

static bool optional32(cz_bytes b) { return b.len == 0 || b.len == 32; }

static cz_err check_request(const cz_engine *e, const cz_job_request *r, char *msg,
                            size_t msg_len) {
  if (r->request_id) {
    size_t n = strlen(r->request_id);
    if (n >= CZ_JOB_ID_MAX)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "request_id is %zu bytes long (at most %d)", n, CZ_JOB_ID_MAX - 1);
    for (size_t i = 0; i < n; i++)
      if ((unsigned char)r->request_id[i] < 0x20 || r->request_id[i] == 0x7f)
        return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "request_id holds a control character");
  }
  if (r->kind == CZ_KIND_UNSPECIFIED)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "proof_kind is unset");
  if ((unsigned)r->kind >= CZ_KIND_COUNT)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "unknown proof_kind %u", (unsigned)r->kind);
  if ((unsigned)r->priority >= CZ_PRIO_COUNT)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "unknown priority %u",
                      (unsigned)r->priority);
  if (!optional32(r->randomness) || !optional32(r->comm_r_old) || !optional32(r->comm_r_new) ||
      !optional32(r->comm_d_new))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "randomness and comm_r_old/comm_r_new/comm_d_new must be 32 bytes");
  if (!e->has_prover[r->kind])
    return cz_msg_err(msg, msg_len, CZ_ERR_UNIMPLEMENTED,
                      "no prover for proof kind %s in this build", cz_proof_kind_label(r->kind));
  return CZ_OK;
}

/* Jobs that will run before j (caller holds mu; j queued). */
static uint32_t queue_position(cz_engine *e, const cz_job *j) {
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

/* Whether a new submit under old's request_id gets old back: the same
 * input while old is queued or running (and not being cancelled), or once
 * it COMPLETED (its proof is the answer). A FAILED or CANCELLED job is run
 * again: Curio retries a sector under the same id, and a failure may have
 * been this machine's (memory, a cancelled drain), not the input's. */
static bool reuse(const cz_job *old, const cz_job *j) {
  if (memcmp(old->input, j->input, sizeof j->input) != 0) return false;
  if (old->state == JOB_DONE) return old->status == CZ_JOB_COMPLETED;
  return !atomic_load(&old->cancel);
}

/* old's request_id now names a newer job (caller holds mu). An unfinished
 * old job that no AwaitProof waits for is cancelled: its proof answers an
 * input nobody asks about any more (after a reorg, a stale seed). One that
 * is awaited runs on and answers its awaiters only. */
static void supersede_locked(cz_engine *e, cz_job *old) {
  old->superseded = true;
  if (old->state == JOB_DONE || old->waiters) return;
  atomic_store(&old->cancel, true);
  if (old->state == JOB_QUEUED) {
    cz_engine_unqueue_locked(e, old);
    cz_engine_timeline(e, "CANCELLED", old->id, "superseded");
    cz_engine_finish_locked(e, old, CZ_JOB_CANCELLED, "cancelled: its request_id was resubmitted with another input");
  } else {
    cz_engine_timeline(e, "CANCELLED", old->id, "superseded");
  }
}

cz_err cz_engine_submit(cz_engine *e, const cz_job_request *req, char job_id[CZ_JOB_ID_MAX],
                        uint32_t *queue_pos, char *msg, size_t msg_len) {
  char dummy[1];
  if (!msg || !msg_len) msg = dummy, msg_len = sizeof dummy;
  msg[0] = 0;
  if (queue_pos) *queue_pos = 0;
  job_id[0] = 0;
  cz_err st = check_request(e, req, msg, msg_len);
  if (st != CZ_OK) return st;
  const cz_engine_prover *pv = &e->provers[req->kind];

  cz_job *j = calloc(1, sizeof *j);
  if (!j) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  if (req->request_id && req->request_id[0]) snprintf(j->id, sizeof j->id, "%s", req->request_id);
  else random_uuid(j->id);
  if (copy_request(j, req) != CZ_OK) {
    cz_job_free(j);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory copying the request");
  }
  input_digest(j);
  /* Hooks see the job's own copy, so that cz_request_model finds the model
   * the parse made (one parse per job). */
  if (pv->parse) {
    j->free_model = pv->free_model;
    j->model_self = pv->self;
    if (pv->parse(pv->self, &j->req, &j->model, &j->model_bytes, msg, msg_len) != CZ_OK) {
      if (!msg[0]) cz_msg(msg, msg_len, "the %s prover refused the request", pv->name);
      cz_job_free(j);
      return CZ_ERR_INVALID_ARG;
    }
  }
  if (pv->validate && pv->validate(pv->self, &j->req, msg, msg_len) != CZ_OK) {
    if (!msg[0]) cz_msg(msg, msg_len, "the %s prover refused the request", pv->name);
    cz_job_free(j);
    return CZ_ERR_INVALID_ARG;
  }
  uint64_t need = pv->mem_estimate ? pv->mem_estimate(pv->self, &j->req) : 0;
  j->e = e;
  j->prio = req->priority == CZ_PRIO_UNSPECIFIED ? cz_proof_kind_default_priority(req->kind)
                                                 : req->priority;
  j->req.priority = j->prio;
  atomic_init(&j->cancel, false);

  pthread_mutex_lock(&e->mu);
  if (e->stopping) {
    pthread_mutex_unlock(&e->mu);
    cz_job_free(j);
    return cz_msg_err(msg, msg_len, CZ_ERR_UNAVAILABLE, "the engine is shutting down");
  }
  cz_job *old = lookup(e, j->id);
  if (old && reuse(old, j)) {
    snprintf(job_id, CZ_JOB_ID_MAX, "%s", old->id);
    if (queue_pos && old->state == JOB_QUEUED) *queue_pos = queue_position(e, old);
    pthread_mutex_unlock(&e->mu);
    cz_job_free(j);
    return CZ_OK;
  }
  if (!cz_membudget_try_reserve(&e->budget, j->blob_len + j->model_bytes)) {
    pthread_mutex_unlock(&e->mu);
    cz_msg(msg, msg_len,
             "the memory budget cannot hold this request's %llu bytes (and its parse) now; retry later",
             (unsigned long long)(j->blob_len + j->model_bytes));
    cz_job_free(j);
    return CZ_ERR_EXHAUSTED;
  }
  if (old) supersede_locked(e, old); /* may free old */
  size_t b = hash_id(j->id);
  j->hnext = e->buckets[b];
  e->buckets[b] = j;
  e->n_jobs++;
  j->seq = e->seq++;
  j->submit_ms = cz_now_ms();
  j->state = JOB_QUEUED;
  e->pending[j->req.kind]++;
  snprintf(job_id, CZ_JOB_ID_MAX, "%s", j->id);
  char detail[96];
  snprintf(detail, sizeof detail, "kind=%s,priority=%d", cz_proof_kind_label(j->req.kind),
           (int)j->prio);
  cz_engine_timeline(e, "QUEUED", j->id, detail);
  if (need > e->budget.total) {
    char why[160];
    snprintf(why, sizeof why, "the job needs %llu bytes of memory, more than the whole budget of %llu",
             (unsigned long long)need, (unsigned long long)e->budget.total);
    cz_engine_finish_locked(e, j, CZ_JOB_FAILED, why);
  } else {
    j->mem_reserved = 0;
    if (e->qtail[j->prio]) e->qtail[j->prio]->qnext = j;
    else e->qhead[j->prio] = j;
    e->qtail[j->prio] = j;
    if (queue_pos) *queue_pos = queue_position(e, j);
    /* Broadcast: a worker that takes only urgent jobs must not be the
     * only one woken for a NORMAL job. */
    pthread_cond_broadcast(&e->work_cv);
  }
  pthread_mutex_unlock(&e->mu);
  return CZ_OK;
}

static void copy_result(const cz_job *j, cz_job_result *out) {
  snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
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
  cz_job *j = job_id ? lookup(e, job_id) : NULL;
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
  cz_job *j = job_id ? lookup(e, job_id) : NULL;
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
