/* The engine: job table, priority queue, batch collector and workers.
 * One mutex guards the table, the queue and the counters: every critical
 * section is short (no proving, loading or waiting happens under it). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>
#include "cuzk/clock.h"
#include "cuzk/log.h"
#include "cuzk/sha256.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

#define N_BUCKETS 4096

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE } job_state;

struct cz_job {
  char id[CZ_JOB_ID_MAX];
  cz_job_request req;        /* deep copy; its bytes live in blob */
  uint8_t *blob;
  size_t blob_len;           /* charged to the budget while the job lives */
  cz_bytes *vps;
  cz_priority prio;
  uint64_t seq;
  job_state state;
  cz_job_status status;      /* when DONE */
  uint8_t *proof;
  size_t proof_len;
  char error[512];
  cz_job_timings t;
  uint64_t submit_ms, start_ms;
  atomic_bool cancel;
  uint64_t mem_reserved;
  cz_srs_entry *srs;
  cz_srs_entry *extra_srs[4]; /* cz_job_acquire_srs */
  unsigned n_extra_srs;
  void *model;               /* the prover's parse of req (cz_request_model) */
  uint64_t model_bytes;      /* charged to the budget with blob_len */
  void (*free_model)(void *self, void *model);
  void *model_self;
  cz_partition_status *items; /* the pipeline's items (under e->mu) */
  size_t n_items;
  uint32_t batch_size;
  bool answered;             /* a batch member answered early (cz_job_finish) */
  unsigned waiters;          /* cz_engine_await calls holding a pointer */
  unsigned pins;             /* run_batch holding a pointer */
  uint8_t input[CZ_SHA256_BYTES]; /* input_digest of req, kept after DONE */
  bool superseded;           /* its request_id now names a newer job */
  cz_engine *e;
  cz_job *qnext, *hnext, *fnext;
};

typedef struct {
  pthread_t thread;
  unsigned index;
  cz_priority min_prio;      /* the lowest priority it takes (urgent workers: HIGH) */
  cz_job *current;
} worker;

struct cz_engine {
  cz_engine_config cfg;
  char *param_cache;
  pthread_mutex_t mu;
  pthread_cond_t work_cv, done_cv;
  cz_job *buckets[N_BUCKETS];
  cz_job *qhead[CZ_PRIO_COUNT], *qtail[CZ_PRIO_COUNT];
  cz_job *fin_head, *fin_tail; /* finished jobs, oldest first */
  size_t n_finished, n_jobs;
  uint64_t seq;
  bool has_prover[CZ_KIND_COUNT];
  cz_engine_prover provers[CZ_KIND_COUNT];
  bool started, stopping, drain, joined;
  worker *workers;
  unsigned n_workers;
  cz_membudget budget;
  cz_srs_manager *srs;
  cz_synth_slots synth;        /* cfg.max_parallel_synthesis */
  uint64_t start_ms;
  char backend[32], backend_note[256]; /* under mu */
  /* counters (under mu) */
  uint32_t pending[CZ_KIND_COUNT], running[CZ_KIND_COUNT];
  uint64_t completed[CZ_KIND_COUNT], failed[CZ_KIND_COUNT], cancelled[CZ_KIND_COUNT];
  uint64_t dur_sum[CZ_KIND_COUNT], dur_count[CZ_KIND_COUNT];
  cz_histogram dur_hist[CZ_KIND_COUNT]; /* submit-to-result of completed jobs */
};

const char *cz_proof_kind_label(cz_proof_kind k) {
  static const char *const names[CZ_KIND_COUNT] = {"unspecified", "porep_c2", "snap_update",
                                                   "window_post", "winning_post"};
  return (unsigned)k < CZ_KIND_COUNT ? names[k] : NULL;
}

cz_priority cz_proof_kind_default_priority(cz_proof_kind k) {
  if (k == CZ_KIND_WINNING_POST) return CZ_PRIO_CRITICAL;
  if (k == CZ_KIND_WINDOW_POST_PARTITION) return CZ_PRIO_HIGH;
  return CZ_PRIO_NORMAL;
}

void cz_engine_config_default(cz_engine_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->n_workers = 2;
  cfg->memory_budget = 0;
  cfg->safety_margin = 5ull << 30;
  cfg->eviction_min_idle_ms = 5 * 60 * 1000;
  cfg->max_batch_size = 1;
  cfg->max_batch_wait_ms = 10000;
  cfg->param_cache = "/data/zk/params";
  cfg->max_finished_jobs = 10000;
  cfg->timeline = true;
}

uint64_t cz_engine_auto_budget(uint64_t safety_margin) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long kb = 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) break;
  fclose(f);
  uint64_t total = (uint64_t)kb * 1024u;
  return total > safety_margin ? total - safety_margin : 0;
}

/* TIMELINE,<ms since start>,<EVENT>,<job>,<detail>,ts=<RFC 3339 UTC>: the
 * wall-clock time is the last key=value of the detail, so that readers which
 * split on ',' at fixed positions (bench/daemon/timeline.py, post_latency.sh,
 * test_engine) keep their fields; readers anchored at the end of the detail
 * (daemon_porep_e2e.py) allow the ts= field. One fprintf: lines never mix. */
static void timeline(cz_engine *e, const char *event, const char *job, const char *detail) {
  if (!e->cfg.timeline) return;
  char ts[25];
  fprintf(stderr, "TIMELINE,%llu,%s,%s,%s%sts=%s\n",
          (unsigned long long)(cz_now_ms() - e->start_ms), event, job ? job : "",
          detail ? detail : "", detail && detail[0] ? "," : "", cz_log_timestamp(ts));
  fflush(stderr);
}

static uint64_t srs_pressure(void *ctx, uint64_t wanted) {
  return cz_srs_evict_idle(((cz_engine *)ctx)->srs, wanted);
}

