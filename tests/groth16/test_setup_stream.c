/* The streaming setup (cz_groth16_setup_stream): the same bytes as the
 * in-memory setup and cz_groth16_params_write from the same toxic waste,
 * from KEYGEN columns (cz_groth16_qap_from_cols) and from a KEYGEN run
 * evaluated at tau (cz_cs_new_qap); a write that cannot complete or a disk
 * too small fails naming the path, the reason and the bytes, leaving no
 * file and no temporary; a dead process's temporary is removed; a run
 * killed (SIGKILL) at any point leaves no file, and the next run makes the
 * whole file and leaves no temporary. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fsize_child.h"
#include "cuzk/params.h"
#include "cuzk/synthetic.h"
#include "util/atomic_file.h"

typedef cz_err (*circuit_fn)(cz_cs *cs);

static cz_err chain(cz_cs *cs) { return cz_synthetic_chain(cs, 700, NULL); }
static cz_err sparse(cz_cs *cs) { return cz_synthetic_sparse(cs, 1500, NULL, 7); }
/* Inputs in B and C, a zero coefficient kept, constants, three-term LCs. */
static cz_err mixed(cz_cs *cs) {
  cz_var x, y, z, w;
  cz_fr two, zero = CZ_FR_ZERO, five;
  cz_fr_from_u64(&two, 2), cz_fr_from_u64(&five, 5);
  CHECK(cz_cs_alloc_input(cs, &x, NULL) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &y, NULL) == CZ_OK && cz_cs_alloc(cs, &z, NULL) == CZ_OK &&
        cz_cs_alloc(cs, &w, NULL) == CZ_OK);
  cz_lc a, b, c;
  cz_lc_init(&a, cs), cz_lc_init(&b, cs), cz_lc_init(&c, cs);
  for (int i = 0; i < 40; i++) {
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add(&a, y), cz_lc_add_term(&a, x, &two), cz_lc_add_term(&a, w, &zero);
    cz_lc_add(&b, x), cz_lc_add_const(&b, &five);
    cz_lc_add(&c, z), cz_lc_sub(&c, x);
    cz_cs_enforce(cs, &a, &b, &c);
  }
  cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
  /* w appears with a zero coefficient only in A: still constrained by C */
  cz_lc_init(&a, cs), cz_lc_init(&b, cs), cz_lc_init(&c, cs);
  cz_lc_add(&a, z), cz_lc_add(&b, z), cz_lc_add(&c, w);
  cz_cs_enforce(cs, &a, &b, &c);
  cz_lc_free(&a), cz_lc_free(&b), cz_lc_free(&c);
  return cz_cs_error(cs);
}

static void toxic(cz_groth16_toxic *t, uint64_t seed) {
  cz_fr_from_u64(&t->tau, seed * 7919 + 3);
  cz_fr_from_u64(&t->alpha, seed * 31 + 5), cz_fr_from_u64(&t->beta, seed * 37 + 11);
  cz_fr_from_u64(&t->gamma, seed * 41 + 13), cz_fr_from_u64(&t->delta, seed * 43 + 17);
}

static cz_cs *run(cz_cs *cs, circuit_fn f) {
  if (cs && (f(cs) != CZ_OK || cz_cs_finish(cs) != CZ_OK)) {
    fprintf(stderr, "synthesis: %s\n", cz_cs_errmsg(cs));
    cz_cs_free(cs);
    return NULL;
  }
  return cs;
}

/* The reference: in-memory setup, encoded. */
static uint8_t *reference(circuit_fn f, const cz_groth16_toxic *t, size_t *len) {
  cz_cs *cs = run(cz_cs_new(CZ_CS_KEYGEN, NULL), f);
  cz_keygen_cols cols;
  cz_groth16_params p;
  char msg[256];
  CHECK(cs && cz_cs_take_keygen(cs, &cols) == CZ_OK);
  cz_cs_free(cs);
  CHECK(cz_groth16_setup(&p, &cols, t, 2, msg, sizeof msg) == CZ_OK);
  cz_keygen_cols_free(&cols);
  *len = cz_groth16_params_write(NULL, &p);
  uint8_t *b = malloc(*len);
  cz_groth16_params_write(b, &p);
  cz_groth16_params_free(&p);
  return b;
}

/* The evaluations from a COUNT run's counts and a KEYGEN run at tau. */
static cz_err qap_run(circuit_fn f, const cz_fr *x, size_t extra_aux, cz_qap_evals *ev) {
  cz_cs *cnt = run(cz_cs_new(CZ_CS_COUNT, NULL), f);
  if (!cnt) return CZ_ERR_INVALID_ARG;
  cz_qap_config cfg = {cz_cs_num_inputs(cnt), cz_cs_num_aux(cnt) + extra_aux,
                       cz_cs_num_constraints(cnt) + cz_cs_num_inputs(cnt), *x};
  cz_cs_free(cnt);
  cz_cs *cs = NULL;
  char msg[256];
  cz_err e = cz_cs_new_qap(&cs, &cfg, msg, sizeof msg);
  if (e == CZ_OK) e = f(cs);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_qap(cs, ev);
  cz_cs_free(cs);
  return e;
}

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(*n + 1);
  if (fread(b, 1, *n, f) != *n) *n = 0;
  fclose(f);
  return b;
}

