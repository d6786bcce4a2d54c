/* The batch path end to end through the engine: a prover with parse (one
 * parse per job, the model kept with the job and charged to the budget)
 * and prove_batch over cz_jobs_pipeline. Checks: three same-kind jobs are
 * collected into one batch; their items are proved job after job, in
 * order, with the next job's synthesis overlapping the current job's
 * proving; one job whose synthesis fails fails alone; a job cancelled in
 * the middle of a batch is cancelled alone; each job's answer is its own;
 * GET /status's per-partition data (cz_engine_list_jobs) follows the
 * items; nothing leaks (ASan). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/engine_prover.h"

typedef struct {
  uint64_t items, fail_at, block_at; /* fail_at / block_at: item + 1, 0 = none */
  uint64_t tag;
} model;

typedef struct {
  pthread_mutex_t mu;
  int parses, frees, synth_started, synthesized, proved, discarded;
  int order[32];     /* global item order: job * 10 + item */
  int synth_job_max; /* highest job index whose synthesis started */
  bool overlap_seen, blocked, status_seen;
  bool early_seen; /* A was answered while C was still being proved */
  bool want_shape; /* m_batch takes a reference to the computed entry "shape-x" */
  int shape_ok, loads, unloads;
  cz_job *blocked_job;
  cz_engine *e;
} state;

static state S = {.mu = PTHREAD_MUTEX_INITIALIZER};