cz_err cz_engine_create(cz_engine **out, const cz_engine_config *cfg_in, char *msg,
                        size_t msg_len) {
  *out = NULL;
  cz_engine_config cfg;
  if (cfg_in) cfg = *cfg_in;
  else cz_engine_config_default(&cfg);
  if (cfg.n_workers == 0) cfg.n_workers = 2;
  if (cfg.n_workers > CZ_ENGINE_MAX_WORKERS) cfg.n_workers = CZ_ENGINE_MAX_WORKERS;
  if (cfg.urgent_workers > CZ_ENGINE_MAX_WORKERS - cfg.n_workers)
    cfg.urgent_workers = CZ_ENGINE_MAX_WORKERS - cfg.n_workers;
  if (cfg.max_finished_jobs == 0) cfg.max_finished_jobs = 10000;
  uint64_t budget = cfg.memory_budget ? cfg.memory_budget : cz_engine_auto_budget(cfg.safety_margin);
  if (budget == 0) {
    if (msg) cz_msg(msg, msg_len, "auto memory budget: MemTotal unreadable or below the safety margin");
    return CZ_ERR_INVALID_ARG;
  }
  cz_engine *e = calloc(1, sizeof *e);
  if (!e) return CZ_ERR_NOMEM;
  e->param_cache = strdup(cfg.param_cache ? cfg.param_cache : "/data/zk/params");
  e->workers = calloc(cfg.n_workers + cfg.urgent_workers, sizeof *e->workers);
  cz_membudget_init(&e->budget, budget);
  cz_synth_slots_init(&e->synth, cfg.max_parallel_synthesis);
  e->srs = cz_srs_manager_new(&e->budget, e->param_cache, cfg.eviction_min_idle_ms);
  if (!e->param_cache || !e->workers || !e->srs) {
    cz_srs_manager_free(e->srs);
    cz_synth_slots_destroy(&e->synth);
    cz_membudget_destroy(&e->budget);
    free(e->workers);
    free(e->param_cache);
    free(e);
    return CZ_ERR_NOMEM;
  }
  cfg.param_cache = e->param_cache;
  cfg.memory_budget = budget;
  for (int k = 0; k < CZ_KIND_COUNT; k++)
    cz_histogram_init(&e->dur_hist[k], cz_hist_bounds_proof, cz_hist_bounds_proof_n);
  e->cfg = cfg;
  e->n_workers = cfg.n_workers + cfg.urgent_workers;
  for (unsigned i = 0; i < e->n_workers; i++)
    e->workers[i].min_prio = i < cfg.n_workers ? CZ_PRIO_LOW : CZ_PRIO_HIGH;
  e->budget.pressure = srs_pressure;
  e->budget.pressure_ctx = e;
  pthread_mutex_init(&e->mu, NULL);
  pthread_cond_init(&e->work_cv, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&e->done_cv, &ca);
  pthread_cond_destroy(&e->work_cv);
  pthread_cond_init(&e->work_cv, &ca); /* the batch collector waits with a deadline */
  pthread_condattr_destroy(&ca);
  e->start_ms = cz_now_ms();
  *out = e;
  return CZ_OK;
}

cz_err cz_engine_register_prover(cz_engine *e, cz_proof_kind kind, const cz_engine_prover *p) {
  if (kind <= CZ_KIND_UNSPECIFIED || kind >= CZ_KIND_COUNT || !p || !p->prove) return CZ_ERR_INVALID_ARG;
  pthread_mutex_lock(&e->mu);
  cz_err err = CZ_OK;
  if (e->started) err = CZ_ERR_INVALID_ARG;
  else e->provers[kind] = *p, e->has_prover[kind] = true;
  pthread_mutex_unlock(&e->mu);
  return err;
}

cz_err cz_engine_register_srs(cz_engine *e, const char *circuit_id, const char *path,
                              const cz_srs_loader *loader) {
  return cz_srs_register(e->srs, circuit_id, path, loader);
}

/* ---- the job table ----------------------------------------------------- */

static size_t hash_id(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
  return (size_t)(h % N_BUCKETS);
}

/* The job a request_id names now: a superseded one stays in the table (a
 * worker or an awaiter may still hold it, shutdown must still see it) until
 * it ages out, but no id reaches it. */
static cz_job *lookup(cz_engine *e, const char *id) {
  for (cz_job *j = e->buckets[hash_id(id)]; j; j = j->hnext)
    if (!j->superseded && strcmp(j->id, id) == 0) return j;
  return NULL;
}

static void job_drop_model(cz_job *j) {
  if (j->model && j->free_model) j->free_model(j->model_self, j->model);
  j->model = NULL;
}

static void job_free(cz_job *j) {
  job_drop_model(j);
  free(j->items);
  free(j->proof);
  free(j->blob);
  free(j->vps);
  free(j);
}

static void unlink_job(cz_engine *e, cz_job *j) {
  cz_job **pp = &e->buckets[hash_id(j->id)];
  while (*pp != j) pp = &(*pp)->hnext;
  *pp = j->hnext;
  e->n_jobs--;
}

/* Drop the oldest finished jobs beyond the retention limit (never one an
 * awaiter or a batch still holds). */
static void prune_finished(cz_engine *e) {
  cz_job **pp = &e->fin_head, *prev = NULL;
  while (e->n_finished > e->cfg.max_finished_jobs && *pp) {
    cz_job *j = *pp;
    if (j->waiters || j->pins) {
      prev = j;
      pp = &j->fnext;
      continue;
    }
    *pp = j->fnext;
    if (e->fin_tail == j) e->fin_tail = prev;
    e->n_finished--;
    unlink_job(e, j);
    job_free(j);
  }
}

static void random_uuid(char out[37]) {
  static atomic_uint_fast64_t fallback = 0;
  uint8_t b[16];
  if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
    /* Unique within the process is all a job id needs. */
    uint64_t x = atomic_fetch_add(&fallback, 1) ^ cz_now_ms() << 20;
    for (int i = 0; i < 16; i++) b[i] = (uint8_t)(x >> (8 * (i % 8))) ^ (uint8_t)i;
  }
  b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
  b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
  snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
           b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
           b[15]);
}

/* Deep copy of a request into one blob. */
static cz_err copy_request(cz_job *j, const cz_job_request *r) {
  size_t total = r->vanilla_proof.len + r->randomness.len + r->comm_r_old.len +
                 r->comm_r_new.len + r->comm_d_new.len;
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) total += r->vanilla_proofs[i].len;
  j->blob = malloc(total ? total : 1);
  j->blob_len = total;
  j->vps = r->n_vanilla_proofs ? calloc(r->n_vanilla_proofs, sizeof *j->vps) : NULL;
  if (!j->blob || (r->n_vanilla_proofs && !j->vps)) return CZ_ERR_NOMEM;
  uint8_t *p = j->blob;
  j->req = *r;
  j->req.request_id = j->id;
