/* A job's steps on its worker (cuzk/proof_ops.h): the plan's memory, the
 * kind's prepare, the plan's SRS, PROVE, the kind's check, the plan's
 * shape, then its partitions through the pipeline (pipeline.c), and the
 * answer. A batch takes the same steps job by job and shares one pipeline.
 * Also the job's TIMELINE events, timings, synthesis slots and partition
 * states, which the pipeline reports through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/clock.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

bool cz_job_event(cz_job *j, const char *event, const char *detail) {
  cz_engine_timeline(j->e, event, j->id, detail);
  return !atomic_load(&j->cancel);
}

void cz_job_add_timing(cz_job *j, uint64_t synthesis_ms, uint64_t gpu_compute_ms) {
  pthread_mutex_lock(&j->e->mu);
  j->t.synthesis_ms += synthesis_ms;
  j->t.gpu_compute_ms += gpu_compute_ms;
  pthread_mutex_unlock(&j->e->mu);
}

static cz_err cancelled(char *msg, size_t msg_len) {
  return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "cancelled");
}

/* ---- the steps before the pipeline ----------------------------------------- */

/* The memory the plan asks for, waiting (MEM_WAIT) while the budget is
 * short; held until the job is answered. */
static cz_err reserve_memory(cz_job *j, char *msg, size_t msg_len) {
  cz_engine *e = j->e;
  uint64_t bytes = j->plan.mem_bytes;
  if (!bytes) return CZ_OK;
  if (!cz_membudget_try_reserve(&e->budget, bytes)) {
    char d[48];
    snprintf(d, sizeof d, "bytes=%llu", (unsigned long long)bytes);
    cz_engine_timeline(e, "MEM_WAIT", j->id, d);
    if (cz_membudget_reserve(&e->budget, bytes, &j->cancel) != CZ_OK)
      return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "%s",
                        atomic_load(&j->cancel) ? "cancelled while waiting for memory"
                                                : "memory budget exceeded");
  }
  j->mem_reserved = bytes;
  return CZ_OK;
}

/* The plan's SRS made hot, with a reference held until the job is
 * answered; its object goes into the context of the kind's ops. */
static cz_err acquire_srs(cz_job *j, char *msg, size_t msg_len) {
  if (!j->plan.circuit_id) return CZ_OK;
  uint64_t load_ms = 0;
  cz_err err =
      cz_srs_acquire(j->e->srs, j->plan.circuit_id, true, &j->srs, NULL, &load_ms, msg, msg_len);
  j->t.srs_load_ms = load_ms;
  if (err == CZ_OK) j->ctx.srs = cz_srs_entry_object(j->srs, &j->ctx.srs_len);
  return err;
}

/* The plan's shape when it can be made hot; otherwise the job goes on
 * without it (the plain path). Either way a PCE event says which. */
static void acquire_shape(cz_job *j) {
  if (!j->plan.shape_id) return;
  char why[256] = "", d[320];
  if (cz_srs_acquire(j->e->srs, j->plan.shape_id, true, &j->shape, NULL, NULL, why, sizeof why) ==
      CZ_OK)
    j->ctx.shape = cz_srs_entry_object(j->shape, NULL);
  snprintf(d, sizeof d, "%s%s",
           j->ctx.shape ? "shape=" : "plain,why=", j->ctx.shape ? j->plan.shape_id : why);
  cz_job_event(j, "PCE", d);
}

/* Everything up to the pipeline; msg says why it stopped. */
static cz_err job_setup(cz_job *j, char *msg, size_t msg_len) {
  const cz_proof_ops *ops = &j->e->ops[j->req.kind];
  void *self = j->e->ops_self[j->req.kind];
  cz_err err = reserve_memory(j, msg, msg_len);
  if (err == CZ_OK && ops->prepare) err = ops->prepare(self, &j->ctx, msg, msg_len);
  if (err == CZ_OK) err = acquire_srs(j, msg, msg_len);
  if (err == CZ_OK && !cz_job_event(j, "PROVE", ops->name)) err = cancelled(msg, msg_len);
  if (err == CZ_OK && ops->check)
    err = cz_job_event(j, "VANILLA_CHECK", NULL) ? ops->check(self, &j->ctx, msg, msg_len)
                                                 : cancelled(msg, msg_len);
  if (err != CZ_OK) return err;
  acquire_shape(j);
  if (!(j->out = malloc(j->plan.n_partitions * j->plan.proof_bytes)))
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory for %zu proofs",
                      j->plan.n_partitions);
  return CZ_OK;
}

/* ---- the answer ------------------------------------------------------------- */