static cz_err m_parse(void *self, const cz_job_request *req, void **out, uint64_t *bytes, char *msg,
                      size_t msg_len) {
  (void)self;
  if (req->sector_number == 0) {
    snprintf(msg, msg_len, "no items");
    return CZ_ERR_INVALID_ARG;
  }
  model *m = malloc(sizeof *m);
  m->items = req->sector_number;
  m->fail_at = req->partition_index;
  m->block_at = req->miner_id;
  m->tag = req->sector_size * 1000 + req->sector_number;
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

typedef struct {
  cz_job *const *jobs;
  const model **models;
} bctx;

/* Each job is answered as soon as it is over, with its own tag. */
static void b_done(void *ctx, size_t j, cz_err err, const char *msg) {
  bctx *c = ctx;
  uint8_t *proof = NULL;
  if (err == CZ_OK) {
    proof = malloc(8);
    memcpy(proof, &c->models[j]->tag, 8);
  }
  cz_job_finish(c->jobs[j], err, proof, proof ? 8 : 0, msg);
}

static cz_err b_synth(void *ctx, size_t j, size_t i, void **st, char *msg, size_t msg_len) {
  bctx *c = ctx;
  pthread_mutex_lock(&S.mu);
  S.synth_started++;
  if ((int)j > S.synth_job_max) S.synth_job_max = (int)j;
  pthread_mutex_unlock(&S.mu);
  if (c->models[j]->fail_at == i + 1) {
    snprintf(msg, msg_len, "synthesis of job %zu item %zu failed", j, i);
    return CZ_ERR_PARSE;
  }
  uint64_t *v = malloc(sizeof *v);
  *v = c->models[j]->tag * 100 + i;
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

static cz_err b_prove(void *ctx, size_t j, size_t i, void *st, char *msg, size_t msg_len) {
  bctx *c = ctx;
  (void)msg, (void)msg_len;
  uint64_t v = *(uint64_t *)st;
  free(st);
  const model *m = c->models[j];
  if (j == 0 && i + 1 == m->items) { /* the next job's synthesis overlaps this proving */
    for (int k = 0; k < 5000; k++) {
      pthread_mutex_lock(&S.mu);
      bool seen = S.synth_job_max >= 1;
      pthread_mutex_unlock(&S.mu);
      if (seen) {
        S.overlap_seen = true;
        break;
      }
      usleep(1000);
    }
  }
  if (j == 0 && i == 1) { /* the status shows this job's partitions */
    cz_job_info info;
    if (find_job(cz_job_id(c->jobs[0]), &info) && info.running && info.n_partitions == m->items &&
        info.partitions[0].state == CZ_PART_DONE && info.partitions[1].state == CZ_PART_PROVING &&
        info.partitions[0].synth_start_ms > 0 && info.partitions[1].prove_start_ms > 0)
      S.status_seen = info.batch_size == 3;
  }
  if (j == 2 && i + 1 == m->items && m->tag == 3002) {
    cz_job_result res;
    if (cz_engine_await(S.e, "A", 1, &res) == CZ_OK && res.status == CZ_JOB_COMPLETED &&
        res.proof_len == 8)
      S.early_seen = true;
    free(res.proof);
  }
  if (m->block_at == i + 1) {
    pthread_mutex_lock(&S.mu);
    S.blocked = true;
    S.blocked_job = c->jobs[j];
    pthread_mutex_unlock(&S.mu);
    while (!cz_job_cancelled(c->jobs[j])) usleep(1000);
  }
  pthread_mutex_lock(&S.mu);
  if (S.proved < 32) S.order[S.proved] = (int)(j * 10 + i);
  S.proved++;
  pthread_mutex_unlock(&S.mu);
  return v == m->tag * 100 + i ? CZ_OK : CZ_ERR_PROOF_INVALID;
}

static void b_discard(void *ctx, size_t j, size_t i, void *st) {
  (void)ctx, (void)j, (void)i;
  free(st);
  pthread_mutex_lock(&S.mu);
  S.discarded++;
  pthread_mutex_unlock(&S.mu);
}

static void m_batch(void *self, const cz_job_request *const *reqs, cz_job *const *jobs, size_t n,
                    uint8_t **proofs, size_t *lens, cz_err *errs, char (*msgs)[512]) {
  (void)self;
  const model *models[8] = {0};
  size_t items[8] = {0};
  CHECK(n <= 8);
  for (size_t j = 0; j < n && j < 8; j++) {
    models[j] = cz_request_model(reqs[j]);
    items[j] = models[j]->items;
  }
  for (size_t j = 0; S.want_shape && j < n; j++) {
    char why[128];
    const char *obj = cz_job_acquire_srs(jobs[j], "shape-x", why, sizeof why);
    if (obj && !strcmp(obj, "shape")) S.shape_ok++;
  }
  bctx c = {jobs, models};
  /* The first batch answers early (job_done); the others at the end. */
  cz_batch_pipeline p = {b_synth, b_prove, b_discard, &c, 2, 1,
                         models[0]->tag == 1003 ? b_done : NULL, false};
  cz_jobs_pipeline(jobs, n, items, &p, errs, msgs);
  for (size_t j = 0; j < n && !p.job_done; j++) {
    if (errs[j] != CZ_OK) continue;
    proofs[j] = malloc(8); /* the job's own answer: its tag */
    memcpy(proofs[j], &models[j]->tag, 8);
    lens[j] = 8;
  }
}

static cz_err m_prove(void *self, const cz_job_request *req, cz_job *job, uint8_t **proof,
                      size_t *len, char *msg, size_t msg_len) {
  (void)self, (void)req, (void)job;
  snprintf(msg, msg_len, "the batch path was expected");
  (void)proof, (void)len;
  return CZ_ERR_INVALID_ARG;
}

static void submit(cz_engine *e, const char *id, uint64_t tag, uint64_t items, uint32_t fail_at,
                   uint64_t block_at) {
  cz_job_request r = {.request_id = id, .kind = CZ_KIND_POREP_SEAL_COMMIT, .sector_size = tag,
                      .sector_number = items, .partition_index = fail_at, .miner_id = block_at};
  char job_id[CZ_JOB_ID_MAX], msg[256];
  cz_err st = cz_engine_submit(e, &r, job_id, NULL, msg, sizeof msg);
  if (st != CZ_OK) fprintf(stderr, "submit %s: %s\n", id, msg);
  CHECK_EQ_INT(st, CZ_OK);
}

static cz_job_status result(cz_engine *e, const char *id, uint64_t *tag, char *err) {
  cz_job_result res;
  CHECK_EQ_INT(cz_engine_await(e, id, 0, &res), CZ_OK);
  *tag = 0;
  if (res.proof_len == 8) memcpy(tag, res.proof, 8);
  snprintf(err, 512, "%s", res.error);
  free(res.proof);
  return res.status;
}

/* A computed SRS entry: made by the loader (no file), 2500 bytes. */
static cz_err c_load(void *self, const char *id, const uint8_t *file, size_t len, void **obj,
                     uint64_t *bytes, char *msg, size_t msg_len) {
  (void)self, (void)msg, (void)msg_len;
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
  S.want_shape = true; /* the jobs make it hot */
  S.shape_ok = 0;
  submit(e, "G", 7, 1, 0, 0);
  submit(e, "H", 8, 1, 0, 0);
  submit(e, "I", 9, 1, 0, 0);
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

int main(void) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 1;
  cfg.memory_budget = 1 << 20;
  cfg.max_batch_size = 3;
  cfg.max_batch_wait_ms = 20000; /* the batch closes when full */
  cfg.timeline = false;
  cfg.eviction_min_idle_ms = 0;
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &cfg, NULL, 0) == CZ_OK);
  S.e = e;
  cz_engine_prover pv = {.name = "batch-double", .prove = m_prove, .prove_batch = m_batch,
                         .parse = m_parse, .free_model = m_free};
  CHECK(cz_engine_register_prover(e, CZ_KIND_POREP_SEAL_COMMIT, &pv) == CZ_OK);
  cz_srs_loader ld = {c_load, c_unload, NULL};
  CHECK(cz_engine_register_computed_srs(e, "shape-x", 3000, &ld) == CZ_OK);
  CHECK(cz_engine_register_computed_srs(e, "shape-big", (1 << 20) - 1000, &ld) == CZ_OK);
  CHECK(cz_engine_register_computed_srs(e, "shape-huge", (1 << 20) + 1, &ld) == CZ_OK);
  CHECK(cz_engine_register_computed_srs(e, "shape-x", 3000, &ld) == CZ_ERR_INVALID_ARG);

  /* A refused parse answers INVALID at submit with the prover's message. */
  cz_job_request bad = {.request_id = "bad", .kind = CZ_KIND_POREP_SEAL_COMMIT};
  char job_id[CZ_JOB_ID_MAX], msg[256];
  CHECK_EQ_INT(cz_engine_submit(e, &bad, job_id, NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "no items") != NULL);

  /* Queued before the worker starts: the models are charged meanwhile. */
  submit(e, "A", 1, 3, 0, 0);
  submit(e, "B", 2, 3, 2, 0); /* its item 1 fails */
  submit(e, "C", 3, 2, 0, 0);
  cz_engine_stats st;
  cz_engine_get_stats(e, &st);
  CHECK(st.memory_used >= 3 * 4096);
  cz_job_info info;
  CHECK(find_job("B", &info) && !info.running && info.n_partitions == 0);
  CHECK_EQ_INT(S.parses, 3);
  CHECK(cz_engine_start(e) == CZ_OK);

  uint64_t tag;
  char err[512];
  CHECK_EQ_INT(result(e, "A", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 1003);
  CHECK_EQ_INT(result(e, "B", &tag, err), CZ_JOB_FAILED);
  CHECK(strstr(err, "job 1 item 1 failed") != NULL);
  CHECK_EQ_INT(result(e, "C", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 3002);
  CHECK(S.overlap_seen);
  CHECK(S.status_seen);
  CHECK(S.early_seen);
  /* A's three items, then (B's item 0 at most) C's two, in order. */
  CHECK(S.proved == 5 || S.proved == 6);
  for (int k = 1; k < S.proved; k++) CHECK(S.order[k] > S.order[k - 1]);
  CHECK_EQ_INT(S.order[0], 0);
  CHECK_EQ_INT(S.order[S.proved - 1], 21);
  CHECK_EQ_INT(S.proved + S.discarded, S.synthesized); /* no state leaked */
  CHECK_EQ_INT(S.parses, 3);                           /* one parse per job */
  CHECK_EQ_INT(S.frees, 3);
  cz_engine_get_stats(e, &st);
  CHECK_EQ_INT(st.memory_used, 0);
  CHECK_EQ_INT(st.completed[CZ_KIND_POREP_SEAL_COMMIT], 2);
  CHECK_EQ_INT(st.failed[CZ_KIND_POREP_SEAL_COMMIT], 1);

  /* A job cancelled in the middle of a batch: the others complete. */
  S.proved = S.discarded = S.synthesized = 0;
  submit(e, "D", 4, 3, 0, 2); /* item 1's proving waits for the cancel */
  submit(e, "E", 5, 2, 0, 0);
  submit(e, "F", 6, 1, 0, 0);
  for (;;) {
    pthread_mutex_lock(&S.mu);
    bool there = S.blocked;
    pthread_mutex_unlock(&S.mu);
    if (there) break;
    usleep(1000);
  }
  bool was_running = false;
  CHECK_EQ_INT(cz_engine_cancel(e, "D", &was_running), CZ_OK);
  CHECK(was_running);
  CHECK_EQ_INT(result(e, "D", &tag, err), CZ_JOB_CANCELLED);
  CHECK_EQ_INT(result(e, "E", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 5002);
  CHECK_EQ_INT(result(e, "F", &tag, err), CZ_JOB_COMPLETED);
  CHECK_EQ_INT(tag, 6001);
  CHECK_EQ_INT(S.proved, 2 + 2 + 1); /* D's items 0 and 1, E's two, F's one */
  CHECK_EQ_INT(S.proved + S.discarded, S.synthesized);
  CHECK_EQ_INT(S.frees, 6);
  test_computed(e);

  cz_engine_destroy(e);
  return check_report("test_batch");
}
