/* Layer: engine */
/* What a proof kind gives the engine: one table of functions, its ops
 * (cz_proof_ops), and the one context each entry is handed. The engine
 * drives every job through the same steps and calls the kind's ops at
 * each, with the self the kind registered and the job's context; an entry
 * never calls back into the engine: what it needs arrives in its context,
 * what it makes it returns. A kind knows no engine, and the engine knows a
 * kind only as an index (cz_proof_kind) to its table. A kind registers its
 * ops and its SRS circuits before cz_engine_start (the end of this
 * header). Sources: src/engine/job_run.c (the steps), pipeline.c
 * (synthesis and proving of the partitions), srs.c (the SRS), engine.c
 * (registration).
 *
 * A job's steps, with the TIMELINE events the engine writes (engine.h):
 *   submit, on the caller's thread: parse, then plan (the plan is kept with
 *     the job; a job whose plan needs more memory than the whole budget
 *     FAILS at once); QUEUED.
 *   a worker: START; the plan's memory reserved (MEM_WAIT while it waits);
 *     prepare; the plan's SRS made hot; PROVE; VANILLA_CHECK and check;
 *     the plan's shape made hot (PCE shape=<id>, or plain,why=<reason>
 *     when it cannot be, and the job goes on without it);
 *   the pipeline, per partition i (item=i): SYNTH_START, synthesize,
 *     SYNTH_END, GPU_QUEUE; then, in partition order on the worker's
 *     thread, GPU_PICKUP, GPU_START, prove_partition, GPU_END; END.
 * Same-circuit jobs (same kind and registered_proof) of a kind that allows
 * it are proved as one batch (BATCH): each job's steps up to the pipeline
 * alone (a failure fails that job alone), then all their partitions
 * through one pipeline, job after job, each job answered when its own
 * partitions are done.
 *
 * Threads: entries of different jobs run at the same time; parse and plan
 * run on the submitting thread, synthesize on the pipeline's threads
 * (several partitions at once), the others on the job's worker thread. A
 * job's cancellation is seen at every step; an entry that runs long may
 * poll ctx->cancelled and return any error once it is set (the job is
 * then CANCELLED). */
#ifndef CUZK_PROOF_OPS_H
#define CUZK_PROOF_OPS_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"

/* What a job needs, as its kind's plan says (at submit). */
typedef struct {
  size_t n_partitions;    /* the pipeline's items, > 0 */
  size_t proof_bytes;     /* each partition's share of the answer, > 0 */
  uint64_t mem_bytes;     /* reserved before the job runs; 0: none */
  const char *circuit_id; /* the SRS made hot for the job; NULL: none */
  const char *shape_id;   /* a second SRS entry (a recorded shape) the job
                             may go without; NULL: none */
  const void *circuit;    /* the kind's own note of the job's circuit */
} cz_job_plan;

/* The context of every entry called for one job. The engine fills what is
 * known at each step (NULL or 0 before); an entry only reads it. Strings
 * and objects stay valid while the job runs. */
typedef struct {
  const cz_job_request *req;    /* the job's own copy of the request */
  const void *model;            /* what parse made (NULL: no parse, or none) */
  const cz_job_plan *plan;      /* from prepare on */
  const void *srs;              /* the hot object of plan->circuit_id: its
                                   loader's object, or the mapped file */
  size_t srs_len;               /* the mapped file's length (no loader) */
  const void *shape;            /* the hot object of plan->shape_id; NULL:
                                   none, the plain path */
  unsigned synth_threads;       /* one partition's synthesis thread budget */
  size_t window;                /* partitions the pipeline holds synthesized
                                   and not yet proved, at most: the factor of
                                   a partition's memory in the plan */
  const atomic_bool *cancelled; /* true once the job is cancelled */
  const void *device;           /* prove_partition only: the handle of the
                                   device it proves on (cz_engine_device);
                                   NULL when the engine has no devices (the
                                   kind's own default) */
} cz_job_ctx;

