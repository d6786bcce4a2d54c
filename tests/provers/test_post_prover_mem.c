/* The WindowPoSt prover's memory estimate counts its witness: PoSt's aux
 * values are Poseidon's, nearly all full field elements (32 bytes each in
 * the packed witness), where PoRep's are bits. A 32 GiB WindowPoSt job
 * (Curio's real vanilla proof, tests/vectors/windowpost-32gib-vanilla) is
 * charged at least the peak RSS a partition was measured at, and at most
 * 10% more (bench/filecoin/README.md: `cuzk-bench prove --vanilla` on the
 * 32 GiB test key). Read from the engine's refusal of the job against a
 * 64 MiB budget ("the job needs N bytes"); no proving. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/post.h"
#include "cuzk/provers.h"
#include "cuzk/registry.h"
#include "filecoin/post/post_vectors.h"
#include "job_needs.h"

/* VmHWM of `cuzk-bench prove --vanilla ... --registered-proof 8
 * --partition 0 --threads 2` on the 32 GiB WindowPoSt test key
 * (bench/filecoin/bench_32gib.sh window-prove; 2026-12-07, 16,635,224 KiB:
 * 17.03 GB, in H). */
#define MEASURED_PEAK_BYTES (16635224ull * 1024)

static unsigned long long needs(cz_engine *e, const uint8_t *vproof, size_t len) {
  uint8_t zero[32] = {0};
  cz_bytes v = {vproof, len};
  cz_job_request r = {.request_id = "window-32g",
                      .kind = CZ_KIND_WINDOW_POST_PARTITION,
                      .registered_proof = 8, /* StackedDrgWindow32GiBV1 */
                      .vanilla_proofs = &v,
                      .n_vanilla_proofs = 1,
                      .miner_id = 1000,
                      .randomness = {zero, 32}};
  return job_needs(e, &r);
}

int main(void) {
  size_t len = 0;
  uint8_t *vproof = post_read_file(WINDOW_DIR "sector1.vproof", &len);
  CHECK(vproof != NULL);
  char msg[512];
  cz_engine_config ec;
  cz_engine_config_default(&ec);
  ec.memory_budget = 64u << 20; /* holds the request, not a partition */
  ec.timeline = false;
  cz_provers_config pc = {.official_dir = "/nonexistent/cuzk-params"};
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &ec, msg, sizeof msg) == CZ_OK);
  CHECK(cz_window_post_prover_register(e, &pc, msg, sizeof msg) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  unsigned long long n = vproof ? needs(e, vproof, len) : 0;
  fprintf(stderr, "WindowPoSt 32 GiB: charged %llu bytes, measured peak %llu\n", n,
          MEASURED_PEAK_BYTES);
  CHECK(n >= MEASURED_PEAK_BYTES);
  CHECK(n <= MEASURED_PEAK_BYTES + MEASURED_PEAK_BYTES / 10);
  /* The witness's share: what the estimate without it would be short by. */
  const cz_registered_post *k = cz_registered_post_by_id(8);
  CHECK(k != NULL);
  if (k) CHECK(cz_partition_mem_bytes(cz_post_circuit_constraints(k), 0, 1) < MEASURED_PEAK_BYTES);
  cz_engine_destroy(e);
  free(vproof);
  return check_report("test_post_prover_mem");
}