#define COPY(dst, src)                                  \
  do {                                                  \
    if ((src).len) memcpy(p, (src).data, (src).len);    \
    (dst).data = p;                                     \
    (dst).len = (src).len;                              \
    p += (src).len;                                     \
  } while (0)
  COPY(j->req.vanilla_proof, r->vanilla_proof);
  COPY(j->req.randomness, r->randomness);
  COPY(j->req.comm_r_old, r->comm_r_old);
  COPY(j->req.comm_r_new, r->comm_r_new);
  COPY(j->req.comm_d_new, r->comm_d_new);
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) COPY(j->vps[i], r->vanilla_proofs[i]);
#undef COPY
  j->req.vanilla_proofs = j->vps;
  return CZ_OK;
}

static void put_u64(cz_sha256_ctx *c, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
  cz_sha256_update(c, b, sizeof b);
}

/* What decides the proof, as SHA-256 over every field and every byte
 * length, then the digest of the copied bytes (one contiguous blob, hashed
 * one-shot: SHA-NI through OpenSSL, where the streaming code is portable C
 * and a PoRep C1 is megabytes). Priority is left
 * out: it orders the queue and does not change the proof, so a retry that
 * raises it joins the job instead of restarting it. request_id is the key
 * the digest is compared under, not part of it. */
static void input_digest(cz_job *j) {
  const cz_job_request *r = &j->req;
  uint8_t blob[CZ_SHA256_BYTES];
  cz_sha256_digest(blob, j->blob, j->blob_len);
  cz_sha256_ctx c;
  cz_sha256_init(&c);
  cz_sha256_update(&c, "cuzk-job-input-v1", 17);
  put_u64(&c, (uint64_t)r->kind);
  put_u64(&c, r->sector_size);
  put_u64(&c, r->registered_proof);
  put_u64(&c, r->sector_number);
  put_u64(&c, r->miner_id);
  put_u64(&c, r->partition_index);
  put_u64(&c, r->vanilla_proof.len);
  put_u64(&c, r->randomness.len);
  put_u64(&c, r->comm_r_old.len);
  put_u64(&c, r->comm_r_new.len);
  put_u64(&c, r->comm_d_new.len);
  put_u64(&c, r->n_vanilla_proofs);
  for (size_t i = 0; i < r->n_vanilla_proofs; i++) put_u64(&c, r->vanilla_proofs[i].len);
  cz_sha256_update(&c, blob, sizeof blob);
  cz_sha256_final(&c, j->input);
}

static bool optional32(cz_bytes b) { return b.len == 0 || b.len == 32; }

static cz_engine_status check_request(const cz_engine *e, const cz_job_request *r, char *msg,
                                      size_t msg_len) {
  if (r->request_id) {
    size_t n = strlen(r->request_id);
    if (n >= CZ_JOB_ID_MAX) {
      cz_msg(msg, msg_len, "request_id is %zu bytes long (at most %d)", n, CZ_JOB_ID_MAX - 1);
      return CZ_ENG_INVALID;
    }
    for (size_t i = 0; i < n; i++)
      if ((unsigned char)r->request_id[i] < 0x20 || r->request_id[i] == 0x7f) {
        cz_msg(msg, msg_len, "request_id holds a control character");
        return CZ_ENG_INVALID;
      }
  }
  if (r->kind == CZ_KIND_UNSPECIFIED) {
    cz_msg(msg, msg_len, "proof_kind is unset");
    return CZ_ENG_INVALID;
  }
  if ((unsigned)r->kind >= CZ_KIND_COUNT) {
    cz_msg(msg, msg_len, "unknown proof_kind %u", (unsigned)r->kind);
    return CZ_ENG_INVALID;
  }
  if ((unsigned)r->priority >= CZ_PRIO_COUNT) {
    cz_msg(msg, msg_len, "unknown priority %u", (unsigned)r->priority);
    return CZ_ENG_INVALID;
  }
  if (!optional32(r->randomness) || !optional32(r->comm_r_old) || !optional32(r->comm_r_new) ||
      !optional32(r->comm_d_new)) {
    cz_msg(msg, msg_len, "randomness and comm_r_old/comm_r_new/comm_d_new must be 32 bytes");
    return CZ_ENG_INVALID;
  }
  if (!e->has_prover[r->kind]) {
    cz_msg(msg, msg_len, "no prover for proof kind %s in this build",
             cz_proof_kind_label(r->kind));
    return CZ_ENG_UNIMPLEMENTED;
  }
  return CZ_ENG_OK;
}

/* Jobs that will run before j (caller holds mu; j queued). */
static uint32_t queue_position(cz_engine *e, const cz_job *j) {
  uint32_t n = 0;
  for (int p = CZ_PRIO_CRITICAL; p >= (int)j->prio; p--)
    for (cz_job *q = e->qhead[p]; q && q != j; q = q->qnext) n++;
  return n;
}

static void finish_locked(cz_engine *e, cz_job *j, cz_job_status st, const char *why) {
  uint64_t now = cz_now_ms();
  if (j->state == JOB_QUEUED) {
    e->pending[j->req.kind]--;
    j->t.queue_wait_ms = now - j->submit_ms;
  } else if (j->state == JOB_RUNNING) {
    e->running[j->req.kind]--;
  }
  j->state = JOB_DONE;
  j->status = st;
  /* The request's bytes and its model are no longer needed: only the
   * result is kept. */
  cz_membudget_release(&e->budget, j->blob_len + j->model_bytes);
  j->blob_len = 0;
  j->model_bytes = 0;
  job_drop_model(j);
  free(j->blob);
  free(j->vps);
  j->blob = NULL;
  j->vps = NULL;
  memset(&j->req.vanilla_proof, 0, sizeof j->req.vanilla_proof);
  j->req.vanilla_proofs = NULL;
  j->req.n_vanilla_proofs = 0;
  j->req.randomness = j->req.comm_r_old = j->req.comm_r_new = j->req.comm_d_new = (cz_bytes){0};
  j->t.total_ms = now - j->submit_ms;
  if (why && why != j->error) snprintf(j->error, sizeof j->error, "%s", why);
  cz_proof_kind k = j->req.kind;
  if (st == CZ_JOB_COMPLETED) {
    e->completed[k]++;
    e->dur_sum[k] += j->t.total_ms;
    e->dur_count[k]++;
    cz_histogram_observe(&e->dur_hist[k], (now - j->submit_ms) * 1000000u);
  } else if (st == CZ_JOB_FAILED) {
    e->failed[k]++;
  } else {
    e->cancelled[k]++;
  }
  j->fnext = NULL;
  if (e->fin_tail) e->fin_tail->fnext = j;
  else e->fin_head = j;
  e->fin_tail = j;
  e->n_finished++;
  pthread_cond_broadcast(&e->done_cv);
  char detail[64];
  static const char *const names[] = {"unknown", "completed", "failed", "cancelled", "timeout"};
  snprintf(detail, sizeof detail, "status=%s,total_ms=%llu", names[st],
           (unsigned long long)j->t.total_ms);
  timeline(e, "END", j->id, detail);
  prune_finished(e);
}

