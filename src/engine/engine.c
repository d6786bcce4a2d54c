/* The engine's life cycle: configuration, create, kind and SRS
 * registration, shutdown and destroy, status and TIMELINE lines. Submit is
 * job_submit.c, the job table job_table.c, the workers workers.c, a job's
 * steps job_run.c and its pipeline pipeline.c. One mutex (e->mu) guards the table, the queue
 * and the counters: every critical section is short (no proving, loading
 * or waiting happens under it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/clock.h"
#include "cuzk/log.h"
#include "engine/engine_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

const char *cz_proof_kind_label(cz_proof_kind k) {
  static const char *const names[CZ_KIND_COUNT] = {"unspecified", "porep_c2",     "snap_update",
                                                   "window_post", "winning_post", "circom"};
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
void cz_engine_timeline(cz_engine *e, const char *event, const char *job, const char *detail) {
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
  uint64_t budget =
      cfg.memory_budget ? cfg.memory_budget : cz_engine_auto_budget(cfg.safety_margin);
  if (budget == 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "auto memory budget: MemTotal unreadable or below the safety margin");
  cz_engine *e = calloc(1, sizeof *e);
  if (!e) return CZ_ERR_NOMEM;
  e->param_cache = strdup(cfg.param_cache ? cfg.param_cache : "/data/zk/params");
  e->workers = calloc(cfg.n_workers + cfg.urgent_workers, sizeof *e->workers);
  cz_membudget_init(&e->budget, budget);
  cz_synth_slots_init(&e->synth, cfg.max_parallel_synthesis);
  cz_devices_init(&e->devs, cfg.device_fail_limit, cfg.self_test_interval_ms);
  e->srs = cz_srs_manager_new(&e->budget, e->param_cache, cfg.eviction_min_idle_ms);
  if (!e->param_cache || !e->workers || !e->srs) {
    cz_srs_manager_free(e->srs);
    cz_synth_slots_destroy(&e->synth);
    cz_devices_destroy(&e->devs);
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

cz_err cz_engine_register_ops(cz_engine *e, cz_proof_kind kind, const cz_proof_ops *ops,
                              void *self) {
  if (kind <= CZ_KIND_UNSPECIFIED || kind >= CZ_KIND_COUNT || !ops || !ops->plan ||
      !ops->synthesize || !ops->prove_partition || !ops->discard)
    return CZ_ERR_INVALID_ARG;
  pthread_mutex_lock(&e->mu);
  cz_err err = CZ_OK;
  if (e->started) err = CZ_ERR_INVALID_ARG;
  else e->ops[kind] = *ops, e->ops_self[kind] = self, e->has_ops[kind] = true;
  pthread_mutex_unlock(&e->mu);
  return err;
}

cz_err cz_engine_add_device(cz_engine *e, const cz_engine_device *d) {
  pthread_mutex_lock(&e->mu);
  cz_err err = e->started ? CZ_ERR_INVALID_ARG : cz_devices_add(&e->devs, d);
  pthread_mutex_unlock(&e->mu);
  return err;
}

void cz_engine_set_fallback_device(cz_engine *e, const void *handle) {
  pthread_mutex_lock(&e->mu);
  e->devs.fallback = handle;
  pthread_mutex_unlock(&e->mu);
}

cz_err cz_engine_device_self_test(cz_engine *e, unsigned i, char *msg, size_t msg_len) {
  return cz_devices_self_test(&e->devs, i, msg, msg_len);
}

cz_err cz_engine_register_srs(cz_engine *e, const char *circuit_id, const char *path,
                              const cz_srs_loader *loader) {
  return cz_srs_register(e->srs, circuit_id, path, loader);
}

cz_err cz_engine_srs_remove(cz_engine *e, const char *circuit_id, uint64_t *freed, char *msg,
                            size_t msg_len) {
  return cz_srs_remove(e->srs, circuit_id, freed, msg, msg_len);
}

cz_err cz_engine_register_computed_srs(cz_engine *e, const char *circuit_id,
                                       uint64_t estimate_bytes, const cz_srs_loader *loader) {
  return cz_srs_register_computed(e->srs, circuit_id, estimate_bytes, loader);
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

/* Flag every running job (batch members included) for cancellation. */
static void cancel_running_locked(cz_engine *e) {
  for (size_t b = 0; b < CZ_ENGINE_BUCKETS; b++)
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
  while ((j = cz_engine_pop_locked(e, CZ_PRIO_LOW))) {
    atomic_store(&j->cancel, true);
    cz_engine_finish_locked(e, j, CZ_JOB_CANCELLED, "cancelled: the daemon is shutting down");
  }
  if (!drain) cancel_running_locked(e);
  pthread_cond_broadcast(&e->work_cv);
  bool started = e->started;
  pthread_mutex_unlock(&e->mu);
  if (started)
    for (unsigned i = 0; i < e->n_workers; i++) pthread_join(e->workers[i].thread, NULL);
  cz_devices_stop(&e->devs);
  pthread_mutex_lock(&e->mu);
  e->joined = true;
  pthread_mutex_unlock(&e->mu);
}

void cz_engine_destroy(cz_engine *e) {
  if (!e) return;
  cz_engine_shutdown(e, false);
  for (size_t b = 0; b < CZ_ENGINE_BUCKETS; b++) {
    cz_job *j = e->buckets[b];
    while (j) {
      cz_job *next = j->hnext;
      cz_job_free(j);
      j = next;
    }
  }
  cz_srs_manager_free(e->srs);
  for (int k = 0; k < CZ_KIND_COUNT; k++) {
    bool first = e->has_ops[k] && e->ops[k].destroy != NULL;
    for (int q = 0; q < k && first; q++) first = !e->has_ops[q] || e->ops_self[q] != e->ops_self[k];
    if (first) e->ops[k].destroy(e->ops_self[k]);
  }
  cz_membudget_destroy(&e->budget);
  cz_synth_slots_destroy(&e->synth);
  cz_devices_destroy(&e->devs);
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
    out->has_prover[k] = e->has_ops[k];
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
  cz_pool_usage pool;
  cz_pool_stats(&pool);
  out->memory_pool_idle = pool.idle_bytes;
  out->memory_budget = e->budget.total;
  out->n_srs = cz_srs_snapshot(e->srs, out->srs, CZ_ENGINE_MAX_SRS);
  cz_devices_snapshot(&e->devs, out);
}

cz_err cz_engine_srs_preload(cz_engine *e, const char *circuit_id, bool *already, uint64_t *load_ms,
                             char *msg, size_t msg_len) {
  return cz_srs_acquire(e->srs, circuit_id, false, NULL, already, load_ms, msg, msg_len);
}

cz_err cz_engine_srs_evict(cz_engine *e, const char *circuit_id, bool *was_loaded, uint64_t *freed,
                           char *msg, size_t msg_len) {
  return cz_srs_evict(e->srs, circuit_id, was_loaded, freed, msg, msg_len);
}