static bool same_file(const char *path, const uint8_t *ref, size_t len) {
  size_t n = 0;
  uint8_t *b = slurp(path, &n);
  bool ok = b && n == len && !memcmp(b, ref, len);
  free(b);
  return ok;
}

/* Entries of dir other than . and .. */
static int dir_entries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  if (d) closedir(d);
  return n;
}

/* Streaming from the columns and from the QAP run equals the reference. */
static void test_same_bytes(const char *dir, circuit_fn f, uint64_t seed) {
  cz_groth16_toxic t;
  toxic(&t, seed);
  size_t len;
  uint8_t *ref = reference(f, &t, &len);
  char path[512], msg[512];
  snprintf(path, sizeof path, "%s/p%llu.params", dir, (unsigned long long)seed);

  cz_cs *cs = run(cz_cs_new(CZ_CS_KEYGEN, NULL), f);
  cz_keygen_cols cols;
  CHECK(cs && cz_cs_take_keygen(cs, &cols) == CZ_OK);
  cz_cs_free(cs);
  cz_qap_evals a, b;
  CHECK(cz_groth16_qap_from_cols(&a, &cols, &t.tau, 2, msg, sizeof msg) == CZ_OK);
  cz_keygen_cols_free(&cols);
  CHECK(qap_run(f, &t.tau, 0, &b) == CZ_OK);
  /* Both evaluations agree before the setup overwrites w. */
  size_t nv = a.n_inputs + a.n_aux;
  CHECK_EQ_INT(b.n_inputs + b.n_aux, nv);
  CHECK_EQ_INT(b.domain, a.domain);
  CHECK(!memcmp(a.u, b.u, nv * sizeof(cz_fr)) && !memcmp(a.v, b.v, nv * sizeof(cz_fr)) &&
        !memcmp(a.w, b.w, nv * sizeof(cz_fr)));
  CHECK(!memcmp(a.a_nz.bits, b.a_nz.bits, (nv + 63) / 64 * 8) && a.a_nz.count == b.a_nz.count);
  CHECK(!memcmp(a.b_nz.bits, b.b_nz.bits, (nv + 63) / 64 * 8) && a.b_nz.count == b.b_nz.count);

  cz_groth16_stream_opts o = {.n_threads = 2};
  CHECK(cz_groth16_setup_stream(path, &a, &t, &o, msg, sizeof msg) == CZ_OK);
  CHECK(same_file(path, ref, len));
  unlink(path);
  o.n_threads = 1;
  o.chunk = 100; /* many chunks, the a/b gathers crossing their ends */
  CHECK(cz_groth16_setup_stream(path, &b, &t, &o, msg, sizeof msg) == CZ_OK);
  CHECK(same_file(path, ref, len));
  unlink(path);
  CHECK_EQ_INT(dir_entries(dir), 0);
  cz_qap_evals_free(&a), cz_qap_evals_free(&b);
  free(ref);
}

/* Counts that do not match the circuit are refused. */
static void test_counts(void) {
  cz_groth16_toxic t;
  toxic(&t, 1);
  cz_qap_evals ev;
  CHECK(qap_run(chain, &t.tau, 1, &ev) == CZ_ERR_INVALID_ARG); /* one aux too many */
  cz_qap_config cfg = {2, 10, 4, CZ_FR_ONE};                   /* x = 1 is in every domain */
  cz_cs *cs = NULL;
  char msg[256];
  CHECK(cz_cs_new_qap(&cs, &cfg, msg, sizeof msg) == CZ_ERR_INVALID_ARG && !cs);
  CHECK(strstr(msg, "domain") != NULL);
  cfg.x = t.tau;
  CHECK(cz_cs_new_qap(&cs, &cfg, msg, sizeof msg) == CZ_OK);
  CHECK(chain(cs) == CZ_ERR_INVALID_ARG); /* 700 aux, 10 counted */
  cz_cs_free(cs);
}

static bool fresh_evals(circuit_fn f, cz_qap_evals *ev, cz_groth16_toxic *t) {
  toxic(t, 3);
  return qap_run(f, &t->tau, 0, ev) == CZ_OK;
}

static bool setup_cut_short(void *ctx) {
  const char *path = ctx;
  cz_groth16_toxic t;
  cz_qap_evals ev;
  char msg[512] = "";
  if (!fresh_evals(sparse, &ev, &t)) return false;
  cz_err e = cz_groth16_setup_stream(path, &ev, &t, NULL, msg, sizeof msg);
  fprintf(stderr, "%s", msg);
  return e == CZ_ERR_IO;
}

