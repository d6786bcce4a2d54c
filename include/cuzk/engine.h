/* Layer: engine */
/* The proving engine behind cuzk-daemon: a job table keyed by request_id, a
 * priority scheduler (CRITICAL > HIGH > NORMAL > LOW, then FIFO), a batch
 * collector, a memory budget with backpressure, an SRS manager with
 * hot / warm / cold tiers, worker threads, the per-job pipeline (synthesis
 * of the next partitions overlapping proving of the current one) and
 * TIMELINE events.
 *
 * This header is the client's side: kinds, requests, results, the engine's
 * life cycle, submit / await / cancel, status. The engine drives every job
 * and proves nothing itself: each proof kind registers its ops
 * (cuzk/proof_ops.h: plan, synthesize, prove_partition...) before
 * cz_engine_start, and the engine calls them. A kind without ops is
 * refused with CZ_ERR_UNIMPLEMENTED. Errors are cz_err values,
 * the daemon maps each to a gRPC status (docs/interface.md). All functions are thread
 * safe once the engine is started (create, registration and destroy
 * excepted: one thread, no other call in flight). Sources:
 * src/engine/engine.c (life cycle), job_submit.c (submit), job_table.c (the
 * jobs, await, cancel), workers.c (queue, batches, workers), job_run.c (a
 * job's steps), pipeline.c, srs.c (SRS manager), membudget.c,
 * synth_slots.c.
 *
 * TIMELINE lines (stderr, flushed at once, when cfg.timeline):
 *   TIMELINE,<ms since engine start>,<EVENT>,<job_id>,<detail>
 * QUEUED (kind=,priority=), START (worker=), MEM_WAIT (bytes=), BATCH
 * (size=), PROVE (the kind's name), VANILLA_CHECK, PCE (shape=<id> or
 * plain,why=<reason>), per partition SYNTH_START (item=,in_flight=),
 * SYNTH_END (item=,synth_ms=), GPU_QUEUE, GPU_PICKUP, GPU_START, GPU_END
 * (item=,gpu_ms=, and device=<name> when the engine has devices), then END (status=..,total_ms=..);
 * CANCELLED when one is cancelled. cuzk/proof_ops.h says when each comes. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/histogram.h"

/* cuzk.v1 ProofKind and Priority, with the wire values. CIRCOM is the
 * engine's own (not on cuzk.v1's wire): proofs of snarkjs keys, submitted
 * through the cuzk.circom.v1 service (docs/circom.md). To the engine a
 * kind is an index: of the ops registered for it, of its counters and of
 * its metric label; the one thing it decides by kind is the default
 * priority below (docs/interface.md). */
typedef enum {
  CZ_KIND_UNSPECIFIED = 0,
  CZ_KIND_POREP_SEAL_COMMIT = 1,
  CZ_KIND_SNAP_DEALS_UPDATE = 2,
  CZ_KIND_WINDOW_POST_PARTITION = 3,
  CZ_KIND_WINNING_POST = 4,
  CZ_KIND_CIRCOM = 5,
  CZ_KIND_COUNT
} cz_proof_kind;
/* The last kind cuzk.v1's ProofKind has (its wire refuses those above). */
#define CZ_KIND_WIRE_MAX CZ_KIND_WINNING_POST

typedef enum {
  CZ_PRIO_UNSPECIFIED = 0,
  CZ_PRIO_LOW = 1,
  CZ_PRIO_NORMAL = 2,
  CZ_PRIO_HIGH = 3,
  CZ_PRIO_CRITICAL = 4,
  CZ_PRIO_COUNT
} cz_priority;

/* The metric label of a kind: "porep_c2", "snap_update", "window_post",
 * "winning_post", "circom" ("unspecified" for 0, NULL out of range). */
const char *cz_proof_kind_label(cz_proof_kind k);
/* The default of docs/interface.md: WinningPoSt CRITICAL, WindowPoSt HIGH, else NORMAL. */
cz_priority cz_proof_kind_default_priority(cz_proof_kind k);

#define CZ_JOB_ID_MAX 128 /* request ids longer than 127 bytes are refused */

typedef struct {
  const uint8_t *data;
  size_t len;
} cz_bytes;

