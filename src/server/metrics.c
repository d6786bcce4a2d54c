/* Prometheus text and the status JSON, both from one engine snapshot. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/provers.h"
#include "cuzk/server.h"

static const char *const tier_names[] = {"hot", "warm", "cold"};

static void counter_total(cz_prom *p, const char *name, const char *type, const char *help,
                          double v) {
  cz_prom_family(p, name, type, help);
  cz_prom_sample(p, name, NULL, v);
}

static void per_kind(cz_prom *p, const char *name, const char *type, const char *help,
                     const uint64_t *v) {
  cz_prom_family(p, name, type, help);
  for (int k = 1; k < CZ_KIND_COUNT; k++) {
    const char *l[] = {"proof_kind", cz_proof_kind_label(k), NULL};
    cz_prom_sample(p, name, l, (double)v[k]);
  }
}

/* Upstream's names (docs/interface.md, Metrics), in the order they always had. */
static void spec_metrics(cz_prom *p, const cz_engine_stats *s) {
  uint64_t depth = 0, running = 0;
  for (int k = 1; k < CZ_KIND_COUNT; k++) depth += s->pending[k], running += s->running[k];
  counter_total(p, "cuzk_proofs_completed_total", "counter", "Proofs completed since start.",
                (double)s->total_completed);
  counter_total(p, "cuzk_proofs_failed_total", "counter", "Proofs failed since start.",
                (double)s->total_failed);
  counter_total(p, "cuzk_uptime_seconds", "gauge", "Seconds since the daemon started.",
                (double)s->uptime_seconds);
  counter_total(p, "cuzk_queue_depth", "gauge", "Jobs waiting in the queue.", (double)depth);
  per_kind(p, "cuzk_proofs_completed", "counter", "Proofs completed per kind.", s->completed);
  per_kind(p, "cuzk_proofs_failed", "counter", "Proofs failed per kind.", s->failed);
  cz_prom_family(p, "cuzk_proof_duration_seconds", "summary",
                 "Submit-to-result time of completed proofs.");
  for (int k = 1; k < CZ_KIND_COUNT; k++) {
    const char *l[] = {"proof_kind", cz_proof_kind_label(k), NULL};
    cz_prom_sample(p, "cuzk_proof_duration_seconds_sum", l, (double)s->duration_sum_ms[k] / 1000.0);
    cz_prom_sample(p, "cuzk_proof_duration_seconds_count", l, (double)s->duration_count[k]);
  }
  counter_total(p, "cuzk_running_jobs", "gauge", "Jobs being proved now.", (double)running);
  counter_total(p, "cuzk_gpu_workers", "gauge", "Proving workers.", (double)s->n_workers);
  counter_total(p, "cuzk_memory_used_bytes", "gauge", "Bytes reserved in the memory budget.",
                (double)s->memory_used);
  counter_total(p, "cuzk_memory_budget_bytes", "gauge", "The memory budget.",
                (double)s->memory_budget);
  counter_total(p, "cuzk_memory_pool_idle_bytes", "gauge",
                "Idle buffers kept faulted in for the next partition: not in "
                "cuzk_memory_used_bytes, but they take budget room until a reservation "
                "trims them.",
                (double)s->memory_pool_idle);
}

