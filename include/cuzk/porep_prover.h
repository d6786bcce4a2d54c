/* The engine's PoRep C2 prover (POREP_SEAL_COMMIT jobs): Curio's request
 * (vanilla_proof = C1 JSON or Curio's wrapper) in, verified 192-byte
 * proofs (one per partition) out, through the engine's SRS manager (one
 * circuit id per sector size: porep-2k, porep-8m, porep-512m, porep-32g,
 * porep-64g) and its synthesis / proving pipeline. */
#ifndef CUZK_POREP_PROVER_H
#define CUZK_POREP_PROVER_H
#include <stdbool.h>
#include "cuzk/engine.h"
#include "cuzk/prover.h"

typedef struct {
  /* Where official v28-...params files are looked for (srs.param_cache). */
  const char *official_dir;
  /* Without an official file, use (and make on first use, minutes for
   * 2 KiB) TEST parameters cached under test_dir (NULL: the store's
   * default). Off by default: proofs made with them verify here, never on
   * chain. */
  bool allow_test_params;
  const char *test_dir;
  unsigned prove_threads;          /* 0 = all cores */
  unsigned synthesis_concurrency;  /* partitions synthesized at once (0 -> 1) */
  unsigned max_queue_depth;        /* synthesized partitions waiting (0 -> 1) */
  /* The Groth16 backend (NULL = the CPU one; see cz_prover_pick). */
  const cz_prover_backend *backend;
  /* Pre-compiled synthesis: one recorded shape per sector size, made on
   * first use (or by PreloadSRS of pce-porep-2k, ...), resident as a
   * computed SRS entry charged to the memory budget and evicted with the
   * SRS tiers under pressure. When it cannot be made, the plain path. */
  bool pce;
} cz_porep_prover_config;

/* Register the PoRep prover and its SRS circuits with e (before
 * cz_engine_start); with cfg->pce, its shapes as computed SRS entries
 * pce-porep-2k, pce-porep-8m, ... It proves batches (prove_batch). For each sector size the SRS file is the official one
 * when it exists, else (allow_test_params) the test file. The prover
 * validates at submit (C1 parses; sector size and registered proof agree
 * with it; with sector_number / miner_id, the C1's replica_id must be that
 * sector's; the parsed C1 stays with the job), verifies the vanilla proofs before synthesis, and verifies
 * every proof before returning it. Errors: CZ_ERR_INVALID_ARG, NOMEM. */
cz_err cz_engine_register_porep(cz_engine *e, const cz_porep_prover_config *cfg, char *msg,
                                size_t msg_len);

#endif