static void unqueue(cz_engine *e, cz_job *j);

/* Whether a new submit under old's request_id gets old back: the same
 * input while old is queued or running (and not being cancelled), or once
 * it COMPLETED (its proof is the answer). A FAILED or CANCELLED job is run
 * again: Curio retries a sector under the same id, and a failure may have
 * been this machine's (memory, a cancelled drain), not the input's. */
static bool reuse(const cz_job *old, const cz_job *j) {
  if (memcmp(old->input, j->input, sizeof j->input) != 0) return false;
  if (old->state == JOB_DONE) return old->status == CZ_JOB_COMPLETED;
  return !atomic_load(&old->cancel);
}

/* old's request_id now names a newer job (caller holds mu). An unfinished
 * old job that no AwaitProof waits for is cancelled: its proof answers an
 * input nobody asks about any more (after a reorg, a stale seed). One that
 * is awaited runs on and answers its awaiters only. */
static void supersede_locked(cz_engine *e, cz_job *old) {
  old->superseded = true;
  if (old->state == JOB_DONE || old->waiters) return;
  atomic_store(&old->cancel, true);
  if (old->state == JOB_QUEUED) {
    unqueue(e, old);
    timeline(e, "CANCELLED", old->id, "superseded");
    finish_locked(e, old, CZ_JOB_CANCELLED, "cancelled: its request_id was resubmitted with another input");
  } else {
    timeline(e, "CANCELLED", old->id, "superseded");
  }
}

cz_engine_status cz_engine_submit(cz_engine *e, const cz_job_request *req,
                                  char job_id[CZ_JOB_ID_MAX], uint32_t *queue_pos, char *msg,
                                  size_t msg_len) {
  char dummy[1];
  if (!msg || !msg_len) msg = dummy, msg_len = sizeof dummy;
  msg[0] = 0;
  if (queue_pos) *queue_pos = 0;
  job_id[0] = 0;
  cz_engine_status st = check_request(e, req, msg, msg_len);
  if (st != CZ_ENG_OK) return st;
  const cz_engine_prover *pv = &e->provers[req->kind];

  cz_job *j = calloc(1, sizeof *j);
  if (!j) {
    cz_msg(msg, msg_len, "out of memory");
    return CZ_ENG_FAILED;
  }
  if (req->request_id && req->request_id[0]) snprintf(j->id, sizeof j->id, "%s", req->request_id);
  else random_uuid(j->id);
  if (copy_request(j, req) != CZ_OK) {
    job_free(j);
    cz_msg(msg, msg_len, "out of memory copying the request");
    return CZ_ENG_FAILED;
  }
  input_digest(j);
  /* Hooks see the job's own copy, so that cz_request_model finds the model
   * the parse made (one parse per job). */
  if (pv->parse) {
    j->free_model = pv->free_model;
    j->model_self = pv->self;
    if (pv->parse(pv->self, &j->req, &j->model, &j->model_bytes, msg, msg_len) != CZ_OK) {
      if (!msg[0]) cz_msg(msg, msg_len, "the %s prover refused the request", pv->name);
      job_free(j);
      return CZ_ENG_INVALID;
    }
  }
  if (pv->validate && pv->validate(pv->self, &j->req, msg, msg_len) != CZ_OK) {
    if (!msg[0]) cz_msg(msg, msg_len, "the %s prover refused the request", pv->name);
    job_free(j);
    return CZ_ENG_INVALID;
  }
  uint64_t need = pv->mem_estimate ? pv->mem_estimate(pv->self, &j->req) : 0;
  j->e = e;
  j->prio = req->priority == CZ_PRIO_UNSPECIFIED ? cz_proof_kind_default_priority(req->kind)
                                                 : req->priority;
  j->req.priority = j->prio;
  atomic_init(&j->cancel, false);

  pthread_mutex_lock(&e->mu);
  if (e->stopping) {
    pthread_mutex_unlock(&e->mu);
    job_free(j);
    cz_msg(msg, msg_len, "the engine is shutting down");
    return CZ_ENG_UNAVAILABLE;
  }
  cz_job *old = lookup(e, j->id);
  if (old && reuse(old, j)) {
    snprintf(job_id, CZ_JOB_ID_MAX, "%s", old->id);
    if (queue_pos && old->state == JOB_QUEUED) *queue_pos = queue_position(e, old);
    pthread_mutex_unlock(&e->mu);
    job_free(j);
    return CZ_ENG_OK;
  }
  if (!cz_membudget_try_reserve(&e->budget, j->blob_len + j->model_bytes)) {
    pthread_mutex_unlock(&e->mu);
    cz_msg(msg, msg_len,
             "the memory budget cannot hold this request's %llu bytes (and its parse) now; retry later",
             (unsigned long long)(j->blob_len + j->model_bytes));
    job_free(j);
    return CZ_ENG_EXHAUSTED;
  }
  if (old) supersede_locked(e, old); /* may free old */
  size_t b = hash_id(j->id);
  j->hnext = e->buckets[b];
  e->buckets[b] = j;
  e->n_jobs++;
  j->seq = e->seq++;
  j->submit_ms = cz_now_ms();
  j->state = JOB_QUEUED;
  e->pending[j->req.kind]++;
  snprintf(job_id, CZ_JOB_ID_MAX, "%s", j->id);
  char detail[96];
  snprintf(detail, sizeof detail, "kind=%s,priority=%d", cz_proof_kind_label(j->req.kind),
           (int)j->prio);
  timeline(e, "QUEUED", j->id, detail);
  if (need > e->budget.total) {
    char why[160];
    snprintf(why, sizeof why, "the job needs %llu bytes of memory, more than the whole budget of %llu",
             (unsigned long long)need, (unsigned long long)e->budget.total);
    finish_locked(e, j, CZ_JOB_FAILED, why);
  } else {
    j->mem_reserved = 0;
    if (e->qtail[j->prio]) e->qtail[j->prio]->qnext = j;
    else e->qhead[j->prio] = j;
    e->qtail[j->prio] = j;
    if (queue_pos) *queue_pos = queue_position(e, j);
    /* Broadcast: a worker that takes only urgent jobs must not be the
     * only one woken for a NORMAL job. */
    pthread_cond_broadcast(&e->work_cv);
  }
  pthread_mutex_unlock(&e->mu);
  return CZ_ENG_OK;
}

