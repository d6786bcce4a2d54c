/* The engine's devices (cuzk/proof_ops.h "Devices") with 2-4 emulated
 * GPUs (cz_gpu_emu_open) and a kind that makes real Groth16 proofs of a small
 * circuit on the device the engine hands it (ctx->device), each verified
 * before it is kept (cz_groth16_prove_verified), as the Filecoin kinds do:
 *   - a job's partitions spread across the devices (a kind that uses no
 *     device gets none);
 *   - a WinningPoSt (CRITICAL) takes the next free device before the
 *     queued partitions of a PoRep that holds both devices;
 *   - launch errors, allocation failures, too-large batches and wrong
 *     results each end in verified proofs (another device, the CPU
 *     fallback) or a clear FAILED without a fallback, never a wrong proof;
 *   - a device is unhealthy after K faults in a row or one bad proof, is
 *     skipped, and its self-test (called, or the engine's own thread)
 *     brings it back;
 *   - 4 devices x 2 workers, 40 mixed jobs with faults on two devices:
 *     every job COMPLETED with proofs that verify;
 *   - the slots themselves (cz_devices): a waiting PoSt holds off PoRep
 *     partitions only from the devices it could take; status shows the
 *     newest partition still in flight on a device.
 * Input words (test_input.h): items=N partitions, seed=S (partition i
 * proves the circuit of x = S + i). */
#include <pthread.h>
#include "check.h"
#include "synth_sparse.h"
#include "test_input.h"
#include "cuda/czg_host.h"
#include "cuzk/groth16_prove.h"
#include "engine/engine_internal.h"

enum { N_CONS = 60, MAX_DEV = 4, LOG_CAP = 512 };

static cz_groth16_params P;
static cz_groth16_pvk *PVK;

typedef struct {
  czg_backend_state st;
  cz_prover_backend b;
} device;

static device DEV[MAX_DEV];

/* Which device proved what, in order of entry (under MU). */
static pthread_mutex_t MU = PTHREAD_MUTEX_INITIALIZER;
static struct {
  char job[CZ_JOB_ID_MAX];
  const void *device;
} LOG[LOG_CAP];
static int N_LOG;

static cz_assignment synth(uint64_t x) { return check_sparse_assignment(N_CONS, x); }

static cz_err g_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *p, char *msg, size_t len) {
  cz_err e = test_items_plan(self, ctx, p, msg, len);
  p->proof_bytes = CZ_GROTH16_PROOF_BYTES;
  return e;
}

static cz_err g_synthesize(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                           size_t len) {
  (void)self, (void)msg, (void)len;
  cz_assignment *as = malloc(sizeof *as);
  *as = synth(test_input(ctx->req, "seed", 1) + i);
  *state = as;
  return CZ_OK;
}

static cz_err g_prove(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                      char *msg, size_t len) {
  (void)self, (void)i;
  pthread_mutex_lock(&MU);
  if (N_LOG < LOG_CAP) {
    snprintf(LOG[N_LOG].job, sizeof LOG[N_LOG].job, "%s", ctx->req->request_id);
    LOG[N_LOG++].device = ctx->device;
  }
  pthread_mutex_unlock(&MU);
  cz_assignment *as = state;
  /* the inputs outlive the prove, which frees the assignment */
  size_t n_in = P.vk.n_ic - 1;
  cz_fr *in = malloc(n_in * sizeof *in);
  memcpy(in, as->inputs + 1, n_in * sizeof *in);
  cz_prove_ctx pc = {ctx->device, &P, PVK, 1, &(cz_prove_timing){NULL, NULL, true}};
  cz_err e = cz_groth16_prove_verified(&pc, as, in, n_in, "test circuit", out, msg, len);
  free(in);
  free(as);
  return e;
}

static void g_discard(void *self, void *state) {
  (void)self;
  cz_assignment_free(state);
  free(state);
}

static const cz_proof_ops OPS = {.name = "groth16-test",
                                 .plan = g_plan,
                                 .synthesize = g_synthesize,
                                 .prove_partition = g_prove,
                                 .discard = g_discard,
                                 .uses_devices = true};

/* ---- devices as the engine sees them ------------------------------------ */