/* cuzk's own: histograms, queues per kind, SRS residency, readiness. */
static void more_metrics(cz_prom *p, const cz_engine_stats *s,
                         const cz_histogram_snap phases[CZ_PHASE_COUNT]) {
  cz_prom_family(p, "cuzk_proof_latency_seconds", "histogram",
                 "Submit-to-result time of completed proofs (the summary "
                 "cuzk_proof_duration_seconds in buckets).");
  for (int k = 1; k < CZ_KIND_COUNT; k++) {
    const char *l[] = {"proof_kind", cz_proof_kind_label(k), NULL};
    cz_prom_histogram(p, "cuzk_proof_latency_seconds", l, &s->duration_hist[k]);
  }
  cz_prom_family(p, "cuzk_prove_phase_seconds", "histogram",
                 "Prover phases (the CUZK_TIMING phases), per call, all kinds together.");
  for (int ph = 0; ph < CZ_PHASE_COUNT; ph++) {
    const char *l[] = {"phase", cz_prove_phase_name((cz_prove_phase)ph), NULL};
    cz_prom_histogram(p, "cuzk_prove_phase_seconds", l, &phases[ph]);
  }
  uint64_t pending[CZ_KIND_COUNT], running[CZ_KIND_COUNT];
  for (int k = 0; k < CZ_KIND_COUNT; k++) pending[k] = s->pending[k], running[k] = s->running[k];
  per_kind(p, "cuzk_queue_pending", "gauge", "Jobs waiting in the queue per kind.", pending);
  per_kind(p, "cuzk_jobs_running", "gauge", "Jobs being proved now per kind.", running);
  uint64_t tier_bytes[3] = {0}, tier_n[3] = {0};
  for (size_t i = 0; i < s->n_srs; i++) {
    tier_bytes[s->srs[i].tier] += s->srs[i].size_bytes;
    tier_n[s->srs[i].tier]++;
  }
  cz_prom_family(p, "cuzk_srs_tier_bytes", "gauge",
                 "Bytes of SRS per tier (hot: loaded and charged to the budget; warm: mapped).");
  for (int t = 0; t < 3; t++) {
    const char *l[] = {"tier", tier_names[t], NULL};
    cz_prom_sample(p, "cuzk_srs_tier_bytes", l, (double)tier_bytes[t]);
  }
  cz_prom_family(p, "cuzk_srs_tier_entries", "gauge", "SRS entries per tier.");
  for (int t = 0; t < 3; t++) {
    const char *l[] = {"tier", tier_names[t], NULL};
    cz_prom_sample(p, "cuzk_srs_tier_entries", l, (double)tier_n[t]);
  }
  cz_prom_family(p, "cuzk_srs_bytes", "gauge", "Size of each known SRS, with its tier.");
  for (size_t i = 0; i < s->n_srs; i++) {
    const char *l[] = {"circuit_id", s->srs[i].circuit_id, "tier", tier_names[s->srs[i].tier],
                       NULL};
    cz_prom_sample(p, "cuzk_srs_bytes", l, (double)s->srs[i].size_bytes);
  }
  counter_total(p, "cuzk_ready", "gauge", "1 while the engine accepts work (GET /readyz).",
                s->accepting ? 1 : 0);
}

/* One sample per device of a gauge or counter read from its status. */
static void per_device(cz_prom *p, const cz_engine_stats *s, const char *name, const char *type,
                       const char *help, double (*value)(const cz_device_status *d)) {
  cz_prom_family(p, name, type, help);
  for (unsigned i = 0; i < s->n_devices; i++) {
    const char *l[] = {"device", s->devices[i].name, NULL};
    cz_prom_sample(p, name, l, value(&s->devices[i]));
  }
}

static double dev_healthy(const cz_device_status *d) { return d->healthy ? 1 : 0; }
static double dev_busy(const cz_device_status *d) { return d->busy; }
static double dev_proved(const cz_device_status *d) { return (double)d->proved; }
static double dev_free(const cz_device_status *d) { return (double)d->mem_free; }
static double dev_total(const cz_device_status *d) { return (double)d->mem_total; }

/* The proving devices (gpus.devices), when the daemon has any. */
static void gpu_metrics(cz_prom *p, const cz_engine_stats *s) {
  if (!s->n_devices) return;
  cz_prom_family(p, "cuzk_gpu_faults_total", "counter",
                 "Device faults by kind: oom (a step out of device memory), device_error (a "
                 "launch or runtime error), bad_proof (a proof that did not verify).");
  for (unsigned i = 0; i < s->n_devices; i++)
    for (int k = 0; k < CZ_FAULT_COUNT; k++) {
      const char *l[] = {"device", s->devices[i].name, "kind", cz_fault_cause_label(k), NULL};
      cz_prom_sample(p, "cuzk_gpu_faults_total", l, (double)s->devices[i].faults[k]);
    }
  per_device(p, s, "cuzk_gpu_healthy", "gauge",
             "1 while the device is used; 0 once taken out, until its self-test passes.",
             dev_healthy);
  per_device(p, s, "cuzk_gpu_busy", "gauge", "Partitions being proved on the device now.",
             dev_busy);
  per_device(p, s, "cuzk_gpu_partitions_proved_total", "counter",
             "Partitions proved on the device.", dev_proved);
  per_device(p, s, "cuzk_gpu_memory_free_bytes", "gauge", "Device memory free.", dev_free);
  per_device(p, s, "cuzk_gpu_memory_total_bytes", "gauge", "Device memory.", dev_total);
  counter_total(p, "cuzk_gpu_fallback_partitions_total", "counter",
                "Partitions proved on the CPU because no healthy device was left for them.",
                (double)s->fallback_proved);
}