/* Give back what the job held while it ran: memory and SRS references. */
static void release_held(cz_job *j) {
  cz_engine *e = j->e;
  cz_membudget_release(&e->budget, j->mem_reserved);
  j->mem_reserved = 0;
  if (j->srs) cz_srs_release(e->srs, j->srs);
  if (j->shape) cz_srs_release(e->srs, j->shape);
  j->srs = j->shape = NULL;
  j->ctx.srs = j->ctx.shape = NULL;
}

void cz_job_answer(cz_job *j, cz_err err, const char *msg) {
  if (j->answered) return;
  j->answered = true; /* one thread answers a job: the prover that ended its
                         last partition, or its worker once the run is over */
  cz_engine *e = j->e;
  release_held(j);
  uint8_t *proof = err == CZ_OK ? j->out : NULL;
  if (!proof) free(j->out);
  j->out = NULL;
  pthread_mutex_lock(&e->mu);
  if (atomic_load(&j->cancel)) {
    free(proof);
    /* A cancellation seen while waiting says so; any other is "running". */
    bool own = err != CZ_OK && msg && !strncmp(msg, "cancelled while", 15);
    cz_engine_finish_locked(e, j, CZ_JOB_CANCELLED, own ? msg : "cancelled while running");
  } else if (err != CZ_OK) {
    char why[512];
    snprintf(why, sizeof why, "%s", msg && msg[0] ? msg : cz_err_str(err));
    cz_engine_finish_locked(e, j, CZ_JOB_FAILED, why);
  } else {
    j->proof = proof;
    j->proof_len = j->plan.n_partitions * j->plan.proof_bytes;
    cz_engine_finish_locked(e, j, CZ_JOB_COMPLETED, NULL);
  }
  pthread_mutex_unlock(&e->mu);
}

void cz_jobs_run(cz_engine *e, cz_job *const *jobs, size_t n) {
  if (n > 1) {
    char d[32];
    snprintf(d, sizeof d, "size=%zu", n);
    cz_engine_timeline(e, "BATCH", jobs[0]->id, d);
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < n; i++) jobs[i]->batch_size = (uint32_t)n;
    pthread_mutex_unlock(&e->mu);
  }
  cz_job **set_up = calloc(n, sizeof *set_up);
  size_t m = 0; /* the jobs that reached the pipeline */
  for (size_t i = 0; i < n; i++) {
    char msg[512] = "";
    cz_err err = set_up ? job_setup(jobs[i], msg, sizeof msg)
                        : cz_msg_err(msg, sizeof msg, CZ_ERR_NOMEM, "out of memory");
    /* A job that cannot go on is answered at once, not after the batch. */
    if (err == CZ_OK) set_up[m++] = jobs[i];
    else cz_job_answer(jobs[i], err, msg);
  }
  if (m) cz_pipeline_run(e, set_up, m);
  free(set_up);
}

/* ---- synthesis slots and partition states, for the pipeline ---------------- */

bool cz_job_synth_begin(cz_job *j, bool *held) {
  *held = false;
  if (j->prio >= CZ_PRIO_HIGH) return true;
  if (!cz_synth_slots_take(&j->e->synth, &j->cancel)) return false;
  *held = true;
  return true;
}

void cz_job_synth_end(cz_job *j, bool held) {
  if (held) cz_synth_slots_give(&j->e->synth);
}

void cz_job_items_begin(cz_job *j, size_t n) {
  cz_partition_status *it = calloc(n ? n : 1, sizeof *it);
  pthread_mutex_lock(&j->e->mu);
  free(j->items);
  j->items = it;
  j->n_items = it ? n : 0;
  for (size_t i = 0; i < j->n_items; i++) it[i].index = (uint32_t)i;
  pthread_mutex_unlock(&j->e->mu);
}

void cz_job_item_state(cz_job *j, size_t i, cz_partition_state st, uint64_t ms) {
  cz_engine *e = j->e;
  pthread_mutex_lock(&e->mu);
  if (i < j->n_items) {
    cz_partition_status *it = &j->items[i];
    uint64_t since = cz_now_ms() - j->start_ms;
    it->state = st;
    if (st == CZ_PART_SYNTHESIZING) it->synth_start_ms = since ? since : 1;
    else if (st == CZ_PART_SYNTHESIZED) it->synth_ms = ms;
    else if (st == CZ_PART_PROVING) it->prove_start_ms = since ? since : 1;
    else if (st == CZ_PART_DONE) it->prove_ms = ms;
  }
  pthread_mutex_unlock(&e->mu);
}

const char *cz_partition_state_label(cz_partition_state s) {
  static const char *const names[] = {"queued",  "synthesizing", "synthesized",
                                      "proving", "done",         "failed"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}
