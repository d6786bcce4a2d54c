/* The test double for test_engine: a kind registered only there, whose
 * "proof" (one partition) is the request id echoed back (then the kind,
 * then the first byte of the randomness when there is one), a gate its
 * proving waits on so that the tests decide the order, and the engine and
 * submit helpers the tests share. One test file includes it (its state D
 * is that file's). */
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
#include "test_input.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"

/* ---- the test double ------------------------------------------------------- */

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool gate_open;
  int active, max_active, entered;
  char order[64][CZ_JOB_ID_MAX];
  int n_order;
  int batch_size[64]; /* GET /status's batch_size of each job, by order of entry */
  int srs_seen;
  int nice[64]; /* the thread's nice value as each job entered, by order of entry */
  cz_engine *e;
} dbl;

static dbl D = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static void dbl_reset(bool gate_open) {
  pthread_mutex_lock(&D.mu);
  D.gate_open = gate_open;
  D.active = D.max_active = D.entered = D.n_order = D.srs_seen = 0;
  pthread_mutex_unlock(&D.mu);
}

static void gate(bool open) {
  pthread_mutex_lock(&D.mu);
  D.gate_open = open;
  pthread_cond_broadcast(&D.cv);
  pthread_mutex_unlock(&D.mu);
}

static bool input_is(const cz_job_request *req, const char *word) {
  size_t n = strlen(word);
  return req->vanilla_proof.len == n && !memcmp(req->vanilla_proof.data, word, n);
}

/* vanilla_proof "bad": refused at submit. */
static cz_err dbl_parse(void *self, const cz_job_request *req, void **model, uint64_t *bytes,
                        char *msg, size_t msg_len) {
  (void)self, (void)model, (void)bytes;
  if (!input_is(req, "bad")) return CZ_OK;
  snprintf(msg, msg_len, "vanilla_proof is bad");
  return CZ_ERR_PARSE;
}

/* One partition whose proof is the request id, then the kind, then the
 * first byte of the randomness when there is one; the tests choose the
 * memory (sector_size; registered_proof 78: per partition of the window,
 * as a prover's plan grows with its partitions in flight) and
 * registered_proof 77 asks for SRS "t3". */
static cz_err dbl_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *p, char *msg,
                       size_t msg_len) {
  (void)self, (void)msg, (void)msg_len;
  const cz_job_request *req = ctx->req;
  *p =
      (cz_job_plan){.n_partitions = 1,
                    .proof_bytes = strlen(req->request_id) + 1 + (req->randomness.len ? 1 : 0),
                    .mem_bytes = req->sector_size * (req->registered_proof == 78 ? ctx->window : 1),
                    .circuit_id = req->registered_proof == 77 ? "t3" : NULL};
  return CZ_OK;
}

static cz_err dbl_synth(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                        size_t msg_len) {
  (void)self, (void)ctx, (void)i, (void)msg, (void)msg_len;
  usleep(2000); /* some synthesis time to report */
  *state = malloc(1);
  return *state ? CZ_OK : CZ_ERR_NOMEM;
}

/* The batch this job is proved in, as GET /status shows it. */
static int batch_size_of(const char *id) {
  cz_job_info jobs[8];
  size_t n = D.e ? cz_engine_list_jobs(D.e, jobs, 8) : 0;
  for (size_t k = 0; k < n; k++)
    if (!strcmp(jobs[k].job_id, id)) return (int)jobs[k].batch_size;
  return 0;
}

/* Note who entered (order, nice, batch, SRS), then vanilla_proof "gate":
 * wait for the gate (watching for cancellation); "fail": fail; anything
 * else: answer at once. */
static cz_err dbl_prove(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                        char *msg, size_t msg_len) {
  (void)self, (void)i;
  free(state);
  const cz_job_request *req = ctx->req;
  bool gated = input_is(req, "gate"), fail = input_is(req, "fail");
  int batch = batch_size_of(req->request_id);
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
  pthread_mutex_lock(&D.mu);
  if (ctx->srs) D.srs_seen++;
  if (D.entered < 64) D.nice[D.entered] = errno ? -100 : nice, D.batch_size[D.entered] = batch;
  D.entered++;
  if (++D.active > D.max_active) D.max_active = D.active;
  while (gated && !D.gate_open && !atomic_load(ctx->cancelled)) {
    pthread_mutex_unlock(&D.mu);
    usleep(2000);
    pthread_mutex_lock(&D.mu);
  }
  D.active--;
  if (D.n_order < 64) snprintf(D.order[D.n_order++], CZ_JOB_ID_MAX, "%s", req->request_id);
  pthread_mutex_unlock(&D.mu);
  if (atomic_load(ctx->cancelled)) return CZ_ERR_INVALID_ARG;
  if (fail) {
    snprintf(msg, msg_len, "the test double was asked to fail");
    return CZ_ERR_PROOF_INVALID;
  }
  usleep(3000); /* some proving time to report */
  size_t n = strlen(req->request_id);
  memcpy(out, req->request_id, n);
  out[n] = (uint8_t)req->kind;
  if (req->randomness.len) out[n + 1] = req->randomness.data[0];
  return CZ_OK;
}

static void dbl_discard(void *self, void *state) {
  (void)self;
  free(state);
}

static const cz_proof_ops dbl_ops = {.name = "double",
                                     .parse = dbl_parse,
                                     .plan = dbl_plan,
                                     .synthesize = dbl_synth,
                                     .prove_partition = dbl_prove,
                                     .discard = dbl_discard};

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
  cz_proof_ops h = dbl_ops;
  /* PoRep (and Snap, to block workers with another circuit) get the double;
   * WindowPoSt stays without a prover. */
  h.batch = batch > 1;
  CHECK(cz_engine_register_ops(e, CZ_KIND_POREP_SEAL_COMMIT, &h, NULL) == CZ_OK);
  CHECK(cz_engine_register_ops(e, CZ_KIND_SNAP_DEALS_UPDATE, &h, NULL) == CZ_OK);
  CHECK(cz_engine_register_ops(e, CZ_KIND_WINNING_POST, &h, NULL) == CZ_OK);
  D.e = e;
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
static bool entered(void *n) {
  pthread_mutex_lock(&D.mu);
  int k = D.entered;
  pthread_mutex_unlock(&D.mu);
  return k >= *(int *)n;
}

static void wait_entered(int n) { test_wait(entered, &n, 60, "the double to be entered"); }

static cz_job_status await_status(cz_engine *e, const char *id, char *err, size_t err_len) {
  cz_job_result r;
  if (cz_engine_await(e, id, 0, &r) != CZ_OK) return CZ_JOB_UNKNOWN;
  if (err) snprintf(err, err_len, "%s", r.error);
  free(r.proof);
  return r.status;
}

#endif
