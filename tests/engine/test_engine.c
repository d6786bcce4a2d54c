/* The engine with a test-double kind (engine_double.h): its "proof"
 * is the request id echoed back (then the kind, then the first byte of the
 * randomness when there is one), so every job's answer can be checked.
 * Ordering is made deterministic with a gate the prover waits on; nothing
 * here asserts a wall-clock time. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"
#include "engine_double.h"

/* ---- tests ------------------------------------------------------------------- */

static void test_priorities(void) {
  dbl_reset(false);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  uint32_t pos = 99;
  CHECK_EQ_INT(submit(e, "block", CZ_KIND_SNAP_DEALS_UPDATE, 0, "gate", 0, &pos), CZ_OK);
  wait_entered(1);
  CHECK_EQ_INT(submit(e, "n1", CZ_KIND_POREP_SEAL_COMMIT, CZ_PRIO_NORMAL, NULL, 0, &pos), CZ_OK);
  CHECK_EQ_INT(pos, 0);
  CHECK_EQ_INT(submit(e, "low", CZ_KIND_POREP_SEAL_COMMIT, CZ_PRIO_LOW, NULL, 0, &pos), CZ_OK);
  CHECK_EQ_INT(submit(e, "n2", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, &pos), CZ_OK);
  CHECK_EQ_INT(pos, 1); /* behind n1, ahead of low */
  CHECK_EQ_INT(submit(e, "high", CZ_KIND_POREP_SEAL_COMMIT, CZ_PRIO_HIGH, NULL, 0, &pos), CZ_OK);
  CHECK_EQ_INT(pos, 0);
  /* WinningPoSt defaults to CRITICAL: ahead of everything queued. */
  CHECK_EQ_INT(submit(e, "crit", CZ_KIND_WINNING_POST, 0, NULL, 0, &pos), CZ_OK);
  CHECK_EQ_INT(pos, 0);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.pending[CZ_KIND_POREP_SEAL_COMMIT], 4);
  CHECK_EQ_INT(s.running[CZ_KIND_SNAP_DEALS_UPDATE], 1);
  gate(true);
  const char *ids[] = {"block", "n1", "low", "n2", "high", "crit"};
  for (int i = 0; i < 6; i++) CHECK_EQ_INT(await_status(e, ids[i], NULL, 0), CZ_JOB_COMPLETED);
  const char *want[] = {"block", "crit", "high", "n1", "n2", "low"};
  CHECK_EQ_INT(D.n_order, 6);
  for (int i = 0; i < 6 && i < D.n_order; i++) CHECK(strcmp(D.order[i], want[i]) == 0);
  cz_job_result r;
  CHECK_EQ_INT(cz_engine_await(e, "crit", 0, &r), CZ_OK);
  CHECK_EQ_INT(r.proof_len, 5);
  CHECK(r.proof_len == 5 && !memcmp(r.proof, "crit", 4) && r.proof[4] == CZ_KIND_WINNING_POST);
  /* The engine's own measure of the double's 2 ms synthesis and 3 ms proving. */
  CHECK(r.t.synthesis_ms >= 2);
  CHECK(r.t.gpu_compute_ms >= 3);
  free(r.proof);
  cz_engine_destroy(e);
}

/* An urgent worker takes a WinningPoSt while the only ordinary worker is
 * busy, and never a NORMAL job; NORMAL jobs run at the background nice. */
