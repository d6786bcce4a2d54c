/* The parameter store's test cache under concurrency: processes that want
 * the same missing test file make it once (the others wait on its lock and
 * load it), so all of them end up with one verifying key, the file's.
 * And its progress reports: keygen, setup (streamed into the file) and load
 * params when it makes the file, map params (load params when decoding)
 * when it reads it, each ending
 * at its total. Parameters made from the circuit's shape (evaluated at tau,
 * no KEYGEN columns) fit it as those made from its columns. A process
 * killed (SIGKILL) while making the file leaves none; the next one makes
 * it, removes the temporary, and the one after loads it. */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/groth16.h"
#include "cuzk/params_store.h"
#include "cuzk/synthetic.h"
#include "util/atomic_file.h"

#define N_CONSTRAINTS 4000

static cz_err keygen_chain(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  (void)ctx, (void)msg, (void)msg_len;
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_synthetic_chain(cs, N_CONSTRAINTS, NULL);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_keygen(cs, out);
  cz_cs_free(cs);
  return e;
}

static cz_err shape_chain(void *ctx, cz_cs *cs) {
  (void)ctx;
  return cz_synthetic_chain(cs, N_CONSTRAINTS, NULL);
}

static void test_shape(const char *dir) {
  cz_params_store_opts o = {.test_dir = dir,
                            .no_official = true,
                            .shape = shape_chain,
                            .n_threads = 2,
                            .who = "test_params_store"};
  cz_groth16_params p, q;
  cz_params_origin org;
  char msg[256];
  CHECK(cz_params_store_get(&p, "shape", CZ_SYNTHETIC_INPUTS, &o, &org, msg, sizeof msg) == CZ_OK);
  CHECK(org.source == CZ_PARAMS_TEST_GENERATED && access(org.path, F_OK) == 0);
  o.shape = NULL, o.keygen = keygen_chain;
  CHECK(cz_params_store_get(&q, "cols", CZ_SYNTHETIC_INPUTS, &o, &org, msg, sizeof msg) == CZ_OK);
  CHECK(p.n_h == q.n_h && p.n_l == q.n_l && p.n_a == q.n_a && p.n_b_g1 == q.n_b_g1 &&
        p.n_b_g2 == q.n_b_g2 && p.vk.n_ic == q.vk.n_ic);
  CHECK_EQ_INT(p.n_h, 4095);
  CHECK_EQ_INT(p.n_l, N_CONSTRAINTS);
  cz_groth16_params_free(&p), cz_groth16_params_free(&q);
  /* the wrong input count is refused before anything is written */
  o.shape = shape_chain, o.keygen = NULL;
  CHECK(cz_params_store_get(&p, "shape3", 3, &o, &org, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "expected 3") != NULL);
}

/* Get the parameters and write their vk to vk_path; exit status 0 or 1. */
static int one(const char *dir, const char *vk_path) {
  cz_params_store_opts o = {.test_dir = dir,
                            .no_official = true,
                            .keygen = keygen_chain,
                            .n_threads = 1,
                            .who = "test_params_store"};
  cz_groth16_params p;
  char msg[256];
  if (cz_params_store_get(&p, "concurrent", CZ_SYNTHETIC_INPUTS, &o, NULL, msg, sizeof msg) !=
      CZ_OK)
    return 1;
  size_t n = cz_groth16_vk_write(NULL, &p.vk, false);
  uint8_t *b = malloc(n);
  cz_groth16_vk_write(b, &p.vk, false);
  FILE *f = fopen(vk_path, "wb");
  int rc = f && fwrite(b, 1, n, f) == n ? 0 : 1;
  if (f) fclose(f);
  free(b);
  cz_groth16_params_free(&p);
  return rc;
}

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static uint8_t buf[1 << 16];
  *n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  uint8_t *out = malloc(*n ? *n : 1);
  memcpy(out, buf, *n);
  return out;
}

/* The phases seen, in order of their first report, with the largest done
 * and the last total (workers report concurrently, not in order). */
typedef struct {
  pthread_mutex_t mu;
  int n;
  char phase[8][16];
  uint64_t max_done[8], total[8];
} seen;

static void record(void *ctx, const char *phase, const char *unit, uint64_t done, uint64_t total) {
  (void)unit;
  seen *s = ctx;
  pthread_mutex_lock(&s->mu);
  int i = 0;
  while (i < s->n && strcmp(s->phase[i], phase)) i++;
  if (i == s->n && s->n < 8) snprintf(s->phase[s->n++], sizeof s->phase[0], "%s", phase);
  if (i < 8) {
    if (done > s->max_done[i]) s->max_done[i] = done;
    s->total[i] = total;
  }
  pthread_mutex_unlock(&s->mu);
}

