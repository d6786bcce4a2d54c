/* cz_job_pipeline through an engine job: items proved in order, synthesis
 * overlapping proving within the window, stage errors and cancellation
 * leaving no state behind (ASan checks the frees). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "one_worker_engine.h"
#include "cuzk/engine.h"
#include "cuzk/engine_prover.h"

typedef struct {
  pthread_mutex_t mu;
  int fail_at;            /* synthesis of this item fails (-1: none) */
  int block_prove_at;     /* prove of this item waits for cancellation (-1: none) */
  int synth_started, synthesized, proved, discarded, outstanding, max_outstanding;
  int order[16];
  bool overlap_seen, blocked;
  size_t n_items;
  cz_job *job;
} pl;

static pl P = {.mu = PTHREAD_MUTEX_INITIALIZER};

static cz_err synth(void *ctx, size_t i, void **state, char *msg, size_t msg_len) {
  (void)ctx;
  pthread_mutex_lock(&P.mu);
  P.synth_started++;
  if (++P.outstanding > P.max_outstanding) P.max_outstanding = P.outstanding;
  pthread_mutex_unlock(&P.mu);
  if ((int)i == P.fail_at) {
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

static cz_err prove_item(void *ctx, size_t i, void *state, char *msg, size_t msg_len) {
  (void)ctx, (void)msg, (void)msg_len;
  size_t v = *(size_t *)state;
  free(state);
  if (i == 0 && P.n_items > 1) { /* the pipeline overlaps: item 1's synthesis starts meanwhile */
    for (int k = 0; k < 5000; k++) {
      pthread_mutex_lock(&P.mu);
      bool seen = P.synth_started >= 2;
      pthread_mutex_unlock(&P.mu);
      if (seen) {
        P.overlap_seen = true;
        break;
      }
      usleep(1000);
    }
  }
  if ((int)i == P.block_prove_at) {
    pthread_mutex_lock(&P.mu);
    P.blocked = true;
    pthread_mutex_unlock(&P.mu);
    while (!cz_job_cancelled(P.job)) usleep(1000);
  }
  pthread_mutex_lock(&P.mu);
  if (P.proved < 16) P.order[P.proved] = (int)i;
  P.proved++;
  P.outstanding--;
  pthread_mutex_unlock(&P.mu);
  return v == i * i ? CZ_OK : CZ_ERR_PROOF_INVALID;
}

static void discard(void *ctx, size_t i, void *state) {
  (void)ctx, (void)i;
  free(state);
  pthread_mutex_lock(&P.mu);
  P.discarded++;
  P.outstanding--;
  pthread_mutex_unlock(&P.mu);
}

static cz_err job_prove(void *self, const cz_job_request *req, cz_job *job, uint8_t **proof,
                        size_t *len, char *msg, size_t msg_len) {
  (void)self;
  P.job = job;
  P.n_items = (size_t)req->sector_number;
  cz_pipeline p = {.synthesize = synth, .prove = prove_item, .discard = discard,
                   .synthesis_concurrency = 2, .max_queue_depth = 1};
  cz_err err = cz_job_pipeline(job, &p, (size_t)req->sector_number, msg, msg_len);
  if (err != CZ_OK) return err;
  *proof = malloc(1);
  **proof = 1;
  *len = 1;
  return CZ_OK;
}

static void reset(int fail_at, int block_at) {
  pthread_mutex_lock(&P.mu);
  P.fail_at = fail_at;
  P.block_prove_at = block_at;
  P.synth_started = P.synthesized = P.proved = P.discarded = P.outstanding = P.max_outstanding = 0;
  P.overlap_seen = P.blocked = false;
  pthread_mutex_unlock(&P.mu);
}

static cz_job_status run(cz_engine *e, const char *id, uint64_t items, char *err, bool cancel) {
  cz_job_request r = {.request_id = id, .kind = CZ_KIND_POREP_SEAL_COMMIT, .sector_number = items};
  char job_id[CZ_JOB_ID_MAX], msg[256];
  CHECK_EQ_INT(cz_engine_submit(e, &r, job_id, NULL, msg, sizeof msg), CZ_OK);
  if (cancel) {
    for (;;) { /* cancel once the blocked item is being proved */
      pthread_mutex_lock(&P.mu);
      bool there = P.blocked;
      pthread_mutex_unlock(&P.mu);
      if (there) break;
      usleep(1000);
    }
    bool was_running = false;
    CHECK_EQ_INT(cz_engine_cancel(e, id, &was_running), CZ_OK);
    CHECK(was_running);
  }
  cz_job_result res;
  CHECK_EQ_INT(cz_engine_await(e, id, 0, &res), CZ_OK);
  snprintf(err, 512, "%s", res.error);
  free(res.proof);
  return res.status;
}

int main(void) {
  cz_engine *e = one_worker_engine("pipeline-double", false, job_prove);
  char err[512];

  reset(-1, -1);
  CHECK_EQ_INT(run(e, "ok", 6, err, false), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(P.proved, 6);
  for (int i = 0; i < 6; i++) CHECK_EQ_INT(P.order[i], i);
  CHECK(P.overlap_seen);
  CHECK(P.max_outstanding <= 3); /* synthesis_concurrency + max_queue_depth */
  CHECK_EQ_INT(P.discarded, 0);
  CHECK_EQ_INT(P.outstanding, 0);
  cz_job_result res;
  CHECK_EQ_INT(cz_engine_await(e, "ok", 0, &res), CZ_OK);
  CHECK_EQ_INT(res.status, CZ_JOB_COMPLETED);
  free(res.proof);

  reset(3, -1);
  CHECK_EQ_INT(run(e, "synth-fails", 8, err, false), CZ_JOB_FAILED);
  CHECK(strstr(err, "item 3 failed") != NULL);
  CHECK(P.proved <= 3);
  CHECK_EQ_INT(P.proved + P.discarded, P.synthesized); /* nothing leaked */
  CHECK_EQ_INT(P.outstanding, 0);

  reset(-1, 2);
  CHECK_EQ_INT(run(e, "cancelled", 8, err, true), CZ_JOB_CANCELLED);
  CHECK_EQ_INT(P.proved, 3); /* items 0, 1 and the blocked 2 */
  CHECK_EQ_INT(P.proved + P.discarded, P.synthesized);
  CHECK_EQ_INT(P.outstanding, 0);

  reset(-1, -1);
  CHECK_EQ_INT(run(e, "one", 1, err, false), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(P.proved, 1);

  cz_engine_destroy(e);
  return check_report("test_pipeline");
}
