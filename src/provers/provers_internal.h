/* What the provers share: the hot parameter object every Groth16 prover
 * keeps in the engine's SRS manager, where its file is, and test
 * parameters made on first use. */
#ifndef CUZK_PROVERS_INTERNAL_H
#define CUZK_PROVERS_INTERNAL_H
#include <pthread.h>
#include <stdbool.h>

#include "cuzk/engine_prover.h"
#include "cuzk/params_store.h"
#include "cuzk/provers.h"

/* The hot SRS object: the parameters and their prepared verifying key. */
typedef struct {
  cz_groth16_params params;
  cz_groth16_pvk *pvk;
} cz_hot_srs;

/* One circuit's parameter file as a prover declares it to the engine. */
typedef struct {
  char circuit_id[24];             /* "porep-2k", "winning-2k", ... (cz_provers_circuit_id) */
  char name[256];                  /* v28 base name */
  const char *test_tag;            /* its circuit revision */
  size_t n_ic;                     /* public inputs + ONE */
  cz_params_keygen_fn keygen;      /* for test parameters */
  void *keygen_ctx;
  char path[CZ_PARAMS_PATH_MAX];   /* the file the engine maps */
  bool official;                   /* path is the official file (or test
                                      parameters are not allowed) */
  const cz_provers_config *cfg;    /* set by declare: the loader's threads
                                      and directories */
} cz_prover_srs;

/* A cz_srs_loader whose self is s: an official file checked against
 * parameters.json's digest (cz_official_params_check), then
 * cz_groth16_params_read of the mapped file on s->cfg's prove_threads into
 * a cz_hot_srs, charged at the file's size. */
cz_srs_loader cz_hot_srs_loader(const cz_prover_srs *s);

/* Fill s->path and s->official from cfg (the official file when it exists
 * or test parameters are off, else the test file) and declare the SRS
 * with the engine. CZ_ERR_INVALID_ARG when a path does not fit (msg). */
cz_err cz_prover_srs_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_srs *s,
                             char *msg, size_t msg_len);

/* Make s's test parameters when they are wanted and not yet cached, under
 * lock: a second job of the same circuit waits for the first one's setup
 * instead of repeating it. CZ_OK when nothing was needed. */
cz_err cz_prover_srs_ensure(const cz_provers_config *cfg, pthread_mutex_t *lock,
                            const cz_prover_srs *s, char *msg, size_t msg_len);

/* A prover's circuit_id hook for a job of s's circuit: cz_prover_srs_ensure
 * first, a failure warned about (the engine's load then fails with the
 * missing file), then s->circuit_id. */
const char *cz_prover_srs_use(const cz_provers_config *cfg, pthread_mutex_t *lock,
                              const cz_prover_srs *s);

/* How many of a job's n partitions the pipeline holds synthesized at once:
 * the pipeline's window (cz_pipeline_window), at most n; the factor of a
 * partition's memory in a prover's estimate. */
uint64_t cz_provers_in_flight(const cz_provers_config *cfg, uint64_t n);

/* The thread budget of one partition's synthesis (cz_provers_config's
 * synthesis_threads, resolved). */
unsigned cz_provers_synth_threads(const cz_provers_config *cfg);

/* A circuit's recorded shape as the computed SRS entry "pce-<circuit id>":
 * the engine's loader gets it through cz_prover_shape_get (from the file
 * in dir, or recorded by record(ctx) and saved there). */
typedef struct {
  const cz_prover_srs *srs; /* the circuit: id, parameter name, revision */
  const char *dir;          /* the parameter cache (NULL: no file) */
  cz_shape_record_fn record;
  const void *ctx;
  char id[40];              /* "pce-<circuit id>" */
} cz_prover_shape;

/* Fill *s and declare its entry with e at estimate_bytes (the loaded
 * shape's size replaces it). s, srs and dir must outlive e. */
cz_err cz_prover_shape_declare(cz_engine *e, cz_prover_shape *s, const cz_prover_srs *srs,
                               const char *dir, cz_shape_record_fn record, const void *ctx,
                               uint64_t estimate_bytes, char *msg, size_t msg_len);

/* The job's reference to s's shape (held until the job ends), with a PCE
 * TIMELINE event "shape=<id>", or "plain,why=<reason>" and NULL when it
 * cannot be made: the job then takes the plain synthesis path. */
const cz_pce *cz_prover_shape_acquire(cz_job *job, const cz_prover_shape *s);

/* A prover's own copy of its configuration: the engine keeps pointers to
 * prover state for the process' life, longer than the caller's strings. */
