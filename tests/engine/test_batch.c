/* The batch path end to end through the engine: a kind with parse (one
 * parse per job, the model kept with the job and charged to the budget)
 * and batch set. Checks: three same-kind jobs are collected into one
 * batch; their partitions are proved job after job, in order, with the
 * next job's synthesis overlapping the current job's proving; one job
 * whose synthesis fails fails alone; a job cancelled in the middle of a
 * batch is cancelled alone; each job's answer is its own and comes as soon
 * as its partitions are done; GET /status's per-partition data
 * (cz_engine_list_jobs) follows the partitions; a plan's shape is made
 * once and referenced by every job; nothing leaks (ASan). The kind reads
 * its input (tag=, items=, fail=, block=) from the request
 * (test_input.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "test_input.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"

#define NONE UINT64_MAX

typedef struct {
  uint64_t tag, items, fail, block; /* fail / block: the item, NONE = none */
} model;

typedef struct {
  pthread_mutex_t mu;
  int parses, frees, synth_started, synthesized, proved, discarded;
  int order[32];     /* global partition order: tag * 10 + item */
  int synth_tag_max; /* the highest tag whose synthesis started */
  bool overlap_seen, blocked, status_seen;
  bool early_seen; /* A was answered while C was still being proved */
  bool want_shape; /* the plan asks for the computed entry "shape-x" */
  int shape_ok, loads, unloads;
  cz_engine *e;
} state;

static state S = {.mu = PTHREAD_MUTEX_INITIALIZER};

static cz_err m_parse(void *self, const cz_job_request *req, void **out, uint64_t *bytes, char *msg,
                      size_t msg_len) {
  (void)self;
  if (!test_input(req, "items", 0)) {
    snprintf(msg, msg_len, "no items");
    return CZ_ERR_INVALID_ARG;
  }
  model *m = malloc(sizeof *m);
  *m = (model){test_input(req, "tag", 0), test_input(req, "items", 0),
               test_input(req, "fail", NONE), test_input(req, "block", NONE)};
  *out = m;
  *bytes = 4096; /* a figure the test can see in the budget */
  pthread_mutex_lock(&S.mu);
  S.parses++;
  pthread_mutex_unlock(&S.mu);
  return CZ_OK;
}

static void m_free(void *self, void *m) {
  (void)self;
  free(m);
  pthread_mutex_lock(&S.mu);
  S.frees++;
  pthread_mutex_unlock(&S.mu);
}

/* Each partition's proof: 8 bytes, tag * 100 + item. */
static cz_err m_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *p, char *msg, size_t len) {
  (void)self, (void)msg, (void)len;
  const model *m = ctx->model;
  *p = (cz_job_plan){.n_partitions = m->items,
                     .proof_bytes = 8,
                     .shape_id = S.want_shape ? "shape-x" : NULL};
  return CZ_OK;
}

static cz_err m_synth(void *self, const cz_job_ctx *ctx, size_t i, void **st, char *msg,
                      size_t msg_len) {
  (void)self;
  const model *m = ctx->model;
  pthread_mutex_lock(&S.mu);
  S.synth_started++;
  if ((int)m->tag > S.synth_tag_max) S.synth_tag_max = (int)m->tag;
  pthread_mutex_unlock(&S.mu);
  if (m->fail == i) {
    snprintf(msg, msg_len, "synthesis of job %llu item %zu failed", (unsigned long long)m->tag, i);
    return CZ_ERR_PARSE;
  }
  uint64_t *v = malloc(sizeof *v);
  *v = m->tag * 100 + i;
  *st = v;
  pthread_mutex_lock(&S.mu);
  S.synthesized++;
  pthread_mutex_unlock(&S.mu);
  return CZ_OK;
}

static bool find_job(const char *id, cz_job_info *out) {
  cz_job_info list[8];
  size_t n = cz_engine_list_jobs(S.e, list, 8);
  for (size_t k = 0; k < n; k++)
    if (!strcmp(list[k].job_id, id)) return *out = list[k], true;
  return false;
}

static bool next_job_synthesizing(void *tag) {
  pthread_mutex_lock(&S.mu);
  bool seen = S.synth_tag_max > (int)*(uint64_t *)tag;
  pthread_mutex_unlock(&S.mu);
  return seen;
}

/* What job 1 (the first of the first batch) sees while it is proved: the
 * next job's synthesis overlaps it, and the status shows its partitions. */
