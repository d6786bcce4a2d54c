/* ctest-label: slow e2e (two 2 KiB Groth16 proofs: about a minute)
 * Same-size SnapDeals update jobs proved as one batch through an engine
 * (max_batch_size 4, 2 KiB test parameters from the build's test-params,
 * made on first use, and the recorded shape): of four updates submitted
 * together, one with a tampered partition proof is refused at submit with
 * its own error and one is cancelled while batched or queued; the other
 * two are proved in one batch (GET /status's batch_size), each answer is
 * its own, and each proof verifies against its own commitments and not
 * against the other job's. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/params_store.h"
#include "cuzk/provers.h"
#include "filecoin/snap/snap_test_sector.h"

#define N_UPDATES 4
#define BAD 1       /* tampered: refused at submit */
#define CANCELLED 2 /* cancelled once submitted */

static cz_engine *e;
static snap_test_sector t[N_UPDATES];
static cz_bytes part[N_UPDATES];
static char job_id[N_UPDATES][CZ_JOB_ID_MAX];

static cz_err submit(int u, const cz_bytes *v, char *msg, size_t len) {
  char id[16];
  snprintf(id, sizeof id, "u%d", u);
  cz_job_request r = {.request_id = id,
                      .kind = CZ_KIND_SNAP_DEALS_UPDATE,
                      .registered_proof = 0,
                      .vanilla_proofs = v,
                      .n_vanilla_proofs = 1,
                      .comm_r_old = {t[u].b_comm_r_old, 32},
                      .comm_r_new = {t[u].b_comm_r_new, 32},
                      .comm_d_new = {t[u].b_comm_d_new, 32}};
  msg[0] = 0;
  return cz_engine_submit(e, &r, job_id[u], NULL, msg, len);
}

/* build/test-params next to this executable (as the script tests find it
 * next to cuzk-bench), or $CUZK_TEST_PARAM_CACHE. */
static void param_cache(char *out, size_t len) {
  const char *env = getenv("CUZK_TEST_PARAM_CACHE");
  char exe[PATH_MAX] = "";
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (env && env[0]) snprintf(out, len, "%s", env);
  else snprintf(out, len, "%s/test-params", n > 0 ? dirname(exe) : ".");
}

static cz_err verify(const cz_groth16_vk *vk, int u, const cz_job_result *r, char *msg,
                     size_t len) {
  return cz_snap_verify_proofs(vk, cz_registered_snap_by_id(0),
                               &(cz_snap_comms){t[u].b_comm_r_old, t[u].b_comm_d_new,
                                                t[u].b_comm_r_new},
                               r->proof, r->proof_len, msg, len);
}

/* The largest batch_size GET /status shows for job u while it runs (the
 * engine sets it before the batch's first job starts). */
static uint32_t batch_seen(int u) {
  uint32_t most = 0;
  for (int tries = 0; tries < 60000; tries++) {
    cz_job_info jobs[8];
    size_t n = cz_engine_list_jobs(e, jobs, 8);
    bool listed = false;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(jobs[i].job_id, job_id[u])) {
        listed = true;
        if (jobs[i].running && jobs[i].batch_size > most) most = jobs[i].batch_size;
      }
    if (most > 1 || (!listed && tries > 0)) break;
    usleep(10000);
  }
  return most;
}

