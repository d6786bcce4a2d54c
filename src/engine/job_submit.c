/* Submit: the request checked and deep-copied into a new job, its input
 * digested, the kind's parse and plan run once, then the job joins the one
 * its request_id names (same input) or enters the table and the queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "cuzk/clock.h"
#include "cuzk/sha256.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

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
  size_t total = r->vanilla_proof.len + r->randomness.len + r->comm_r_old.len + r->comm_r_new.len +
                 r->comm_d_new.len + r->key_id.len;
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) total += r->vanilla_proofs[i].len;
  j->blob = malloc(total ? total : 1);
  j->blob_len = total;
  j->vps = r->n_vanilla_proofs ? calloc(r->n_vanilla_proofs, sizeof *j->vps) : NULL;
  if (!j->blob || (r->n_vanilla_proofs && !j->vps)) return CZ_ERR_NOMEM;
  uint8_t *p = j->blob;
  j->req = *r;
  j->req.request_id = j->id;
#define COPY(dst, src) \
  do { \
    if ((src).len) memcpy(p, (src).data, (src).len); \
    (dst).data = p; \
    (dst).len = (src).len; \
    p += (src).len; \
  } while (0)
  COPY(j->req.vanilla_proof, r->vanilla_proof);
  COPY(j->req.randomness, r->randomness);
  COPY(j->req.comm_r_old, r->comm_r_old);
  COPY(j->req.comm_r_new, r->comm_r_new);
  COPY(j->req.comm_d_new, r->comm_d_new);
  COPY(j->req.key_id, r->key_id);
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
  cz_err ok = cz_sha256_init(&c);
  (void)ok; /* cz_sha256_init always returns CZ_OK (sha256.h) */
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
  put_u64(&c, r->key_id.len);
  put_u64(&c, r->n_vanilla_proofs);
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) put_u64(&c, r->vanilla_proofs[i].len);
  cz_sha256_update(&c, blob, sizeof blob);
  cz_sha256_final(&c, j->input);
}

static bool optional32(cz_bytes b) { return b.len == 0 || b.len == 32; }

static cz_err check_request_id(const char *id, char *msg, size_t msg_len) {
  size_t n = id ? strlen(id) : 0;
  if (n >= CZ_JOB_ID_MAX)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "request_id is %zu bytes long (at most %d)",
                      n, CZ_JOB_ID_MAX - 1);
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)id[i] < 0x20 || id[i] == 0x7f)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "request_id holds a control character");
  return CZ_OK;
}

static cz_err check_request(const cz_engine *e, const cz_job_request *r, char *msg,
                            size_t msg_len) {
  cz_err err = check_request_id(r->request_id, msg, msg_len);
  if (err != CZ_OK) return err;
  if (r->kind == CZ_KIND_UNSPECIFIED)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "proof_kind is unset");
  if ((unsigned)r->kind >= CZ_KIND_COUNT)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "unknown proof_kind %u", (unsigned)r->kind);
  if ((unsigned)r->priority >= CZ_PRIO_COUNT)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "unknown priority %u",
                      (unsigned)r->priority);
  if (!optional32(r->randomness) || !optional32(r->comm_r_old) || !optional32(r->comm_r_new) ||
      !optional32(r->comm_d_new) || !optional32(r->key_id))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "randomness, comm_r_old/comm_r_new/comm_d_new and key_id must be 32 bytes");
  if (!e->has_ops[r->kind])
    return cz_msg_err(msg, msg_len, CZ_ERR_UNIMPLEMENTED,
                      "no prover for proof kind %s in this build", cz_proof_kind_label(r->kind));
  return CZ_OK;
}

/* A new job holding a copy of req (its id, priority and input digest set),
 * not yet in the table. */
static cz_err new_job(cz_engine *e, const cz_job_request *req, cz_job **out, char *msg,
                      size_t msg_len) {
  cz_job *j = *out = calloc(1, sizeof *j);
  if (!j) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  j->e = e;
  atomic_init(&j->cancel, false);
  if (req->request_id && req->request_id[0]) snprintf(j->id, sizeof j->id, "%s", req->request_id);
  else random_uuid(j->id);
  if (copy_request(j, req) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory copying the request");
  input_digest(j);
  j->prio = req->priority == CZ_PRIO_UNSPECIFIED ? cz_proof_kind_default_priority(req->kind)
                                                 : req->priority;
  j->req.priority = j->prio;
  return CZ_OK;
}

/* The kind's parse and plan, once per job, on the job's own copy. A
 * refusal is the caller's input (CZ_ERR_INVALID_ARG) unless memory ran
 * out. */
static cz_err parse_and_plan(cz_engine *e, cz_job *j, char *msg, size_t msg_len) {
  const cz_proof_ops *ops = &e->ops[j->req.kind];
  void *self = e->ops_self[j->req.kind];
  cz_err err = CZ_OK;
  if (ops->parse) err = ops->parse(self, &j->req, &j->model, &j->model_bytes, msg, msg_len);
  j->ctx = (cz_job_ctx){.req = &j->req,
                        .model = j->model,
                        .synth_threads = cz_pipeline_synth_threads(&e->cfg),
                        .window = cz_pipeline_window(&e->cfg),
                        .cancelled = &j->cancel};
  if (err == CZ_OK) err = ops->plan(self, &j->ctx, &j->plan, msg, msg_len);
  /* A job whose partitions in flight would not fit the whole budget runs
   * them one at a time (a 32 GiB PoRep on a 24 GB machine: 22.3 GB for two
   * partitions, 13.4 GB for one) instead of failing. */
  if (err == CZ_OK && j->plan.mem_bytes > e->budget.total && j->ctx.window > 1) {
    j->wide_mem_bytes = j->plan.mem_bytes;
    j->wide_window = j->ctx.window;
    j->ctx.window = 1;
    err = ops->plan(self, &j->ctx, &j->plan, msg, msg_len);
  }
  if (err == CZ_OK && (!j->plan.n_partitions || !j->plan.proof_bytes))
    err = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "the %s prover planned no proof", ops->name);
  if (err != CZ_OK && !msg[0]) cz_msg(msg, msg_len, "the %s prover refused the request", ops->name);
  j->ctx.plan = &j->plan;
  return err == CZ_OK || err == CZ_ERR_NOMEM ? err : CZ_ERR_INVALID_ARG;
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
  cz_engine_timeline(e, "CANCELLED", old->id, "superseded");
  if (old->state == JOB_QUEUED) {
    cz_engine_unqueue_locked(e, old);
    cz_engine_finish_locked(e, old, CZ_JOB_CANCELLED,
                            "cancelled: its request_id was resubmitted with another input");
  }
}

