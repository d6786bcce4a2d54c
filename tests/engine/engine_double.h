/* The test double for test_engine: a prover registered only there, whose
 * "proof" is the request id echoed back (then the kind, then the first
 * byte of the randomness when there is one), a gate it waits on so that
 * the tests decide the order, and the engine and submit helpers the tests
 * share. One test file includes it (its state D is that file's). */
#ifndef CUZK_TESTS_ENGINE_DOUBLE_H
#define CUZK_TESTS_ENGINE_DOUBLE_H
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/engine_prover.h"

/* ---- the test double ------------------------------------------------------- */

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool gate_open;
  int active, max_active, entered;
  char order[64][CZ_JOB_ID_MAX];
  int n_order;
  int batch_sizes[16];
  int n_batches;
  int srs_seen;
  int nice[64]; /* the thread's nice value as each job entered, by order of entry */
} dbl;

static dbl D = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static void dbl_reset(bool gate_open) {
  pthread_mutex_lock(&D.mu);
  D.gate_open = gate_open;
  D.active = D.max_active = D.entered = D.n_order = D.n_batches = D.srs_seen = 0;
  pthread_mutex_unlock(&D.mu);
}

static void gate(bool open) {
  pthread_mutex_lock(&D.mu);
  D.gate_open = open;
  pthread_cond_broadcast(&D.cv);
  pthread_mutex_unlock(&D.mu);
}

/* vanilla_proof "gate": wait for the gate (watching for cancellation);
 * "fail": fail; anything else: answer at once. */
static cz_err dbl_prove(void *self, const cz_job_request *req, cz_job *job, uint8_t **proof,
                        size_t *len, char *msg, size_t msg_len) {
  (void)self;
  bool gated = req->vanilla_proof.len == 4 && !memcmp(req->vanilla_proof.data, "gate", 4);
  bool fail = req->vanilla_proof.len == 4 && !memcmp(req->vanilla_proof.data, "fail", 4);
  if (cz_job_srs(job, NULL)) {
    pthread_mutex_lock(&D.mu);
    D.srs_seen++;
    pthread_mutex_unlock(&D.mu);
  }
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
  pthread_mutex_lock(&D.mu);
  if (D.entered < 64) D.nice[D.entered] = errno ? -100 : nice;
  D.entered++;
  if (++D.active > D.max_active) D.max_active = D.active;
  while (gated && !D.gate_open && !cz_job_cancelled(job)) {
    pthread_mutex_unlock(&D.mu);
    usleep(2000);
    pthread_mutex_lock(&D.mu);
  }
  D.active--;
  if (D.n_order < 64) snprintf(D.order[D.n_order++], CZ_JOB_ID_MAX, "%s", cz_job_id(job));
  pthread_mutex_unlock(&D.mu);
  if (!cz_job_event(job, "SYNTH_END", "synth_ms=0")) return CZ_ERR_INVALID_ARG; /* cancelled */
  if (fail) {
    snprintf(msg, msg_len, "the test double was asked to fail");
    return CZ_ERR_PROOF_INVALID;
  }
  cz_job_add_timing(job, 1, 2);
  size_t n = strlen(req->request_id);
  *proof = malloc(n + 2);
  memcpy(*proof, req->request_id, n);
  (*proof)[n] = (uint8_t)req->kind;
  *len = n + 1;
  if (req->randomness.len) (*proof)[(*len)++] = req->randomness.data[0];
  return CZ_OK;
}

static uint64_t dbl_mem(void *self, const cz_job_request *req) {
  (void)self;
  return req->sector_size; /* the tests choose the estimate */
}

static cz_err dbl_validate(void *self, const cz_job_request *req, char *msg, size_t msg_len) {
  (void)self;
  if (req->vanilla_proof.len == 3 && !memcmp(req->vanilla_proof.data, "bad", 3)) {
    snprintf(msg, msg_len, "vanilla_proof is bad");
    return CZ_ERR_PARSE;
  }
  return CZ_OK;
}

static const char *dbl_circuit(void *self, const cz_job_request *req) {
  (void)self;
  return req->registered_proof == 77 ? "t3" : NULL;
}

