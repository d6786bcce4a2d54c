/* The proving engine behind cuzk-daemon: a job table keyed by request_id, a
 * priority scheduler (CRITICAL > HIGH > NORMAL > LOW, then FIFO), a batch
 * collector, a memory budget with backpressure, an SRS manager with
 * hot / warm / cold tiers, worker threads and TIMELINE events.
 *
 * The engine never proves anything itself: each proof kind is served by a
 * prover (cz_engine_prover) registered before cz_engine_start. A kind without
 * a prover is refused with CZ_ENG_UNIMPLEMENTED. All functions are thread
 * safe once the engine is started.
 *
 * TIMELINE lines (stderr, flushed at once, when cfg.timeline):
 *   TIMELINE,<ms since engine start>,<EVENT>,<job_id>,<detail>
 * The engine emits QUEUED (kind=,priority=), START (worker=), PROVE
 * (prover name), END (status=..,total_ms=..), CANCELLED, MEM_WAIT (bytes=),
 * BATCH (size=); provers emit SYNTH_START, SYNTH_END (synth_ms=), GPU_QUEUE,
 * GPU_PICKUP, GPU_START, GPU_END (gpu_ms=) through cz_job_event, or get them
 * all from cz_job_pipeline. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

/* cuzk.v1 ProofKind and Priority, with the wire values. */
typedef enum {
  CZ_KIND_UNSPECIFIED = 0,
  CZ_KIND_POREP_SEAL_COMMIT = 1,
  CZ_KIND_SNAP_DEALS_UPDATE = 2,
  CZ_KIND_WINDOW_POST_PARTITION = 3,
  CZ_KIND_WINNING_POST = 4,
  CZ_KIND_COUNT
} cz_proof_kind;

typedef enum {
  CZ_PRIO_UNSPECIFIED = 0,
  CZ_PRIO_LOW = 1,
  CZ_PRIO_NORMAL = 2,
  CZ_PRIO_HIGH = 3,
  CZ_PRIO_CRITICAL = 4,
  CZ_PRIO_COUNT
} cz_priority;

/* The metric label of a kind: "porep_c2", "snap_update", "window_post",
 * "winning_post" ("unspecified" for 0, NULL out of range). */
const char *cz_proof_kind_label(cz_proof_kind k);
/* The spec's default: WinningPoSt CRITICAL, WindowPoSt HIGH, else NORMAL. */
cz_priority cz_proof_kind_default_priority(cz_proof_kind k);

/* Outcome of an engine call; the server maps each to a gRPC status. */
typedef enum {
  CZ_ENG_OK = 0,
  CZ_ENG_INVALID,        /* malformed request: INVALID_ARGUMENT */
  CZ_ENG_NOT_FOUND,      /* unknown job / circuit: NOT_FOUND */
  CZ_ENG_UNIMPLEMENTED,  /* no prover for the kind: UNIMPLEMENTED */
  CZ_ENG_UNAVAILABLE,    /* shutting down: UNAVAILABLE */
  CZ_ENG_FAILED,         /* an operation failed (I/O, memory): INTERNAL */
  CZ_ENG_EXHAUSTED,      /* the memory budget cannot hold the request now:
                            RESOURCE_EXHAUSTED (retry later) */
} cz_engine_status;

#define CZ_JOB_ID_MAX 128 /* request ids longer than 127 bytes are refused */

typedef struct {
  const uint8_t *data;
  size_t len;
} cz_bytes;

/* A SubmitProofRequest. The engine deep-copies it on submit; inside a
 * prover it stays valid for the whole prove call. */
typedef struct {
  const char *request_id;   /* NULL or "" -> a random UUID */
  cz_proof_kind kind;
  uint64_t sector_size;
  uint64_t registered_proof;
  cz_priority priority;     /* UNSPECIFIED -> the kind's default */
  cz_bytes vanilla_proof;
  const cz_bytes *vanilla_proofs;
  size_t n_vanilla_proofs;
  uint64_t sector_number, miner_id;
  cz_bytes randomness;      /* 32 bytes when present */
  uint32_t partition_index;
  cz_bytes comm_r_old, comm_r_new, comm_d_new; /* 32 bytes each when present */
} cz_job_request;