/* A SubmitProofRequest, field for field (the gRPC handler fills it
 * without translating). The engine deep-copies it on submit; inside a
 * prover it stays valid for the whole prove call. The engine reads the
 * fields after kind and priority only as numbers and bytes: it copies
 * them, checks that the 32-byte ones are 32 bytes or empty, hashes them
 * into the job's input digest (cz_engine_submit's rules) and batches jobs
 * of one kind and registered_proof; what they mean is the kind's parse's
 * business. */
typedef struct {
  const char *request_id; /* NULL or "" -> a random UUID */
  cz_proof_kind kind;
  uint64_t sector_size;
  uint64_t registered_proof;
  cz_priority priority; /* UNSPECIFIED -> the kind's default */
  cz_bytes vanilla_proof;
  const cz_bytes *vanilla_proofs;
  size_t n_vanilla_proofs;
  uint64_t sector_number, miner_id;
  cz_bytes randomness; /* 32 bytes when present */
  uint32_t partition_index;
  cz_bytes comm_r_old, comm_r_new, comm_d_new; /* 32 bytes each when present */
  /* CIRCOM: the key's id, the SHA-256 of its .zkey (32 bytes); the .wtns
   * is vanilla_proof. Empty for the other kinds. */
  cz_bytes key_id;
} cz_job_request;

typedef enum {
  CZ_JOB_UNKNOWN = 0, /* AwaitProofResponse.Status values */
  CZ_JOB_COMPLETED = 1,
  CZ_JOB_FAILED = 2,
  CZ_JOB_CANCELLED = 3,
  CZ_JOB_TIMEOUT = 4, /* await only: the job is still queued or running */
} cz_job_status;

/* Phase timings of a job, in milliseconds (AwaitProofResponse 10..14). */
typedef struct {
  uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
} cz_job_timings;

typedef struct {
  char job_id[CZ_JOB_ID_MAX];
  cz_proof_kind kind; /* the job's */
  cz_job_status status;
  uint8_t *proof; /* malloc'd (caller frees) when COMPLETED */
  size_t proof_len;
  char error[512]; /* FAILED / CANCELLED: why */
  cz_job_timings t;
} cz_job_result;

/* The plug-in side (a kind's ops, SRS loaders, devices) is in cuzk/proof_ops.h. */
typedef struct cz_engine cz_engine;

/* ---- The engine ---------------------------------------------------------- */

typedef struct {
  unsigned n_workers;            /* concurrent jobs (0 -> 2) */
  uint64_t memory_budget;        /* bytes; 0 = auto: MemTotal - safety_margin */
  uint64_t safety_margin;        /* bytes kept free in auto mode */
  uint64_t eviction_min_idle_ms; /* an SRS idle for less is never evicted */
  uint32_t max_batch_size;       /* 0 or 1: no batching */
  uint64_t max_batch_wait_ms;
  const char *param_cache;  /* directory of <name>.params files */
  size_t max_finished_jobs; /* results kept for AwaitProof (0 -> 10000) */
  bool timeline;            /* print TIMELINE lines on stderr */
  /* Workers beyond n_workers that take only HIGH and CRITICAL jobs
   * (WindowPoSt, WinningPoSt), so that such a job never waits for a
   * running PoRep to end (default 0; the daemon uses 1). */
  unsigned urgent_workers;
  /* Nice increment of every thread of a NORMAL or LOW job (0: none; the
   * daemon uses 10). Such a job runs in a thread of its own at that
   * niceness, and every thread it starts inherits it, so that a HIGH or
   * CRITICAL job proving at the same time gets the cores first: at nice
   * 10 the kernel weights a PoRep thread 110 against a PoSt thread's 1024.
   * Linux only; elsewhere, or when the kernel refuses, jobs run as before. */
  int background_nice;
  /* Pipeline items (PoRep partitions) of NORMAL and LOW jobs synthesized at
   * once across all workers; more wait for a slot (0: no cap, the default).
   * HIGH and CRITICAL jobs never wait for one. The daemon passes
   * pipeline.max_parallel_synthesis. */
  unsigned max_parallel_synthesis;
  /* A job's pipeline: its partitions are proved in order on the worker's
   * thread while the next ones are synthesized on synthesis_concurrency
   * threads (0 -> 1); a partition starts synthesis only while fewer than
   * synthesis_concurrency + max_queue_depth (0 -> 1) are synthesized or
   * being synthesized and not yet proved, which bounds the memory in
   * flight. serial (pipeline.enabled = false): one partition at a time,
   * each proved before the next is synthesized (the two above unused). */
  unsigned synthesis_concurrency, max_queue_depth;
  bool serial;
  /* One partition's synthesis thread budget (its slots run in parallel);
   * 0 = the cores shared among the partitions synthesized at once: all
   * cores / synthesis_concurrency (1 when serial), at least 1. */
  unsigned synthesis_threads;
  /* Devices (cz_engine_add_device): a device is unhealthy after
   * device_fail_limit faults in a row (0 -> 3); an unhealthy one's
   * self-test runs every self_test_interval_ms (0 -> 60000). */
  unsigned device_fail_limit;
  uint64_t self_test_interval_ms;
} cz_engine_config;

