/* Layer: provers */
/* The provers: one per proof kind, each the engine ops of a kind
 * (cuzk/proof_ops.h) over a Filecoin circuit or a snarkjs key, listed in one table
 * (src/provers/provers.c). The daemon registers the table; a kind without
 * a row answers UNIMPLEMENTED. The engine drives their jobs (memory, SRS,
 * the pipeline of partitions, its thread budgets: cz_engine_config); a
 * prover plans a job and synthesizes and proves its partitions. */
#ifndef CUZK_PROVERS_H
#define CUZK_PROVERS_H
#include <stdbool.h>
#include <stddef.h>

#include "cuzk/cs.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/histogram.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/registry.h"

/* What every prover is configured with (the daemon's [srs], [synthesis]
 * and [gpus] settings; [pipeline] is the engine's). */
typedef struct {
  /* Where official v28-...params files are looked for (srs.param_cache). */
  const char *official_dir;
  /* Without an official file, use (and make on first use, minutes for
   * 2 KiB) TEST parameters cached under test_dir (NULL: the store's
   * default). Off by default: proofs made with them verify here, never on
   * chain. */
  bool allow_test_params;
  const char *test_dir;
  unsigned prove_threads; /* the CPU prover's budget, 0 = all cores */
  /* The Groth16 backend (NULL = the CPU one; see cz_prover_pick). */
  const cz_prover_backend *backend;
  /* Pre-compiled synthesis: one recorded shape per sector size, loaded
   * from official_dir (or recorded there: cz_prover_shape_get) on first
   * use or by PreloadSRS of pce-porep-2k, ..., resident as a computed SRS
   * entry charged to the memory budget and evicted with the SRS tiers
   * under pressure (the file stays). When it cannot be made, the plain
   * path. */
  bool pce;
} cz_provers_config;

typedef struct cz_circom_keys cz_circom_keys; /* cuzk/circom_keys.h */

/* One row of the table: the kind, its name in logs, and the function that
 * registers its prover and SRS circuits with an engine (before
 * cz_engine_start; errors as that function's): register_fn for the
 * Filecoin kinds, register_keys for CIRCOM, whose prover also hands back
 * the key registry its service works on (cuzk/circom_keys.h). */
typedef struct {
  cz_proof_kind kind;
  const char *name;
  cz_err (*register_fn)(cz_engine *e, const cz_provers_config *cfg, char *msg, size_t msg_len);
  cz_err (*register_keys)(cz_engine *e, const cz_provers_config *cfg, cz_circom_keys **out,
                          char *msg, size_t msg_len);
} cz_prover_entry;

/* The table, in registration order: every prover; *n its length. Static
 * storage; any thread. */
const cz_prover_entry *cz_provers_table(size_t *n);

/* Register every row with e, in order (before cz_engine_start); the first
 * error stops and is returned with msg naming the prover. *circom (when
 * circom is not NULL): the circom key registry (owned by e). cfg is
 * copied, its strings included; only the backend it points to must
 * outlive e (the built-in ones are static). */
CZ_MUST_CHECK cz_err cz_provers_register_all(cz_engine *e, const cz_provers_config *cfg,
                                             cz_circom_keys **circom, char *msg, size_t msg_len);

/* The proving devices of a daemon (gpus.devices): CUDA ordinals, or
 * emulated devices (tests), each with workers partition slots. */
typedef struct {
  const int *ordinals; /* n_ordinals 0: every device the CUDA runtime reports */
  size_t n_ordinals;
  unsigned emulated;   /* > 0: that many emulated devices instead (test-only) */
  size_t emulated_mem; /* each one's memory (0 -> 1 GiB) */
  unsigned workers;    /* partitions proved at once per device (0 -> 2) */
  /* TEST ONLY, emulated devices: "D:fault ..." words, each for emulated
   * device D (cz_prover_emulated_faults' words), e.g. "1:launch@5x3
   * 2:corrupt@9"; NULL or "": none. */
  const char *emulated_faults;
} cz_provers_devices;

/* Open the devices of d and add each to e (cz_engine_add_device: the
 * engine closes them), with the CPU backend as the fallback (before
 * cz_engine_start). *added: how many. CZ_ERR_INVALID_ARG with msg naming
 * the device that cannot be opened (devices added before it stay), or a
 * fault word that is not one (or names no emulated device), or
 * when there are more than CZ_ENGINE_MAX_DEVICES. No CUDA device and no
 * list: CZ_OK with none added. */