static void watch_first_job(const cz_job_ctx *ctx, size_t i) {
  const model *m = ctx->model;
  if (i + 1 == m->items)
    S.overlap_seen = test_wait(next_job_synthesizing, (void *)&m->tag, 30, "the next job");
  cz_job_info info;
  if (i == 1 && find_job(ctx->req->request_id, &info) && info.running &&
      info.n_partitions == m->items && info.partitions[0].state == CZ_PART_DONE &&
      info.partitions[1].state == CZ_PART_PROVING && info.partitions[0].synth_start_ms > 0 &&
      info.partitions[1].prove_start_ms > 0)
    S.status_seen = info.batch_size == 3;
}

static cz_err m_prove(void *self, const cz_job_ctx *ctx, size_t i, void *st, uint8_t *out,
                      char *msg, size_t msg_len) {
  (void)self, (void)msg, (void)msg_len;
  uint64_t v = *(uint64_t *)st;
  free(st);
  const model *m = ctx->model;
  if (m->tag == 1) watch_first_job(ctx, i);
  if (m->tag == 3 && i + 1 == m->items) { /* A, two jobs back, is answered already */
    cz_job_result res;
    if (cz_engine_await(S.e, "A", 1, &res) == CZ_OK && res.status == CZ_JOB_COMPLETED &&
        res.proof_len == 24)
      S.early_seen = true;
    free(res.proof);
  }
  if (i == 0 && ctx->shape && !strcmp(ctx->shape, "shape")) S.shape_ok++;
  if (m->block == i) {
    pthread_mutex_lock(&S.mu);
    S.blocked = true;
    pthread_mutex_unlock(&S.mu);
    while (!atomic_load(ctx->cancelled)) usleep(1000);
  }
  pthread_mutex_lock(&S.mu);
  if (S.proved < 32) S.order[S.proved] = (int)(m->tag * 10 + i);
  S.proved++;
  pthread_mutex_unlock(&S.mu);
  memcpy(out, &v, 8);
  return v == m->tag * 100 + i ? CZ_OK : CZ_ERR_PROOF_INVALID;
}

static void m_discard(void *self, void *st) {
  (void)self;
  free(st);
  pthread_mutex_lock(&S.mu);
  S.discarded++;
  pthread_mutex_unlock(&S.mu);
}

static void submit(cz_engine *e, const char *id, const char *input) {
  cz_job_request r = test_request(id, CZ_KIND_POREP_SEAL_COMMIT, input);
  char job_id[CZ_JOB_ID_MAX], msg[256];
  cz_err st = cz_engine_submit(e, &r, job_id, NULL, msg, sizeof msg);
  if (st != CZ_OK) fprintf(stderr, "submit %s: %s\n", id, msg);
  CHECK_EQ_INT(st, CZ_OK);
}

/* The job's status and error; *tag: the tag its answer carries (0: none),
 * every partition's proof checked against it. */
static cz_job_status result(cz_engine *e, const char *id, uint64_t *tag, char *err) {
  cz_job_result res;
  CHECK_EQ_INT(cz_engine_await(e, id, 0, &res), CZ_OK);
  *tag = 0;
  if (res.proof_len >= 8) {
    uint64_t v;
    memcpy(&v, res.proof, 8);
    *tag = v / 100;
    for (size_t i = 0; i < res.proof_len / 8; i++) {
      memcpy(&v, res.proof + 8 * i, 8);
      CHECK_EQ_INT(v, *tag * 100 + i);
    }
  }
  snprintf(err, 512, "%s", res.error);
  free(res.proof);
  return res.status;
}

/* A computed SRS entry: made by the loader (no file), 2500 bytes. */
static cz_err c_load(void *self, const char *id, const uint8_t *file, size_t len, int fd,
                     void **obj, uint64_t *bytes, char *msg, size_t msg_len) {
  (void)self, (void)fd, (void)msg, (void)msg_len;
  if (file || len) return CZ_ERR_INVALID_ARG;
  char *o = calloc(1, 2500);
  snprintf(o, 2500, "%s", strcmp(id, "shape-x") ? "other" : "shape");
  *obj = o;
  *bytes = 2500;
  S.loads++;
  return CZ_OK;
}

static void c_unload(void *self, void *obj) {
  (void)self;
  free(obj);
  S.unloads++;
}

static const cz_srs_status *srs_of(const cz_engine_stats *st, const char *id) {
  for (size_t i = 0; i < st->n_srs; i++)
    if (!strcmp(st->srs[i].circuit_id, id)) return &st->srs[i];
  return NULL;
}