static cz_err dev_self_test(const void *h, char *msg, size_t len) {
  return cz_gpu_self_test(((const cz_prover_backend *)h)->state, msg, len);
}
static void dev_memory(const void *h, uint64_t *free_b, uint64_t *total) {
  czg_backend_state *st = ((const cz_prover_backend *)h)->state;
  size_t f = 0;
  st->ops.mem_free(st->ops.ctx, &f);
  *free_b = f;
  *total = st->ops.mem_total;
}
static uint64_t dev_oom(const void *h) {
  czg_backend_state *st = ((const cz_prover_backend *)h)->state;
  return __atomic_load_n(&st->oom_retries, __ATOMIC_RELAXED);
}

/* An engine with n emulated devices of `workers` slots, the CPU as the
 * fallback when asked, the test kind as PoRep and WinningPoSt. */
static cz_engine *devices_engine(unsigned n, unsigned workers, bool fallback, uint64_t test_ms) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 2;
  cfg.urgent_workers = 1;
  cfg.memory_budget = 1 << 30;
  cfg.timeline = false;
  cfg.synthesis_concurrency = 2;
  cfg.max_queue_depth = 8;
  cfg.device_fail_limit = 3;
  cfg.self_test_interval_ms = test_ms;
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &cfg, NULL, 0) == CZ_OK);
  CHECK(cz_engine_register_ops(e, CZ_KIND_POREP_SEAL_COMMIT, &OPS, NULL) == CZ_OK);
  CHECK(cz_engine_register_ops(e, CZ_KIND_WINNING_POST, &OPS, NULL) == CZ_OK);
  /* a kind that proves on the CPU whatever (circom's): given no device */
  cz_proof_ops cpu_kind = OPS;
  cpu_kind.uses_devices = false;
  CHECK(cz_engine_register_ops(e, CZ_KIND_SNAP_DEALS_UPDATE, &cpu_kind, NULL) == CZ_OK);
  for (unsigned i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "emu-%u", i);
    czg_ops ops;
    CHECK_EQ_INT(cz_gpu_emu_open(&ops, name, 1 << 22), CZ_OK);
    cz_gpu_backend_init(&DEV[i].b, &DEV[i].st, &ops);
    cz_engine_device d = {name, &DEV[i].b, workers, dev_self_test, dev_memory, dev_oom, NULL};
    CHECK_EQ_INT(cz_engine_add_device(e, &d), CZ_OK);
  }
  if (fallback) cz_engine_set_fallback_device(e, cz_prover_cpu());
  CHECK(cz_engine_start(e) == CZ_OK);
  pthread_mutex_lock(&MU);
  N_LOG = 0;
  pthread_mutex_unlock(&MU);
  return e;
}

static void close_engine(cz_engine *e, unsigned n) {
  cz_engine_destroy(e);
  for (unsigned i = 0; i < n; i++) cz_gpu_backend_destroy(&DEV[i].st);
}

static void submit(cz_engine *e, const char *id, cz_proof_kind kind, const char *input) {
  cz_job_request r = test_request(id, kind, input);
  char job[CZ_JOB_ID_MAX], msg[256] = "";
  CHECK_EQ_INT(cz_engine_submit(e, &r, job, NULL, msg, sizeof msg), CZ_OK);
}

/* Await id; true when COMPLETED, with each partition's proof checked
 * against the circuit of its x (items, seed as submitted). */
static bool completed_verified(cz_engine *e, const char *id, size_t items, uint64_t seed, char *why,
                               size_t why_len) {
  cz_job_result res;
  CHECK_EQ_INT(cz_engine_await(e, id, 60000, &res), CZ_OK);
  snprintf(why, why_len, "%s", res.error);
  bool ok = res.status == CZ_JOB_COMPLETED && res.proof_len == items * CZ_GROTH16_PROOF_BYTES;
  for (size_t i = 0; ok && i < items; i++) {
    cz_groth16_proof pr;
    cz_assignment as = synth(seed + i);
    ok = cz_groth16_proof_read(&pr, res.proof + i * CZ_GROTH16_PROOF_BYTES) == CZ_OK &&
         cz_groth16_verify(&P.vk, as.inputs + 1, P.vk.n_ic - 1, &pr) == CZ_OK;
    CHECK(ok); /* never a wrong proof */
    cz_assignment_free(&as);
  }
  free(res.proof);
  return ok;
}