CZ_MUST_CHECK cz_err cz_provers_add_devices(cz_engine *e, const cz_provers_devices *d,
                                            size_t *added, char *msg, size_t msg_len);

/* The daemon's SRS circuit id of a family ("porep", "winning", "wpost",
 * "snap") at
 * a registered sector size: "<family>-2k|8m|512m|32g|64g". False for any
 * other size or when out is too small. */
bool cz_provers_circuit_id(char *out, size_t out_len, const char *family, uint64_t sector_size);

/* ---- Recorded shapes on disk (prover_shape.c) ------------------------------
 * A circuit's recorded shape (cs.h's cz_pce) is kept in
 * <dir>/pce-<circuit id>-<16 hex digits>.bin, dir being the parameter
 * cache (srs.param_cache), and loaded from there at disk speed instead of
 * being recorded again. The key names what the shape was recorded from:
 * SHA-256 of "cuzk pce", the file format version, the circuit's parameter
 * name and its revision tag (CZ_POREP_CIRCUIT_REVISION, ...); the file
 * name carries its first 8 bytes. */
typedef cz_err (*cz_shape_record_fn)(const void *ctx, cz_pce **out, char *msg, size_t msg_len);

typedef enum {
  CZ_SHAPE_LOADED,   /* read from the file */
  CZ_SHAPE_RECORDED, /* recorded; saved to the file */
  CZ_SHAPE_UNSAVED,  /* recorded; the file could not be written (warned) */
} cz_shape_origin;

void cz_prover_shape_key(const char *param_name, const char *revision,
                         uint8_t key[CZ_PCE_KEY_BYTES]);
/* The file's path into out; false when it does not fit. */
bool cz_prover_shape_path(char *out, size_t out_len, const char *dir, const char *circuit_id,
                          const uint8_t key[CZ_PCE_KEY_BYTES]);

/* Where a circuit's shape comes from: its file in dir (NULL: no file), named
 * after circuit_id and keyed by param_name and revision, or record(ctx). */
typedef struct {
  const char *dir, *circuit_id, *param_name, *revision;
  cz_shape_record_fn record;
  const void *ctx;
} cz_shape_source;

/* The shape: loaded from its file when that holds this key and passes
 * cz_pce_load's checks; else recorded by record(ctx) and saved in its
 * place (atomically; with a warning in the log naming the reason a file
 * that was there was not used, and another when the save fails, which
 * does not fail the call). No dir: no file, always recorded. *origin
 * (may be NULL) says which. Errors: record's. */
CZ_MUST_CHECK cz_err cz_prover_shape_get(const cz_shape_source *src, cz_pce **out,
                                         cz_shape_origin *origin, char *msg, size_t msg_len);

/* ---- PoRep C2 (porep_prover.c) --------------------------------------------
 * POREP_SEAL_COMMIT jobs: Curio's request (vanilla_proof = C1 JSON or
 * Curio's wrapper) in, verified 192-byte proofs (one per partition) out,
 * through the engine's SRS manager (one circuit id per sector size:
 * porep-2k, porep-8m, porep-512m, porep-32g, porep-64g) and its synthesis /
 * proving pipeline.
 *
 * Register the PoRep prover and its SRS circuits with e (before
 * cz_engine_start); with cfg->pce, its shapes as computed SRS entries
 * pce-porep-2k, pce-porep-8m, ... Its jobs of one size may be batched. For
 * each sector size the SRS file is the official one when it exists, else
 * (allow_test_params) the test file. The prover validates at submit (C1
 * parses; sector size and registered proof agree with it; with
 * sector_number / miner_id, the C1's replica_id must be that sector's; the
 * parsed C1 stays with the job), verifies the vanilla proofs before
 * synthesis, and verifies every proof before returning it. Errors:
 * CZ_ERR_INVALID_ARG, NOMEM. */
CZ_MUST_CHECK cz_err cz_porep_prover_register(cz_engine *e, const cz_provers_config *cfg, char *msg,
                                              size_t msg_len);

/* ---- WinningPoSt and WindowPoSt (post_prover.c) ---------------------------
 * WINNING_POST and WINDOW_POST_PARTITION jobs: registered_proof in the PoSt
 * numbering (Winning 0-4, Window 5-14), vanilla_proofs one bincode
 * FallbackPoStSectorProof per sector (Winning 1, Window 1..sector_count of
 * the partition), randomness (32 bytes, a canonical Fr), miner_id (the
 * prover id is its LEB128), partition_index (Window). At submit the
 * request is parsed and its vanilla proofs verified natively: a bad one is
 * INVALID_ARGUMENT with the reason, before it is queued. One 192-byte
 * proof per job, verified before it is returned. SRS circuit ids
 * winning-2k|8m|512m|32g|64g and wpost-2k|8m|512m|32g|64g (Window V1 and
 * V1_1 share Filecoin's file), official or (allow_test_params) test
 * parameters made on first use. Errors: CZ_ERR_INVALID_ARG, NOMEM. */
