/* The engine the pipeline tests run their jobs on: one worker, a 1 MiB
 * budget, and `prove` (named `name`) as the whole PoRep prover, so that a
 * job's pipeline is the test's own. timeline: the engine's TIMELINE lines
 * on stderr. Started; CHECKs each step. */
#ifndef CUZK_TESTS_ONE_WORKER_ENGINE_H
#define CUZK_TESTS_ONE_WORKER_ENGINE_H
#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/engine_prover.h"

static cz_engine *one_worker_engine(const char *name, bool timeline,
                                    cz_err (*prove)(void *, const cz_job_request *, cz_job *,
                                                    uint8_t **, size_t *, char *, size_t)) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 1;
  cfg.memory_budget = 1 << 20;
  cfg.timeline = timeline;
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &cfg, NULL, 0) == CZ_OK);
  cz_engine_prover pv = {.name = name, .prove = prove};
  CHECK(cz_engine_register_prover(e, CZ_KIND_POREP_SEAL_COMMIT, &pv) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  return e;
}

#endif