static void faults(unsigned i, const czg_emu_faults *f) {
  cz_gpu_emu_set_faults(&DEV[i].st.ops, f);
}

static int proved_on(const void *device) {
  int n = 0;
  pthread_mutex_lock(&MU);
  for (int k = 0; k < N_LOG; k++) n += LOG[k].device == device;
  pthread_mutex_unlock(&MU);
  return n;
}

/* ---- the tests ------------------------------------------------------------ */

static void test_spread(void) {
  cz_engine *e = devices_engine(3, 2, false, 0);
  for (unsigned i = 0; i < 3; i++) faults(i, &(czg_emu_faults){.delay_ms = 5});
  submit(e, "spread", CZ_KIND_POREP_SEAL_COMMIT, "items=9 seed=10");
  char why[512];
  CHECK(completed_verified(e, "spread", 9, 10, why, sizeof why));
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK_EQ_INT(s.n_devices, 3);
  uint64_t total = 0;
  for (unsigned i = 0; i < 3; i++) {
    CHECK(s.devices[i].proved > 0); /* every device took a share */
    CHECK(s.devices[i].healthy && s.devices[i].busy == 0 && s.devices[i].workers == 2);
    CHECK(s.devices[i].mem_total == (1u << 22));
    CHECK(strcmp(s.devices[i].name, i ? (i == 1 ? "emu-1" : "emu-2") : "emu-0") == 0);
    total += s.devices[i].proved;
  }
  CHECK(total == 9);
  submit(e, "cpu-kind", CZ_KIND_SNAP_DEALS_UPDATE, "items=2 seed=20");
  CHECK(completed_verified(e, "cpu-kind", 2, 20, why, sizeof why));
  CHECK(proved_on(NULL) == 2);
  cz_engine_get_stats(e, &s);
  CHECK(s.devices[0].proved + s.devices[1].proved + s.devices[2].proved == 9);
  close_engine(e, 3);
}

static bool porep_holds_both(void *arg) {
  cz_engine_stats s;
  cz_engine_get_stats(arg, &s);
  return s.devices[0].busy == 1 && s.devices[1].busy == 1;
}

static void test_post_overtakes(void) {
  cz_engine *e = devices_engine(2, 1, false, 0);
  for (unsigned i = 0; i < 2; i++) faults(i, &(czg_emu_faults){.delay_ms = 20});
  submit(e, "porep", CZ_KIND_POREP_SEAL_COMMIT, "items=8 seed=100");
  test_wait(porep_holds_both, e, 60, "the PoRep on both devices");
  pthread_mutex_lock(&MU);
  int before = N_LOG;
  pthread_mutex_unlock(&MU);
  submit(e, "post", CZ_KIND_WINNING_POST, "items=1 seed=200");
  char why[512];
  CHECK(completed_verified(e, "post", 1, 200, why, sizeof why));
  /* The PoSt went in at most one partition per device after it came:
   * those that were in flight, not the PoRep's queue of 8. */
  pthread_mutex_lock(&MU);
  int at = -1;
  for (int k = 0; k < N_LOG; k++)
    if (!strcmp(LOG[k].job, "post")) at = k;
  pthread_mutex_unlock(&MU);
  CHECK(at >= 0 && at <= before + 2);
  CHECK(completed_verified(e, "porep", 8, 100, why, sizeof why));
  close_engine(e, 2);
}

/* Device 0 fails every launch: after 3 faults it is out, every partition
 * is proved on device 1; its self-test fails until the fault is gone. */
