/* A job's pipeline through the engine, with a test kind whose partitions
 * are small states: partitions proved in order, synthesis overlapping
 * proving within the window, the answer the partitions' proofs in order,
 * stage errors and cancellation leaving no state behind (ASan checks the
 * frees). The kind reads its input (items=, fail=, block=) from the
 * request (test_input.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "one_worker_engine.h"
#include "test_input.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"

#define NONE UINT64_MAX

typedef struct {
  pthread_mutex_t mu;
  int synth_started, synthesized, proved, discarded, outstanding, max_outstanding;
  int order[16];
  bool overlap_seen, blocked;
} pl;

static pl P = {.mu = PTHREAD_MUTEX_INITIALIZER};

static cz_err synth(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                    size_t msg_len) {
  (void)self;
  pthread_mutex_lock(&P.mu);
  P.synth_started++;
  if (++P.outstanding > P.max_outstanding) P.max_outstanding = P.outstanding;
  pthread_mutex_unlock(&P.mu);
  if (i == test_input(ctx->req, "fail", NONE)) {
    pthread_mutex_lock(&P.mu);
    P.outstanding--;
    pthread_mutex_unlock(&P.mu);
    snprintf(msg, msg_len, "synthesis of item %zu failed", i);
    return CZ_ERR_PARSE;
  }
  size_t *v = malloc(sizeof *v);
  *v = i * i;
  *state = v;
  pthread_mutex_lock(&P.mu);
  P.synthesized++;
  pthread_mutex_unlock(&P.mu);
  return CZ_OK;
}

static bool synth_started_twice(void *arg) {
  (void)arg;
  pthread_mutex_lock(&P.mu);
  bool seen = P.synth_started >= 2;
  pthread_mutex_unlock(&P.mu);
  return seen;
}

static cz_err prove_item(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                         char *msg, size_t msg_len) {
  (void)self, (void)msg, (void)msg_len;
  size_t v = *(size_t *)state;
  free(state);
  /* The pipeline overlaps: item 1's synthesis starts while item 0 proves. */
  if (i == 0 && ctx->plan->n_partitions > 1)
    P.overlap_seen = test_wait(synth_started_twice, NULL, 30, "item 1's synthesis");
  if (i == test_input(ctx->req, "block", NONE)) {
    pthread_mutex_lock(&P.mu);
    P.blocked = true;
    pthread_mutex_unlock(&P.mu);
    while (!atomic_load(ctx->cancelled)) usleep(1000);
  }
  pthread_mutex_lock(&P.mu);
  if (P.proved < 16) P.order[P.proved] = (int)i;
  P.proved++;
  P.outstanding--;
  pthread_mutex_unlock(&P.mu);
  out[0] = (uint8_t)(0xa0 + i);
  return v == i * i ? CZ_OK : CZ_ERR_PROOF_INVALID;
}

static void discard(void *self, void *state) {
  (void)self;
  free(state);
  pthread_mutex_lock(&P.mu);
  P.discarded++;
  P.outstanding--;
  pthread_mutex_unlock(&P.mu);
}

static void reset(void) {
  pthread_mutex_lock(&P.mu);
  P.synth_started = P.synthesized = P.proved = P.discarded = P.outstanding = P.max_outstanding = 0;
  P.overlap_seen = P.blocked = false;
  pthread_mutex_unlock(&P.mu);
}

/* Run one job with that input; its status, error and answer. */
static cz_job_status run(cz_engine *e, const char *id, const char *input, char *err,
                         cz_job_result *res) {
  reset();
  cz_job_request r = test_request(id, CZ_KIND_POREP_SEAL_COMMIT, input);
  char job_id[CZ_JOB_ID_MAX], msg[256];
  CHECK_EQ_INT(cz_engine_submit(e, &r, job_id, NULL, msg, sizeof msg), CZ_OK);
  if (strstr(input, "block=") &&
      test_wait(test_flag, &(test_locked_flag){&P.mu, &P.blocked}, 60, "the blocked item")) {
    bool was_running = false;
    CHECK_EQ_INT(cz_engine_cancel(e, id, &was_running), CZ_OK);
    CHECK(was_running);
  }
  CHECK_EQ_INT(cz_engine_await(e, id, 0, res), CZ_OK);
  snprintf(err, 512, "%s", res->error);
  return res->status;
}

int main(void) {
  cz_proof_ops h = {.name = "pipeline-double",
                    .plan = test_items_plan,
                    .synthesize = synth,
                    .prove_partition = prove_item,
                    .discard = discard};
  cz_engine *e = one_worker_engine(&h, false, 2, 1, false);
  char err[512];
  cz_job_result res;

  CHECK_EQ_INT(run(e, "ok", "items=6", err, &res), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(P.proved, 6);
  for (int i = 0; i < 6; i++) CHECK_EQ_INT(P.order[i], i);
  CHECK(P.overlap_seen);
  CHECK(P.max_outstanding <= 3); /* synthesis_concurrency + max_queue_depth */
  CHECK_EQ_INT(P.discarded, 0);
  CHECK_EQ_INT(P.outstanding, 0);
  CHECK_EQ_INT(res.proof_len, 6); /* the partitions' proofs, in order */
  for (size_t i = 0; i < res.proof_len; i++) CHECK_EQ_INT(res.proof[i], 0xa0 + i);
  free(res.proof);

  CHECK_EQ_INT(run(e, "synth-fails", "items=8 fail=3", err, &res), CZ_JOB_FAILED);
  CHECK(strstr(err, "item 3 failed") != NULL);
  CHECK(P.proved <= 3);
  CHECK_EQ_INT(P.proved + P.discarded, P.synthesized); /* nothing leaked */
  CHECK_EQ_INT(P.outstanding, 0);
  CHECK(res.proof == NULL);

  CHECK_EQ_INT(run(e, "cancelled", "items=8 block=2", err, &res), CZ_JOB_CANCELLED);
  CHECK_EQ_INT(P.proved, 3); /* items 0, 1 and the blocked 2 */
  CHECK_EQ_INT(P.proved + P.discarded, P.synthesized);
  CHECK_EQ_INT(P.outstanding, 0);

  CHECK_EQ_INT(run(e, "one", "items=1", err, &res), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(P.proved, 1);
  free(res.proof);

  /* A kind that plans no partition is refused at submit. */
  cz_job_request r = test_request("none", CZ_KIND_POREP_SEAL_COMMIT, "items=0");
  char job_id[CZ_JOB_ID_MAX], msg[256];
  CHECK_EQ_INT(cz_engine_submit(e, &r, job_id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "no items") != NULL);

  cz_engine_destroy(e);
  return check_report("test_pipeline");
}
