/* The SnapDeals prover's submit-time checks through an engine, for an
 * 8 MiB update (4 partitions, random sector): the four partition proofs in
 * order are accepted; out of order, too few, or one tampered they are
 * refused at submit with the partition and field named, and nothing is
 * queued. Without parameters the accepted job fails on the missing file:
 * no proof is made up. No Groth16 here (test_daemon_snap proves). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/provers.h"
#include "filecoin/snap/snap_test_sector.h"

static cz_engine *e;
static snap_test_sector t;
static cz_bytes parts[4];

static cz_err submit(const char *id, const cz_bytes *v, size_t n, char *msg, size_t len) {
  cz_job_request r = {.request_id = id,
                      .kind = CZ_KIND_SNAP_DEALS_UPDATE,
                      .registered_proof = 1,
                      .vanilla_proofs = v,
                      .n_vanilla_proofs = n,
                      .comm_r_old = {t.b_comm_r_old, 32},
                      .comm_r_new = {t.b_comm_r_new, 32},
                      .comm_d_new = {t.b_comm_d_new, 32}};
  char job[CZ_JOB_ID_MAX];
  msg[0] = 0;
  return cz_engine_submit(e, &r, job, NULL, msg, len);
}

static void test_refused(void) {
  char msg[512];
  cz_bytes swapped[4] = {parts[1], parts[0], parts[2], parts[3]};
  CHECK_EQ_INT(submit("swapped", swapped, 4, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "vanilla_proofs[0]") != NULL);
  CHECK_EQ_INT(submit("three", parts, 3, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "3 partition proofs, StackedDrg8MiBV1 has 4 partitions") != NULL);
  /* A path hash near the end of partition 2's last challenge proof. */
  uint8_t *bad = malloc(parts[2].len);
  CHECK(bad != NULL);
  if (!bad) return;
  memcpy(bad, parts[2].data, parts[2].len);
  bad[parts[2].len - 100] ^= 1;
  cz_bytes tampered[4] = {parts[0], parts[1], {bad, parts[2].len}, parts[3]};
  CHECK_EQ_INT(submit("tampered", tampered, 4, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "vanilla_proofs[2]") != NULL);
  free(bad);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.pending[CZ_KIND_SNAP_DEALS_UPDATE] + s.running[CZ_KIND_SNAP_DEALS_UPDATE], 0);
  CHECK(s.has_prover[CZ_KIND_SNAP_DEALS_UPDATE]);
}

static void test_accepted_needs_parameters(void) {
  char msg[512];
  CHECK_EQ_INT(submit("good", parts, 4, msg, sizeof msg), CZ_OK);
  cz_job_result r;
  CHECK_EQ_INT(cz_engine_await(e, "good", 60000, &r), CZ_OK);
  CHECK_EQ_INT(r.status, CZ_JOB_FAILED);
  CHECK(r.proof == NULL && strstr(r.error, "snap-8m") != NULL);
  if (!strstr(r.error, "snap-8m")) fprintf(stderr, "error: %s\n", r.error);
  free(r.proof);
}

int main(void) {
  char msg[512];
  cz_engine_config ec;
  cz_engine_config_default(&ec);
  ec.n_workers = 1;
  ec.memory_budget = 8ull << 30;
  if (!snap_test_sector_make(&t, 1u << 18)) return check_report("test_snap_prover");
  for (uint32_t k = 0; k < 4; k++) {
    cz_snap_partition_proof p;
    CHECK(cz_snap_vanilla_prove(&t.shape, k, &t.trees, &p, msg, sizeof msg) == CZ_OK);
    size_t n = cz_snap_vanilla_write(NULL, &p);
    uint8_t *b = malloc(n);
    CHECK(b && cz_snap_vanilla_write(b, &p) == n);
    parts[k] = (cz_bytes){b, n};
    cz_snap_vanilla_free(&p);
  }
  /* No official files here and no test parameters: the SRS is missing. */
  cz_provers_config pc = {.official_dir = "/nonexistent/cuzk-params"};
  CHECK(cz_engine_create(&e, &ec, msg, sizeof msg) == CZ_OK);
  CHECK(cz_snap_prover_register(e, &pc, msg, sizeof msg) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  test_refused();
  test_accepted_needs_parameters();
  cz_engine_destroy(e);
  for (int k = 0; k < 4; k++) free((void *)parts[k].data);
  snap_test_sector_free(&t);
  return check_report("test_snap_prover");
}
