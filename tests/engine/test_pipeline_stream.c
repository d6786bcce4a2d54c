/* Partitions stream: a job of 126 partitions (NI-PoRep 32/64 GiB's count)
 * through the engine's pipeline holds at most synthesis_concurrency +
 * max_queue_depth partition states at once, whatever the count, for
 * several settings of the engine; the window is filled (the bound is reached, so it is
 * the bound and not the stages' speed that holds memory down); serial
 * (pipeline.enabled = false) holds one; and the
 * TIMELINE's SYNTH_START in_flight= (what the daemon's log shows) agrees
 * with the stages' own count. The stages are stand-ins (a 64 KiB state per
 * item); test_daemon_seal_kinds checks the same on a real 13-partition
 * NI-PoRep job. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "one_worker_engine.h"
#include "test_input.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"

#define ITEMS 126
#define STATE_BYTES (64u << 10)

static struct {
  pthread_mutex_t mu;
  unsigned conc, depth;
  bool serial;
  int alive, max_alive, proved;
  bool filled;
} S = {.mu = PTHREAD_MUTEX_INITIALIZER};

static cz_err synth(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                    size_t msg_len) {
  (void)self, (void)ctx, (void)msg, (void)msg_len;
  void *b = malloc(STATE_BYTES);
  if (!b) return CZ_ERR_NOMEM;
  memset(b, (int)(i & 0xff), STATE_BYTES);
  pthread_mutex_lock(&S.mu);
  if (++S.alive > S.max_alive) S.max_alive = S.alive;
  pthread_mutex_unlock(&S.mu);
  *state = b;
  return CZ_OK;
}

static void release(void *state) {
  free(state);
  pthread_mutex_lock(&S.mu);
  S.alive--;
  pthread_mutex_unlock(&S.mu);
}

static bool window_full(void *arg) {
  (void)arg;
  int bound = S.serial ? 1 : (int)(S.conc + S.depth);
  pthread_mutex_lock(&S.mu);
  bool full = S.alive == bound;
  pthread_mutex_unlock(&S.mu);
  return full;
}

static cz_err prove(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                    char *msg, size_t msg_len) {
  (void)self, (void)ctx, (void)msg, (void)msg_len;
  if (i == 0) S.filled = test_wait(window_full, NULL, 30, "the window to fill");
  bool ok = ((unsigned char *)state)[STATE_BYTES - 1] == (unsigned char)(i & 0xff);
  release(state);
  pthread_mutex_lock(&S.mu);
  S.proved++;
  pthread_mutex_unlock(&S.mu);
  out[0] = (uint8_t)i;
  return ok ? CZ_OK : CZ_ERR_PROOF_INVALID;
}

static void discard(void *self, void *state) {
  (void)self;
  release(state);
}

/* The largest in_flight= of the SYNTH_START lines of job id in log, and
 * how many there were. */
static int log_in_flight(FILE *log, const char *id, int *lines) {
  char line[512], want[64];
  snprintf(want, sizeof want, ",SYNTH_START,%s,item=", id);
  int peak = 0;
  *lines = 0;
  rewind(log);
  while (fgets(line, sizeof line, log)) {
    const char *p = strstr(line, want), *f = p ? strstr(p, ",in_flight=") : NULL;
    if (!f) continue;
    int n = atoi(f + strlen(",in_flight="));
    if (n > peak) peak = n;
    ++*lines;
  }
  return peak;
}

typedef struct {
  cz_err submit, await;
  cz_job_status status;
  int proved, alive_after, max_alive, log_peak, log_lines;
  size_t proof_len;
  bool filled;
} run_result;

/* One 126-item job on an engine whose pipeline is conc + depth, or serial. */
static run_result run(FILE *log, unsigned conc, unsigned depth, bool serial) {
  run_result out = {0};
  cz_proof_ops h = {.name = "stream-double",
                    .plan = test_items_plan,
                    .synthesize = synth,
                    .prove_partition = prove,
                    .discard = discard};
  cz_engine *e = one_worker_engine(&h, true, conc, depth, serial);
  pthread_mutex_lock(&S.mu);
  S.conc = conc, S.depth = depth, S.serial = serial;
  S.alive = S.max_alive = S.proved = 0;
  S.filled = false;
  pthread_mutex_unlock(&S.mu);
  char id[32], job[CZ_JOB_ID_MAX], msg[256];
  snprintf(id, sizeof id, "stream-%u-%u%s", conc, depth, serial ? "-serial" : "");
  char input[32];
  snprintf(input, sizeof input, "items=%d", ITEMS);
  cz_job_request r = test_request(id, CZ_KIND_POREP_SEAL_COMMIT, input);
  out.submit = cz_engine_submit(e, &r, job, NULL, msg, sizeof msg);
  cz_job_result res = {0};
  out.await = cz_engine_await(e, id, 0, &res);
  out.status = res.status;
  out.proof_len = res.proof_len;
  free(res.proof);
  cz_engine_destroy(e);
  fflush(stderr);
  out.log_peak = log_in_flight(log, id, &out.log_lines);
  out.proved = S.proved, out.alive_after = S.alive, out.max_alive = S.max_alive;
  out.filled = S.filled;
  return out;
}

int main(void) {
  /* {conc, depth, serial}: the last, pipeline.enabled = false, ignores the
   * other two and must hold one partition at a time. */
  static const unsigned settings[][3] = {{1, 1, 0}, {2, 1, 0}, {1, 4, 0}, {3, 2, 0}, {3, 2, 1}};
  enum { N_SETTINGS = sizeof settings / sizeof settings[0] };
  run_result res[N_SETTINGS];
  /* The engine's TIMELINE lines go to stderr: into a file while the jobs
   * run, so that the checks below still report on the real stderr. */
  FILE *log = tmpfile();
  CHECK(log != NULL);
  if (!log) return check_report("test_pipeline_stream");
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(log), 2);
  for (int s = 0; s < N_SETTINGS; s++)
    res[s] = run(log, settings[s][0], settings[s][1], settings[s][2]);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(log);

  for (int s = 0; s < N_SETTINGS; s++) {
    const run_result *r = &res[s];
    int bound = settings[s][2] ? 1 : (int)(settings[s][0] + settings[s][1]);
    fprintf(stderr,
            "conc %u depth %u%s: %d items proved, at most %d states alive (%zu KiB), "
            "log in_flight peak %d over %d SYNTH_START lines\n",
            settings[s][0], settings[s][1], settings[s][2] ? " serial" : "", r->proved,
            r->max_alive, (size_t)r->max_alive * STATE_BYTES >> 10, r->log_peak, r->log_lines);
    CHECK_EQ_INT(r->submit, CZ_OK);
    CHECK_EQ_INT(r->await, CZ_OK);
    CHECK_EQ_INT(r->status, CZ_JOB_COMPLETED);
    CHECK_EQ_INT(r->proved, ITEMS);
    CHECK_EQ_INT(r->proof_len, ITEMS);
    CHECK_EQ_INT(r->alive_after, 0);
    CHECK(r->filled);
    CHECK(r->max_alive <= bound);
    CHECK_EQ_INT(r->log_lines, ITEMS);
    CHECK_EQ_INT(r->log_peak, bound); /* the log's count: the window, filled */
  }
  return check_report("test_pipeline_stream");
}
