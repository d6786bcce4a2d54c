/* Engine parts shared between its modules (not public). */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H
#include <pthread.h>
#include <stdatomic.h>
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"
#include "cuzk/sha256.h"

/* ---- Memory budget (membudget.c) ---------------------------------------- */

/* Called with the budget unlocked when a reservation cannot be met: frees
 * what it can (idle SRS) and returns the bytes it released. */
typedef uint64_t (*cz_mem_pressure_fn)(void *ctx, uint64_t wanted);

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  uint64_t total, used;
  cz_mem_pressure_fn pressure;
  void *pressure_ctx;
} cz_membudget;

void cz_membudget_init(cz_membudget *b, uint64_t total);
void cz_membudget_destroy(cz_membudget *b);
/* Reserve bytes, waiting (backpressure) while the budget is short; asks the
 * pressure hook to free memory first. cancel (may be NULL) is polled while
 * waiting. CZ_ERR_NOMEM when bytes > total or *cancel became true. */
cz_err cz_membudget_reserve(cz_membudget *b, uint64_t bytes, const atomic_bool *cancel);
/* Reserve only if it fits now (no waiting, no pressure hook). */
bool cz_membudget_try_reserve(cz_membudget *b, uint64_t bytes);
void cz_membudget_release(cz_membudget *b, uint64_t bytes);
uint64_t cz_membudget_used(cz_membudget *b);

/* ---- SRS manager (srs.c) -------------------------------------------------- */

typedef struct cz_srs_entry cz_srs_entry;
typedef struct cz_srs_manager cz_srs_manager;

cz_srs_manager *cz_srs_manager_new(cz_membudget *budget, const char *param_cache,
                                   uint64_t min_idle_ms);
void cz_srs_manager_free(cz_srs_manager *m);
cz_err cz_srs_register(cz_srs_manager *m, const char *circuit_id, const char *path,
                       const cz_srs_loader *loader);
/* An entry made by loader->load(file NULL, len 0): see
 * cz_engine_register_computed_srs. */
cz_err cz_srs_register_computed(cz_srs_manager *m, const char *circuit_id, uint64_t estimate_bytes,
                                const cz_srs_loader *loader);
/* Make the circuit hot and take a reference (acquire) or just make it hot
 * (preload). Errors as cz_engine_srs_preload's. */
cz_err cz_srs_acquire(cz_srs_manager *m, const char *circuit_id, bool take_ref,
                      cz_srs_entry **entry, bool *already, uint64_t *load_ms, char *msg,
                      size_t msg_len);
void cz_srs_release(cz_srs_manager *m, cz_srs_entry *entry);
const void *cz_srs_entry_object(const cz_srs_entry *entry, size_t *len);
cz_err cz_srs_evict(cz_srs_manager *m, const char *circuit_id, bool *was_loaded, uint64_t *freed,
                    char *msg, size_t msg_len);
/* Drop the entry to cold and forget it (cz_engine_srs_remove). */
cz_err cz_srs_remove(cz_srs_manager *m, const char *circuit_id, uint64_t *freed, char *msg,
                     size_t msg_len);
/* Evict idle (ref 0, idle >= min_idle) entries, least recently used first,
 * until at least wanted bytes are freed; returns the bytes freed. */
uint64_t cz_srs_evict_idle(cz_srs_manager *m, uint64_t wanted);
size_t cz_srs_snapshot(cz_srs_manager *m, cz_srs_status *out, size_t cap);

/* ---- Synthesis slots (synth_slots.c) -------------------------------------- */

/* A counting semaphore over pipeline items being synthesized, engine-wide:
 * cap slots (0 = no limit, take never waits). Thread-safe. */
typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned cap, busy;
} cz_synth_slots;

void cz_synth_slots_init(cz_synth_slots *s, unsigned cap);
void cz_synth_slots_destroy(cz_synth_slots *s);
/* Take a slot, waiting while all are held; false (none taken) when *cancel
 * (may be NULL) became true while waiting. */
bool cz_synth_slots_take(cz_synth_slots *s, const atomic_bool *cancel);
void cz_synth_slots_give(cz_synth_slots *s);

