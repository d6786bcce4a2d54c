/* The PoRep prover's memory estimate follows the C1's partitions: an
 * NI-PoRep 2 KiB job (13 partitions) is charged for the pipeline's window
 * of them (synthesis_concurrency + max_queue_depth), a SyntheticPoRep or
 * interactive 2 KiB job (1 partition) for one; V1_1's one partition would
 * under-charge NI by the window. With the pipeline off (serial), NI is
 * charged one partition too. Read from the engine's refusal of each job
 * against a 64 MiB budget ("the job needs N bytes"); no proving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/porep.h"
#include "cuzk/provers.h"
#include "job_needs.h"

static cz_engine *e;

/* A 2 KiB sector of registered proof id, sealed, as C1 JSON. */
static char *sealed_c1(uint32_t id, size_t *len) {
  cz_porep_seal_input in = {.registered = cz_registered_porep_by_id(id), .sector_id = 7};
  memset(in.prover_id, 2, 32), memset(in.ticket, 3, 32), memset(in.seed, 4, 32);
  cz_porep_c1 c1;
  char msg[256], *json = NULL;
  CHECK(in.registered != NULL);
  if (!in.registered || cz_porep_seal(&in, &c1, 0, msg, sizeof msg) != CZ_OK) return NULL;
  CHECK_EQ_INT(cz_porep_c1_to_json(&c1, &json, len), CZ_OK);
  cz_porep_c1_free(&c1);
  return json;
}

/* The bytes the engine says job id of that C1 needs (job_needs). */
static unsigned long long needs(const char *id, const char *json, size_t len, uint32_t rp) {
  cz_job_request r = {.request_id = id,
                      .kind = CZ_KIND_POREP_SEAL_COMMIT,
                      .registered_proof = rp,
                      .vanilla_proof = {(const uint8_t *)json, len}};
  return job_needs(e, &r);
}

static void estimates(unsigned conc, unsigned depth, bool serial, const char *ni, size_t ni_len,
                      const char *syn, size_t syn_len, const char *v11, size_t v11_len) {
  char msg[512];
  cz_engine_config ec;
  cz_engine_config_default(&ec);
  ec.n_workers = 1;
  ec.memory_budget = 64u << 20; /* holds the request copies, not a partition */
  ec.timeline = false;
  ec.synthesis_concurrency = conc;
  ec.max_queue_depth = depth;
  ec.serial = serial;
  cz_provers_config pc = {.official_dir = "/nonexistent/cuzk-params"};
  CHECK(cz_engine_create(&e, &ec, msg, sizeof msg) == CZ_OK);
  CHECK(cz_porep_prover_register(e, &pc, msg, sizeof msg) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  unsigned long long n_ni = needs("ni", ni, ni_len, 15), n_syn = needs("syn", syn, syn_len, 10),
                     n_v11 = needs("v11", v11, v11_len, 5);
  fprintf(stderr, "conc %u depth %u%s: NI %llu, synthetic %llu, V1_1 %llu bytes\n", conc, depth,
          serial ? " serial" : "", n_ni, n_syn, n_v11);
  CHECK(n_syn > 0);
  CHECK_EQ_INT(n_syn, n_v11); /* one partition each */
  /* the window's partitions of 13; serial: one at a time */
  uint64_t c = cz_porep_partition_constraints(cz_registered_porep_by_id(5));
  CHECK_EQ_INT(n_syn, cz_partition_mem_bytes(c, 0, 1));
  CHECK_EQ_INT(n_ni, cz_partition_mem_bytes(c, 0, serial ? 1 : conc + depth));
  CHECK(serial ? n_ni == n_syn : n_ni > n_syn);
  cz_engine_destroy(e);
}

int main(void) {
  size_t ni_len = 0, syn_len = 0, v11_len = 0;
  char *ni = sealed_c1(15, &ni_len), *syn = sealed_c1(10, &syn_len), *v11 = sealed_c1(5, &v11_len);
  CHECK(ni && syn && v11);
  if (ni && syn && v11) {
    estimates(1, 1, false, ni, ni_len, syn, syn_len, v11, v11_len);
    estimates(2, 1, false, ni, ni_len, syn, syn_len, v11, v11_len);
    estimates(2, 1, true, ni, ni_len, syn, syn_len, v11, v11_len); /* pipeline.enabled = false */
  }
  free(ni), free(syn), free(v11);
  return check_report("test_porep_prover_mem");
}