static void test_launch_errors_and_health(void) {
  cz_engine *e = devices_engine(2, 1, false, 0);
  faults(0, &(czg_emu_faults){.fail_step = 1, .fail_steps = ~0ul, .fail_err = CZ_ERR_DEVICE});
  char why[512], msg[256];
  for (int j = 0; j < 3; j++) {
    char id[16];
    snprintf(id, sizeof id, "launch-%d", j);
    submit(e, id, CZ_KIND_POREP_SEAL_COMMIT, "items=3 seed=30");
    CHECK(completed_verified(e, id, 3, 30, why, sizeof why));
  }
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK(!s.devices[0].healthy && s.devices[1].healthy);
  CHECK(s.devices[0].faults[CZ_FAULT_DEVICE] == 3 && s.devices[0].proved == 0);
  CHECK(strstr(s.devices[0].why, "faults in a row") != NULL);
  CHECK(s.devices[1].proved == 9);
  /* skipped while unhealthy */
  int on0 = proved_on(&DEV[0].b);
  submit(e, "skip", CZ_KIND_POREP_SEAL_COMMIT, "items=4 seed=40");
  CHECK(completed_verified(e, "skip", 4, 40, why, sizeof why));
  CHECK(proved_on(&DEV[0].b) == on0);
  CHECK_EQ_INT(cz_engine_device_self_test(e, 0, msg, sizeof msg), CZ_ERR_DEVICE);
  CHECK(strstr(msg, "self-test") != NULL);
  faults(0, NULL);
  CHECK_EQ_INT(cz_engine_device_self_test(e, 0, msg, sizeof msg), CZ_OK);
  cz_engine_get_stats(e, &s);
  CHECK(s.devices[0].healthy && s.devices[0].why[0] == 0);
  CHECK_EQ_INT(cz_engine_device_self_test(e, 7, msg, sizeof msg), CZ_ERR_NOT_FOUND);
  faults(1, &(czg_emu_faults){.delay_ms = 10}); /* so that device 0 gets work again */
  submit(e, "back", CZ_KIND_POREP_SEAL_COMMIT, "items=4 seed=50");
  CHECK(completed_verified(e, "back", 4, 50, why, sizeof why));
  CHECK(proved_on(&DEV[0].b) > on0);
  close_engine(e, 2);
}

static bool healthy0(void *arg) {
  cz_engine_stats s;
  cz_engine_get_stats(arg, &s);
  return s.devices[0].healthy;
}

/* A wrong result on device 0: its proof does not verify, so it is never
 * returned; device 0 is out at once, the partition is proved on device 1,
 * and the engine's own self-test brings device 0 back once it is sound. */
static void test_bad_proof(void) {
  cz_engine *e = devices_engine(2, 1, false, 30);
  faults(0, &(czg_emu_faults){.corrupt_all = true});
  faults(1, &(czg_emu_faults){.delay_ms = 5});
  char why[512];
  submit(e, "bad", CZ_KIND_POREP_SEAL_COMMIT, "items=4 seed=60");
  CHECK(completed_verified(e, "bad", 4, 60, why, sizeof why));
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK(!s.devices[0].healthy && s.devices[0].faults[CZ_FAULT_BAD_PROOF] == 1);
  CHECK(strstr(s.devices[0].why, "did not verify") != NULL);
  CHECK(s.devices[1].proved == 4);
  usleep(100 * 1000); /* self-tests fail while the device is wrong */
  CHECK(!healthy0(e));
  faults(0, NULL);
  test_wait(healthy0, e, 30, "the self-test thread to bring emu-0 back");
  close_engine(e, 2);
}

/* Out of memory: a batch cap is handled in the device (smaller batches,
 * counted as oom faults); H failing on every device moves the partitions
 * to the CPU, or FAILS them clearly when there is no fallback. */
static void test_oom(void) {
  char why[512];
  cz_engine *e = devices_engine(2, 2, true, 0);
  faults(0, &(czg_emu_faults){.max_points = 8});
  faults(1, &(czg_emu_faults){.max_points = 8});
  submit(e, "small", CZ_KIND_POREP_SEAL_COMMIT, "items=2 seed=70");
  CHECK(completed_verified(e, "small", 2, 70, why, sizeof why));
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK(s.devices[0].faults[CZ_FAULT_OOM] + s.devices[1].faults[CZ_FAULT_OOM] > 0);
  CHECK(s.devices[0].healthy && s.devices[1].healthy);
  for (unsigned i = 0; i < 2; i++)
    faults(i, &(czg_emu_faults){.fail_step = 1, .fail_steps = ~0ul, .fail_err = CZ_ERR_NOMEM});
  submit(e, "cpu", CZ_KIND_POREP_SEAL_COMMIT, "items=2 seed=80");
  CHECK(completed_verified(e, "cpu", 2, 80, why, sizeof why));
  cz_engine_get_stats(e, &s);
  CHECK(s.fallback_proved == 2);
  close_engine(e, 2);

  e = devices_engine(2, 1, false, 0);
  for (unsigned i = 0; i < 2; i++)
    faults(i, &(czg_emu_faults){.fail_step = 1, .fail_steps = ~0ul, .fail_err = CZ_ERR_NOMEM});
  submit(e, "none", CZ_KIND_POREP_SEAL_COMMIT, "items=1 seed=90");
  CHECK(!completed_verified(e, "none", 1, 90, why, sizeof why));
  CHECK(strstr(why, "no healthy device left") != NULL);
  close_engine(e, 2);
}