/* ---- Devices (devices.c) ----------------------------------------------------- */

#define CZ_DEVICE_SHOWN 8

typedef struct {
  cz_engine_device d; /* d.name points to name */
  char name[64];
  unsigned busy; /* partitions in flight on it */
  bool healthy;
  unsigned consecutive; /* faults since its last good proof */
  uint64_t proved, faults[CZ_FAULT_COUNT];
  uint64_t tested_ms; /* when it was taken out or last self-tested */
  char why[256];
  /* Partitions in flight on it, for status (the first CZ_DEVICE_SHOWN of
   * them; seq orders them, 0 marks a free entry) */
  struct {
    char job[CZ_JOB_ID_MAX];
    cz_proof_kind kind;
    uint32_t partition;
    uint64_t seq;
  } flight[CZ_DEVICE_SHOWN];
  uint64_t next_seq;
} cz_device;

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  cz_device dev[CZ_ENGINE_MAX_DEVICES];
  unsigned n;
  /* HIGH and CRITICAL partitions waiting that could take each device (one
   * retried after a fault on a device cannot take that one) */
  unsigned urgent_want[CZ_ENGINE_MAX_DEVICES];
  const void *fallback;
  uint64_t fallback_proved;
  unsigned fail_limit;
  uint64_t test_interval_ms;
  pthread_t health;
  bool health_started, stop;
} cz_devices;

/* cz_devices_acquire's answers besides a device index. */
#define CZ_DEVICE_NONE (-1)      /* no healthy device outside excluded: use the fallback */
#define CZ_DEVICE_CANCELLED (-2) /* the job was cancelled while waiting */

void cz_devices_init(cz_devices *s, unsigned fail_limit, uint64_t test_interval_ms);
cz_err cz_devices_add(cz_devices *s, const cz_engine_device *d);
/* The self-test thread (only when there are devices). */
void cz_devices_start(cz_devices *s);
void cz_devices_stop(cz_devices *s);
void cz_devices_destroy(cz_devices *s);
/* A slot on a healthy device whose bit is not set in excluded, waiting
 * while all such are full; HIGH and CRITICAL callers are served before
 * the others (a device one of them waits for and could take is not given
 * to the others; one it cannot take is). The device index, or
 * CZ_DEVICE_NONE / CZ_DEVICE_CANCELLED. job and partition are shown in
 * status while it is held (the newest partition in flight on a device is
 * the one shown). */
int cz_devices_acquire(cz_devices *s, cz_priority prio, uint32_t excluded,
                       const atomic_bool *cancel, const char *job, cz_proof_kind kind,
                       uint32_t partition);
/* Give back device i (CZ_DEVICE_NONE: the fallback), taken for job's
 * partition, with the proof's outcome: counts, faults, health. */
void cz_devices_release(cz_devices *s, int i, const char *job, uint32_t partition, cz_err err,
                        const char *msg);
/* err is a device's fault (NOMEM, DEVICE, PROOF_INVALID): prove elsewhere. */
bool cz_devices_is_fault(cz_err err);
cz_err cz_devices_self_test(cz_devices *s, unsigned i, char *msg, size_t msg_len);
void cz_devices_snapshot(cz_devices *s, cz_engine_stats *out);
/* Device i's handle and name (CZ_DEVICE_NONE: the fallback's). */
const void *cz_devices_handle(cz_devices *s, int i);
const char *cz_devices_name(cz_devices *s, int i);

/* ---- The engine and its jobs (engine*.c) ---------------------------------- */

/* The job table's hash buckets (keyed by request_id). */
#define CZ_ENGINE_BUCKETS 4096

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE } cz_job_state;

/* A job in the table: its request, its kind's parse and plan, its state
 * and, while it runs, what it holds. */
typedef struct cz_job cz_job;

