/* The prover's view of its running job (cuzk/engine_prover.h): events,
 * cancellation, timings, memory, SRS references, and the partition states
 * the pipeline reports. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "cuzk/clock.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

bool cz_job_event(cz_job *job, const char *event, const char *detail) {
  cz_engine_timeline(job->e, event, job->id, detail);
  return !atomic_load(&job->cancel);
}

bool cz_job_cancelled(const cz_job *job) { return atomic_load(&job->cancel); }

const char *cz_job_id(const cz_job *job) { return job->id; }

void cz_job_add_timing(cz_job *job, uint64_t synthesis_ms, uint64_t gpu_compute_ms) {
  pthread_mutex_lock(&job->e->mu);
  job->t.synthesis_ms += synthesis_ms;
  job->t.gpu_compute_ms += gpu_compute_ms;
  pthread_mutex_unlock(&job->e->mu);
}

cz_err cz_job_mem_reserve(cz_job *job, uint64_t bytes) {
  cz_engine *e = job->e;
  if (!cz_membudget_try_reserve(&e->budget, bytes)) {
    char d[48];
    snprintf(d, sizeof d, "bytes=%llu", (unsigned long long)bytes);
    cz_engine_timeline(e, "MEM_WAIT", job->id, d);
    cz_err err = cz_membudget_reserve(&e->budget, bytes, &job->cancel);
    if (err != CZ_OK) return err;
  }
  job->mem_reserved += bytes; /* only the job's own worker touches it */
  return CZ_OK;
}

void cz_job_mem_release(cz_job *job, uint64_t bytes) {
  if (bytes > job->mem_reserved) bytes = job->mem_reserved;
  job->mem_reserved -= bytes;
  cz_membudget_release(&job->e->budget, bytes);
}

void *cz_request_model(const cz_job_request *req) {
  if (!req) return NULL;
  const cz_job *j = (const cz_job *)(const void *)((const char *)req - offsetof(cz_job, req));
  return j->model;
}

const void *cz_job_acquire_srs(cz_job *job, const char *circuit_id, char *msg, size_t msg_len) {
  if (job->n_extra_srs >= sizeof job->extra_srs / sizeof job->extra_srs[0]) {
    cz_msg(msg, msg_len, "a job holds at most 4 extra SRS references");
    return NULL;
  }
  cz_srs_entry *en = NULL;
  if (cz_srs_acquire(job->e->srs, circuit_id, true, &en, NULL, NULL, msg, msg_len) != CZ_OK)
    return NULL;
  job->extra_srs[job->n_extra_srs++] = en; /* only the job's own thread touches it */
  return cz_srs_entry_object(en, NULL);
}

const void *cz_job_srs(const cz_job *job, size_t *len) {
  if (len) *len = 0;
  return job->srs ? cz_srs_entry_object(job->srs, len) : NULL;
}

/* ---- item (partition) states, from the pipeline ---------------------------- */

void cz_job_items_begin(cz_job *job, size_t n) {
  cz_partition_status *it = calloc(n ? n : 1, sizeof *it);
  pthread_mutex_lock(&job->e->mu);
  free(job->items);
  job->items = it;
  job->n_items = it ? n : 0;
  for (size_t i = 0; i < job->n_items; i++) it[i].index = (uint32_t)i;
  pthread_mutex_unlock(&job->e->mu);
}

bool cz_job_synth_begin(cz_job *job, bool *held) {
  *held = false;
  if (job->prio >= CZ_PRIO_HIGH) return true;
  if (!cz_synth_slots_take(&job->e->synth, &job->cancel)) return false;
  *held = true;
  return true;
}

void cz_job_synth_end(cz_job *job, bool held) {
  if (held) cz_synth_slots_give(&job->e->synth);
}

void cz_job_item_state(cz_job *job, size_t i, cz_partition_state st, uint64_t ms) {
  cz_engine *e = job->e;
  pthread_mutex_lock(&e->mu);
  if (i < job->n_items) {
    cz_partition_status *it = &job->items[i];
    uint64_t since = cz_now_ms() - job->start_ms;
    it->state = st;
    if (st == CZ_PART_SYNTHESIZING) it->synth_start_ms = since ? since : 1;
    else if (st == CZ_PART_SYNTHESIZED) it->synth_ms = ms;
    else if (st == CZ_PART_PROVING) it->prove_start_ms = since ? since : 1;
    else if (st == CZ_PART_DONE) it->prove_ms = ms;
  }
  pthread_mutex_unlock(&e->mu);
}

const char *cz_partition_state_label(cz_partition_state s) {
  static const char *const names[] = {"queued", "synthesizing", "synthesized",
                                      "proving", "done", "failed"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}
