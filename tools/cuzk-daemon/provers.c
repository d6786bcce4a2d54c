/* Where provers plug into the daemon.
 *
 * THE PoRep C2 PROVER REGISTERS HERE (issue 5), once it exists: fill a
 * cz_engine_prover (validate: parse the C1 JSON and check the sector size
 * against registered_proof; mem_estimate: the synthesis and proving peak;
 * circuit_id: "porep-2k", "porep-32g", ...; prove: synthesize each
 * partition, prove, verify, and call cz_job_event at every phase boundary)
 * and call
 *     cz_engine_register_prover(e, CZ_KIND_POREP_SEAL_COMMIT, &porep);
 *     cz_engine_register_srs(e, "porep-32g", "<param_cache>/v28-...params", &loader);
 * The daemon itself never makes up a proof: a kind with no prover answers
 * UNIMPLEMENTED. */
#include "provers.h"

cz_err cz_daemon_register_provers(cz_engine *e, const cz_daemon_config *cfg, char *msg,
                                  size_t msg_len) {
  (void)e;
  (void)cfg;
  (void)msg;
  (void)msg_len;
  return CZ_OK;
}