/* 4 devices x 2 workers, 40 jobs of both priorities, launch errors now and
 * then on one device and wrong results now and then on another. */
static void test_mixed(void) {
  cz_engine *e = devices_engine(4, 2, true, 20);
  faults(1, &(czg_emu_faults){.fail_step = 7, .fail_steps = 3, .fail_err = CZ_ERR_DEVICE});
  faults(2, &(czg_emu_faults){.corrupt_step = 11});
  enum { JOBS = 40 };
  for (int j = 0; j < JOBS; j++) {
    char id[16], in[64];
    snprintf(id, sizeof id, "mix-%d", j);
    snprintf(in, sizeof in, "items=%d seed=%d", 1 + j % 3, 1000 + 10 * j);
    submit(e, id, j % 4 == 3 ? CZ_KIND_WINNING_POST : CZ_KIND_POREP_SEAL_COMMIT, in);
  }
  int completed = 0;
  char why[512];
  for (int j = 0; j < JOBS; j++) {
    char id[16];
    snprintf(id, sizeof id, "mix-%d", j);
    completed +=
        completed_verified(e, id, 1 + (size_t)j % 3, 1000 + 10 * (uint64_t)j, why, sizeof why);
  }
  CHECK_EQ_INT(completed, JOBS);
  cz_engine_stats s;
  cz_engine_get_stats(e, &s);
  CHECK(s.devices[1].faults[CZ_FAULT_DEVICE] >= 1);
  CHECK(s.devices[2].faults[CZ_FAULT_BAD_PROOF] == 1);
  close_engine(e, 4);
}

/* ---- the slots: whom a waiting urgent partition holds off ------------------- */

static cz_err st_ok(const void *h, char *msg, size_t len) {
  (void)h, (void)msg, (void)len;
  return CZ_OK;
}

typedef struct {
  cz_devices *s;
  cz_priority prio;
  uint32_t excluded;
  pthread_t t;
  int got; /* -3 while waiting (under s->mu) */
} waiter;

static void *waiter_main(void *arg) {
  waiter *w = arg;
  int d = cz_devices_acquire(w->s, w->prio, w->excluded, NULL, "w", CZ_KIND_WINNING_POST, 0);
  pthread_mutex_lock(&w->s->mu);
  w->got = d;
  pthread_mutex_unlock(&w->s->mu);
  return NULL;
}

static void start_waiter(waiter *w, cz_devices *s, cz_priority prio, uint32_t excluded) {
  *w = (waiter){s, prio, excluded, 0, -3};
  CHECK(pthread_create(&w->t, NULL, waiter_main, w) == 0);
}

static int got_of(waiter *w) {
  pthread_mutex_lock(&w->s->mu);
  int d = w->got;
  pthread_mutex_unlock(&w->s->mu);
  return d;
}

static bool has_got(void *arg) { return got_of(arg) != -3; }

static bool urgent_waits_for_0(void *arg) {
  cz_devices *s = arg;
  pthread_mutex_lock(&s->mu);
  bool w = s->urgent_want[0] == 1 && s->urgent_want[1] == 0;
  pthread_mutex_unlock(&s->mu);
  return w;
}

/* Both devices busy; a CRITICAL partition that may not use device 1 (it
 * faulted there) waits, and so does a NORMAL one. Device 1 frees: the
 * NORMAL one takes it (the other cannot). Device 0 frees: the CRITICAL
 * one takes it, ahead of a NORMAL one that waited longer. */
