/* The engine's PoRep C2 prover (POREP_SEAL_COMMIT jobs): Curio's request
 * (vanilla_proof = C1 JSON or Curio's wrapper) in, verified 192-byte
 * proofs (one per partition) out, through the engine's SRS manager (one
 * circuit id per sector size: porep-2k, porep-8m, porep-512m, porep-32g,
 * porep-64g) and its synthesis / proving pipeline. */
#ifndef CUZK_POREP_PROVER_H
#define CUZK_POREP_PROVER_H
#include <stdbool.h>
#include "cuzk/engine.h"

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
} cz_porep_prover_config;

/* Register the PoRep prover and its SRS circuits with e (before
 * cz_engine_start). For each sector size the SRS file is the official one
 * when it exists, else (allow_test_params) the test file. The prover
 * validates at submit (C1 parses; sector size and registered proof agree
 * with it; with sector_number / miner_id, the C1's replica_id must be that
 * sector's), verifies the vanilla proofs before synthesis, and verifies
 * every proof before returning it. Errors: CZ_ERR_INVALID_ARG, NOMEM. */
cz_err cz_engine_register_porep(cz_engine *e, const cz_porep_prover_config *cfg, char *msg,
                                size_t msg_len);

#endif
