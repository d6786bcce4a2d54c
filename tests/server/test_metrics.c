/* The Prometheus text writer and the metrics text. Expected lines are
 * written by hand from the exposition format's definition (prometheus/docs
 * exposition_formats.md: label escapes \\ \" \n, HELP escapes \\ \n,
 * cumulative _bucket{le} ending with +Inf, then _sum and _count); the
 * daemon test has Prometheus's own Python parser read the whole text. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cuzk/server.h"

static void test_escaping(void) {
  cz_prom p;
  cz_prom_init(&p);
  cz_prom_family(&p, "x_total", "counter", "a \\ b\nc \"q\"");
  const char *l[] = {"id", "a\\b\"c\nd", "k", "v", NULL};
  cz_prom_sample(&p, "x_total", l, 3);
  cz_prom_sample(&p, "y", NULL, 0.5);
  cz_prom_sample(&p, "z", NULL, 1.0 / 0.0);
  char *t = cz_prom_finish(&p);
  CHECK(t != NULL);
  const char *want =
      "# HELP x_total a \\\\ b\\nc \"q\"\n"
      "# TYPE x_total counter\n"
      "x_total{id=\"a\\\\b\\\"c\\nd\",k=\"v\"} 3\n"
      "y 0.5\n"
      "z +Inf\n";
  CHECK(t && strcmp(t, want) == 0);
  if (t && strcmp(t, want)) fprintf(stderr, "got:\n%s", t);
  free(t);
}

static void test_histogram(void) {
  static const double le[] = {0.1, 1, 10};
  cz_histogram h;
  cz_histogram_init(&h, le, 3);
  cz_histogram_observe(&h, 50000000);    /* 0.05 s */
  cz_histogram_observe(&h, 100000000);   /* 0.1 s: le is "<=" */
  cz_histogram_observe(&h, 2000000000);  /* 2 s */
  cz_histogram_observe(&h, 20000000000); /* 20 s: +Inf only */
  cz_histogram_snap s;
  cz_histogram_snapshot(&h, &s);
  CHECK_EQ_INT(s.cum[0], 2);
  CHECK_EQ_INT(s.cum[1], 2);
  CHECK_EQ_INT(s.cum[2], 3);
  CHECK_EQ_INT(s.count, 4);
  CHECK(s.sum > 22.1499 && s.sum < 22.1501);
  cz_prom p;
  cz_prom_init(&p);
  const char *l[] = {"phase", "ntt_h", NULL};
  cz_prom_histogram(&p, "d_seconds", l, &s);
  char *t = cz_prom_finish(&p);
  const char *want =
      "d_seconds_bucket{phase=\"ntt_h\",le=\"0.1\"} 2\n"
      "d_seconds_bucket{phase=\"ntt_h\",le=\"1\"} 2\n"
      "d_seconds_bucket{phase=\"ntt_h\",le=\"10\"} 3\n"
      "d_seconds_bucket{phase=\"ntt_h\",le=\"+Inf\"} 4\n"
      "d_seconds_sum{phase=\"ntt_h\"} 22.15\n"
      "d_seconds_count{phase=\"ntt_h\"} 4\n";
  CHECK(t && strcmp(t, want) == 0);
  if (t && strcmp(t, want)) fprintf(stderr, "got:\n%s", t);
  free(t);
}

static void test_metrics_text(void) {
  cz_engine_stats s;
  memset(&s, 0, sizeof s);
  for (int k = 0; k < CZ_KIND_COUNT; k++)
    cz_histogram_snapshot(&(cz_histogram){.le = cz_hist_bounds_proof, .n = cz_hist_bounds_proof_n},
                          &s.duration_hist[k]);
  s.duration_hist[CZ_KIND_WINNING_POST].cum[14] = 1; /* le=3600 */
  s.duration_hist[CZ_KIND_WINNING_POST].count = 1;
  s.duration_hist[CZ_KIND_WINNING_POST].sum = 2;
  s.pending[CZ_KIND_POREP_SEAL_COMMIT] = 3;
  s.n_srs = 2;
  snprintf(s.srs[0].circuit_id, sizeof s.srs[0].circuit_id, "v28-a\"b");
  s.srs[0].tier = CZ_SRS_HOT;
  s.srs[0].size_bytes = 1000;
  snprintf(s.srs[1].circuit_id, sizeof s.srs[1].circuit_id, "w");
  s.srs[1].tier = CZ_SRS_WARM;
  s.srs[1].size_bytes = 7;
  s.memory_used = 1000;
  s.memory_budget = 1 << 30;
  s.memory_pool_idle = 4096;
  s.accepting = true;
  cz_histogram_snap ph[CZ_PHASE_COUNT];
  for (int i = 0; i < CZ_PHASE_COUNT; i++)
    cz_histogram_snapshot(&(cz_histogram){.le = cz_hist_bounds_phase, .n = cz_hist_bounds_phase_n},
                          &ph[i]);
  char *t = cz_metrics_text_with(&s, ph);
  CHECK(t != NULL);
  if (!t) return;
  const char *want[] = {
      "# TYPE cuzk_proof_duration_seconds summary\n",
      "# TYPE cuzk_proof_latency_seconds histogram\n",
      "cuzk_proof_latency_seconds_bucket{proof_kind=\"winning_post\",le=\"3600\"} 1\n",
      "cuzk_proof_latency_seconds_bucket{proof_kind=\"winning_post\",le=\"0.1\"} 0\n",
      "cuzk_proof_latency_seconds_count{proof_kind=\"winning_post\"} 1\n",
      "# TYPE cuzk_prove_phase_seconds histogram\n",
      "cuzk_prove_phase_seconds_bucket{phase=\"msm_b_g2\",le=\"+Inf\"} 0\n",
      "cuzk_prove_phase_seconds_count{phase=\"synthesis\"} 0\n",
      "cuzk_queue_pending{proof_kind=\"porep_c2\"} 3\n",
      "cuzk_queue_depth 3\n",
      "cuzk_memory_used_bytes 1000\n",
      "cuzk_memory_budget_bytes 1073741824\n",
      "cuzk_memory_pool_idle_bytes 4096\n",
      "cuzk_srs_tier_bytes{tier=\"hot\"} 1000\n",
      "cuzk_srs_tier_bytes{tier=\"warm\"} 7\n",
      "cuzk_srs_tier_bytes{tier=\"cold\"} 0\n",
      "cuzk_srs_bytes{circuit_id=\"v28-a\\\"b\",tier=\"hot\"} 1000\n",
      "cuzk_ready 1\n",
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    bool ok = strstr(t, want[i]) != NULL;
    CHECK(ok);
    if (!ok) fprintf(stderr, "missing: %s", want[i]);
  }
  free(t);
  char *r = cz_ready_json(&s);
  CHECK(r && strcmp(r, "{\"ready\":true,\"hot_circuits\":[\"v28-a\\\"b\"]}") == 0);
  free(r);
}

int main(void) {
  test_escaping();
  test_histogram();
  test_metrics_text();
  return check_report("test_metrics");
}