struct cz_job {
  char id[CZ_JOB_ID_MAX];
  cz_job_request req; /* deep copy; its bytes live in blob */
  uint8_t *blob;
  size_t blob_len; /* charged to the budget while the job lives */
  cz_bytes *vps;
  cz_priority prio;
  uint64_t seq;
  cz_job_state state;
  cz_job_status status; /* when DONE */
  uint8_t *proof;
  size_t proof_len;
  char error[512];
  cz_job_timings t;
  uint64_t submit_ms, start_ms;
  atomic_bool cancel;
  void *model;          /* the kind's parse of req */
  uint64_t model_bytes; /* charged to the budget with blob_len */
  cz_job_plan plan;     /* the kind's plan, made at submit */
  cz_job_ctx ctx;       /* what the kind's ops see (job_run.c fills it) */
  /* When the plan at the pipeline's window did not fit the whole budget
   * and ctx.window was narrowed to 1: that window and its bytes (else 0). */
  uint64_t wide_mem_bytes;
  size_t wide_window;
  /* While it runs (job_run.c; only the worker running it touches these): */
  uint64_t mem_reserved;
  cz_srs_entry *srs, *shape;  /* the plan's SRS and shape references */
  uint8_t *out;               /* the proofs being made, partition after partition */
  bool answered;              /* cz_job_answer ran */
  cz_partition_status *items; /* the pipeline's items (under e->mu) */
  size_t n_items;
  uint32_t batch_size;
  unsigned waiters;               /* cz_engine_await calls holding a pointer */
  unsigned pins;                  /* cz_jobs_run holding a pointer */
  uint8_t input[CZ_SHA256_BYTES]; /* input_digest of req, kept after DONE */
  bool superseded;                /* its request_id now names a newer job */
  cz_engine *e;
  cz_job *qnext, *hnext, *fnext;
};

typedef struct {
  pthread_t thread;
  unsigned index;
  cz_priority min_prio; /* the lowest priority it takes (urgent workers: HIGH) */
  cz_job *current;
} cz_worker;

struct cz_engine {
  cz_engine_config cfg;
  char *param_cache;
  pthread_mutex_t mu;
  pthread_cond_t work_cv, done_cv;
  cz_job *buckets[CZ_ENGINE_BUCKETS];
  cz_job *qhead[CZ_PRIO_COUNT], *qtail[CZ_PRIO_COUNT];
  cz_job *fin_head, *fin_tail; /* finished jobs, oldest first */
  size_t n_finished, n_jobs;
  uint64_t seq;
  bool has_ops[CZ_KIND_COUNT];
  cz_proof_ops ops[CZ_KIND_COUNT]; /* each kind's table (copied at registration) */
  void *ops_self[CZ_KIND_COUNT];   /* and the self its entries are given */
  bool started, stopping, drain, joined;
  cz_worker *workers;
  unsigned n_workers;
  cz_membudget budget;
  cz_srs_manager *srs;
  cz_synth_slots synth; /* cfg.max_parallel_synthesis */
  cz_devices devs;      /* cz_engine_add_device */
  uint64_t start_ms;
  char backend[32], backend_note[256]; /* under mu */
  /* counters (under mu) */
  uint32_t pending[CZ_KIND_COUNT], running[CZ_KIND_COUNT];
  uint64_t completed[CZ_KIND_COUNT], failed[CZ_KIND_COUNT], cancelled[CZ_KIND_COUNT];
  uint64_t dur_sum[CZ_KIND_COUNT], dur_count[CZ_KIND_COUNT];
  cz_histogram dur_hist[CZ_KIND_COUNT]; /* submit-to-result of completed jobs */
};

/* One TIMELINE line (cuzk/engine.h), when cfg.timeline (engine.c). */
void cz_engine_timeline(cz_engine *e, const char *event, const char *job, const char *detail);

/* job_table.c; the caller holds e->mu. */
/* The job a request_id names now (a superseded one is not named). */
cz_job *cz_engine_lookup_locked(cz_engine *e, const char *id);
/* Put a new job in the table (not yet in a queue). */
void cz_engine_insert_locked(cz_engine *e, cz_job *j);
/* Put j at the end of its priority's queue and wake the workers. */
void cz_engine_enqueue_locked(cz_engine *e, cz_job *j);
/* Take j out of its priority queue. */
void cz_engine_unqueue_locked(cz_engine *e, cz_job *j);
/* Jobs that will run before the queued job j. */
uint32_t cz_engine_queue_position_locked(cz_engine *e, const cz_job *j);
/* End a queued or running job with st (why: its error line, or NULL),
 * release its request's memory, count it and wake its awaiters. */