char *cz_metrics_text_with(const cz_engine_stats *s,
                           const cz_histogram_snap phases[CZ_PHASE_COUNT]) {
  cz_prom p;
  cz_prom_init(&p);
  spec_metrics(&p, s);
  more_metrics(&p, s, phases);
  gpu_metrics(&p, s);
  return cz_prom_finish(&p);
}

char *cz_metrics_text(const cz_engine_stats *s) {
  cz_histogram_snap phases[CZ_PHASE_COUNT];
  cz_provers_phase_snapshot(phases);
  return cz_metrics_text_with(s, phases);
}

char *cz_ready_json(const cz_engine_stats *s) {
  json_t *hot = json_array();
  for (size_t i = 0; hot && i < s->n_srs; i++)
    if (s->srs[i].tier == CZ_SRS_HOT) json_array_append_new(hot, json_string(s->srs[i].circuit_id));
  json_t *root = hot ? json_pack("{s:b, s:o}", "ready", s->accepting, "hot_circuits", hot) : NULL;
  if (!root) return NULL;
  char *out = json_dumps(root, JSON_COMPACT);
  json_decref(root);
  return out;
}

static json_t *status_object(const cz_engine_stats *s) {
  const char *const *tiers = tier_names;
  json_t *root = json_object(), *queues = json_array(), *workers = json_array(),
         *srs = json_array();
  if (!root || !queues || !workers || !srs) {
    json_decref(root), json_decref(queues), json_decref(workers), json_decref(srs);
    return NULL;
  }
  json_object_set_new(root, "uptime_seconds", json_integer((json_int_t)s->uptime_seconds));
  for (int k = 1; k < CZ_KIND_COUNT; k++)
    json_array_append_new(queues,
                          json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:b}", "proof_kind",
                                    cz_proof_kind_label(k), "pending", (json_int_t)s->pending[k],
                                    "in_progress", (json_int_t)s->running[k], "completed",
                                    (json_int_t)s->completed[k], "failed", (json_int_t)s->failed[k],
                                    "cancelled", (json_int_t)s->cancelled[k], "has_prover",
                                    s->has_prover[k]));
  json_object_set_new(root, "jobs",
                      json_pack("{s:I, s:I, s:I, s:o}", "in_table", (json_int_t)s->n_jobs,
                                "completed", (json_int_t)s->total_completed, "failed",
                                (json_int_t)s->total_failed, "queues", queues));
  for (unsigned i = 0; i < s->n_workers; i++)
    json_array_append_new(
        workers, json_pack("{s:i, s:b, s:s, s:s}", "index", (int)i, "busy", s->workers[i].busy,
                           "job_id", s->workers[i].job_id, "proof_kind",
                           s->workers[i].busy ? cz_proof_kind_label(s->workers[i].kind) : ""));
  json_object_set_new(root, "workers", workers);
  json_object_set_new(root, "memory",
                      json_pack("{s:I, s:I, s:I}", "used_bytes", (json_int_t)s->memory_used,
                                "budget_bytes", (json_int_t)s->memory_budget, "pool_idle_bytes",
                                (json_int_t)s->memory_pool_idle));
  for (size_t i = 0; i < s->n_srs; i++)
    json_array_append_new(srs, json_pack("{s:s, s:s, s:I, s:i}", "circuit_id", s->srs[i].circuit_id,
                                         "tier", tiers[s->srs[i].tier], "size_bytes",
                                         (json_int_t)s->srs[i].size_bytes, "ref_count",
                                         (int)s->srs[i].ref_count));
  json_object_set_new(root, "srs", srs);
  return root;
}