/* A write that cannot complete (RLIMIT_FSIZE at 20000 bytes): the message
 * names the file, the reason and the bytes, and nothing is left. */
static void test_write_fails(const char *dir) {
  char path[512], got[512];
  snprintf(path, sizeof path, "%s/cut.params", dir);
  CHECK(fsize_child(20000, setup_cut_short, path, got, sizeof got));
  CHECK(cut_message_ok(got, path, 20000)); /* the file's name, the reason, the bytes */
  CHECK_EQ_INT(dir_entries(dir), 0);       /* no file, no temporary */
}

/* The free-space check refuses before anything is written. */
static void test_no_room(const char *dir) {
  char path[512], msg[512];
  snprintf(path, sizeof path, "%s/big.params", dir);
  cz_groth16_toxic t;
  cz_qap_evals ev;
  CHECK(fresh_evals(chain, &ev, &t));
  cz_groth16_stream_opts o = {.keep_free = UINT64_MAX / 2};
  CHECK(cz_groth16_setup_stream(path, &ev, &t, &o, msg, sizeof msg) == CZ_ERR_IO);
  fprintf(stderr, "no room: %s\n", msg);
  CHECK(strstr(msg, path) && strstr(msg, "free disk space") && strstr(msg, "bytes"));
  CHECK_EQ_INT(dir_entries(dir), 0);
  cz_qap_evals_free(&ev);
}

/* A dead process's temporary is removed, a live one's kept. */
static void test_stale(const char *dir) {
  char path[512], dead[600], live[600], msg[512];
  snprintf(path, sizeof path, "%s/stale.params", dir);
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, NULL, 0);
  snprintf(dead, sizeof dead, "%s.tmp.%ld", path, (long)pid);
  snprintf(live, sizeof live, "%s.tmp.1", path); /* init: never dead */
  FILE *f1 = fopen(dead, "wb"), *f2 = fopen(live, "wb");
  CHECK(f1 && f2);
  if (f1) fputs("partial", f1), fclose(f1);
  if (f2) fclose(f2);
  cz_groth16_toxic t;
  cz_qap_evals ev;
  CHECK(fresh_evals(chain, &ev, &t));
  CHECK(cz_groth16_setup_stream(path, &ev, &t, NULL, msg, sizeof msg) == CZ_OK);
  CHECK(access(dead, F_OK) != 0 && access(live, F_OK) == 0 && access(path, F_OK) == 0);
  unlink(live), unlink(path);
  cz_qap_evals_free(&ev);
}

/* A child killed at `at` bytes (or before its rename) leaves no file; the
 * next run writes the same bytes and removes the child's temporary. */
static void test_killed(const char *dir, uint64_t at, const uint8_t *ref, size_t len) {
  char path[512], tmp[600], msg[512];
  snprintf(path, sizeof path, "%s/killed.params", dir);
  pid_t pid = fork();
  if (pid == 0) {
    cz_groth16_toxic t;
    cz_qap_evals ev;
    if (!fresh_evals(chain, &ev, &t)) _exit(3);
    cz_atomic_test_kill_at(at);
    cz_err e = cz_groth16_setup_stream(path, &ev, &t, NULL, msg, sizeof msg);
    _exit(e == CZ_OK ? 2 : 3); /* not reached: killed */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)pid);
  struct stat sb;
  CHECK(stat(tmp, &sb) == 0 && (uint64_t)sb.st_size == (at > len ? len : at));
  CHECK(access(path, F_OK) != 0); /* never a partial file */
  cz_groth16_toxic t;
  cz_qap_evals ev;
  CHECK(fresh_evals(chain, &ev, &t));
  CHECK(cz_groth16_setup_stream(path, &ev, &t, NULL, msg, sizeof msg) == CZ_OK);
  CHECK(same_file(path, ref, len));
  CHECK_EQ_INT(dir_entries(dir), 1); /* the temporary is gone */
  unlink(path);
  cz_qap_evals_free(&ev);
}

static void test_kill_points(const char *dir) {
  cz_groth16_toxic t;
  toxic(&t, 3); /* fresh_evals' */
  size_t len;
  uint8_t *ref = reference(chain, &t, &len);
  const uint64_t at[] = {0, 4, 100000, len, CZ_ATOMIC_KILL_BEFORE_RENAME};
  for (size_t i = 0; i < sizeof at / sizeof *at; i++) test_killed(dir, at[i], ref, len);
  free(ref);
}

int main(void) {
  char dir[] = "/tmp/cuzk-setup-stream-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  test_same_bytes(dir, chain, 1);
  test_same_bytes(dir, sparse, 2);
  test_same_bytes(dir, mixed, 3);
  test_counts();
  test_write_fails(dir);
  test_no_room(dir);
  test_stale(dir);
  test_kill_points(dir);
  rmdir(dir);
  return check_report("test_setup_stream");
}