void cz_engine_finish_locked(cz_engine *e, cz_job *j, cz_job_status st, const char *why);
/* Drop finished jobs beyond cfg.max_finished_jobs, oldest first. */
void cz_engine_prune_locked(cz_engine *e);
/* Free a job that is in no table or queue (or the whole table at destroy). */
void cz_job_free(cz_job *j);

/* workers.c; the caller holds e->mu. The most urgent queued job of
 * priority >= min_prio, taken out of the queue; NULL when none. */
cz_job *cz_engine_pop_locked(cz_engine *e, cz_priority min_prio);

/* ---- A job's steps (job_run.c) ------------------------------------------------ */

/* Run jobs[0..n) on the calling worker thread: one job, or a batch of one
 * kind and circuit. Each job's steps up to the pipeline alone (memory,
 * prepare, SRS, check, shape: cuzk/proof_ops.h), then the partitions of
 * those that got there through one pipeline; every job is answered. */
void cz_jobs_run(cz_engine *e, cz_job *const *jobs, size_t n);
/* Answer a running job: its proofs (j->out, taken over) when err is CZ_OK,
 * else FAILED with msg, or CANCELLED once it was cancelled; its memory and
 * SRS references are released. Only the first call counts. */
void cz_job_answer(cz_job *j, cz_err err, const char *msg);
/* A TIMELINE event of the job (detail may be NULL); false once the job is
 * cancelled (or the engine is stopping without draining). */
bool cz_job_event(cz_job *j, const char *event, const char *detail);
/* Add to the job's reported timings. */
void cz_job_add_timing(cz_job *j, uint64_t synthesis_ms, uint64_t gpu_compute_ms);

/* A NORMAL or LOW job's partition takes one of the engine's synthesis
 * slots (max_parallel_synthesis) before its synthesis; a HIGH or CRITICAL
 * job (PoSt) never waits for one, so that a WinningPoSt is not held behind
 * PoRep partitions. *held: whether a slot was taken (hand it to
 * cz_job_synth_end). false: the job was cancelled while waiting. */
bool cz_job_synth_begin(cz_job *j, bool *held);
void cz_job_synth_end(cz_job *j, bool held);

/* Partition states (GET /status): the job's pipeline has n items, all
 * queued; item i entered state st (ms: the synthesis time with
 * SYNTHESIZED, the proving time with DONE). */
void cz_job_items_begin(cz_job *j, size_t n);
void cz_job_item_state(cz_job *j, size_t i, cz_partition_state st, uint64_t ms);

/* ---- The pipeline (pipeline.c) ------------------------------------------------ */

/* The partitions of jobs[0..n) (each set up: ctx complete, out allocated)
 * through one pipeline, job after job: synthesis of the next partitions
 * (the kind's synthesize, on the pipeline's threads) overlaps proving of
 * the current ones (prove_partition, taken in order: on the calling
 * thread, or with devices on one thread per device slot, each partition on
 * a device of devices.c, re-made and moved after a device's fault). A
 * stage error or a cancellation ends that job alone. Each job is answered
 * (cz_job_answer) as soon as its last partition is proved or it failed. */
void cz_pipeline_run(cz_engine *e, cz_job *const *jobs, size_t n);
/* The most partitions a pipeline of cfg holds synthesized (or being
 * synthesized) and not yet proved: 1 when serial, else
 * synthesis_concurrency + max_queue_depth (each 0 -> 1). */
size_t cz_pipeline_window(const cz_engine_config *cfg);
/* One partition's synthesis thread budget under cfg (cz_engine_config's
 * synthesis_threads, resolved). */
unsigned cz_pipeline_synth_threads(const cz_engine_config *cfg);

#endif