static void test_progress(const char *dir) {
  seen s = {.mu = PTHREAD_MUTEX_INITIALIZER};
  cz_progress pr = {record, &s};
  cz_params_store_opts o = {.test_dir = dir,
                            .no_official = true,
                            .keygen = keygen_chain,
                            .n_threads = 2,
                            .who = "test_params_store",
                            .progress = &pr};
  cz_groth16_params p;
  char msg[256], path[CZ_PARAMS_PATH_MAX];
  CHECK(cz_params_store_get(&p, "progress", CZ_SYNTHETIC_INPUTS, &o, NULL, msg, sizeof msg) ==
        CZ_OK);
  CHECK(cz_params_store_paths("progress", &o, NULL, path) == CZ_OK);
  struct stat st;
  CHECK(stat(path, &st) == 0);
  CHECK_EQ_INT(s.n, 3);
  CHECK(!strcmp(s.phase[0], "keygen") && s.total[0] == 0);
  CHECK(!strcmp(s.phase[1], "setup"));
  /* h (n - 1 of the 2^12 domain), then at least the 4000 aux's l points */
  CHECK(s.total[1] > 4095 + N_CONSTRAINTS && s.max_done[1] == s.total[1]);
  /* The setup streams the file (its points are the setup's progress);
   * the store then maps what it wrote. */
  CHECK(!strcmp(s.phase[2], "map params"));
  CHECK_EQ_INT(s.total[2], cz_groth16_params_file_size(&p));
  CHECK_EQ_INT(s.total[2], st.st_size);
  CHECK_EQ_INT(s.max_done[2], s.total[2]);
  cz_groth16_params_free(&p);

  seen l = {.mu = PTHREAD_MUTEX_INITIALIZER};
  pr.ctx = &l;
  CHECK(cz_params_store_get(&p, "progress", CZ_SYNTHETIC_INPUTS, &o, NULL, msg, sizeof msg) ==
        CZ_OK);
  CHECK_EQ_INT(l.n, 1);
  CHECK(!strcmp(l.phase[0], "map params"));
  CHECK_EQ_INT(l.total[0], st.st_size);
  CHECK_EQ_INT(l.max_done[0], st.st_size);
  cz_groth16_params_free(&p);

  seen d = {.mu = PTHREAD_MUTEX_INITIALIZER};
  pr.ctx = &d;
  o.decode = true;
  CHECK(cz_params_store_get(&p, "progress", CZ_SYNTHETIC_INPUTS, &o, NULL, msg, sizeof msg) ==
        CZ_OK);
  CHECK_EQ_INT(d.n, 1);
  CHECK(!strcmp(d.phase[0], "load params"));
  CHECK_EQ_INT(d.total[0], st.st_size);
  CHECK_EQ_INT(d.max_done[0], st.st_size);
  cz_groth16_params_free(&p);
}

/* Names in dir holding ".tmp." */
static int temporaries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".tmp.") != NULL;
  if (d) closedir(d);
  return n;
}

/* A child killed at `at` bytes of the test file (or before its rename). */
static void test_killed(const char *dir, uint64_t at) {
  cz_params_store_opts o = {.test_dir = dir,
                            .no_official = true,
                            .shape = shape_chain,
                            .n_threads = 1,
                            .who = "test_params_store"};
  char test[CZ_PARAMS_PATH_MAX], msg[512];
  CHECK(cz_params_store_paths("killed", &o, NULL, test) == CZ_OK);
  cz_groth16_params p;
  cz_params_origin org;
  pid_t pid = fork();
  if (pid == 0) {
    cz_atomic_test_kill_at(at);
    cz_err e = cz_params_store_get(&p, "killed", CZ_SYNTHETIC_INPUTS, &o, &org, msg, sizeof msg);
    _exit(e == CZ_OK ? 2 : 3); /* not reached: killed */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  CHECK(access(test, F_OK) != 0); /* never a partial file */
  CHECK_EQ_INT(temporaries(dir), 1);
  CHECK(cz_params_store_get(&p, "killed", CZ_SYNTHETIC_INPUTS, &o, &org, msg, sizeof msg) == CZ_OK);
  CHECK(org.source == CZ_PARAMS_TEST_GENERATED);
  CHECK_EQ_INT(temporaries(dir), 0);
  cz_groth16_params_free(&p);
  CHECK(cz_params_store_get(&p, "killed", CZ_SYNTHETIC_INPUTS, &o, &org, msg, sizeof msg) == CZ_OK);
  CHECK(org.source == CZ_PARAMS_TEST_CACHED);
  cz_groth16_params_free(&p);
  unlink(test);
}

int main(void) {
  char dir[] = "/tmp/cuzk-params-store.XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  enum { N = 4 };
  pid_t kids[N];
  char vk[N][300];
  for (int i = 0; i < N; i++) {
    snprintf(vk[i], sizeof vk[i], "%s/vk-%d", dir, i);
    if ((kids[i] = fork()) == 0) _exit(one(dir, vk[i]));
  }
  for (int i = 0; i < N; i++) {
    int st = 0;
    CHECK(waitpid(kids[i], &st, 0) == kids[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  size_t n0 = 0, n = 0;
  uint8_t *first = slurp(vk[0], &n0);
  CHECK(first && n0 > 0);
  for (int i = 1; i < N; i++) {
    uint8_t *b = slurp(vk[i], &n);
    CHECK(b && n == n0 && !memcmp(b, first, n0)); /* one setup, one key */
    free(b);
  }
  /* ...and it is the cached file's. */
  CHECK_EQ_INT(one(dir, vk[0]), 0);
  uint8_t *again = slurp(vk[0], &n);
  CHECK(again && n == n0 && !memcmp(again, first, n0));
  free(again);
  free(first);
  test_progress(dir);
  test_shape(dir);
  test_killed(dir, 0);
  test_killed(dir, 100000);
  test_killed(dir, CZ_ATOMIC_KILL_BEFORE_RENAME);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK_EQ_INT(system(cmd), 0);
  return check_report("test_params_store");
}