typedef struct {
  cz_provers_config cfg; /* its official_dir / test_dir point into the arrays */
  char official_dir[CZ_PARAMS_PATH_MAX], test_dir[CZ_PARAMS_PATH_MAX];
} cz_provers_kept_config;

void cz_provers_config_keep(cz_provers_kept_config *k, const cz_provers_config *cfg);

/* ---- Jobs of partitions (prover_partitions.c) ----------------------------
 * The proving every Groth16 prover shares: a job is n partitions, each
 * synthesized into a cz_assignment (plain, or through the recorded shape)
 * and proved into 192 verified bytes; the partitions of one job, or of a
 * batch of same-circuit jobs, go through one cz_jobs_pipeline. */

/* What a job's partitions need; the prover's hooks read it. */
typedef struct {
  const void *model;     /* cz_request_model of the job */
  const cz_hot_srs *srs; /* the loaded parameters */
  const cz_pce *shape;   /* the recorded shape; NULL: plain synthesis */
} cz_partition_job;

/* A job's circuit as its prover's plan hook tells it. */
typedef struct {
  const char *name;             /* the kind's name, for messages */
  size_t n_partitions;          /* > 0 */
  const cz_prover_srs *srs;     /* its parameters' declaration (n_ic is checked) */
  const cz_prover_shape *shape; /* its recorded shape when cfg->pce (else unused) */
} cz_partition_plan;

typedef struct {
  void *self;                   /* the prover's state, passed to each hook */
  const cz_provers_config *cfg; /* pce, prove_threads, the pipeline's window */
  /* The plan of a parsed job (model); CZ_ERR_* and msg when it has none. */
  cz_err (*plan)(void *self, const void *model, cz_partition_plan *plan, char *msg, size_t len);
  /* Optional: checks once the parameters are there, before any synthesis
   * (PoRep's vanilla proofs); a failure fails that job alone. */
  cz_err (*check)(void *self, const void *model, cz_job *job, char *msg, size_t len);
  /* Synthesize partition i into *as. */
  cz_err (*synthesize)(void *self, const cz_partition_job *pj, size_t i, cz_assignment *as,
                       char *msg, size_t len);
  /* Prove partition i from *as (whose contents it frees, as the cz_*_prove
   * functions do) into out and verify the proof. */
  cz_err (*prove)(void *self, const cz_partition_job *pj, size_t i, cz_assignment *as,
                  uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t len);
} cz_partition_prover;

/* What every prover's state begins with (its first member, so that the
 * engine's self is also a cz_prover_common *). */
typedef struct {
  cz_provers_kept_config kept;
  pthread_mutex_t generate_lock; /* one test-parameter setup at a time */
  cz_partition_prover runner;    /* runner.self: the whole state */
} cz_prover_common;

/* Keep cfg, make the lock, and set the runner to hooks with self and the
 * kept configuration. */
void cz_prover_common_init(cz_prover_common *c, const cz_provers_config *cfg, void *self,
                           const cz_partition_prover *hooks);

/* An engine destroy hook for a calloc'd state that begins with a
 * cz_prover_common: the lock destroyed, the state freed. */
void cz_prover_common_destroy(void *self);

/* Declare one circuit of a prover: its parameters (cz_prover_srs_declare)
 * and, when cfg->pce, its recorded shape (record(ctx), shape_bytes the
 * estimate until it is recorded). */
cz_err cz_prover_circuit_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_srs *s,
                                 cz_prover_shape *shape, cz_shape_record_fn record,
                                 const void *ctx, uint64_t shape_bytes, char *msg,
                                 size_t msg_len);

/* The engine's prove hook of a state that begins with a cz_prover_common:
 * the job set up (model, parameters matching the plan's circuit, check,
 * shape), its partitions through the pipeline; *proof the n_partitions x
 * 192 bytes in order. */
cz_err cz_partitions_prove(void *self, const cz_job_request *req, cz_job *job, uint8_t **proof,
                           size_t *proof_len, char *msg, size_t msg_len);

/* The engine's prove_batch hook of such a state: each job set up alone
 * (one that fails is answered at once and fails alone), then all their
 * partitions through one pipeline, job after job; each job answered
 * (cz_job_finish) as soon as its last partition is proved, not at the end
 * of the batch. */
void cz_partitions_prove_batch(void *self, const cz_job_request *const *reqs, cz_job *const *jobs,
                               size_t n, uint8_t **proofs, size_t *proof_lens, cz_err *errs,
                               char (*msgs)[512]);

#endif