CZ_MUST_CHECK cz_err cz_winning_post_prover_register(cz_engine *e, const cz_provers_config *cfg,
                                                     char *msg, size_t msg_len);
CZ_MUST_CHECK cz_err cz_window_post_prover_register(cz_engine *e, const cz_provers_config *cfg,
                                                    char *msg, size_t msg_len);

/* ---- SnapDeals updates (snap_prover.c) -------------------------------------
 * SNAP_DEALS_UPDATE jobs: registered_proof 0-4 (RegisteredUpdateProof
 * StackedDrg2KiB..64GiBV1; sector_size, when set, must agree), comm_r_old,
 * comm_r_new and comm_d_new (32 bytes each, canonical Fr), vanilla_proofs
 * one bincode PartitionProof per partition of the update, in order (1 for
 * 2 KiB, 4 for 8 MiB, 16 from 512 MiB). At submit every partition is
 * parsed and verified natively: a bad request is INVALID_ARGUMENT with the
 * reason, before it is queued. The partitions go through the engine's
 * pipeline; each proof is verified before the job completes; the result is
 * the partitions' 192-byte proofs concatenated in order. SRS circuit ids
 * snap-2k|8m|512m|32g|64g, official or (allow_test_params) test parameters
 * made on first use; with cfg->pce, shapes pce-snap-2k, ... Default
 * priority NORMAL. Errors: CZ_ERR_INVALID_ARG, NOMEM. */
CZ_MUST_CHECK cz_err cz_snap_prover_register(cz_engine *e, const cz_provers_config *cfg, char *msg,
                                             size_t msg_len);

/* ---- Prover phase metrics (prover_metrics.c) -------------------------------
 * Process-wide histograms (cz_hist_bounds_phase) of every cz_prove_phase the
 * provers run, whatever engine or kind they serve: the phases are groth16's
 * (cz_prove_timing), below the engine, which knows no phase; the provers
 * are the lowest layer that both runs them and is above groth16. They pass
 * cz_provers_timing() where they passed NULL, which prints the same
 * CUZK_TIMING lines as before, and time synthesis (the pipeline's
 * synthesize stage) into CZ_PHASE_SYNTHESIS without a line. Any thread. */

/* The hook: CUZK_TIMING lines on stderr, plus an observation per phase
 * (static; never freed). */
const cz_prove_timing *cz_provers_timing(void);
/* Count one phase (no line); a phase out of range is ignored. */
void cz_provers_phase_observe(cz_prove_phase phase, uint64_t ns);
/* Copy the histograms: out[p] for each phase p < CZ_PHASE_COUNT. */
void cz_provers_phase_snapshot(cz_histogram_snap out[CZ_PHASE_COUNT]);

/* ---- Planning figures (planned_constraints.c) ------------------------------
 * The constraints of one partition's circuit, from the registered proof's shape alone:
 * what the memory estimates and the recorded-shape charge below are made
 * of. Never below the circuit's real count, and within 2% above it at
 * every registered size (test_planned_constraints). Pure; any thread. */
uint64_t cz_porep_partition_constraints(const cz_registered_porep *k);
uint64_t cz_post_circuit_constraints(const cz_registered_post *k);
uint64_t cz_snap_partition_constraints(const cz_snap_shape *s);

/* Peak bytes of in_flight partitions of that many constraints, one of
 * them being proved on the CPU (a and b with the H domain's room, the
 * packed witness; c and the H MSM's plan for the one proved). full_aux:
 * a partition's witness values that are not 0 or 1, 32 bytes each in the
 * packed witness; 0 where they are as few as in PoRep and SnapDeals
 * (under 2%, inside the 68 bytes per constraint), about the constraints
 * in PoSt, whose witness is Poseidon's. Pure; any thread. */
uint64_t cz_partition_mem_bytes(uint64_t constraints, uint64_t full_aux, uint64_t in_flight);

/* Bytes a recorded shape of that many constraints holds: tiled over
 * `tiles` slots (cz_slots_record; tiles 0 or 1: whole). */
uint64_t cz_shape_charge_bytes(uint64_t constraints, uint64_t tiles);

#endif
