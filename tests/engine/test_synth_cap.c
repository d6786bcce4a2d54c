/* cz_engine_config.max_parallel_synthesis (the daemon's
 * pipeline.max_parallel_synthesis): three workers each run a pipeline of
 * synthesis_concurrency 4, so up to 12 items could be synthesized at once;
 * with a cap of 2 no more than 2 ever are, across all jobs, and 2 are (the
 * cap is not a serialization). Without a cap the same load goes above 2,
 * which shows the measurement can see a breach. A CRITICAL job is not held
 * by the cap. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "test_input.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"

static atomic_int in_synth, peak;

static cz_err synth(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                    size_t msg_len) {
  (void)self, (void)ctx, (void)i, (void)msg, (void)msg_len;
  int now = atomic_fetch_add(&in_synth, 1) + 1;
  for (int p = atomic_load(&peak); now > p && !atomic_compare_exchange_weak(&peak, &p, now);) {
  }
  usleep(15000); /* long enough for the other workers' items to overlap */
  atomic_fetch_sub(&in_synth, 1);
  *state = malloc(1);
  return *state ? CZ_OK : CZ_ERR_NOMEM;
}

static cz_err prove_item(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                         char *msg, size_t msg_len) {
  (void)self, (void)ctx, (void)msg, (void)msg_len;
  free(state);
  out[0] = (uint8_t)i;
  return CZ_OK;
}

static void discard(void *self, void *state) {
  (void)self;
  free(state);
}

/* The peak of items in synthesis at once over n_jobs jobs of 8 items. */
static int run(unsigned cap, cz_priority prio, int n_jobs) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 3;
  cfg.urgent_workers = 1;
  cfg.memory_budget = 1 << 20;
  cfg.timeline = false;
  cfg.max_parallel_synthesis = cap;
  cfg.synthesis_concurrency = 4;
  cfg.max_queue_depth = 4;
  cz_engine *e = NULL;
  CHECK_EQ_INT(cz_engine_create(&e, &cfg, NULL, 0), CZ_OK);
  if (!e) return -1;
  cz_proof_ops h = {.name = "synth-cap-double",
                    .plan = test_items_plan,
                    .synthesize = synth,
                    .prove_partition = prove_item,
                    .discard = discard};
  CHECK_EQ_INT(cz_engine_register_ops(e, CZ_KIND_POREP_SEAL_COMMIT, &h, NULL), CZ_OK);
  CHECK_EQ_INT(cz_engine_start(e), CZ_OK);
  atomic_store(&peak, 0);
  char ids[4][16], job_id[CZ_JOB_ID_MAX], msg[256];
  for (int j = 0; j < n_jobs; j++) {
    snprintf(ids[j], sizeof ids[j], "cap-%u-%d", cap, j);
    cz_job_request r = test_request(ids[j], CZ_KIND_POREP_SEAL_COMMIT, "items=8");
    r.priority = prio;
    CHECK_EQ_INT(cz_engine_submit(e, &r, job_id, NULL, msg, sizeof msg), CZ_OK);
  }
  for (int j = 0; j < n_jobs; j++) {
    cz_job_result res;
    CHECK_EQ_INT(cz_engine_await(e, ids[j], 0, &res), CZ_OK);
    CHECK_EQ_INT(res.status, CZ_JOB_COMPLETED);
    free(res.proof);
  }
  cz_engine_destroy(e);
  return atomic_load(&peak);
}

int main(void) {
  int capped = run(2, CZ_PRIO_NORMAL, 3);
  CHECK_EQ_INT(capped, 2);
  int free_run = run(0, CZ_PRIO_NORMAL, 3);
  if (free_run <= 2) fprintf(stderr, "uncapped peak %d: the load cannot show a breach\n", free_run);
  CHECK(free_run > 2);
  /* One CRITICAL job (the urgent worker's kind) is not held to the cap. */
  int urgent = run(1, CZ_PRIO_CRITICAL, 1);
  if (urgent <= 1) fprintf(stderr, "critical peak %d under cap 1\n", urgent);
  CHECK(urgent > 1);
  return check_report("test_synth_cap");
}