static void copy_result(const cz_job *j, cz_job_result *out) {
  snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
  out->t = j->t;
  out->proof = NULL;
  out->proof_len = 0;
  out->error[0] = 0;
  if (j->state != JOB_DONE) {
    out->status = CZ_JOB_TIMEOUT;
    return;
  }
  out->status = j->status;
  snprintf(out->error, sizeof out->error, "%s", j->error);
  if (j->status == CZ_JOB_COMPLETED && j->proof_len) {
    out->proof = malloc(j->proof_len);
    if (out->proof) {
      memcpy(out->proof, j->proof, j->proof_len);
      out->proof_len = j->proof_len;
    } else {
      out->status = CZ_JOB_FAILED;
      snprintf(out->error, sizeof out->error, "out of memory copying the proof");
    }
  }
}

cz_engine_status cz_engine_await(cz_engine *e, const char *job_id, uint64_t timeout_ms,
                                 cz_job_result *out) {
  memset(out, 0, sizeof *out);
  pthread_mutex_lock(&e->mu);
  cz_job *j = job_id ? lookup(e, job_id) : NULL;
  if (!j) {
    pthread_mutex_unlock(&e->mu);
    return CZ_ENG_NOT_FOUND;
  }
  j->waiters++;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += (time_t)(timeout_ms / 1000);
  deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
  while (j->state != JOB_DONE) {
    if (timeout_ms == 0) pthread_cond_wait(&e->done_cv, &e->mu);
    else if (pthread_cond_timedwait(&e->done_cv, &e->mu, &deadline) == ETIMEDOUT) break;
  }
  j->waiters--;
  copy_result(j, out);
  pthread_mutex_unlock(&e->mu);
  return CZ_ENG_OK;
}

static void unqueue(cz_engine *e, cz_job *j) {
  cz_job **pp = &e->qhead[j->prio], *prev = NULL;
  while (*pp != j) prev = *pp, pp = &(*pp)->qnext;
  *pp = j->qnext;
  if (e->qtail[j->prio] == j) e->qtail[j->prio] = prev;
  j->qnext = NULL;
}

cz_engine_status cz_engine_cancel(cz_engine *e, const char *job_id, bool *was_running) {
  *was_running = false;
  pthread_mutex_lock(&e->mu);
  cz_job *j = job_id ? lookup(e, job_id) : NULL;
  if (!j) {
    pthread_mutex_unlock(&e->mu);
    return CZ_ENG_NOT_FOUND;
  }
  if (j->state == JOB_QUEUED) {
    unqueue(e, j);
    atomic_store(&j->cancel, true);
    timeline(e, "CANCELLED", j->id, "queued");
    finish_locked(e, j, CZ_JOB_CANCELLED, "cancelled while queued");
  } else if (j->state == JOB_RUNNING) {
    *was_running = true;
    atomic_store(&j->cancel, true);
    timeline(e, "CANCELLED", j->id, "running");
  }
  pthread_mutex_unlock(&e->mu);
  return CZ_ENG_OK;
}

/* ---- the prover's view of a job ------------------------------------------ */

bool cz_job_event(cz_job *job, const char *event, const char *detail) {
  timeline(job->e, event, job->id, detail);
  return !atomic_load(&job->cancel);
}

bool cz_job_cancelled(const cz_job *job) { return atomic_load(&job->cancel); }

const char *cz_job_id(const cz_job *job) { return job->id; }

void cz_job_add_timing(cz_job *job, uint64_t synthesis_ms, uint64_t gpu_compute_ms) {
  pthread_mutex_lock(&job->e->mu);
  job->t.synthesis_ms += synthesis_ms;
  job->t.gpu_compute_ms += gpu_compute_ms;
  pthread_mutex_unlock(&job->e->mu);
}

cz_err cz_job_mem_reserve(cz_job *job, uint64_t bytes) {
  cz_engine *e = job->e;
  if (!cz_membudget_try_reserve(&e->budget, bytes)) {
    char d[48];
    snprintf(d, sizeof d, "bytes=%llu", (unsigned long long)bytes);
    timeline(e, "MEM_WAIT", job->id, d);
    cz_err err = cz_membudget_reserve(&e->budget, bytes, &job->cancel);
    if (err != CZ_OK) return err;
  }
  job->mem_reserved += bytes; /* only the job's own worker touches it */
  return CZ_OK;
}

void cz_job_mem_release(cz_job *job, uint64_t bytes) {
  if (bytes > job->mem_reserved) bytes = job->mem_reserved;
  job->mem_reserved -= bytes;
  cz_membudget_release(&job->e->budget, bytes);
}

void *cz_request_model(const cz_job_request *req) {
  if (!req) return NULL;
  const cz_job *j = (const cz_job *)(const void *)((const char *)req - offsetof(cz_job, req));
  return j->model;
}

const void *cz_job_acquire_srs(cz_job *job, const char *circuit_id, char *msg, size_t msg_len) {
  if (job->n_extra_srs >= sizeof job->extra_srs / sizeof job->extra_srs[0]) {
    cz_msg(msg, msg_len, "a job holds at most 4 extra SRS references");
    return NULL;
  }
  cz_srs_entry *en = NULL;
  if (cz_srs_acquire(job->e->srs, circuit_id, true, &en, NULL, NULL, msg, msg_len) != CZ_ENG_OK)
    return NULL;
  job->extra_srs[job->n_extra_srs++] = en; /* only the job's own thread touches it */
  return cz_srs_entry_object(en, NULL);
}

cz_err cz_engine_register_computed_srs(cz_engine *e, const char *circuit_id,
                                       uint64_t estimate_bytes, const cz_srs_loader *loader) {
  return cz_srs_register_computed(e->srs, circuit_id, estimate_bytes, loader);
}

/* ---- item (partition) states, from the pipeline ---------------------------- */

void cz_job_items_begin(cz_job *job, size_t n) {
  cz_partition_status *it = calloc(n ? n : 1, sizeof *it);
  pthread_mutex_lock(&job->e->mu);
  free(job->items);
  job->items = it;
  job->n_items = it ? n : 0;
  for (size_t i = 0; i < job->n_items; i++) it[i].index = (uint32_t)i;
  pthread_mutex_unlock(&job->e->mu);
}

bool cz_job_synth_begin(cz_job *job, bool *held) {
  *held = false;
  if (job->prio >= CZ_PRIO_HIGH) return true;
  if (!cz_synth_slots_take(&job->e->synth, &job->cancel)) return false;
  *held = true;
  return true;
}