/* A kind's table. Every entry gets self, the kind's own state as it was
 * registered (cz_engine_register_ops), first. */
typedef struct {
  const char *name; /* in logs and TIMELINE (PROVE) */
  /* Optional: parse the request once, at submit. CZ_OK: *model (may be
   * NULL) is kept with the job until it ends and handed to every later
   * entry as ctx->model; *model_bytes are charged to the memory budget with
   * the request's bytes; free_model releases it. Otherwise msg says what
   * is wrong and the submit is refused (CZ_ERR_INVALID_ARG, or NOMEM). */
  cz_err (*parse)(void *self, const cz_job_request *req, void **model, uint64_t *model_bytes,
                  char *msg, size_t msg_len);
  void (*free_model)(void *self, void *model);
  /* The job's plan, at submit, right after parse (ctx: req, model,
   * synth_threads, window). A failure refuses the submit as parse's. */
  cz_err (*plan)(void *self, const cz_job_ctx *ctx, cz_job_plan *plan, char *msg, size_t msg_len);
  /* Optional, on the worker before the SRS is made hot: what the SRS file
   * needs first (test parameters made on first use: minutes). A failure
   * fails the job with msg. */
  cz_err (*prepare)(void *self, const cz_job_ctx *ctx, char *msg, size_t msg_len);
  /* Optional, once the SRS is hot and before any synthesis: the input's
   * expensive check (PoRep's vanilla proofs). A failure fails the job. */
  cz_err (*check)(void *self, const cz_job_ctx *ctx, char *msg, size_t msg_len);
  /* Partition i into *state (the kind's own, freed by prove_partition or
   * discard). */
  cz_err (*synthesize)(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                       size_t msg_len);
  /* Partition i's proof from its state (freed here, whatever happens) into
   * out, plan->proof_bytes of them, checked before CZ_OK, on ctx->device.
   * With devices, three errors are the device's fault, not the input's:
   * CZ_ERR_NOMEM and CZ_ERR_DEVICE (counted against the device), and
   * CZ_ERR_PROOF_INVALID (the proof made does not verify: the device is
   * taken out at once). The engine then synthesizes the partition again
   * and proves it on another device, at last on the fallback one. */
  cz_err (*prove_partition)(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                            char *msg, size_t msg_len);
  /* Free a synthesized state that will not be proved (error, cancel). */
  void (*discard)(void *self, void *state);
  /* Same-circuit jobs may be proved as one batch (scheduler.max_batch_size). */
  bool batch;
  /* Its prove_partition proves on the device in ctx->device (a Groth16
   * backend): the engine's devices are handed out for its partitions. A
   * kind without it (it proves on the CPU whatever) is given no device. */
  bool uses_devices;
  /* Optional: release self. cz_engine_destroy calls it once per distinct
   * self, last (after every job and SRS entry is gone, since SRS loaders
   * may point into it). */
  void (*destroy)(void *self);
} cz_proof_ops;

/* ---- SRS circuits ------------------------------------------------------------ */

/* Turns a mapped parameter file into the hot object a kind uses (e.g.
 * cz_groth16_params_view or _read). fd: a descriptor of the same file,
 * open while the mapping is (the object may keep and read it, not close
 * it), or -1 (a computed entry). *bytes: the memory the object holds. */
typedef struct {
  cz_err (*load)(void *self, const char *circuit_id, const uint8_t *file, size_t len, int fd,
                 void **obj, uint64_t *bytes, char *msg, size_t msg_len);
  void (*unload)(void *self, void *obj);
  void *self;
  /* The object reads the file in place (a mapped key), so the mapping
   * lives as long as it does and is page cache, not the process's memory:
   * the budget is charged what load reports, not the file's size. */
  bool in_place;
} cz_srs_loader;