typedef enum {
  CZ_JOB_UNKNOWN = 0,       /* AwaitProofResponse.Status values */
  CZ_JOB_COMPLETED = 1,
  CZ_JOB_FAILED = 2,
  CZ_JOB_CANCELLED = 3,
  CZ_JOB_TIMEOUT = 4,       /* await only: the job is still queued or running */
} cz_job_status;

/* Phase timings of a job, in milliseconds (AwaitProofResponse 10..14). */
typedef struct {
  uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
} cz_job_timings;

typedef struct {
  char job_id[CZ_JOB_ID_MAX];
  cz_job_status status;
  uint8_t *proof;           /* malloc'd (caller frees) when COMPLETED */
  size_t proof_len;
  char error[512];          /* FAILED / CANCELLED: why */
  cz_job_timings t;
} cz_job_result;

/* ---- The prover interface ------------------------------------------------ */

/* The running job as a prover sees it. */
typedef struct cz_job cz_job;

typedef struct cz_engine_prover cz_engine_prover;
struct cz_engine_prover {
  const char *name;
  void *self;               /* the prover's own state, passed back */
  /* Optional: a cheap check at submit time (no proving). CZ_OK accepts;
   * otherwise msg says what is wrong and the submit answers CZ_ENG_INVALID. */
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
   * is wrong and the submit answers CZ_ENG_INVALID. */
  cz_err (*parse)(void *self, const cz_job_request *req, void **model, uint64_t *model_bytes,
                  char *msg, size_t msg_len);
  void (*free_model)(void *self, void *model);
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
 * budget or the job is cancelled while waiting. */
cz_err cz_job_mem_reserve(cz_job *job, uint64_t bytes);
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
} cz_pipeline;

/* Run the pipeline for job, with TIMELINE events SYNTH_START (item=i),
 * SYNTH_END (item=i,synth_ms=), GPU_QUEUE, GPU_PICKUP, GPU_START, GPU_END
 * (item=i,gpu_ms=) and the job's synthesis_ms / gpu_compute_ms added up.
 * Cancellation is checked at every boundary. Returns CZ_OK, the first
 * stage error (msg from that stage), or CZ_ERR_INVALID_ARG when the job was
 * cancelled (msg "cancelled"); every state is proved or discarded. */
cz_err cz_job_pipeline(cz_job *job, const cz_pipeline *p, size_t n, char *msg, size_t msg_len);

/* Several jobs' items through one pipeline (the batch collector's unit):
 * items run job by job, 0..n_items[j]-1 each, so synthesis of one job's
 * items overlaps proving of the previous job's. Callbacks as cz_pipeline's
 * with the job's index. A stage error or a cancellation ends that job
 * alone: its remaining items are skipped, the other jobs go on. errs[j]:
 * CZ_OK, the job's first error (msgs[j] says why), or CZ_ERR_INVALID_ARG
 * when it was cancelled (msgs[j] "cancelled"). n_items[j] == 0: nothing to
 * do for that job (errs[j] is left alone, e.g. to keep an earlier error). */
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
} cz_batch_pipeline;

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

/* ---- The engine ---------------------------------------------------------- */

typedef struct {
  unsigned n_workers;            /* concurrent jobs (0 -> 2) */
  uint64_t memory_budget;        /* bytes; 0 = auto: MemTotal - safety_margin */
  uint64_t safety_margin;        /* bytes kept free in auto mode */
  uint64_t eviction_min_idle_ms; /* an SRS idle for less is never evicted */
  uint32_t max_batch_size;       /* 0 or 1: no batching */
  uint64_t max_batch_wait_ms;
  const char *param_cache;       /* directory of <name>.params files */
  size_t max_finished_jobs;      /* results kept for AwaitProof (0 -> 10000) */
  bool timeline;                 /* print TIMELINE lines on stderr */
} cz_engine_config;

/* Defaults of the spec (auto budget, 5 GiB margin, 5 min idle, batch 1 /
 * 10000 ms, /data/zk/params, timeline on). */
void cz_engine_config_default(cz_engine_config *cfg);

typedef struct cz_engine cz_engine;