/* Defaults of docs/interface.md (auto budget, 5 GiB margin, 5 min idle, batch 1 /
 * 10000 ms, /data/zk/params, timeline on). */
void cz_engine_config_default(cz_engine_config *cfg);

/* Create an engine (not yet running); cfg NULL = the defaults, n_workers
 * capped at CZ_ENGINE_MAX_WORKERS. CZ_ERR_INVALID_ARG when the auto budget
 * cannot be computed or is not positive (msg says why); NOMEM. *out is NULL
 * on error; free the engine with cz_engine_destroy. */
CZ_MUST_CHECK cz_err cz_engine_create(cz_engine **out, const cz_engine_config *cfg, char *msg,
                                      size_t msg_len);
/* Start the worker threads. CZ_ERR_INVALID_ARG when already started;
 * CZ_ERR_NOMEM when not one worker could start (when some did, CZ_OK with
 * fewer workers). */
CZ_MUST_CHECK cz_err cz_engine_start(cz_engine *e);
/* Stop accepting work (submits answer CZ_ERR_UNAVAILABLE), cancel every
 * queued job, then either let running jobs finish (drain) or cancel them
 * at their next phase boundary, and join the workers. A second call
 * returns at once without joining; with drain false it turns a drain in
 * progress into a cancel (a second signal). */
void cz_engine_shutdown(cz_engine *e, bool drain);
/* Shutdown (cancelling) if needed, then free everything. NULL is allowed. */
void cz_engine_destroy(cz_engine *e);

/* Queue a proof. On CZ_OK job_id holds its id and *queue_pos (when
 * not NULL) the number of queued jobs that run before it.
 *
 * request_id names the newest job submitted under it. The request is
 * parsed and validated first, then compared with that job by its input: a
 * SHA-256 over every field but request_id and priority (kind, sector_size,
 * registered_proof, sector_number, miner_id, partition_index, randomness,
 * comm_r_old / comm_r_new / comm_d_new, vanilla_proof, each vanilla_proofs
 * entry with its length). Priority is left out because it orders the queue
 * and does not change the proof: a retry at another priority joins, and the
 * job keeps the priority it was queued with.
 *  1. same input, job queued or running: the submit joins it (CZ_OK
 *     with that job, no second job); a job being cancelled is not joined
 *     (rule 3 applies);
 *  2. same input, job COMPLETED: the same (its stored proof is the answer);
 *  3. job FAILED or CANCELLED: a new job runs and takes the id;
 *  4. different input: a new job takes the id. The old one, if queued or
 *     running with no cz_engine_await waiting on it, is cancelled (a queued
 *     one at once, a running one at its next phase boundary); if awaited it
 *     runs on and answers those awaiters only.
 * An id no longer names a job it gave up: await, cancel and later submits
 * under the id reach the new job, and the old one ages out of the table
 * like any finished job (it counts in n_jobs until then). Rules 2-4 hold
 * while the old job is kept (max_finished_jobs); one that aged out is
 * forgotten and the id starts afresh. When the budget refuses the new job
 * (CZ_ERR_EXHAUSTED) the old one is left as it was.
 *
 * The copy of the request's bytes is charged to the memory budget until
 * the job finishes (CZ_ERR_EXHAUSTED when the budget cannot hold it now: no
 * waiting here, the caller retries). A job whose memory estimate exceeds the budget is
 * accepted and FAILS at once. Otherwise: CZ_ERR_INVALID_ARG (bad field,
 * prover's parse or validate), CZ_ERR_UNIMPLEMENTED, CZ_ERR_UNAVAILABLE,
 * CZ_ERR_NOMEM; msg says why. req is only read: the caller
 * keeps it. */
