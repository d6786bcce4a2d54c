/* The engine's plug-in contract: what a prover implements
 * (cz_engine_prover), what it may call on its running job (events,
 * timings, memory, SRS), the per-job and batch pipelines, and how provers
 * and SRS circuits are registered before cz_engine_start. The engine
 * calls provers only through these tables, so it knows no proof kind.
 * Sources: src/engine/engine_job.c, engine_workers.c, engine.c, pipeline.c,
 * srs.c.
 *
 * Threads: the engine may call a prover's hooks for different jobs at the
 * same time (one worker per job; validate and parse on the submitting
 * thread). Of the cz_job_ calls, cz_job_event, cz_job_cancelled, cz_job_id,
 * cz_job_add_timing and cz_job_srs may come from any thread (pipeline
 * stages included); cz_job_mem_reserve / release, cz_job_acquire_srs and
 * cz_job_finish only from the thread the engine called prove or
 * prove_batch on. */
#ifndef CUZK_ENGINE_PROVER_H
#define CUZK_ENGINE_PROVER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"

/* ---- The prover interface ------------------------------------------------ */

/* The running job as a prover sees it. */
typedef struct cz_job cz_job;

typedef struct cz_engine_prover cz_engine_prover;
struct cz_engine_prover {
  const char *name;
  void *self;               /* the prover's own state, passed back */
  /* Optional: a cheap check at submit time (no proving). CZ_OK accepts;
   * otherwise msg says what is wrong and the submit answers CZ_ERR_INVALID_ARG. */
  cz_err (*validate)(void *self, const cz_job_request *req, char *msg, size_t msg_len);
  /* Optional: bytes of memory the job needs at its peak, reserved against
   * the budget before prove runs (0 = nothing). A job larger than the
   * whole budget FAILS at once with a message. */
  uint64_t (*mem_estimate)(void *self, const cz_job_request *req);
  /* Optional: the SRS circuit id the job needs ("porep-2k"); the engine
   * makes it hot (cz_engine_srs_*) and holds a reference while proving.
   * NULL or a NULL result: no SRS. */
  const char *(*circuit_id)(void *self, const cz_job_request *req);
  /* Prove one job. On CZ_OK, *proof (malloc'd) and *proof_len hold the
   * concatenated 192-byte proofs, already verified. On error msg says why
   * (the job FAILS with it). A prover calls cz_job_event at each phase
   * boundary and returns promptly (any error) once it answers false: the
   * job is then CANCELLED. */
  cz_err (*prove)(void *self, const cz_job_request *req, cz_job *job, uint8_t **proof,
                  size_t *proof_len, char *msg, size_t msg_len);
  /* Optional: prove n same-circuit jobs at once (the batch collector's
   * unit, only when scheduler.max_batch_size > 1). Results per job as in
   * prove; errs[i] CZ_OK or the error of job i (msgs[i] its message). */
  void (*prove_batch)(void *self, const cz_job_request *const *reqs, cz_job *const *jobs,
                      size_t n, uint8_t **proofs, size_t *proof_lens, cz_err *errs,
                      char (*msgs)[512]);
  /* Optional: parse the request once, at submit, before validate (which
   * then only sees parsed requests). CZ_OK: *model (may be NULL) is kept
   * with the job until it ends, *model_bytes charged to the memory budget
   * with the request's bytes, and every later hook reads it through
   * cz_request_model(req); free_model releases it. Otherwise msg says what
   * is wrong and the submit answers CZ_ERR_INVALID_ARG. */
  cz_err (*parse)(void *self, const cz_job_request *req, void **model, uint64_t *model_bytes,
                  char *msg, size_t msg_len);
  void (*free_model)(void *self, void *model);
  /* Optional: release self. cz_engine_destroy calls it once per distinct
   * self, last (after every job and SRS entry is gone, since SRS loaders
   * may point into it). */
  void (*destroy)(void *self);
};

/* The model the prover's parse made for req, NULL when none. req must be a
 * request the engine handed to a hook (the job's own copy). */
void *cz_request_model(const cz_job_request *req);

/* Emit a TIMELINE event for the job (detail may be NULL) and report
 * whether it should go on: false once the job has been cancelled (or the
 * engine is shutting down without draining). */
