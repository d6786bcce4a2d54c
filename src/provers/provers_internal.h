/* What the provers share: the hot parameter object every Groth16 prover
 * keeps in the engine's SRS manager, where its file is, test parameters
 * made on first use, recorded shapes, and what the ops of every Groth16
 * prover have in common (prover_common.c). */
#ifndef CUZK_PROVERS_INTERNAL_H
#define CUZK_PROVERS_INTERNAL_H
#include <pthread.h>
#include <stdbool.h>

#include "cuzk/proof_ops.h"
#include "cuzk/params_store.h"
#include "cuzk/provers.h"

/* The hot SRS object: the parameters and their prepared verifying key. */
typedef struct {
  cz_groth16_params params;
  cz_groth16_pvk *pvk;
} cz_hot_srs;

/* One circuit's parameter file as a prover declares it to the engine. */
typedef struct {
  char circuit_id[24];        /* "porep-2k", "winning-2k", ... (cz_provers_circuit_id) */
  char name[256];             /* v28 base name */
  const char *test_tag;       /* its circuit revision */
  size_t n_ic;                /* public inputs + ONE */
  cz_params_keygen_fn keygen; /* for test parameters */
  cz_params_shape_fn shape;   /* the same, streamed without the columns */
  void *keygen_ctx;
  char path[CZ_PARAMS_PATH_MAX]; /* the file the engine maps */
  bool official;                 /* path is the official file (or test
                                    parameters are not allowed) */
  const cz_provers_config *cfg;  /* set by declare: the loader's threads
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

/* A circuit's recorded shape as the computed SRS entry "pce-<circuit id>":
 * the engine's loader gets it through cz_prover_shape_get (from the file
 * in dir, or recorded by record(ctx) and saved there). */
typedef struct {
  const cz_prover_srs *srs; /* the circuit: id, parameter name, revision */
  const char *dir;          /* the parameter cache (NULL: no file) */
  cz_shape_record_fn record;
  const void *ctx;
  char id[40]; /* "pce-<circuit id>" */
} cz_prover_shape;

/* Fill *s and declare its entry with e at estimate_bytes (the loaded
 * shape's size replaces it). s, srs and dir must outlive e. */
cz_err cz_prover_shape_declare(cz_engine *e, cz_prover_shape *s, const cz_prover_srs *srs,
                               const char *dir, cz_shape_record_fn record, const void *ctx,
                               uint64_t estimate_bytes, char *msg, size_t msg_len);

/* A prover's own copy of its configuration: the engine keeps pointers to
 * prover state for the process' life, longer than the caller's strings. */
typedef struct {
  cz_provers_config cfg; /* its official_dir / test_dir point into the arrays */
  char official_dir[CZ_PARAMS_PATH_MAX], test_dir[CZ_PARAMS_PATH_MAX];
} cz_provers_kept_config;

void cz_provers_config_keep(cz_provers_kept_config *k, const cz_provers_config *cfg);

/* ---- Groth16 provers (prover_common.c) -------------------------------------
 * A Groth16 prover's job is n partitions of one circuit, each synthesized
 * into a cz_assignment (plain, or through the recorded shape) and proved
 * into 192 verified bytes. Each prover (porep_prover.c, post_prover.c,
 * snap_prover.c) has one table, its cz_proof_ops, registered with its
 * state as self; its entries call its Filecoin family's functions and the
 * helpers below, which take the prover's cz_prover_common and the job's
 * context explicitly. */

/* One circuit of a prover: its parameters and its recorded shape. */
typedef struct {
  const char *name; /* the registered proof it is named after, for messages */
  cz_prover_srs srs;
  cz_prover_shape shape; /* its computed SRS entry, declared when cfg->pce */
} cz_prover_circuit;

/* A job as its prover sees it, for cz_prover_job_plan. */
typedef struct {
  size_t n_partitions;              /* > 0 */
  const cz_prover_circuit *circuit; /* of every partition */
  uint64_t constraints;             /* one partition's, from the registered proof's shape */
  uint64_t full_aux;    /* its witness values that are not bits (cz_partition_mem_bytes) */
  uint64_t extra_bytes; /* memory the job needs beyond its partitions */
} cz_partition_plan;

/* What every Groth16 prover's state holds (a member anywhere in it). */
typedef struct {
  cz_provers_kept_config kept;
  pthread_mutex_t generate_lock; /* one test-parameter setup at a time */
} cz_prover_common;

/* Keep cfg and make the lock; cz_prover_common_fini destroys the lock. */
void cz_prover_common_init(cz_prover_common *c, const cz_provers_config *cfg);
void cz_prover_common_fini(cz_prover_common *c);

/* Declare one circuit of a prover with e: its parameters
 * (cz_prover_srs_declare) and, when cfg->pce, its recorded shape
 * (record(ctx), shape_bytes the estimate until it is recorded). */
cz_err cz_prover_circuit_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_circuit *c,
                                 cz_shape_record_fn record, const void *ctx, uint64_t shape_bytes,
                                 char *msg, size_t msg_len);

/* The engine's plan of p (a plan entry's answer): the memory of the
 * pipeline's window of partitions (ctx->window, at most all of them) plus
 * p's extra bytes, the circuit's SRS, its shape when c's cfg has pce,
 * CZ_GROTH16_PROOF_BYTES a partition. */
void cz_prover_job_plan(const cz_prover_common *c, const cz_job_ctx *ctx,
                        const cz_partition_plan *p, cz_job_plan *out);

/* A prepare entry's work: the test parameters of the plan's circuit made
 * on first use when they are allowed (cz_prover_srs_ensure). */
cz_err cz_prover_prepare(cz_prover_common *c, const cz_job_ctx *ctx, char *msg, size_t len);

/* A synthesize entry holds the partition's assignment between the stages:
 * cz_prover_assignment_new checks that the job's hot parameters are its
 * circuit's (CZ_ERR_INVALID_ARG, msg) and allocates *as (CZ_ERR_NOMEM);
 * after synthesizing into it (t0: when synthesis began),
 * cz_prover_assignment_keep(err, as, t0, state) frees as when err is not
 * CZ_OK, else records the synthesis time and sets *state = as; it returns
 * err. prove_partition proves the state (the cz_*_prove functions consume
 * it) and frees it; cz_prover_discard is the discard entry. */
cz_err cz_prover_assignment_new(const cz_job_ctx *ctx, cz_assignment **as, char *msg, size_t len);
cz_err cz_prover_assignment_keep(cz_err err, cz_assignment *as, uint64_t t0, void **state);
void cz_prover_discard(void *self, void *state);

/* What a partition of the job is proved with: ctx->device (the engine's
 * device) or else the configured backend, the job's hot parameters and
 * prepared key, the prove threads, the provers' timing hook. */
cz_prove_ctx cz_prover_prove_ctx(const cz_prover_common *c, const cz_job_ctx *ctx);

#endif
