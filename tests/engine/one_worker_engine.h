/* The engine the pipeline tests run their jobs on: one worker, a 1 MiB
 * budget, the pipeline of conc + depth (or serial), and the test's kind
 * ops as the PoRep kind, so that a job's partitions are the test's own.
 * timeline: the engine's TIMELINE lines on stderr. Started; CHECKs each
 * step. */
#ifndef CUZK_TESTS_ONE_WORKER_ENGINE_H
#define CUZK_TESTS_ONE_WORKER_ENGINE_H
#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"

static cz_engine *one_worker_engine(const cz_proof_ops *h, bool timeline, unsigned conc,
                                    unsigned depth, bool serial) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 1;
  cfg.memory_budget = 1 << 20;
  cfg.timeline = timeline;
  cfg.synthesis_concurrency = conc;
  cfg.max_queue_depth = depth;
  cfg.serial = serial;
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &cfg, NULL, 0) == CZ_OK);
  CHECK(cz_engine_register_ops(e, CZ_KIND_POREP_SEAL_COMMIT, h, NULL) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  return e;
}

#endif
