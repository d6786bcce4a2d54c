/* Where provers plug into the daemon: one per proof kind with a circuit.
 * The daemon itself never makes up a proof: a kind with no prover (WinningPoSt,
 * WindowPoSt and SnapDeals so far) answers UNIMPLEMENTED. */
#include "provers.h"
#include "cuzk/porep_prover.h"

cz_err cz_daemon_register_provers(cz_engine *e, const cz_daemon_config *cfg, char *msg,
                                  size_t msg_len) {
  cz_porep_prover_config pc = {0};
  pc.official_dir = cfg->param_cache;
  pc.allow_test_params = cfg->allow_test_params;
  pc.test_dir = cfg->test_param_cache[0] ? cfg->test_param_cache : NULL;
  pc.prove_threads = cfg->synthesis_threads;
  pc.synthesis_concurrency = cfg->pipeline_enabled ? cfg->synthesis_concurrency : 1;
  /* Without the pipeline a partition is proved before the next is made. */
  pc.max_queue_depth = cfg->pipeline_enabled ? cfg->max_gpu_queue_depth : 0;
  return cz_engine_register_porep(e, &pc, msg, msg_len);
}