static void test_urgent_yields(void) {
  cz_devices s;
  cz_devices_init(&s, 3, 60000);
  for (unsigned i = 0; i < 2; i++) {
    cz_engine_device d = {i ? "slot-1" : "slot-0", &DEV[i], 1, st_ok, NULL, NULL, NULL};
    CHECK_EQ_INT(cz_devices_add(&s, &d), CZ_OK);
  }
  CHECK_EQ_INT(cz_devices_acquire(&s, CZ_PRIO_NORMAL, 0, NULL, "a", CZ_KIND_POREP_SEAL_COMMIT, 0),
               0);
  CHECK_EQ_INT(cz_devices_acquire(&s, CZ_PRIO_NORMAL, 0, NULL, "b", CZ_KIND_POREP_SEAL_COMMIT, 1),
               1);
  waiter crit, normal, later;
  start_waiter(&crit, &s, CZ_PRIO_CRITICAL, 1u << 1);
  test_wait(urgent_waits_for_0, &s, 10, "the CRITICAL partition waiting for device 0");
  start_waiter(&normal, &s, CZ_PRIO_NORMAL, 0);
  cz_devices_release(&s, 1, "b", 1, CZ_OK, "");
  test_wait(has_got, &normal, 10, "the NORMAL partition on device 1");
  CHECK_EQ_INT(got_of(&normal), 1);
  CHECK_EQ_INT(got_of(&crit), -3);
  start_waiter(&later, &s, CZ_PRIO_NORMAL, 0);
  usleep(50 * 1000); /* it is waiting too */
  cz_devices_release(&s, 0, "a", 0, CZ_OK, "");
  test_wait(has_got, &crit, 10, "the CRITICAL partition on device 0");
  CHECK_EQ_INT(got_of(&crit), 0);
  CHECK_EQ_INT(got_of(&later), -3);
  cz_devices_release(&s, 1, "w", 0, CZ_OK, "");
  test_wait(has_got, &later, 10, "the last NORMAL partition");
  CHECK_EQ_INT(got_of(&later), 1);
  pthread_join(crit.t, NULL), pthread_join(normal.t, NULL), pthread_join(later.t, NULL);
  cz_devices_release(&s, 0, "w", 0, CZ_OK, ""), cz_devices_release(&s, 1, "w", 0, CZ_OK, "");
  CHECK(s.dev[0].proved == 2 && s.dev[1].proved == 3);
  cz_devices_destroy(&s);
}

/* A device with two partitions in flight shows the newer one; when that
 * one ends, the other; then none. */
static void check_shown(cz_devices *s, const char *job, uint32_t partition) {
  static cz_engine_stats st;
  cz_devices_snapshot(s, &st);
  CHECK(strcmp(st.devices[0].job_id, job) == 0 && st.devices[0].partition == partition);
  CHECK(st.devices[0].kind == (job[0] ? CZ_KIND_POREP_SEAL_COMMIT : CZ_KIND_UNSPECIFIED));
}

static void test_status_in_flight(void) {
  cz_devices s;
  cz_devices_init(&s, 3, 60000);
  cz_engine_device d = {"two", &DEV[0], 2, st_ok, NULL, NULL, NULL};
  CHECK_EQ_INT(cz_devices_add(&s, &d), CZ_OK);
  CHECK_EQ_INT(cz_devices_acquire(&s, CZ_PRIO_NORMAL, 0, NULL, "x", CZ_KIND_POREP_SEAL_COMMIT, 1),
               0);
  check_shown(&s, "x", 1);
  CHECK_EQ_INT(cz_devices_acquire(&s, CZ_PRIO_NORMAL, 0, NULL, "y", CZ_KIND_POREP_SEAL_COMMIT, 2),
               0);
  check_shown(&s, "y", 2);
  cz_devices_release(&s, 0, "y", 2, CZ_OK, "");
  check_shown(&s, "x", 1);
  cz_devices_release(&s, 0, "x", 1, CZ_OK, "");
  check_shown(&s, "", 0);
  cz_devices_destroy(&s);
}

int main(void) {
  if (!check_sparse_setup(&P, N_CONS)) return check_report("test_devices");
  PVK = cz_groth16_prepare(&P.vk);
  test_spread();
  test_post_overtakes();
  test_launch_errors_and_health();
  test_bad_proof();
  test_oom();
  test_mixed();
  test_urgent_yields();
  test_status_in_flight();
  cz_groth16_pvk_free(PVK);
  cz_groth16_params_free(&P);
  return check_report("test_devices");
}
