/* Prometheus text and the status JSON, both from one engine snapshot. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/server.h"

typedef struct {
  char *buf;
  size_t len, cap;
  bool oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->oom = true;
      return;
    }
    if ((size_t)n < b->cap - b->len) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = b->cap * 2 + (size_t)n;
    char *nb = realloc(b->buf, cap);
    if (!nb) {
      b->oom = true;
      return;
    }
    b->buf = nb;
    b->cap = cap;
  }
}

char *cz_metrics_text(const cz_engine_stats *s) {
  sbuf b = {malloc(4096), 0, 4096, false};
  if (!b.buf) return NULL;
  b.buf[0] = 0;
  uint64_t depth = 0, running = 0;
  for (int k = 1; k < CZ_KIND_COUNT; k++) depth += s->pending[k], running += s->running[k];
  sb_printf(&b, "# HELP cuzk_proofs_completed_total Proofs completed since start.\n"
                "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total %llu\n",
            (unsigned long long)s->total_completed);
  sb_printf(&b, "# HELP cuzk_proofs_failed_total Proofs failed since start.\n"
                "# TYPE cuzk_proofs_failed_total counter\ncuzk_proofs_failed_total %llu\n",
            (unsigned long long)s->total_failed);
  sb_printf(&b, "# HELP cuzk_uptime_seconds Seconds since the daemon started.\n"
                "# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds %llu\n",
            (unsigned long long)s->uptime_seconds);
  sb_printf(&b, "# HELP cuzk_queue_depth Jobs waiting in the queue.\n"
                "# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth %llu\n",
            (unsigned long long)depth);
  sb_printf(&b, "# HELP cuzk_proofs_completed Proofs completed per kind.\n"
                "# TYPE cuzk_proofs_completed counter\n");
  for (int k = 1; k < CZ_KIND_COUNT; k++)
    sb_printf(&b, "cuzk_proofs_completed{proof_kind=\"%s\"} %llu\n", cz_proof_kind_label(k),
              (unsigned long long)s->completed[k]);
  sb_printf(&b, "# HELP cuzk_proofs_failed Proofs failed per kind.\n"
                "# TYPE cuzk_proofs_failed counter\n");
  for (int k = 1; k < CZ_KIND_COUNT; k++)
    sb_printf(&b, "cuzk_proofs_failed{proof_kind=\"%s\"} %llu\n", cz_proof_kind_label(k),
              (unsigned long long)s->failed[k]);
  sb_printf(&b, "# HELP cuzk_proof_duration_seconds Submit-to-result time of completed proofs.\n"
                "# TYPE cuzk_proof_duration_seconds summary\n");
  for (int k = 1; k < CZ_KIND_COUNT; k++) {
    sb_printf(&b, "cuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.3f\n",
              cz_proof_kind_label(k), (double)s->duration_sum_ms[k] / 1000.0);
    sb_printf(&b, "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %llu\n",
              cz_proof_kind_label(k), (unsigned long long)s->duration_count[k]);
  }
  sb_printf(&b, "# HELP cuzk_running_jobs Jobs being proved now.\n"
                "# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs %llu\n",
            (unsigned long long)running);
  sb_printf(&b, "# HELP cuzk_gpu_workers Proving workers.\n"
                "# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers %u\n", s->n_workers);
  sb_printf(&b, "# HELP cuzk_memory_used_bytes Bytes reserved in the memory budget.\n"
                "# TYPE cuzk_memory_used_bytes gauge\ncuzk_memory_used_bytes %llu\n",
            (unsigned long long)s->memory_used);
  sb_printf(&b, "# HELP cuzk_memory_budget_bytes The memory budget.\n"
                "# TYPE cuzk_memory_budget_bytes gauge\ncuzk_memory_budget_bytes %llu\n",
            (unsigned long long)s->memory_budget);
  if (b.oom) {
    free(b.buf);
    return NULL;
  }
  return b.buf;
}

static json_t *status_object(const cz_engine_stats *s) {
  static const char *const tiers[] = {"hot", "warm", "cold"};
  json_t *root = json_object(), *queues = json_array(), *workers = json_array(),
         *srs = json_array();
  if (!root || !queues || !workers || !srs) {
    json_decref(root), json_decref(queues), json_decref(workers), json_decref(srs);
    return NULL;
  }
  json_object_set_new(root, "uptime_seconds", json_integer((json_int_t)s->uptime_seconds));
  for (int k = 1; k < CZ_KIND_COUNT; k++)
    json_array_append_new(
        queues, json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:b}", "proof_kind", cz_proof_kind_label(k),
                          "pending", (json_int_t)s->pending[k], "in_progress", (json_int_t)s->running[k],
                          "completed", (json_int_t)s->completed[k], "failed", (json_int_t)s->failed[k],
                          "cancelled", (json_int_t)s->cancelled[k], "has_prover", s->has_prover[k]));
  json_object_set_new(root, "jobs",
                      json_pack("{s:I, s:I, s:I, s:o}", "in_table", (json_int_t)s->n_jobs,
                                "completed", (json_int_t)s->total_completed, "failed",
                                (json_int_t)s->total_failed, "queues", queues));
  for (unsigned i = 0; i < s->n_workers; i++)
    json_array_append_new(workers, json_pack("{s:i, s:b, s:s, s:s}", "index", (int)i, "busy",
                                             s->workers[i].busy, "job_id", s->workers[i].job_id,
                                             "proof_kind", s->workers[i].busy ? cz_proof_kind_label(s->workers[i].kind) : ""));
  json_object_set_new(root, "workers", workers);
  json_object_set_new(root, "memory", json_pack("{s:I, s:I}", "used_bytes", (json_int_t)s->memory_used,
                                                "budget_bytes", (json_int_t)s->memory_budget));
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
  size_t n = j->n_partitions < CZ_ENGINE_MAX_PARTITIONS ? j->n_partitions : CZ_ENGINE_MAX_PARTITIONS;
  for (size_t i = 0; parts && i < n; i++) {
    const cz_partition_status *p = &j->partitions[i];
    json_array_append_new(
        parts, json_pack("{s:i, s:s, s:I, s:I, s:I, s:I}", "index", (int)p->index, "state",
                         cz_partition_state_label(p->state), "synth_start_ms",
                         (json_int_t)p->synth_start_ms, "synth_ms", (json_int_t)p->synth_ms,
                         "prove_start_ms", (json_int_t)p->prove_start_ms, "prove_ms",
                         (json_int_t)p->prove_ms));
  }
  return json_pack("{s:s, s:s, s:i, s:s, s:i, s:I, s:I, s:I, s:o*}", "job_id", j->job_id,
                   "proof_kind", cz_proof_kind_label(j->kind), "priority", (int)j->priority,
                   "state", j->running ? "running" : "queued", "batch_size", (int)j->batch_size,
                   "age_ms", (json_int_t)j->age_ms, "running_ms", (json_int_t)j->running_ms,
                   "n_partitions", (json_int_t)j->n_partitions, "partitions", parts);
}

char *cz_status_json_full(const cz_engine_stats *s, const cz_job_info *jobs, size_t n_jobs,
                          const char *backend, const char *backend_note) {
  json_t *root = status_object(s);
  if (!root) return NULL;
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