CZ_MUST_CHECK cz_err cz_engine_submit(cz_engine *e, const cz_job_request *req,
                                      char job_id[CZ_JOB_ID_MAX], uint32_t *queue_pos, char *msg,
                                      size_t msg_len);
/* Wait for a job (timeout_ms 0 = forever). CZ_OK with out->status
 * COMPLETED / FAILED / CANCELLED, or TIMEOUT while still unfinished;
 * CZ_ERR_NOT_FOUND for an unknown id (also once a finished job has aged out
 * of the max_finished_jobs kept). out->proof is the caller's to free; a
 * proof that cannot be copied turns the answer into FAILED. Any number of
 * threads may await one job. */
CZ_MUST_CHECK cz_err cz_engine_await(cz_engine *e, const char *job_id, uint64_t timeout_ms,
                                     cz_job_result *out);
/* Cancel: a queued job at once, a running one at its next phase boundary
 * (*was_running true; was_running must not be NULL). A finished job is left
 * as it is. NOT_FOUND. */
CZ_MUST_CHECK cz_err cz_engine_cancel(cz_engine *e, const char *job_id, bool *was_running);

/* ---- Status ---------------------------------------------------------------- */

typedef enum { CZ_SRS_HOT = 0, CZ_SRS_WARM = 1, CZ_SRS_COLD = 2 } cz_srs_tier;

typedef struct {
  char circuit_id[64];
  cz_srs_tier tier;
  uint64_t size_bytes;
  uint32_t ref_count;
  uint64_t idle_ms; /* since its last use (0: never used) */
} cz_srs_status;

typedef struct {
  char job_id[CZ_JOB_ID_MAX];
  cz_proof_kind kind;
  bool busy;
} cz_worker_status;

/* Faults of a device, by kind (metric label): a step out of device memory
 * ("oom", whether the device retried it smaller or the partition moved),
 * a launch or runtime error ("device_error"), a proof that does not verify
 * ("bad_proof"). */
typedef enum { CZ_FAULT_OOM, CZ_FAULT_DEVICE, CZ_FAULT_BAD_PROOF, CZ_FAULT_COUNT } cz_fault_cause;
const char *cz_fault_cause_label(cz_fault_cause k); /* NULL out of range */

#define CZ_ENGINE_MAX_DEVICES 16

typedef struct {
  char name[64];
  uint64_t mem_free, mem_total; /* 0 when the device does not say */
  unsigned workers, busy;       /* partition slots, and those in use */
  bool healthy;
  char why[256];              /* why it is unhealthy ("" when healthy) */
  char job_id[CZ_JOB_ID_MAX]; /* while busy: the newest partition in flight on it ("" idle) */
  cz_proof_kind kind;         /* that job's kind (UNSPECIFIED when idle) */
  uint32_t partition;         /* of job_id (0 when idle) */
  uint64_t proved;            /* partitions proved on it */
  uint64_t faults[CZ_FAULT_COUNT];
} cz_device_status;

/* The provers declare 40 entries (four kinds x five sizes, parameters and
 * recorded shape each); room beyond them for ids resolved from files and
 * circom keys. */
#define CZ_ENGINE_MAX_SRS 128
#define CZ_ENGINE_MAX_WORKERS 64

typedef struct {
  uint32_t pending[CZ_KIND_COUNT], running[CZ_KIND_COUNT];
  uint64_t completed[CZ_KIND_COUNT], failed[CZ_KIND_COUNT], cancelled[CZ_KIND_COUNT];
  uint64_t duration_sum_ms[CZ_KIND_COUNT], duration_count[CZ_KIND_COUNT];
  /* The same completed jobs in cz_hist_bounds_proof buckets. */
  cz_histogram_snap duration_hist[CZ_KIND_COUNT];
  uint64_t total_completed, total_failed;
  uint64_t uptime_seconds;
  uint64_t memory_used, memory_budget;
  uint64_t memory_pool_idle; /* buffers kept for the next partition: not in memory_used, but
                              * the budget counts them until a reservation trims them */
  size_t n_jobs;             /* in the table, finished included */
  size_t n_srs;
  cz_srs_status srs[CZ_ENGINE_MAX_SRS];
  unsigned n_workers;
  cz_worker_status workers[CZ_ENGINE_MAX_WORKERS];
  bool has_prover[CZ_KIND_COUNT];
  unsigned n_devices;
  cz_device_status devices[CZ_ENGINE_MAX_DEVICES];
  uint64_t fallback_proved; /* partitions proved on the fallback device */
  bool accepting;           /* started and not shutting down (readiness) */
} cz_engine_stats;