/* The new job j enters the table and the queue (QUEUED), or FAILS at once
 * when its plan needs more than the whole budget. Caller holds mu. */
static void enter_locked(cz_engine *e, cz_job *j, uint32_t *queue_pos) {
  cz_engine_insert_locked(e, j);
  char detail[96];
  snprintf(detail, sizeof detail, "kind=%s,priority=%d,window=%zu",
           cz_proof_kind_label(j->req.kind), (int)j->prio, j->ctx.window);
  cz_engine_timeline(e, "QUEUED", j->id, detail);
  uint64_t need = j->plan.mem_bytes;
  if (need > e->budget.total) {
    char why[224], wide[96] = "";
    if (j->wide_window)
      snprintf(wide, sizeof wide, " with one partition in flight (%llu with %zu)",
               (unsigned long long)j->wide_mem_bytes, j->wide_window);
    snprintf(why, sizeof why,
             "the job needs %llu bytes of memory%s, more than the whole budget of %llu",
             (unsigned long long)need, wide, (unsigned long long)e->budget.total);
    cz_engine_finish_locked(e, j, CZ_JOB_FAILED, why);
    return;
  }
  cz_engine_enqueue_locked(e, j);
  if (queue_pos) *queue_pos = cz_engine_queue_position_locked(e, j);
}

/* Join the job j's request_id names, or take its place (cz_engine_submit's
 * rules). *taken: the table owns j now. */
static cz_err join_or_enter(cz_engine *e, cz_job *j, char job_id[CZ_JOB_ID_MAX],
                            uint32_t *queue_pos, bool *taken, char *msg, size_t msg_len) {
  pthread_mutex_lock(&e->mu);
  cz_err err = CZ_OK;
  cz_job *old = cz_engine_lookup_locked(e, j->id);
  if (e->stopping) {
    err = cz_msg_err(msg, msg_len, CZ_ERR_UNAVAILABLE, "the engine is shutting down");
  } else if (old && reuse(old, j)) {
    snprintf(job_id, CZ_JOB_ID_MAX, "%s", old->id);
    if (queue_pos && old->state == JOB_QUEUED) *queue_pos = cz_engine_queue_position_locked(e, old);
  } else if (!cz_membudget_try_reserve(&e->budget, j->blob_len + j->model_bytes)) {
    err = cz_msg_err(
        msg, msg_len, CZ_ERR_EXHAUSTED,
        "the memory budget cannot hold this request's %llu bytes (and its parse) now; retry later",
        (unsigned long long)(j->blob_len + j->model_bytes));
  } else {
    if (old) supersede_locked(e, old); /* may free old */
    snprintf(job_id, CZ_JOB_ID_MAX, "%s", j->id);
    enter_locked(e, j, queue_pos);
    *taken = true;
  }
  pthread_mutex_unlock(&e->mu);
  return err;
}

cz_err cz_engine_submit(cz_engine *e, const cz_job_request *req, char job_id[CZ_JOB_ID_MAX],
                        uint32_t *queue_pos, char *msg, size_t msg_len) {
  char dummy[1];
  if (!msg || !msg_len) msg = dummy, msg_len = sizeof dummy;
  msg[0] = 0;
  if (queue_pos) *queue_pos = 0;
  job_id[0] = 0;
  cz_err err = check_request(e, req, msg, msg_len);
  if (err != CZ_OK) return err;
  cz_job *j = NULL;
  bool taken = false;
  err = new_job(e, req, &j, msg, msg_len);
  if (err == CZ_OK) err = parse_and_plan(e, j, msg, msg_len);
  if (err == CZ_OK) err = join_or_enter(e, j, job_id, queue_pos, &taken, msg, msg_len);
  if (!taken && j) cz_job_free(j);
  return err;
}