/* ---- Registration ------------------------------------------------------------
 * Kinds register before cz_engine_start. SRS entries may also be declared
 * while the engine runs (any thread): circom keys are loaded on request
 * (LoadKey) and forgotten with cz_engine_srs_remove. */

/* Register a kind's ops (the table is copied) and the self each entry is
 * given (the kind's; NULL allowed). A second registration replaces the
 * first. CZ_ERR_INVALID_ARG for a bad kind, a missing plan, synthesize,
 * prove_partition or discard, or after start. */
CZ_MUST_CHECK cz_err cz_engine_register_ops(cz_engine *e, cz_proof_kind kind,
                                            const cz_proof_ops *ops, void *self);
/* Declare an SRS circuit: its parameter file and (optional) loader, both
 * copied; before or after start. A circuit id that was never declared resolves to
 * <param_cache>/<id>.params and is kept as mapped bytes. CZ_ERR_INVALID_ARG
 * for an id that is not 1-63 of [A-Za-z0-9._-], a NULL path, a loader
 * without load or unload, or an id declared twice; CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_engine_register_srs(cz_engine *e, const char *circuit_id, const char *path,
                                            const cz_srs_loader *loader);
/* Declare a computed SRS entry: an object made by loader->load (called
 * with file NULL, len 0) instead of read from a file, e.g. a recorded
 * circuit shape. estimate_bytes is reserved before load runs (then the
 * charge becomes what load reports). It is hot or cold (no warm tier: an
 * eviction under pressure or EvictSRS drops it, the next use makes it
 * again); otherwise it is an SRS entry like the others (status, preload,
 * idle eviction, refs). Errors as cz_engine_register_srs's (loader is
 * required). */
CZ_MUST_CHECK cz_err cz_engine_register_computed_srs(cz_engine *e, const char *circuit_id,
                                                     uint64_t estimate_bytes,
                                                     const cz_srs_loader *loader);

/* ---- Devices (before cz_engine_start) --------------------------------------- */

/* A proving device (a GPU) the engine hands partitions to. A partition is
 * proved on one device, at most workers of them at once per device; HIGH
 * and CRITICAL jobs take the next free device before NORMAL and LOW ones.
 * A device is taken out (unhealthy) after fail_limit faults in a row or
 * one proof that does not verify, and brought back when its self-test
 * passes (the engine runs it every self_test_interval_ms). */
typedef struct {
  const char *name;   /* copied (status, metrics, logs) */
  const void *handle; /* given to prove_partition as ctx->device */
  unsigned workers;   /* partitions proved on it at once (0 -> 2) */
  /* Required: CZ_OK when the device computes right again. */
  cz_err (*self_test)(const void *handle, char *msg, size_t msg_len);
  /* Optional: its memory now free and in all (status). */
  void (*memory)(const void *handle, uint64_t *free_bytes, uint64_t *total_bytes);
  /* Optional: out-of-memory faults it handled itself (a batch retried
   * smaller), added to its "oom" fault count. */
  uint64_t (*oom_retries)(const void *handle);
  /* Optional: release the device, at cz_engine_destroy (the engine owns
   * a device once added, when close is set). */
  void (*close)(const void *handle);
} cz_engine_device;

/* Add a device (copied; at most CZ_ENGINE_MAX_DEVICES). CZ_ERR_INVALID_ARG
 * for no name or handle, no self_test, too many, or after start. */
CZ_MUST_CHECK cz_err cz_engine_add_device(cz_engine *e, const cz_engine_device *d);
/* The handle a partition is proved with when no healthy device is left for
 * it (the CPU backend); NULL (default): the partition fails instead. */
void cz_engine_set_fallback_device(cz_engine *e, const void *handle);
/* Run device i's self-test now (it is marked healthy when it passes).
 * CZ_ERR_NOT_FOUND for no such device; else the test's result, msg why. */
CZ_MUST_CHECK cz_err cz_engine_device_self_test(cz_engine *e, unsigned i, char *msg,
                                                size_t msg_len);

#endif