static void test_urgent(void) {
  dbl_reset(false);
  cz_engine *e = make_cfg(1, 1ull << 30, 1, NULL, 1, 10);
  CHECK(cz_engine_start(e) == CZ_OK);
  errno = 0;
  int base = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
  CHECK_EQ_INT(errno, 0);
  uint32_t pos = 99;
  CHECK_EQ_INT(submit(e, "block", CZ_KIND_POREP_SEAL_COMMIT, 0, "gate", 0, &pos), CZ_OK);
  wait_entered(1);
  CHECK_EQ_INT(submit(e, "n2", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, &pos), CZ_OK);
  CHECK_EQ_INT(pos, 0);
  CHECK_EQ_INT(submit(e, "crit", CZ_KIND_WINNING_POST, 0, NULL, 0, &pos), CZ_OK);
  /* Answered while "block" still holds the ordinary worker at the gate. */
  CHECK_EQ_INT(await_status(e, "crit", NULL, 0), CZ_JOB_COMPLETED);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.n_workers, 2);
  CHECK_EQ_INT(s.running[CZ_KIND_POREP_SEAL_COMMIT], 1);
  CHECK_EQ_INT(s.pending[CZ_KIND_POREP_SEAL_COMMIT], 1); /* the urgent worker left n2 alone */
  gate(true);
  CHECK_EQ_INT(await_status(e, "block", NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(await_status(e, "n2", NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(D.entered, 3);
  int want_bg = base + 10 > 19 ? 19 : base + 10;
  CHECK_EQ_INT(D.nice[0], want_bg); /* block */
  CHECK_EQ_INT(D.nice[1], base);    /* crit */
  CHECK_EQ_INT(D.nice[2], want_bg); /* n2 */
  cz_engine_destroy(e);
}

static void test_cancel_and_timeout(void) {
  dbl_reset(false);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  CHECK_EQ_INT(submit(e, "run", CZ_KIND_POREP_SEAL_COMMIT, 0, "gate", 0, NULL), CZ_OK);
  wait_entered(1);
  CHECK_EQ_INT(submit(e, "queued", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL), CZ_OK);
  /* AwaitProof's timeout: the job is still running. */
  cz_job_result r;
  CHECK_EQ_INT(cz_engine_await(e, "run", 30, &r), CZ_OK);
  CHECK_EQ_INT(r.status, CZ_JOB_TIMEOUT);
  CHECK(r.proof == NULL);
  CHECK_EQ_INT(cz_engine_await(e, "nope", 1, &r), CZ_ERR_NOT_FOUND);
  bool was_running = true;
  CHECK_EQ_INT(cz_engine_cancel(e, "queued", &was_running), CZ_OK);
  CHECK(!was_running);
  CHECK_EQ_INT(await_status(e, "queued", NULL, 0), CZ_JOB_CANCELLED);
  CHECK_EQ_INT(cz_engine_cancel(e, "run", &was_running), CZ_OK);
  CHECK(was_running);
  char err[512];
  CHECK_EQ_INT(await_status(e, "run", err, sizeof err), CZ_JOB_CANCELLED);
  CHECK(strstr(err, "cancel") != NULL);
  CHECK_EQ_INT(cz_engine_cancel(e, "nope", &was_running), CZ_ERR_NOT_FOUND);
  /* Cancelling a finished job changes nothing. */
  CHECK_EQ_INT(cz_engine_cancel(e, "run", &was_running), CZ_OK);
  CHECK(!was_running);
  CHECK_EQ_INT(await_status(e, "run", NULL, 0), CZ_JOB_CANCELLED);
  /* Only "run" reached the prover. */
  CHECK_EQ_INT(D.entered, 1);
  /* A failing prover: FAILED with its message. */
  CHECK_EQ_INT(submit(e, "f", CZ_KIND_POREP_SEAL_COMMIT, 0, "fail", 0, NULL), CZ_OK);
  CHECK_EQ_INT(await_status(e, "f", err, sizeof err), CZ_JOB_FAILED);
  CHECK(strstr(err, "asked to fail") != NULL);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.cancelled[CZ_KIND_POREP_SEAL_COMMIT], 2);
  CHECK_EQ_INT(s.total_failed, 1);
  cz_engine_destroy(e);
}

static void test_refusals(void) {
  dbl_reset(true);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  char id[CZ_JOB_ID_MAX], msg[256];
  cz_job_request r = {.kind = CZ_KIND_WINDOW_POST_PARTITION};
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_ERR_UNIMPLEMENTED);
  CHECK(strstr(msg, "window_post") != NULL);
  r.kind = CZ_KIND_UNSPECIFIED;
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  r.kind = (cz_proof_kind)9;
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  r.kind = CZ_KIND_POREP_SEAL_COMMIT;
  r.priority = (cz_priority)7;
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  r.priority = 0;
  uint8_t five[5] = {0};
  r.randomness = (cz_bytes){five, 5};
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  r.randomness = (cz_bytes){0};
  r.request_id = "bad\nid";
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  r.request_id = NULL;
  r.vanilla_proof = (cz_bytes){(const uint8_t *)"bad", 3};
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "vanilla_proof is bad") != NULL);
  /* An empty request_id gets a UUID. */
  r.vanilla_proof = (cz_bytes){0};
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(strlen(id), 36);
  CHECK(id[14] == '4' && id[8] == '-' && id[23] == '-');
  CHECK_EQ_INT(await_status(e, id, NULL, 0), CZ_JOB_COMPLETED);
  /* Idempotent request ids. */
  CHECK_EQ_INT(submit(e, "same", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL), CZ_OK);
  CHECK_EQ_INT(submit(e, "same", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL), CZ_OK);
  CHECK_EQ_INT(await_status(e, "same", NULL, 0), CZ_JOB_COMPLETED);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.n_jobs, 2);
  CHECK_EQ_INT(D.entered, 2);
  /* After shutdown nothing is accepted. */
  cz_engine_shutdown(e, true);
  CHECK_EQ_INT(submit(e, "late", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL), CZ_ERR_UNAVAILABLE);
  cz_engine_destroy(e);
}