bool cz_job_event(cz_job *job, const char *event, const char *detail);
/* Whether the job has been cancelled (no event emitted). */
bool cz_job_cancelled(const cz_job *job);
const char *cz_job_id(const cz_job *job);
/* Add to the job's reported timings (synthesis_ms, gpu_compute_ms...). */
void cz_job_add_timing(cz_job *job, uint64_t synthesis_ms, uint64_t gpu_compute_ms);
/* Reserve bytes of the memory budget for this job, blocking while the
 * budget is short (backpressure), released when the job ends (or earlier
 * with cz_job_mem_release). CZ_ERR_NOMEM when bytes exceed the whole
 * budget or the job is cancelled while waiting. Idle hot SRS entries are
 * evicted before it waits. */
cz_err cz_job_mem_reserve(cz_job *job, uint64_t bytes);
/* Release part of this job's reservations early (clamped to what it holds). */
void cz_job_mem_release(cz_job *job, uint64_t bytes);
/* The SRS object the engine made hot for the job (its loader's object, or
 * the mapped file bytes when the circuit has no loader); NULL when none. */
const void *cz_job_srs(const cz_job *job, size_t *len);

/* ---- The per-job pipeline ------------------------------------------------ */

/* A job's items (PoRep partitions) in two stages: synthesis of the next
 * items overlaps proving of the current one. Items are proved in order,
 * 0..n-1; synthesis runs on synthesis_concurrency threads and may finish
 * out of order. Item k starts synthesis only while fewer than
 * synthesis_concurrency + max_queue_depth items are synthesized or being
 * synthesized and not yet proved, which bounds the memory in flight. */
typedef struct {
  /* Synthesize item i into *state. */
  cz_err (*synthesize)(void *ctx, size_t i, void **state, char *msg, size_t msg_len);
  /* Prove item i from its state; the state is the callee's to free. */
  cz_err (*prove)(void *ctx, size_t i, void *state, char *msg, size_t msg_len);
  /* Free a synthesized state that will not be proved (error, cancel). */
  void (*discard)(void *ctx, size_t i, void *state);
  void *ctx;
  unsigned synthesis_concurrency; /* 0 -> 1 */
  unsigned max_queue_depth;       /* 0 -> 1 */
  /* One item at a time (window 1, the two settings above ignored): item
   * k+1 starts synthesis only once item k is proved, so the stages never
   * share the cores (pipeline.enabled = false). */
  bool serial;
} cz_pipeline;

/* The most items a pipeline holds synthesized (or being synthesized) and
 * not yet proved: 1 when serial, else synthesis_concurrency +
 * max_queue_depth (each 0 -> 1). What a prover charges memory for. Pure. */
size_t cz_pipeline_window(unsigned synthesis_concurrency, unsigned max_queue_depth, bool serial);

/* Run the pipeline for job, with TIMELINE events SYNTH_START
 * (item=i,in_flight=m: m items, this one included, started synthesis and
 * are not yet proved or discarded; m <= synthesis_concurrency +
 * max_queue_depth, whatever n is),
 * SYNTH_END (item=i,synth_ms=), GPU_QUEUE, GPU_PICKUP, GPU_START, GPU_END
 * (item=i,gpu_ms=) and the job's synthesis_ms / gpu_compute_ms added up.
 * Cancellation is checked at every boundary. Returns CZ_OK, the first
 * stage error (msg from that stage), or CZ_ERR_INVALID_ARG when the job was
 * cancelled (msg "cancelled"); every state is proved or discarded. */
cz_err cz_job_pipeline(cz_job *job, const cz_pipeline *p, size_t n, char *msg, size_t msg_len);

/* The callbacks of cz_jobs_pipeline: as cz_pipeline's, with the job's
 * index. */
