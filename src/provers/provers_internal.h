/* What the provers share: the hot parameter object every Groth16 prover
 * keeps in the engine's SRS manager, where its file is, test parameters
 * made on first use, recorded shapes, and the engine hooks every kind of
 * partitions has in common (partition_hooks.c). */
#ifndef CUZK_PROVERS_INTERNAL_H
#define CUZK_PROVERS_INTERNAL_H
#include <pthread.h>
#include <stdbool.h>

#include "cuzk/kind_hooks.h"
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

/* ---- Kinds of partitions (partition_hooks.c) ------------------------------
 * The engine hooks every Groth16 prover shares: a job is n partitions of
 * one circuit, each synthesized into a cz_assignment (plain, or through the
 * recorded shape) and proved into 192 verified bytes. A prover gives its
 * plan and its circuit's synthesize and prove; cz_partition_hooks makes the
 * engine's plan (memory, SRS, shape) and stages of them. */

/* One circuit of a prover: its parameters and its recorded shape. */
typedef struct {
  const char *name; /* the registered proof it is named after, for messages */
  cz_prover_srs srs;
  cz_prover_shape shape; /* its computed SRS entry, declared when cfg->pce */
} cz_prover_circuit;

/* A job as its prover's plan says. */
typedef struct {
  size_t n_partitions;              /* > 0 */
  const cz_prover_circuit *circuit; /* of every partition */
  uint64_t constraints;             /* one partition's, from the kind's shape */
  uint64_t extra_bytes;             /* memory the job needs beyond its partitions */
} cz_partition_plan;

/* What a prover gives (model: what its parse made). */
typedef struct {
  const char *name; /* the engine's name of the kind (cz_kind_hooks.name) */
  /* The engine's parse and free_model hooks of the kind, as they are. */
  cz_err (*parse)(void *self, const cz_job_request *req, void **model, uint64_t *model_bytes,
                  char *msg, size_t msg_len);
  void (*free_model)(void *self, void *model);
  bool batch; /* same-circuit jobs may be proved as one batch */
  cz_err (*plan)(void *self, const void *model, cz_partition_plan *plan, char *msg, size_t len);
  /* Optional: the inputs' expensive check, once the parameters are there
   * and before any synthesis (PoRep's vanilla proofs). */
  cz_err (*check)(const void *model, char *msg, size_t len);
  /* Partition i into *as, on n_threads, through shape (NULL: plain). */
  cz_err (*synthesize)(const void *model, size_t i, const cz_pce *shape, unsigned n_threads,
                       cz_assignment *as, char *msg, size_t len);
  /* Partition i's proof from *as (consumed, as the cz_*_prove functions
   * do) with pc, verified, into out. */
  cz_err (*prove)(const void *model, size_t i, cz_assignment *as, const cz_prove_ctx *pc,
                  uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t len);
} cz_partition_kind;

/* What every prover's state begins with (its first member, so that the
 * engine's self is also a cz_prover_common *). */
typedef struct {
  cz_provers_kept_config kept;
  pthread_mutex_t generate_lock; /* one test-parameter setup at a time */
  cz_partition_kind kind;
} cz_prover_common;

/* Keep cfg, make the lock, keep the prover's functions. */
void cz_prover_common_init(cz_prover_common *c, const cz_provers_config *cfg,
                           const cz_partition_kind *kind);

/* Declare one circuit of a prover with e: its parameters
 * (cz_prover_srs_declare) and, when cfg->pce, its recorded shape
 * (record(ctx), shape_bytes the estimate until it is recorded). */
cz_err cz_prover_circuit_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_circuit *c,
                                 cz_shape_record_fn record, const void *ctx, uint64_t shape_bytes,
                                 char *msg, size_t msg_len);

/* The engine hooks of a calloc'd state that begins with c: plan (memory
 * for the pipeline's window of partitions, the circuit's SRS, its shape
 * when cfg->pce), prepare (test parameters made on first use), check (when
 * the prover has one), synthesize, prove_partition, discard, and destroy
 * (the lock, then the state freed); name, parse, free_model and batch
 * are the prover's own. */
cz_kind_hooks cz_partition_hooks(cz_prover_common *c);

#endif