/* ---- request_id semantics (cz_engine_submit's rules 1-4) -------------------- */

/* The job an id names now: its status, and the seed byte of its proof (-1:
 * none). */
static cz_job_status await_seed(cz_engine *e, const char *id, int *seed) {
  cz_job_result r;
  *seed = -1;
  if (cz_engine_await(e, id, 0, &r) != CZ_OK) return CZ_JOB_UNKNOWN;
  if (r.proof_len == strlen(id) + 2) *seed = r.proof[r.proof_len - 1];
  free(r.proof);
  return r.status;
}

static size_t n_jobs(cz_engine *e) {
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  return s.n_jobs;
}

/* Rule 1: the same id and input joins a queued or running job, whatever
 * the priority of the retry. */
static void test_reqid_join(void) {
  dbl_reset(false);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  CHECK_EQ_INT(submit_seed(e, "run", 0, "gate", 1, NULL), CZ_OK);
  wait_entered(1);
  CHECK_EQ_INT(submit_seed(e, "run", CZ_PRIO_HIGH, "gate", 1, NULL), CZ_OK);
  uint32_t pos = 99;
  CHECK_EQ_INT(submit_seed(e, "a", 0, NULL, 2, NULL), CZ_OK);
  CHECK_EQ_INT(submit_seed(e, "q", 0, NULL, 3, &pos), CZ_OK);
  CHECK_EQ_INT(pos, 1);
  CHECK_EQ_INT(submit_seed(e, "q", CZ_PRIO_LOW, NULL, 3, &pos), CZ_OK);
  CHECK_EQ_INT(pos, 1); /* the joined job's place, not a new one behind it */
  CHECK_EQ_INT(n_jobs(e), 3);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.pending[CZ_KIND_POREP_SEAL_COMMIT], 2);
  CHECK_EQ_INT(s.cancelled[CZ_KIND_POREP_SEAL_COMMIT], 0);
  gate(true);
  int seed;
  CHECK_EQ_INT(await_seed(e, "run", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(seed, 1);
  CHECK_EQ_INT(await_seed(e, "q", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(seed, 3);
  CHECK_EQ_INT(await_seed(e, "a", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(D.entered, 3);
  cz_engine_destroy(e);
}

/* Rule 2: after COMPLETED the same input gets the stored proof; another
 * input (rule 4) is proved anew. */
static void test_reqid_completed(void) {
  dbl_reset(true);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  int seed;
  CHECK_EQ_INT(submit_seed(e, "c", 0, NULL, 5, NULL), CZ_OK);
  CHECK_EQ_INT(await_seed(e, "c", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(submit_seed(e, "c", CZ_PRIO_HIGH, NULL, 5, NULL), CZ_OK);
  CHECK_EQ_INT(await_seed(e, "c", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(seed, 5);
  CHECK_EQ_INT(D.entered, 1);
  CHECK_EQ_INT(n_jobs(e), 1);
  /* A new seed (a reorg): proved again, and the id answers the new proof. */
  CHECK_EQ_INT(submit_seed(e, "c", 0, NULL, 6, NULL), CZ_OK);
  CHECK_EQ_INT(await_seed(e, "c", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(seed, 6);
  CHECK_EQ_INT(D.entered, 2);
  /* Every other field counts too: the vanilla proof bytes, one case. */
  CHECK_EQ_INT(submit_seed(e, "c", 0, "v", 6, NULL), CZ_OK);
  CHECK_EQ_INT(await_seed(e, "c", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(D.entered, 3);
  cz_engine_destroy(e);
}

/* Rule 3: a FAILED job's id runs again with the same input. */
static void test_reqid_rerun_failed(void) {
  dbl_reset(true);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  int seed;
  CHECK_EQ_INT(submit_seed(e, "f", 0, "fail", 1, NULL), CZ_OK);
  CHECK_EQ_INT(await_seed(e, "f", &seed), CZ_JOB_FAILED);
  CHECK_EQ_INT(submit_seed(e, "f", 0, "fail", 1, NULL), CZ_OK);
  CHECK_EQ_INT(await_seed(e, "f", &seed), CZ_JOB_FAILED);
  CHECK_EQ_INT(D.entered, 2);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.failed[CZ_KIND_POREP_SEAL_COMMIT], 2);
  cz_engine_destroy(e);
}

/* Rule 3: a CANCELLED job's id runs again with the same input. */
static void test_reqid_rerun_cancelled(void) {
  dbl_reset(false);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  int seed;
  CHECK_EQ_INT(submit_seed(e, "x", 0, "gate", 1, NULL), CZ_OK);
  wait_entered(1);
  bool was_running;
  CHECK_EQ_INT(cz_engine_cancel(e, "x", &was_running), CZ_OK);
  CHECK(was_running);
  CHECK_EQ_INT(await_seed(e, "x", &seed), CZ_JOB_CANCELLED);
  gate(true);
  CHECK_EQ_INT(submit_seed(e, "x", 0, "gate", 1, NULL), CZ_OK);
  CHECK_EQ_INT(await_seed(e, "x", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(seed, 1);
  CHECK_EQ_INT(D.entered, 2);
  cz_engine_destroy(e);
}

/* Rule 4: another input under a queued or running job's id is a new job,
 * and the old one, awaited by nobody, is cancelled. */
static void test_reqid_new_input(void) {
  dbl_reset(false);
  cz_engine *e = make(1, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  int seed;
  cz_engine_stats s;
  /* Queued: cancelled at once. */
  CHECK_EQ_INT(submit(e, "blk", CZ_KIND_SNAP_DEALS_UPDATE, 0, "gate", 0, NULL), CZ_OK);
  wait_entered(1);
  CHECK_EQ_INT(submit_seed(e, "s", 0, NULL, 1, NULL), CZ_OK);
  CHECK_EQ_INT(submit_seed(e, "s", 0, NULL, 2, NULL), CZ_OK);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.cancelled[CZ_KIND_POREP_SEAL_COMMIT], 1);
  CHECK_EQ_INT(s.pending[CZ_KIND_POREP_SEAL_COMMIT], 1);
  gate(true);
  CHECK_EQ_INT(await_seed(e, "s", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(seed, 2);
  CHECK_EQ_INT(await_status(e, "blk", NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(D.entered, 2); /* blk and the new s */
  /* Running: cancelled at its next phase; with one worker the new job can
   * only start once the old one, held by the closed gate, has given up. */
  dbl_reset(false);
  CHECK_EQ_INT(submit_seed(e, "r", 0, "gate", 1, NULL), CZ_OK);
  wait_entered(1);
  CHECK_EQ_INT(submit_seed(e, "r", 0, "gate", 2, NULL), CZ_OK);
  wait_entered(2);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.cancelled[CZ_KIND_POREP_SEAL_COMMIT], 2);
  gate(true);
  CHECK_EQ_INT(await_seed(e, "r", &seed), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(seed, 2);
  cz_engine_destroy(e);
}

static bool two_running(void *e) {
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  return s.running[CZ_KIND_POREP_SEAL_COMMIT] == 2;
}

static void test_memory_budget(void) {
  dbl_reset(false);
  cz_engine *e = make(2, 1000, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  /* Larger than the whole budget: accepted, answered FAILED at once. */
  char err[512];
  CHECK_EQ_INT(submit(e, "huge", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 2000, NULL), CZ_OK);
  CHECK_EQ_INT(await_status(e, "huge", err, sizeof err), CZ_JOB_FAILED);
  CHECK(strstr(err, "budget") != NULL);
  /* Two jobs of 600 with two workers: the second waits for the first's
   * memory instead of running beside it. */
  CHECK_EQ_INT(submit(e, "a", CZ_KIND_POREP_SEAL_COMMIT, 0, "gate", 600, NULL), CZ_OK);
  CHECK_EQ_INT(submit(e, "b", CZ_KIND_POREP_SEAL_COMMIT, 0, "gate", 600, NULL), CZ_OK);
  wait_entered(1);
  cz_engine_stats s;
  /* Both workers took a job: one proves, one waits for memory. */
  test_wait(two_running, e, 60, "both workers to take a job");
  cz_engine_get_stats(e, &s);
  /* a's 600 plus the two 4-byte request copies ("gate"). */
  CHECK_EQ_INT(s.memory_used, 608);
  pthread_mutex_lock(&D.mu);
  CHECK_EQ_INT(D.entered, 1);
  pthread_mutex_unlock(&D.mu);
  gate(true);
  CHECK_EQ_INT(await_status(e, "a", NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(await_status(e, "b", NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(D.max_active, 1);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.memory_used, 0);
  /* Jobs of 400 fit two at a time. */
  dbl_reset(false);
  CHECK_EQ_INT(submit(e, "c", CZ_KIND_POREP_SEAL_COMMIT, 0, "gate", 400, NULL), CZ_OK);
  CHECK_EQ_INT(submit(e, "d", CZ_KIND_POREP_SEAL_COMMIT, 0, "gate", 400, NULL), CZ_OK);
  wait_entered(2);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.memory_used, 808);
  gate(true);
  CHECK_EQ_INT(await_status(e, "c", NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(await_status(e, "d", NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(D.max_active, 2);
  /* A plan that would not fit at the pipeline's window of partitions (2 by
   * default) is made again for one partition in flight: it runs, charged
   * that. */
  dbl_reset(false);
  cz_job_request w = {.request_id = "narrow",
                      .kind = CZ_KIND_POREP_SEAL_COMMIT,
                      .sector_size = 600,
                      .registered_proof = 78,
                      .vanilla_proof = {(const uint8_t *)"gate", 4}};
  char job_id[CZ_JOB_ID_MAX];
  CHECK_EQ_INT(cz_engine_submit(e, &w, job_id, NULL, err, sizeof err), CZ_OK);
  wait_entered(1);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.memory_used, 604);
  gate(true);
  CHECK_EQ_INT(await_status(e, "narrow", NULL, 0), CZ_JOB_COMPLETED);
  /* Not even one partition fits: FAILED, naming the budget. */
  w.request_id = "too-big";
  w.sector_size = 1200;
  CHECK_EQ_INT(cz_engine_submit(e, &w, job_id, NULL, err, sizeof err), CZ_OK);
  CHECK_EQ_INT(await_status(e, "too-big", err, sizeof err), CZ_JOB_FAILED);
  CHECK(strstr(err, "needs 1200 bytes of memory with one partition in flight (2400 with 2)") !=
        NULL);
  /* A request whose bytes the budget cannot hold now is refused, not queued. */
  char *big = malloc(1201);
  memset(big, 'x', 1200);
  big[1200] = 0;
  CHECK_EQ_INT(submit(e, "big", CZ_KIND_POREP_SEAL_COMMIT, 0, big, 0, NULL), CZ_ERR_EXHAUSTED);
  free(big);
  cz_job_result r;
  CHECK_EQ_INT(cz_engine_await(e, "big", 1, &r), CZ_ERR_NOT_FOUND);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.memory_used, 0);
  cz_engine_destroy(e);
}

typedef struct {
  cz_engine *e;
  int thread;
  int bad;
} stress_arg;

#define STRESS_THREADS 8
#define STRESS_JOBS 400

static void *stress(void *p) {
  stress_arg *a = p;
  char id[64];
  for (int i = 0; i < STRESS_JOBS; i++) {
    snprintf(id, sizeof id, "t%d-j%d", a->thread, i);
    if (submit(a->e, id, CZ_KIND_POREP_SEAL_COMMIT, (cz_priority)(1 + i % 4), NULL, 0, NULL) !=
        CZ_OK)
      a->bad++;
  }
  for (int i = 0; i < STRESS_JOBS; i++) {
    snprintf(id, sizeof id, "t%d-j%d", a->thread, i);
    cz_job_result r;
    if (cz_engine_await(a->e, id, 0, &r) != CZ_OK || r.status != CZ_JOB_COMPLETED ||
        r.proof_len != strlen(id) + 1 || memcmp(r.proof, id, strlen(id)) != 0)
      a->bad++;
    free(r.proof);
  }
  return NULL;
}

static void test_job_table_stress(void) {
  dbl_reset(true);
  cz_engine *e = make(4, 1ull << 30, 1, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  pthread_t t[STRESS_THREADS];
  stress_arg a[STRESS_THREADS];
  for (int i = 0; i < STRESS_THREADS; i++) {
    a[i] = (stress_arg){e, i, 0};
    pthread_create(&t[i], NULL, stress, &a[i]);
  }
  int bad = 0;
  for (int i = 0; i < STRESS_THREADS; i++) pthread_join(t[i], NULL), bad += a[i].bad;
  CHECK_EQ_INT(bad, 0);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.total_completed, STRESS_THREADS * STRESS_JOBS);
  CHECK_EQ_INT(s.n_jobs, STRESS_THREADS * STRESS_JOBS);
  CHECK_EQ_INT(s.pending[CZ_KIND_POREP_SEAL_COMMIT] + s.running[CZ_KIND_POREP_SEAL_COMMIT], 0);
  cz_engine_destroy(e);
}

static void test_batch(void) {
  dbl_reset(false);
  cz_engine *e = make(1, 1ull << 30, 3, NULL);
  CHECK(cz_engine_start(e) == CZ_OK);
  CHECK_EQ_INT(submit(e, "blk", CZ_KIND_SNAP_DEALS_UPDATE, 0, "gate", 0, NULL), CZ_OK);
  wait_entered(1);
  const char *ids[] = {"p1", "p2", "p3", "p4"};
  for (int i = 0; i < 4; i++)
    CHECK_EQ_INT(submit(e, ids[i], CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL), CZ_OK);
  gate(true);
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(await_status(e, ids[i], NULL, 0), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(await_status(e, "blk", NULL, 0), CZ_JOB_COMPLETED);
  /* blk ran alone (the Snap double has no queued partner); p1-p3 were
   * queued together and form one batch of max_batch_size; p4 is left. */
  CHECK_EQ_INT(D.n_order, 5);
  for (int i = 0; i < 5 && i < D.n_order; i++) {
    const char *id = D.order[i];
    CHECK_EQ_INT(D.batch_size[i], id[0] == 'p' && id[1] != '4' ? 3 : 1);
  }
  CHECK_EQ_INT(submit(e, "crit", CZ_KIND_WINNING_POST, 0, NULL, 0, NULL), CZ_OK);
  CHECK_EQ_INT(await_status(e, "crit", NULL, 0), CZ_JOB_COMPLETED);
  cz_engine_destroy(e);
}

/* ---- SRS --------------------------------------------------------------- */

static int loads, unloads;
static cz_err t_load(void *self, const char *id, const uint8_t *file, size_t len, int fd,
                     void **obj, uint64_t *bytes, char *msg, size_t msg_len) {
  (void)self, (void)id, (void)fd, (void)msg, (void)msg_len;
  loads++;
  *obj = malloc(len);
  memcpy(*obj, file, len);
  *bytes = len;
  return CZ_OK;
}
static void t_unload(void *self, void *obj) {
  (void)self;
  unloads++;
  free(obj);
}

static void write_file(const char *path, size_t n) {
  FILE *f = fopen(path, "wb");
  for (size_t i = 0; i < n; i++) fputc((int)(i * 7 + 1), f);
  fclose(f);
}

static void test_srs(void) {
  char dir[] = "/tmp/cuzk-test-srs-XXXXXX", path[256];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/t1.params", dir);
  write_file(path, 12288);
  snprintf(path, sizeof path, "%s/t2.params", dir);
  write_file(path, 12288);
  snprintf(path, sizeof path, "%s/t3-file.bin", dir);
  write_file(path, 5000);
  dbl_reset(true);
  cz_engine *e = make(1, 20000, 1, dir);
  cz_srs_loader ld = {t_load, t_unload, NULL, false};
  CHECK(cz_engine_register_srs(e, "t3", path, &ld) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  char msg[256];
  bool already = true, was = false;
  uint64_t ms = 0, freed = 0;
  CHECK_EQ_INT(cz_engine_srs_preload(e, "t1", &already, &ms, msg, sizeof msg), CZ_OK);
  CHECK(!already);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.memory_used, 12288);
  int i1 = -1;
  for (size_t i = 0; i < s.n_srs; i++)
    if (!strcmp(s.srs[i].circuit_id, "t1")) i1 = (int)i;
  CHECK(i1 >= 0 && s.srs[i1].tier == CZ_SRS_HOT && s.srs[i1].size_bytes == 12288);
  CHECK_EQ_INT(cz_engine_srs_preload(e, "t1", &already, &ms, msg, sizeof msg), CZ_OK);
  CHECK(already);
  /* t2 does not fit beside t1: the idle t1 drops to warm (still mapped,
   * off the budget) for it. */
  CHECK_EQ_INT(cz_engine_srs_preload(e, "t2", &already, &ms, msg, sizeof msg), CZ_OK);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.memory_used, 12288);
  for (size_t i = 0; i < s.n_srs; i++) {
    if (!strcmp(s.srs[i].circuit_id, "t1")) CHECK(s.srs[i].tier == CZ_SRS_WARM);
    if (!strcmp(s.srs[i].circuit_id, "t2")) CHECK(s.srs[i].tier == CZ_SRS_HOT);
  }
  /* A warm entry is still "loaded" for EvictSRS, which frees no budget. */
  CHECK_EQ_INT(cz_engine_srs_evict(e, "t1", &was, &freed, msg, sizeof msg), CZ_OK);
  CHECK(was);
  CHECK_EQ_INT(freed, 0);
  CHECK_EQ_INT(cz_engine_srs_evict(e, "t2", &was, &freed, msg, sizeof msg), CZ_OK);
  CHECK(was);
  CHECK_EQ_INT(freed, 12288);
  CHECK_EQ_INT(cz_engine_srs_evict(e, "t2", &was, &freed, msg, sizeof msg), CZ_OK);
  CHECK(!was);
  CHECK_EQ_INT(freed, 0);
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.memory_used, 0);
  CHECK_EQ_INT(cz_engine_srs_evict(e, "zz", &was, &freed, msg, sizeof msg), CZ_ERR_NOT_FOUND);
  CHECK_EQ_INT(cz_engine_srs_preload(e, "zz", &already, &ms, msg, sizeof msg), CZ_ERR_NOT_FOUND);
  CHECK_EQ_INT(cz_engine_srs_preload(e, "../x", &already, &ms, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  /* A job that needs t3 sees the loader's object. */
  cz_job_request r = {.request_id = "srsjob",
                      .kind = CZ_KIND_POREP_SEAL_COMMIT,
                      .registered_proof = 77};
  char id[CZ_JOB_ID_MAX];
  CHECK_EQ_INT(cz_engine_submit(e, &r, id, NULL, msg, sizeof msg), CZ_OK);
  cz_job_result res;
  CHECK_EQ_INT(cz_engine_await(e, "srsjob", 0, &res), CZ_OK);
  CHECK_EQ_INT(res.status, CZ_JOB_COMPLETED);
  free(res.proof);
  CHECK_EQ_INT(D.srs_seen, 1);
  CHECK_EQ_INT(loads, 1);
  CHECK_EQ_INT(cz_engine_srs_evict(e, "t3", &was, &freed, msg, sizeof msg), CZ_OK);
  CHECK(was && freed == 5000);
  CHECK_EQ_INT(unloads, 1);
  cz_engine_destroy(e);
  snprintf(path, sizeof path, "rm -rf %s", dir);
  CHECK(system(path) == 0);
}

static void *shutdown_drain(void *arg) {
  cz_engine_shutdown(arg, true);
  return NULL;
}

/* Shutdown: queued jobs are cancelled at once; a drain lets the running job
 * finish, and a second (cancelling) call stops it at its next phase. */
static void test_shutdown(void) {
  for (int second_call = 0; second_call < 2; second_call++) {
    dbl_reset(false);
    cz_engine *e = make(1, 1ull << 30, 1, NULL);
    CHECK(cz_engine_start(e) == CZ_OK);
    CHECK_EQ_INT(submit(e, "run", CZ_KIND_POREP_SEAL_COMMIT, 0, "gate", 0, NULL), CZ_OK);
    wait_entered(1);
    CHECK_EQ_INT(submit(e, "q", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL), CZ_OK);
    pthread_t t;
    pthread_create(&t, NULL, shutdown_drain, e);
    char err[512];
    CHECK_EQ_INT(await_status(e, "q", err, sizeof err), CZ_JOB_CANCELLED);
    CHECK(strstr(err, "shutting down") != NULL);
    CHECK_EQ_INT(submit(e, "late", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL),
                 CZ_ERR_UNAVAILABLE);
    if (second_call) cz_engine_shutdown(e, false);
    else gate(true);
    pthread_join(t, NULL);
    CHECK_EQ_INT(await_status(e, "run", NULL, 0),
                 second_call ? CZ_JOB_CANCELLED : CZ_JOB_COMPLETED);
    cz_engine_destroy(e);
  }
}

/* TIMELINE,<ms>,<EVENT>,<job>,<detail> lines on stderr, captured in a file. */
static void test_timeline(void) {
  char path[] = "/tmp/cuzk-test-timeline-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  dbl_reset(true);
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 1;
  cfg.memory_budget = 1 << 20;
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &cfg, NULL, 0) == CZ_OK);
  D.e = e; /* the double asks this engine, not test_srs's destroyed one */
  CHECK(cz_engine_register_ops(e, CZ_KIND_POREP_SEAL_COMMIT, &dbl_ops, NULL) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  CHECK_EQ_INT(submit(e, "tl-job", CZ_KIND_POREP_SEAL_COMMIT, 0, NULL, 0, NULL), CZ_OK);
  CHECK_EQ_INT(await_status(e, "tl-job", NULL, 0), CZ_JOB_COMPLETED);
  cz_engine_destroy(e);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  FILE *f = fdopen(fd, "r");
  rewind(f);
  char line[256];
  const char *want[] = {"QUEUED",    "START",      "PROVE",     "SYNTH_START", "SYNTH_END",
                        "GPU_QUEUE", "GPU_PICKUP", "GPU_START", "GPU_END",     "END"};
  enum { N_WANT = sizeof want / sizeof want[0] };
  int n = 0, bad = 0;
  unsigned long long last_ms = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long ms;
    char ev[32], job[64], detail[128] = "";
    if (sscanf(line, "TIMELINE,%llu,%31[^,],%63[^,],%127[^\n]", &ms, ev, job, detail) < 3) {
      bad++;
      continue;
    }
    if (n < N_WANT && strcmp(ev, want[n]) != 0) bad++;
    if (strcmp(job, "tl-job") != 0 || ms < last_ms) bad++;
    if (!strcmp(ev, "END")) CHECK(strstr(detail, "status=completed") != NULL);
    last_ms = ms;
    n++;
  }
  fclose(f);
  unlink(path);
  CHECK_EQ_INT(n, N_WANT);
  CHECK_EQ_INT(bad, 0);
}

int main(void) {
  test_priorities();
  test_urgent();
  test_cancel_and_timeout();
  test_refusals();
  test_reqid_join();
  test_reqid_completed();
  test_reqid_rerun_failed();
  test_reqid_rerun_cancelled();
  test_reqid_new_input();
  test_memory_budget();
  test_job_table_stress();
  test_batch();
  test_srs();
  test_timeline();
  test_shutdown();
  return check_report("test_engine");
}