/* Create an engine (not yet running). CZ_ERR_INVALID_ARG when the auto
 * budget cannot be computed or is not positive (msg says why); NOMEM. */
cz_err cz_engine_create(cz_engine **out, const cz_engine_config *cfg, char *msg, size_t msg_len);
/* Register the prover of a kind (copied), before cz_engine_start.
 * CZ_ERR_INVALID_ARG for a bad kind, a missing prove, or after start. */
cz_err cz_engine_register_prover(cz_engine *e, cz_proof_kind kind, const cz_engine_prover *p);
/* Declare an SRS circuit: its parameter file and (optional) loader. A
 * circuit id that was never declared resolves to <param_cache>/<id>.params
 * and is kept as mapped bytes. */
cz_err cz_engine_register_srs(cz_engine *e, const char *circuit_id, const char *path,
                              const cz_srs_loader *loader);
/* Declare a computed SRS entry: an object made by loader->load (called
 * with file NULL, len 0) instead of read from a file, e.g. a recorded
 * circuit shape. estimate_bytes is reserved before load runs (then the
 * charge becomes what load reports). It is hot or cold (no warm tier: an
 * eviction under pressure or EvictSRS drops it, the next use makes it
 * again); otherwise it is an SRS entry like the others (status, preload,
 * idle eviction, refs). */
cz_err cz_engine_register_computed_srs(cz_engine *e, const char *circuit_id,
                                       uint64_t estimate_bytes, const cz_srs_loader *loader);
/* Start the worker threads. */
cz_err cz_engine_start(cz_engine *e);
/* Stop accepting work (submits answer CZ_ENG_UNAVAILABLE), cancel every
 * queued job, then either let running jobs finish (drain) or cancel them
 * at their next phase boundary, and join the workers. Idempotent. */
void cz_engine_shutdown(cz_engine *e, bool drain);
/* Shutdown (cancelling) if needed, then free everything. NULL is allowed. */
void cz_engine_destroy(cz_engine *e);

/* Queue a proof. On CZ_ENG_OK job_id holds its id and *queue_pos (when
 * not NULL) the number of queued jobs that run before it. A request_id
 * already in the table returns that job (idempotent). The copy of the
 * request's bytes is charged to the memory budget until the job finishes
 * (CZ_ENG_EXHAUSTED when the budget cannot hold it now: no waiting here, the
 * caller retries). A job whose memory estimate exceeds the budget is
 * accepted and FAILS at once. Otherwise: CZ_ENG_INVALID (bad field,
 * prover's validate), CZ_ENG_UNIMPLEMENTED, CZ_ENG_UNAVAILABLE; msg says why. */
cz_engine_status cz_engine_submit(cz_engine *e, const cz_job_request *req,
                                  char job_id[CZ_JOB_ID_MAX], uint32_t *queue_pos, char *msg,
                                  size_t msg_len);
/* Wait for a job (timeout_ms 0 = forever). CZ_ENG_OK with out->status
 * COMPLETED / FAILED / CANCELLED, or TIMEOUT while still unfinished;
 * CZ_ENG_NOT_FOUND for an unknown id. out->proof is the caller's to free. */
cz_engine_status cz_engine_await(cz_engine *e, const char *job_id, uint64_t timeout_ms,
                                 cz_job_result *out);
/* Cancel: a queued job at once, a running one at its next phase boundary
 * (*was_running true). A finished job is left as it is. NOT_FOUND. */
cz_engine_status cz_engine_cancel(cz_engine *e, const char *job_id, bool *was_running);

/* ---- Status ---------------------------------------------------------------- */

typedef enum { CZ_SRS_HOT = 0, CZ_SRS_WARM = 1, CZ_SRS_COLD = 2 } cz_srs_tier;

typedef struct {
  char circuit_id[64];
  cz_srs_tier tier;
  uint64_t size_bytes;
  uint32_t ref_count;
} cz_srs_status;

typedef struct {
  char job_id[CZ_JOB_ID_MAX];
  cz_proof_kind kind;
  bool busy;
} cz_worker_status;

#define CZ_ENGINE_MAX_SRS 32
#define CZ_ENGINE_MAX_WORKERS 64