static char *dump(json_t *root) {
  if (!root) return NULL;
  char *out = json_dumps(root, JSON_COMPACT);
  json_decref(root);
  return out;
}

char *cz_status_json(const cz_engine_stats *s) { return dump(status_object(s)); }

static json_t *job_object(const cz_job_info *j) {
  json_t *parts = json_array();
  size_t n =
      j->n_partitions < CZ_ENGINE_MAX_PARTITIONS ? j->n_partitions : CZ_ENGINE_MAX_PARTITIONS;
  for (size_t i = 0; parts && i < n; i++) {
    const cz_partition_status *p = &j->partitions[i];
    json_array_append_new(parts, json_pack("{s:i, s:s, s:I, s:I, s:I, s:I}", "index", (int)p->index,
                                           "state", cz_partition_state_label(p->state),
                                           "synth_start_ms", (json_int_t)p->synth_start_ms,
                                           "synth_ms", (json_int_t)p->synth_ms, "prove_start_ms",
                                           (json_int_t)p->prove_start_ms, "prove_ms",
                                           (json_int_t)p->prove_ms));
  }
  return json_pack("{s:s, s:s, s:i, s:s, s:i, s:I, s:I, s:I, s:o*}", "job_id", j->job_id,
                   "proof_kind", cz_proof_kind_label(j->kind), "priority", (int)j->priority,
                   "state", j->running ? "running" : "queued", "batch_size", (int)j->batch_size,
                   "age_ms", (json_int_t)j->age_ms, "running_ms", (json_int_t)j->running_ms,
                   "n_partitions", (json_int_t)j->n_partitions, "partitions", parts);
}

/* "gpus": one object per device ([] without devices). */
static json_t *gpus_array(const cz_engine_stats *s) {
  json_t *a = json_array();
  for (unsigned i = 0; a && i < s->n_devices; i++) {
    const cz_device_status *d = &s->devices[i];
    json_t *faults = json_object();
    for (int k = 0; faults && k < CZ_FAULT_COUNT; k++)
      json_object_set_new(faults, cz_fault_cause_label(k), json_integer((json_int_t)d->faults[k]));
    json_array_append_new(
        a, json_pack("{s:s, s:b, s:s, s:i, s:i, s:s, s:s, s:i, s:I, s:I, s:I, s:o}", "name",
                     d->name, "healthy", d->healthy, "unhealthy_reason", d->why, "workers",
                     (int)d->workers, "busy", (int)d->busy, "job_id", d->job_id, "proof_kind",
                     d->busy ? cz_proof_kind_label(d->kind) : "", "partition", (int)d->partition,
                     "memory_free", (json_int_t)d->mem_free, "memory_total",
                     (json_int_t)d->mem_total, "partitions_proved", (json_int_t)d->proved, "faults",
                     faults ? faults : json_object()));
  }
  return a;
}

char *cz_status_json_full(const cz_engine_stats *s, const cz_job_info *jobs, size_t n_jobs,
                          const char *backend, const char *backend_note) {
  json_t *root = status_object(s);
  if (!root) return NULL;
  json_t *gpus = gpus_array(s);
  if (!gpus || json_object_set_new(root, "gpus", gpus) != 0 ||
      json_object_set_new(root, "fallback_partitions_proved",
                          json_integer((json_int_t)s->fallback_proved)) != 0) {
    json_decref(root);
    return NULL;
  }
  json_t *list = json_array();
  for (size_t i = 0; list && i < n_jobs; i++) json_array_append_new(list, job_object(&jobs[i]));
  json_t *js = json_object_get(root, "jobs");
  if (!list || !js || json_object_set_new(js, "list", list) != 0 ||
      json_object_set_new(root, "backend",
                          json_pack("{s:s, s:s}", "name", backend ? backend : "cpu", "note",
                                    backend_note ? backend_note : "")) != 0) {
    json_decref(root);
    return NULL;
  }
  return dump(root);
}