/* A snapshot of the counters, workers and SRS entries (the first
 * CZ_ENGINE_MAX_SRS). */
void cz_engine_get_stats(cz_engine *e, cz_engine_stats *out);

/* Make a circuit's SRS hot (load time in *load_ms, *already when it was
 * hot). CZ_ERR_NOT_FOUND when its file is missing, CZ_ERR_INVALID_ARG for a
 * malformed id, CZ_ERR_IO when loading fails, CZ_ERR_NOMEM when it does not fit the
 * budget; msg says why. already and load_ms may be NULL. A load in progress
 * for the same id is waited for, not repeated. */
CZ_MUST_CHECK cz_err cz_engine_srs_preload(cz_engine *e, const char *circuit_id, bool *already,
                                           uint64_t *load_ms, char *msg, size_t msg_len);
/* Drop a circuit's SRS to cold (unloaded, unmapped). *was_loaded: it was
 * hot or warm; *freed: the bytes it held in the memory budget (a hot
 * entry's; a warm one is only mapped and holds none). An SRS in use
 * (ref_count > 0) or being loaded is left alone (CZ_ERR_BUSY, msg).
 * Unknown id: CZ_ERR_NOT_FOUND. was_loaded and freed must not be NULL.
 * Under budget pressure the engine itself drops idle hot entries
 * (ref_count 0, idle >= eviction_min_idle) to warm, LRU first. */
CZ_MUST_CHECK cz_err cz_engine_srs_evict(cz_engine *e, const char *circuit_id, bool *was_loaded,
                                         uint64_t *freed, char *msg, size_t msg_len);

/* Forget a circuit's SRS entry: dropped to cold, then removed, so that the
 * id is unknown again (circom keys: UnloadKey). *freed as evict's. An
 * entry in use or being loaded is left alone (CZ_ERR_BUSY); unknown id:
 * CZ_ERR_NOT_FOUND. Any time, any thread (the loader's self must live
 * until this returns). freed must not be NULL. */
CZ_MUST_CHECK cz_err cz_engine_srs_remove(cz_engine *e, const char *circuit_id, uint64_t *freed,
                                          char *msg, size_t msg_len);

/* ---- Jobs and partitions (GET /status) -------------------------------------- */

typedef enum {
  CZ_PART_QUEUED = 0, /* not started */
  CZ_PART_SYNTHESIZING,
  CZ_PART_SYNTHESIZED, /* waiting for the prover */
  CZ_PART_PROVING,
  CZ_PART_DONE,
  CZ_PART_FAILED, /* failed, skipped or cancelled */
} cz_partition_state;

/* "queued", "synthesizing", "synthesized", "proving", "done", "failed";
 * "unknown" out of range. */
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
  bool running;        /* else queued */
  uint32_t batch_size; /* jobs proved together with it (1 = alone) */
  uint64_t age_ms;     /* since submit */
  uint64_t running_ms; /* since it started (0 while queued) */
  size_t n_partitions; /* known once its pipeline started */
  cz_partition_status partitions[CZ_ENGINE_MAX_PARTITIONS]; /* the first 16 */
} cz_job_info;

/* The running jobs, then the queued ones in the order they will run, at
 * most cap of them; returns how many were written. */
size_t cz_engine_list_jobs(cz_engine *e, cz_job_info *out, size_t cap);

/* The proving backend the daemon uses, for status: name ("cpu", "cuda")
 * and a note (why a requested backend fell back; "" when none). Both are
 * copied (NULL = ""); get answers "cpu" until set, and either output may
 * be NULL. */
void cz_engine_set_backend_info(cz_engine *e, const char *name, const char *note);
void cz_engine_get_backend_info(cz_engine *e, char *name, size_t name_len, char *note,
                                size_t note_len);

/* The auto budget of a machine: MemTotal (from /proc/meminfo) minus margin;
 * 0 when it cannot be read or the margin is larger. */
uint64_t cz_engine_auto_budget(uint64_t safety_margin);

#endif