static void run_batch(const char *cache) {
  char msg[512];
  for (int u = 0; u < N_UPDATES; u++) {
    if (u == BAD) {
      /* A path hash near the end of its last challenge proof. */
      uint8_t *bad = malloc(part[u].len);
      CHECK(bad != NULL);
      if (!bad) continue;
      memcpy(bad, part[u].data, part[u].len);
      bad[part[u].len - 100] ^= 1;
      cz_bytes b = {bad, part[u].len};
      CHECK_EQ_INT(submit(u, &b, msg, sizeof msg), CZ_ERR_INVALID_ARG);
      CHECK(strstr(msg, "vanilla_proofs[0]") != NULL);
      free(bad);
      continue;
    }
    CHECK_EQ_INT(submit(u, &part[u], msg, sizeof msg), CZ_OK);
    if (u == CANCELLED) {
      bool was_running = false;
      CHECK_EQ_INT(cz_engine_cancel(e, job_id[u], &was_running), CZ_OK);
    }
  }
  /* u0 and u3 (and u2 when it was taken before its cancel) together. */
  CHECK(batch_seen(0) >= 2);
  cz_job_result r[N_UPDATES];
  memset(r, 0, sizeof r);
  for (int u = 0; u < N_UPDATES; u++) {
    char id[16];
    snprintf(id, sizeof id, "u%d", u);
    if (u == BAD) {
      CHECK_EQ_INT(cz_engine_await(e, id, 1000, &r[u]), CZ_ERR_NOT_FOUND);
      continue;
    }
    CHECK_EQ_INT(cz_engine_await(e, id, 1800000, &r[u]), CZ_OK);
    CHECK_EQ_INT(r[u].status, u == CANCELLED ? CZ_JOB_CANCELLED : CZ_JOB_COMPLETED);
    if (r[u].status == CZ_JOB_FAILED) fprintf(stderr, "u%d: %s\n", u, r[u].error);
  }
  cz_job_info jobs[8];
  size_t n_listed = cz_engine_list_jobs(e, jobs, 8);
  CHECK_EQ_INT(n_listed, 0); /* nothing left running or queued */

  cz_groth16_params params;
  cz_params_store_opts o = {.official_dir = "/nonexistent/cuzk-params",
                            .test_dir = cache,
                            .test_tag = CZ_SNAP_CIRCUIT_REVISION};
  cz_params_origin origin;
  CHECK(cz_snap_params_get(&params, cz_registered_snap_by_id(0), &o, &origin, msg, sizeof msg) ==
        CZ_OK);
  for (int u = 0; u < N_UPDATES; u++) {
    if (u == BAD || u == CANCELLED) {
      CHECK(r[u].proof == NULL);
      continue;
    }
    CHECK_EQ_INT(r[u].proof_len, CZ_GROTH16_PROOF_BYTES);
    CHECK(verify(&params.vk, u, &r[u], msg, sizeof msg) == CZ_OK);
    /* Each proof is its own job's: another job's commitments refuse it. */
    int other = u == 0 ? 3 : 0;
    CHECK(verify(&params.vk, other, &r[u], msg, sizeof msg) == CZ_ERR_PROOF_INVALID);
  }
  cz_groth16_params_free(&params);
  for (int u = 0; u < N_UPDATES; u++) free(r[u].proof);
}

int main(void) {
  char msg[512], cache[PATH_MAX];
  param_cache(cache, sizeof cache);
  for (int u = 0; u < N_UPDATES; u++) {
    if (!snap_test_sector_make(&t[u], 64)) return check_report("test_snap_batch");
    cz_snap_partition_proof p;
    CHECK(cz_snap_vanilla_prove(&t[u].shape, 0, &t[u].trees, &p, msg, sizeof msg) == CZ_OK);
    size_t n = cz_snap_vanilla_write(NULL, &p);
    uint8_t *b = malloc(n);
    CHECK(b && cz_snap_vanilla_write(b, &p) == n);
    part[u] = (cz_bytes){b, n};
    cz_snap_vanilla_free(&p);
  }
  cz_engine_config ec;
  cz_engine_config_default(&ec);
  ec.n_workers = 1;
  ec.memory_budget = 16ull << 30;
  ec.max_batch_size = 4;
  ec.max_batch_wait_ms = 5000;
  ec.synthesis_concurrency = 1;
  ec.max_queue_depth = 1;
  cz_provers_config pc = {.official_dir = "/nonexistent/cuzk-params",
                          .allow_test_params = true,
                          .test_dir = cache,
                          .pce = true};
  CHECK(cz_engine_create(&e, &ec, msg, sizeof msg) == CZ_OK);
  CHECK(cz_snap_prover_register(e, &pc, msg, sizeof msg) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  run_batch(cache);
  cz_engine_destroy(e);
  for (int u = 0; u < N_UPDATES; u++) {
    free((void *)part[u].data);
    snap_test_sector_free(&t[u]);
  }
  return check_report("test_snap_batch");
}