static void dbl_batch(void *self, const cz_job_request *const *reqs, cz_job *const *jobs, size_t n,
                      uint8_t **proofs, size_t *lens, cz_err *errs, char (*msgs)[512]) {
  pthread_mutex_lock(&D.mu);
  if (D.n_batches < 16) D.batch_sizes[D.n_batches++] = (int)n;
  pthread_mutex_unlock(&D.mu);
  for (size_t i = 0; i < n; i++)
    errs[i] = dbl_prove(self, reqs[i], jobs[i], &proofs[i], &lens[i], msgs[i], 512);
}

static cz_engine *make_cfg(unsigned workers, uint64_t budget, uint32_t batch, const char *params,
                           unsigned urgent, int nice) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.urgent_workers = urgent;
  cfg.background_nice = nice;
  cfg.n_workers = workers;
  cfg.memory_budget = budget;
  cfg.max_batch_size = batch;
  cfg.eviction_min_idle_ms = 0;
  cfg.max_batch_wait_ms = 50; /* a lone job waits this long for partners */
  cfg.timeline = false;
  if (params) cfg.param_cache = params;
  cz_engine *e = NULL;
  char msg[256];
  CHECK(cz_engine_create(&e, &cfg, msg, sizeof msg) == CZ_OK);
  cz_engine_prover p = {.name = "double", .prove = dbl_prove, .mem_estimate = dbl_mem,
                        .validate = dbl_validate, .circuit_id = dbl_circuit};
  /* PoRep (and Snap, to block workers with another circuit) get the double;
   * WindowPoSt stays without a prover. */
  if (batch > 1) p.prove_batch = dbl_batch;
  CHECK(cz_engine_register_prover(e, CZ_KIND_POREP_SEAL_COMMIT, &p) == CZ_OK);
  CHECK(cz_engine_register_prover(e, CZ_KIND_SNAP_DEALS_UPDATE, &p) == CZ_OK);
  CHECK(cz_engine_register_prover(e, CZ_KIND_WINNING_POST, &p) == CZ_OK);
  return e;
}

static cz_engine *make(unsigned workers, uint64_t budget, uint32_t batch, const char *params) {
  return make_cfg(workers, budget, batch, params, 0, 0);
}

static cz_err submit(cz_engine *e, const char *id, cz_proof_kind kind, cz_priority prio,
                     const char *vanilla, uint64_t mem, uint32_t *pos) {
  cz_job_request r = {.request_id = id, .kind = kind, .priority = prio, .sector_size = mem};
  if (vanilla) r.vanilla_proof = (cz_bytes){(const uint8_t *)vanilla, strlen(vanilla)};
  char job_id[CZ_JOB_ID_MAX], msg[256];
  return cz_engine_submit(e, &r, job_id, pos, msg, sizeof msg);
}

/* A request whose randomness is 32 bytes of seed (0: none), as a reorg
 * changes a PoRep's seed under the same request_id. */
static cz_err submit_seed(cz_engine *e, const char *id, cz_priority prio, const char *vanilla,
                          uint8_t seed, uint32_t *pos) {
  uint8_t rnd[32];
  memset(rnd, seed, sizeof rnd);
  cz_job_request r = {.request_id = id, .kind = CZ_KIND_POREP_SEAL_COMMIT, .priority = prio};
  if (vanilla) r.vanilla_proof = (cz_bytes){(const uint8_t *)vanilla, strlen(vanilla)};
  if (seed) r.randomness = (cz_bytes){rnd, sizeof rnd};
  char job_id[CZ_JOB_ID_MAX], msg[256];
  return cz_engine_submit(e, &r, job_id, pos, msg, sizeof msg);
}

/* Spin until the prover has been entered n times (the engine's own
 * progress, not a clock, decides). */
static void wait_entered(int n) {
  for (;;) {
    pthread_mutex_lock(&D.mu);
    int k = D.entered;
    pthread_mutex_unlock(&D.mu);
    if (k >= n) return;
    usleep(1000);
  }
}

static cz_job_status await_status(cz_engine *e, const char *id, char *err, size_t err_len) {
  cz_job_result r;
  if (cz_engine_await(e, id, 0, &r) != CZ_OK) return CZ_JOB_UNKNOWN;
  if (err) snprintf(err, err_len, "%s", r.error);
  free(r.proof);
  return r.status;
}

#endif