/* Computed entries: made on first use, charged what the loader reports,
 * referenced by the jobs that use them, hot or cold (never warm), dropped
 * under pressure when idle, refused when larger than the budget. */
static void test_computed(cz_engine *e) {
  char msg[256];
  bool already = true, was = false;
  uint64_t ms, freed = 0;
  cz_engine_stats st;
  cz_engine_get_stats(e, &st);
  const cz_srs_status *x = srs_of(&st, "shape-x");
  CHECK(x && x->tier == CZ_SRS_COLD && x->size_bytes == 3000); /* the estimate */
  S.want_shape = true;                                         /* the jobs make it hot */
  S.shape_ok = 0;
  submit(e, "G", "tag=7 items=1");
  submit(e, "H", "tag=8 items=1");
  submit(e, "I", "tag=9 items=1");
  uint64_t tag;
  char err[512];
  CHECK_EQ_INT(result(e, "G", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(result(e, "H", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(result(e, "I", &tag, err), CZ_JOB_COMPLETED);
  S.want_shape = false;
  CHECK_EQ_INT(S.shape_ok, 3);
  CHECK_EQ_INT(S.loads, 1); /* made once, shared */
  cz_engine_get_stats(e, &st);
  x = srs_of(&st, "shape-x");
  CHECK(x && x->tier == CZ_SRS_HOT && x->size_bytes == 2500 && x->ref_count == 0);
  CHECK_EQ_INT(st.memory_used, 2500);
  CHECK_EQ_INT(cz_engine_srs_preload(e, "shape-x", &already, &ms, msg, sizeof msg), CZ_OK);
  CHECK(already);
  /* "shape-big" needs nearly the whole budget: the idle shape-x goes cold. */
  CHECK_EQ_INT(cz_engine_srs_preload(e, "shape-big", &already, &ms, msg, sizeof msg), CZ_OK);
  cz_engine_get_stats(e, &st);
  x = srs_of(&st, "shape-x");
  CHECK(x && x->tier == CZ_SRS_COLD);
  CHECK_EQ_INT(S.unloads, 1);
  CHECK_EQ_INT(st.memory_used, 2500); /* shape-big's real size */
  CHECK_EQ_INT(cz_engine_srs_evict(e, "shape-big", &was, &freed, msg, sizeof msg), CZ_OK);
  CHECK(was && freed == 2500);
  CHECK_EQ_INT(cz_engine_srs_preload(e, "shape-huge", &already, &ms, msg, sizeof msg),
               CZ_ERR_NOMEM);
  CHECK(strstr(msg, "budget") != NULL);
  CHECK_EQ_INT(cz_engine_srs_preload(e, "shape-x", &already, &ms, msg, sizeof msg), CZ_OK);
  CHECK(!already);
  CHECK_EQ_INT(S.loads, 3);
  cz_engine_get_stats(e, &st);
  CHECK_EQ_INT(st.memory_used, 2500);
}

/* The engine: one worker, batches of three that close when full, the
 * batch-double kind and the computed entries shape-x, shape-big (nearly
 * the whole budget) and shape-huge (more than the budget); a second
 * registration of shape-x is refused. */
static cz_engine *make_engine(void) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 1;
  cfg.memory_budget = 1 << 20;
  cfg.max_batch_size = 3;
  cfg.max_batch_wait_ms = 20000; /* the batch closes when full */
  cfg.timeline = false;
  cfg.eviction_min_idle_ms = 0;
  cfg.synthesis_concurrency = 2;
  cfg.max_queue_depth = 1;
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &cfg, NULL, 0) == CZ_OK);
  S.e = e;
  cz_proof_ops h = {.name = "batch-double",
                    .parse = m_parse,
                    .free_model = m_free,
                    .plan = m_plan,
                    .synthesize = m_synth,
                    .prove_partition = m_prove,
                    .discard = m_discard,
                    .batch = true};
  CHECK(cz_engine_register_ops(e, CZ_KIND_POREP_SEAL_COMMIT, &h, NULL) == CZ_OK);
  cz_srs_loader ld = {c_load, c_unload, NULL, false};
  CHECK(cz_engine_register_computed_srs(e, "shape-x", 3000, &ld) == CZ_OK);
  CHECK(cz_engine_register_computed_srs(e, "shape-big", (1 << 20) - 1000, &ld) == CZ_OK);
  CHECK(cz_engine_register_computed_srs(e, "shape-huge", (1 << 20) + 1, &ld) == CZ_OK);
  CHECK(cz_engine_register_computed_srs(e, "shape-x", 3000, &ld) == CZ_ERR_INVALID_ARG);
  return e;
}

/* A refused parse answers INVALID at submit with the prover's message. */
static void test_refused_parse(cz_engine *e) {
  cz_job_request bad = {.request_id = "bad", .kind = CZ_KIND_POREP_SEAL_COMMIT};
  char job_id[CZ_JOB_ID_MAX], msg[256];
  CHECK_EQ_INT(cz_engine_submit(e, &bad, job_id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "no items") != NULL);
}

/* Jobs A, B (its item 1 fails) and C queued before the worker starts: the
 * models are charged meanwhile, parsed once each, no partitions yet. */
static void test_queued_batch(cz_engine *e) {
  submit(e, "A", "tag=1 items=3");
  submit(e, "B", "tag=2 items=3 fail=1");
  submit(e, "C", "tag=3 items=2");
  cz_engine_stats st;
  cz_engine_get_stats(e, &st);
  CHECK(st.memory_used >= 3 * 4096);
  cz_job_info info;
  CHECK(find_job("B", &info) && !info.running && info.n_partitions == 0);
  CHECK_EQ_INT(S.parses, 3);
}

/* The batch of A, B and C once the worker runs: B fails alone, A and C
 * complete with their own answers, partitions proved in order with
 * overlapping synthesis, nothing leaked, nothing left charged. */
static void test_batch_results(cz_engine *e) {
  uint64_t tag;
  char err[512];
  CHECK_EQ_INT(result(e, "A", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 1);
  CHECK_EQ_INT(result(e, "B", &tag, err), CZ_JOB_FAILED);
  CHECK(strstr(err, "job 2 item 1 failed") != NULL);
  CHECK_EQ_INT(result(e, "C", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 3);
  CHECK(S.overlap_seen);
  CHECK(S.status_seen);
  CHECK(S.early_seen);
  /* A's three items, then (B's item 0 at most) C's two, in order. */
  CHECK(S.proved == 5 || S.proved == 6);
  for (int k = 1; k < S.proved; k++) CHECK(S.order[k] > S.order[k - 1]);
  CHECK_EQ_INT(S.order[0], 10);
  CHECK_EQ_INT(S.order[S.proved - 1], 31);
  CHECK_EQ_INT(S.proved + S.discarded, S.synthesized); /* no state leaked */
  CHECK_EQ_INT(S.parses, 3);                           /* one parse per job */
  CHECK_EQ_INT(S.frees, 3);
  cz_engine_stats st;
  cz_engine_get_stats(e, &st);
  CHECK_EQ_INT(st.memory_used, 0);
  CHECK_EQ_INT(st.completed[CZ_KIND_POREP_SEAL_COMMIT], 2);
  CHECK_EQ_INT(st.failed[CZ_KIND_POREP_SEAL_COMMIT], 1);
}

/* A job cancelled in the middle of a batch: the others complete. */
static void test_cancel_in_batch(cz_engine *e) {
  S.proved = S.discarded = S.synthesized = 0;
  submit(e, "D", "tag=4 items=3 block=1"); /* item 1's proving waits for the cancel */
  submit(e, "E", "tag=5 items=2");
  submit(e, "F", "tag=6 items=1");
  test_wait(test_flag, &(test_locked_flag){&S.mu, &S.blocked}, 60, "D's blocked item");
  bool was_running = false;
  CHECK_EQ_INT(cz_engine_cancel(e, "D", &was_running), CZ_OK);
  CHECK(was_running);
  uint64_t tag;
  char err[512];
  CHECK_EQ_INT(result(e, "D", &tag, err), CZ_JOB_CANCELLED);
  CHECK_EQ_INT(result(e, "E", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 5);
  CHECK_EQ_INT(result(e, "F", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 6);
  CHECK_EQ_INT(S.proved, 2 + 2 + 1); /* D's items 0 and 1, E's two, F's one */
  CHECK_EQ_INT(S.proved + S.discarded, S.synthesized);
  CHECK_EQ_INT(S.frees, 6);
}

int main(void) {
  cz_engine *e = make_engine();
  test_refused_parse(e);
  test_queued_batch(e);
  CHECK(cz_engine_start(e) == CZ_OK);
  test_batch_results(e);
  test_cancel_in_batch(e);
  test_computed(e);

  cz_engine_destroy(e);
  return check_report("test_batch");
}