void cz_job_synth_end(cz_job *job, bool held) {
  if (held) cz_synth_slots_give(&job->e->synth);
}

void cz_job_item_state(cz_job *job, size_t i, cz_partition_state st, uint64_t ms) {
  cz_engine *e = job->e;
  pthread_mutex_lock(&e->mu);
  if (i < job->n_items) {
    cz_partition_status *it = &job->items[i];
    uint64_t since = cz_now_ms() - job->start_ms;
    it->state = st;
    if (st == CZ_PART_SYNTHESIZING) it->synth_start_ms = since ? since : 1;
    else if (st == CZ_PART_SYNTHESIZED) it->synth_ms = ms;
    else if (st == CZ_PART_PROVING) it->prove_start_ms = since ? since : 1;
    else if (st == CZ_PART_DONE) it->prove_ms = ms;
  }
  pthread_mutex_unlock(&e->mu);
}

const char *cz_partition_state_label(cz_partition_state s) {
  static const char *const names[] = {"queued", "synthesizing", "synthesized",
                                      "proving", "done", "failed"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

static void job_info_locked(const cz_job *j, uint64_t now, cz_job_info *o) {
  memset(o, 0, sizeof *o);
  snprintf(o->job_id, sizeof o->job_id, "%s", j->id);
  o->kind = j->req.kind;
  o->priority = j->prio;
  o->running = j->state == JOB_RUNNING;
  o->batch_size = j->batch_size ? j->batch_size : 1;
  o->age_ms = now - j->submit_ms;
  o->running_ms = o->running ? now - j->start_ms : 0;
  o->n_partitions = j->n_items;
  size_t n = j->n_items < CZ_ENGINE_MAX_PARTITIONS ? j->n_items : CZ_ENGINE_MAX_PARTITIONS;
  if (n) memcpy(o->partitions, j->items, n * sizeof *o->partitions);
}

size_t cz_engine_list_jobs(cz_engine *e, cz_job_info *out, size_t cap) {
  size_t n = 0;
  uint64_t now = cz_now_ms();
  pthread_mutex_lock(&e->mu);
  for (size_t b = 0; b < N_BUCKETS && n < cap; b++)
    for (cz_job *j = e->buckets[b]; j && n < cap; j = j->hnext)
      if (j->state == JOB_RUNNING) job_info_locked(j, now, &out[n++]);
  for (int p = CZ_PRIO_CRITICAL; p > CZ_PRIO_UNSPECIFIED && n < cap; p--)
    for (cz_job *j = e->qhead[p]; j && n < cap; j = j->qnext) job_info_locked(j, now, &out[n++]);
  pthread_mutex_unlock(&e->mu);
  return n;
}

void cz_engine_set_backend_info(cz_engine *e, const char *name, const char *note) {
  pthread_mutex_lock(&e->mu);
  snprintf(e->backend, sizeof e->backend, "%s", name ? name : "");
  snprintf(e->backend_note, sizeof e->backend_note, "%s", note ? note : "");
  pthread_mutex_unlock(&e->mu);
}

void cz_engine_get_backend_info(cz_engine *e, char *name, size_t name_len, char *note,
                                size_t note_len) {
  pthread_mutex_lock(&e->mu);
  if (name && name_len) snprintf(name, name_len, "%s", e->backend[0] ? e->backend : "cpu");
  if (note && note_len) snprintf(note, note_len, "%s", e->backend_note);
  pthread_mutex_unlock(&e->mu);
}

const void *cz_job_srs(const cz_job *job, size_t *len) {
  if (len) *len = 0;
  return job->srs ? cz_srs_entry_object(job->srs, len) : NULL;
}

/* ---- workers --------------------------------------------------------------- */

static cz_job *pop_locked(cz_engine *e, cz_priority min_prio) {
  for (int p = CZ_PRIO_CRITICAL; p >= (int)min_prio; p--) {
    cz_job *j = e->qhead[p];
    if (j) {
      unqueue(e, j);
      return j;
    }
  }
  return NULL;
}

static void mark_running_locked(cz_engine *e, worker *w, cz_job *j) {
  uint64_t now = cz_now_ms();
  j->state = JOB_RUNNING;
  j->start_ms = now;
  j->t.queue_wait_ms = now - j->submit_ms;
  e->pending[j->req.kind]--;
  e->running[j->req.kind]++;
  w->current = j;
  char d[32];
  snprintf(d, sizeof d, "worker=%u", w->index);
  timeline(e, "START", j->id, d);
}

static bool higher_queued(cz_engine *e, cz_priority p) {
  for (int q = CZ_PRIO_CRITICAL; q > (int)p; q--)
    if (e->qhead[q]) return true;
  return false;
}

/* Same-circuit jobs join the first one until the batch is full, the wait
 * runs out or a higher-priority job arrives (caller holds mu). */
static size_t collect_batch(cz_engine *e, worker *w, cz_job **batch, size_t cap) {
  size_t n = 1;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += (time_t)(e->cfg.max_batch_wait_ms / 1000);
  deadline.tv_nsec += (long)(e->cfg.max_batch_wait_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
  const cz_job *first = batch[0];
  for (;;) {
    for (cz_job *q = e->qhead[first->prio]; q && n < cap;) {
      cz_job *next = q->qnext;
      if (q->req.kind == first->req.kind && q->req.registered_proof == first->req.registered_proof) {
        unqueue(e, q);
        mark_running_locked(e, w, q);
        batch[n++] = q;
      }
      q = next;
    }
    if (n >= cap || e->stopping || higher_queued(e, first->prio) ||
        atomic_load(&batch[0]->cancel))
      break;
    if (pthread_cond_timedwait(&e->work_cv, &e->mu, &deadline) == ETIMEDOUT) break;
  }
  w->current = batch[0];
  return n;
}

/* Reserve memory and the SRS for a job; false (job finished) on failure. */
static bool prepare(cz_engine *e, cz_job *j, const cz_engine_prover *pv) {
  char msg[512] = "";
  uint64_t need = pv->mem_estimate ? pv->mem_estimate(pv->self, &j->req) : 0;
  if (need && cz_job_mem_reserve(j, need) != CZ_OK) {
    snprintf(msg, sizeof msg, "%s", atomic_load(&j->cancel) ? "cancelled while waiting for memory"
                                                           : "memory budget exceeded");
    goto fail;
  }
  const char *cid = pv->circuit_id ? pv->circuit_id(pv->self, &j->req) : NULL;
  if (cid) {
    uint64_t load_ms = 0;
    cz_engine_status st = cz_srs_acquire(e->srs, cid, true, &j->srs, NULL, &load_ms, msg, sizeof msg);
    j->t.srs_load_ms = load_ms;
    if (st != CZ_ENG_OK) goto fail;
  }
  return true;
fail:
  cz_job_mem_release(j, j->mem_reserved);
  pthread_mutex_lock(&e->mu);
  finish_locked(e, j, atomic_load(&j->cancel) ? CZ_JOB_CANCELLED : CZ_JOB_FAILED, msg);
  pthread_mutex_unlock(&e->mu);
  return false;
}

static void complete(cz_engine *e, cz_job *j, cz_err err, uint8_t *proof, size_t len,
                     const char *msg) {
  cz_job_mem_release(j, j->mem_reserved);
  if (j->srs) cz_srs_release(e->srs, j->srs), j->srs = NULL;
  for (unsigned i = 0; i < j->n_extra_srs; i++) cz_srs_release(e->srs, j->extra_srs[i]);
  j->n_extra_srs = 0;
  pthread_mutex_lock(&e->mu);
  if (atomic_load(&j->cancel)) {
    free(proof);
    finish_locked(e, j, CZ_JOB_CANCELLED, "cancelled while running");
  } else if (err != CZ_OK) {
    free(proof);
    char why[512];
    snprintf(why, sizeof why, "%s", msg && msg[0] ? msg : cz_err_str(err));
    finish_locked(e, j, CZ_JOB_FAILED, why);
  } else if (!proof || !len) {
    free(proof);
    finish_locked(e, j, CZ_JOB_FAILED, "the prover returned no proof");
  } else {
    j->proof = proof;
    j->proof_len = len;
    finish_locked(e, j, CZ_JOB_COMPLETED, NULL);
  }
  pthread_mutex_unlock(&e->mu);
}

void cz_job_finish(cz_job *job, cz_err err, uint8_t *proof, size_t proof_len, const char *msg) {
  if (job->answered) {
    free(proof);
    return;
  }
  job->answered = true; /* only the batch's worker thread touches it */
  complete(job->e, job, err, proof, proof_len, msg);
}

static void run_one(cz_engine *e, cz_job *j) {
  const cz_engine_prover *pv = &e->provers[j->req.kind];
  if (!prepare(e, j, pv)) return;
  uint8_t *proof = NULL;
  size_t len = 0;
  char msg[512] = "";
  cz_err err = CZ_OK;
  if (!cz_job_event(j, "PROVE", pv->name)) err = CZ_ERR_INVALID_ARG;
  else err = pv->prove(pv->self, &j->req, j, &proof, &len, msg, sizeof msg);
  complete(e, j, err, proof, len, msg);
}

static void run_batch(cz_engine *e, cz_job **batch, size_t n) {
  const cz_engine_prover *pv = &e->provers[batch[0]->req.kind];
  char d[32];
  snprintf(d, sizeof d, "size=%zu", n);
  timeline(e, "BATCH", batch[0]->id, d);
  pthread_mutex_lock(&e->mu);
  for (size_t i = 0; i < n; i++) batch[i]->batch_size = (uint32_t)n;
  pthread_mutex_unlock(&e->mu);
  size_t m = 0; /* the jobs that got their memory and SRS */
  for (size_t i = 0; i < n; i++)
    if (prepare(e, batch[i], pv)) batch[m++] = batch[i];
  if (!m) return;
  const cz_job_request **reqs = calloc(m, sizeof *reqs);
  uint8_t **proofs = calloc(m, sizeof *proofs);
  size_t *lens = calloc(m, sizeof *lens);
  cz_err *errs = calloc(m, sizeof *errs);
  char(*msgs)[512] = calloc(m, sizeof *msgs);
  if (!reqs || !proofs || !lens || !errs || !msgs) {
    for (size_t i = 0; i < m; i++) complete(e, batch[i], CZ_ERR_NOMEM, NULL, 0, "out of memory");
  } else {
    for (size_t i = 0; i < m; i++) reqs[i] = &batch[i]->req, errs[i] = CZ_ERR_INVALID_ARG;
    /* Pinned: a job answered early (cz_job_finish) stays in the table while
     * the batch still holds its pointer. */
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < m; i++) batch[i]->pins++;
    pthread_mutex_unlock(&e->mu);
    pv->prove_batch(pv->self, reqs, batch, m, proofs, lens, errs, msgs);
    for (size_t i = 0; i < m; i++) {
      if (batch[i]->answered) free(proofs[i]);
      else complete(e, batch[i], errs[i], proofs[i], lens[i], msgs[i]);
    }
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < m; i++) batch[i]->pins--;
    prune_finished(e);
    pthread_mutex_unlock(&e->mu);
  }
  free(reqs);
  free(proofs);
  free(lens);
  free(errs);
  free(msgs);
}

static void run_now(cz_engine *e, cz_job **batch, size_t n) {
  if (n > 1) run_batch(e, batch, n);
  else run_one(e, batch[0]);
}

typedef struct {
  cz_engine *e;
  cz_job **batch;
  size_t n;
  int nice;
} background_run;

/* On Linux the nice value belongs to the thread, and threads inherit it
 * from the one that creates them: set here, it covers every thread the
 * job starts (synthesis, pipeline, parallel kernels). */
static void *background_main(void *arg) {
  background_run *r = arg;
  id_t tid = (id_t)syscall(SYS_gettid);
  errno = 0;
  int now = getpriority(PRIO_PROCESS, tid);
  if (errno == 0) {
    int want = now + r->nice > 19 ? 19 : now + r->nice;
    (void)setpriority(PRIO_PROCESS, tid, want); /* refused: run as before */
  }
  run_now(r->e, r->batch, r->n);
  return NULL;
}

/* NORMAL and LOW jobs run in a thread of their own at the background
 * niceness; HIGH and CRITICAL ones in the worker itself. */
static void run_jobs(cz_engine *e, cz_job **batch, size_t n) {
  if (e->cfg.background_nice > 0 && batch[0]->prio < CZ_PRIO_HIGH) {
    background_run r = {e, batch, n, e->cfg.background_nice};
    pthread_t t;
    if (pthread_create(&t, NULL, background_main, &r) == 0) {
      pthread_join(t, NULL);
      return;
    }
  }
  run_now(e, batch, n);
}

typedef struct {
  cz_engine *e;
  worker *w;
} worker_arg;

static void *worker_loop(void *arg) {
  worker_arg a = *(worker_arg *)arg;
  free(arg);
  cz_engine *e = a.e;
  worker *w = a.w;
  size_t cap = e->cfg.max_batch_size > 1 ? e->cfg.max_batch_size : 1;
  cz_job **batch = calloc(cap, sizeof *batch);
  pthread_mutex_lock(&e->mu);
  for (;;) {
    cz_job *j = pop_locked(e, w->min_prio);
    if (!j) {
      if (e->stopping) break;
      pthread_cond_wait(&e->work_cv, &e->mu);
      continue;
    }
    mark_running_locked(e, w, j);
    if (!e->drain && e->stopping) atomic_store(&j->cancel, true);
    size_t n = 1;
    batch[0] = j;
    if (batch && cap > 1 && e->provers[j->req.kind].prove_batch)
      n = collect_batch(e, w, batch, cap);
    pthread_mutex_unlock(&e->mu);
    run_jobs(e, batch, n);
    pthread_mutex_lock(&e->mu);
    w->current = NULL;
  }
  pthread_mutex_unlock(&e->mu);
  free(batch);
  return NULL;
}

cz_err cz_engine_start(cz_engine *e) {
  pthread_mutex_lock(&e->mu);
  if (e->started) {
    pthread_mutex_unlock(&e->mu);
    return CZ_ERR_INVALID_ARG;
  }
  e->started = true;
  pthread_mutex_unlock(&e->mu);
  for (unsigned i = 0; i < e->n_workers; i++) {
    worker_arg *a = malloc(sizeof *a);
    e->workers[i].index = i;
    if (!a) return CZ_ERR_NOMEM;
    a->e = e;
    a->w = &e->workers[i];
    if (pthread_create(&e->workers[i].thread, NULL, worker_loop, a) != 0) {
      free(a);
      e->n_workers = i; /* the ones that started are joined at shutdown */
      return i ? CZ_OK : CZ_ERR_NOMEM;
    }
  }
  return CZ_OK;
}

/* Flag every running job (batch members included) for cancellation. */
static void cancel_running_locked(cz_engine *e) {
  for (size_t b = 0; b < N_BUCKETS; b++)
    for (cz_job *j = e->buckets[b]; j; j = j->hnext)
      if (j->state == JOB_RUNNING) atomic_store(&j->cancel, true);
}

void cz_engine_shutdown(cz_engine *e, bool drain) {
  pthread_mutex_lock(&e->mu);
  if (e->stopping) {
    /* A second call (a second signal) turns a drain into a cancel. */
    if (!drain) {
      e->drain = false;
      cancel_running_locked(e);
    }
    pthread_mutex_unlock(&e->mu);
    return;
  }
  e->stopping = true;
  e->drain = drain;
  cz_job *j;
  while ((j = pop_locked(e, CZ_PRIO_LOW))) {
    atomic_store(&j->cancel, true);
    finish_locked(e, j, CZ_JOB_CANCELLED, "cancelled: the daemon is shutting down");
  }
  if (!drain) cancel_running_locked(e);
  pthread_cond_broadcast(&e->work_cv);
  bool started = e->started;
  pthread_mutex_unlock(&e->mu);
  if (started)
    for (unsigned i = 0; i < e->n_workers; i++) pthread_join(e->workers[i].thread, NULL);
  pthread_mutex_lock(&e->mu);
  e->joined = true;
  pthread_mutex_unlock(&e->mu);
}

void cz_engine_destroy(cz_engine *e) {
  if (!e) return;
  cz_engine_shutdown(e, false);
  for (size_t b = 0; b < N_BUCKETS; b++) {
    cz_job *j = e->buckets[b];
    while (j) {
      cz_job *next = j->hnext;
      job_free(j);
      j = next;
    }
  }
  cz_srs_manager_free(e->srs);
  for (int k = 0; k < CZ_KIND_COUNT; k++) {
    const cz_engine_prover *p = &e->provers[k];
    bool first = p->destroy != NULL;
    for (int q = 0; q < k && first; q++) first = e->provers[q].self != p->self;
    if (e->has_prover[k] && first) p->destroy(p->self);
  }
  cz_membudget_destroy(&e->budget);
  cz_synth_slots_destroy(&e->synth);
  pthread_mutex_destroy(&e->mu);
  pthread_cond_destroy(&e->work_cv);
  pthread_cond_destroy(&e->done_cv);
  free(e->workers);
  free(e->param_cache);
  free(e);
}

void cz_engine_get_stats(cz_engine *e, cz_engine_stats *out) {
  memset(out, 0, sizeof *out);
  pthread_mutex_lock(&e->mu);
  for (int k = 0; k < CZ_KIND_COUNT; k++) {
    out->pending[k] = e->pending[k];
    out->running[k] = e->running[k];
    out->completed[k] = e->completed[k];
    out->failed[k] = e->failed[k];
    out->cancelled[k] = e->cancelled[k];
    out->duration_sum_ms[k] = e->dur_sum[k];
    out->duration_count[k] = e->dur_count[k];
    cz_histogram_snapshot(&e->dur_hist[k], &out->duration_hist[k]);
    out->total_completed += e->completed[k];
    out->total_failed += e->failed[k];
    out->has_prover[k] = e->has_prover[k];
  }
  out->n_jobs = e->n_jobs;
  out->accepting = e->started && !e->stopping;
  out->n_workers = e->n_workers;
  for (unsigned i = 0; i < e->n_workers; i++) {
    const cz_job *j = e->workers[i].current;
    out->workers[i].busy = j != NULL;
    if (j) {
      snprintf(out->workers[i].job_id, sizeof out->workers[i].job_id, "%s", j->id);
      out->workers[i].kind = j->req.kind;
    }
  }
  pthread_mutex_unlock(&e->mu);
  out->uptime_seconds = (cz_now_ms() - e->start_ms) / 1000;
  out->memory_used = cz_membudget_used(&e->budget);
  out->memory_budget = e->budget.total;
  out->n_srs = cz_srs_snapshot(e->srs, out->srs, CZ_ENGINE_MAX_SRS);
}

cz_engine_status cz_engine_srs_preload(cz_engine *e, const char *circuit_id, bool *already,
                                       uint64_t *load_ms, char *msg, size_t msg_len) {
  return cz_srs_acquire(e->srs, circuit_id, false, NULL, already, load_ms, msg, msg_len);
}

cz_engine_status cz_engine_srs_evict(cz_engine *e, const char *circuit_id, bool *was_loaded,
                                     uint64_t *freed, char *msg, size_t msg_len) {
  return cz_srs_evict(e->srs, circuit_id, was_loaded, freed, msg, msg_len);
}