typedef struct {
  cz_err (*synthesize)(void *ctx, size_t job, size_t i, void **state, char *msg, size_t msg_len);
  cz_err (*prove)(void *ctx, size_t job, size_t i, void *state, char *msg, size_t msg_len);
  void (*discard)(void *ctx, size_t job, size_t i, void *state);
  void *ctx;
  unsigned synthesis_concurrency; /* 0 -> 1 */
  unsigned max_queue_depth;       /* 0 -> 1 */
  /* Optional: job j is over (its last item proved or skipped), called once
   * from the calling thread with errs[j] / msgs[j] as they stand, while the
   * other jobs go on: the place to answer it early (cz_job_finish). */
  void (*job_done)(void *ctx, size_t job, cz_err err, const char *msg);
  bool serial; /* as cz_pipeline's */
} cz_batch_pipeline;

/* Several jobs' items through one pipeline (the batch collector's unit):
 * items run job by job, 0..n_items[j]-1 each, so synthesis of one job's
 * items overlaps proving of the previous job's. A stage error or a
 * cancellation ends that job alone: its remaining items are skipped, the
 * other jobs go on. errs[j]: CZ_OK, the job's first error (msgs[j] says
 * why), or CZ_ERR_INVALID_ARG when it was cancelled (msgs[j] "cancelled").
 * n_items[j] == 0: nothing to do for that job (errs[j] is left alone, e.g.
 * to keep an earlier error). prove runs on the calling thread, synthesize
 * on the pipeline's own threads. */
void cz_jobs_pipeline(cz_job *const *jobs, size_t n_jobs, const size_t *n_items,
                      const cz_batch_pipeline *p, cz_err *errs, char (*msgs)[512]);

/* Inside prove_batch: answer a job of the batch now, as prove would (the
 * proof, malloc'd, is taken over), so that it does not wait for the rest
 * of the batch; its memory and SRS references are released, and its slot
 * in prove_batch's results is ignored. A second call only frees proof. */
void cz_job_finish(cz_job *job, cz_err err, uint8_t *proof, size_t proof_len, const char *msg);

/* Take another SRS reference for the job (held until the job ends): a
 * prover that needs a second resident object (a pre-compiled shape, see
 * cz_engine_register_computed_srs) besides the circuit's parameters. NULL
 * when it cannot be made hot (msg says why). At most 4 per job. */
const void *cz_job_acquire_srs(cz_job *job, const char *circuit_id, char *msg, size_t msg_len);

/* ---- SRS registration ---------------------------------------------------- */

/* Turns a mapped parameter file into the hot object a prover uses (e.g.
 * cz_groth16_params_read). *bytes: the memory the object holds. */
typedef struct {
  cz_err (*load)(void *self, const char *circuit_id, const uint8_t *file, size_t len,
                 void **obj, uint64_t *bytes, char *msg, size_t msg_len);
  void (*unload)(void *self, void *obj);
  void *self;
} cz_srs_loader;

/* ---- Registration (before cz_engine_start) ------------------------------- */

/* Register the prover of a kind (copied; a second registration replaces
 * the first), before cz_engine_start. CZ_ERR_INVALID_ARG for a bad kind, a
 * missing prove, or after start. */
cz_err cz_engine_register_prover(cz_engine *e, cz_proof_kind kind, const cz_engine_prover *p);
/* Declare an SRS circuit: its parameter file and (optional) loader, both
 * copied. A circuit id that was never declared resolves to
 * <param_cache>/<id>.params and is kept as mapped bytes. CZ_ERR_INVALID_ARG
 * for an id that is not 1-63 of [A-Za-z0-9._-], a NULL path, a loader
 * without load or unload, or an id declared twice; CZ_ERR_NOMEM. */
cz_err cz_engine_register_srs(cz_engine *e, const char *circuit_id, const char *path,
                              const cz_srs_loader *loader);
/* Declare a computed SRS entry: an object made by loader->load (called
 * with file NULL, len 0) instead of read from a file, e.g. a recorded
 * circuit shape. estimate_bytes is reserved before load runs (then the
 * charge becomes what load reports). It is hot or cold (no warm tier: an
 * eviction under pressure or EvictSRS drops it, the next use makes it
 * again); otherwise it is an SRS entry like the others (status, preload,
 * idle eviction, refs). Errors as cz_engine_register_srs's (loader is
 * required). */
cz_err cz_engine_register_computed_srs(cz_engine *e, const char *circuit_id,
                                       uint64_t estimate_bytes, const cz_srs_loader *loader);
#endif