typedef struct {
  uint32_t pending[CZ_KIND_COUNT], running[CZ_KIND_COUNT];
  uint64_t completed[CZ_KIND_COUNT], failed[CZ_KIND_COUNT], cancelled[CZ_KIND_COUNT];
  uint64_t duration_sum_ms[CZ_KIND_COUNT], duration_count[CZ_KIND_COUNT];
  uint64_t total_completed, total_failed;
  uint64_t uptime_seconds;
  uint64_t memory_used, memory_budget;
  size_t n_jobs;                 /* in the table, finished included */
  size_t n_srs;
  cz_srs_status srs[CZ_ENGINE_MAX_SRS];
  unsigned n_workers;
  cz_worker_status workers[CZ_ENGINE_MAX_WORKERS];
  bool has_prover[CZ_KIND_COUNT];
} cz_engine_stats;

void cz_engine_get_stats(cz_engine *e, cz_engine_stats *out);

/* Make a circuit's SRS hot (load time in *load_ms, *already when it was
 * hot). CZ_ENG_NOT_FOUND when its file is missing, CZ_ENG_INVALID for a
 * malformed id, CZ_ENG_FAILED when loading fails or does not fit the
 * budget; msg says why. */
cz_engine_status cz_engine_srs_preload(cz_engine *e, const char *circuit_id, bool *already,
                                       uint64_t *load_ms, char *msg, size_t msg_len);
/* Drop a circuit's SRS to cold (unloaded, unmapped). *was_loaded: it was
 * hot or warm; *freed: the bytes it held in the memory budget (a hot
 * entry's; a warm one is only mapped and holds none). An SRS in use
 * (ref_count > 0) is left alone (CZ_ENG_FAILED, msg). Unknown id:
 * CZ_ENG_NOT_FOUND. Under budget pressure the engine itself drops idle hot
 * entries (ref_count 0, idle >= eviction_min_idle) to warm, LRU first. */
cz_engine_status cz_engine_srs_evict(cz_engine *e, const char *circuit_id, bool *was_loaded,
                                     uint64_t *freed, char *msg, size_t msg_len);

/* ---- Jobs and partitions (GET /status) -------------------------------------- */

typedef enum {
  CZ_PART_QUEUED = 0,       /* not started */
  CZ_PART_SYNTHESIZING,
  CZ_PART_SYNTHESIZED,      /* waiting for the prover */
  CZ_PART_PROVING,
  CZ_PART_DONE,
  CZ_PART_FAILED,           /* failed, skipped or cancelled */
} cz_partition_state;

/* "queued", "synthesizing", "synthesized", "proving", "done", "failed". */
const char *cz_partition_state_label(cz_partition_state s);

typedef struct {
  uint32_t index;
  cz_partition_state state;
  /* ms since the job started running (0 = not yet), and durations. */
  uint64_t synth_start_ms, synth_ms, prove_start_ms, prove_ms;
} cz_partition_status;

#define CZ_ENGINE_MAX_PARTITIONS 16

typedef struct {
  char job_id[CZ_JOB_ID_MAX];
  cz_proof_kind kind;
  cz_priority priority;
  bool running;             /* else queued */
  uint32_t batch_size;      /* jobs proved together with it (1 = alone) */
  uint64_t age_ms;          /* since submit */
  uint64_t running_ms;      /* since it started (0 while queued) */
  size_t n_partitions;      /* known once its pipeline started */
  cz_partition_status partitions[CZ_ENGINE_MAX_PARTITIONS]; /* the first 16 */
} cz_job_info;

/* The running jobs, then the queued ones in the order they will run, at
 * most cap of them; returns how many were written. */
size_t cz_engine_list_jobs(cz_engine *e, cz_job_info *out, size_t cap);

/* The proving backend the daemon uses, for status: name ("cpu", "cuda")
 * and a note (why a requested backend fell back; "" when none). */
void cz_engine_set_backend_info(cz_engine *e, const char *name, const char *note);
void cz_engine_get_backend_info(cz_engine *e, char *name, size_t name_len, char *note,
                                size_t note_len);

/* The auto budget of a machine: MemTotal (from /proc/meminfo) minus margin;
 * 0 when it cannot be read or the margin is larger. */
uint64_t cz_engine_auto_budget(uint64_t safety_margin);

#endif
