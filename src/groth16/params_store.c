/* The parameter store: official files from the Filecoin parameter cache,
 * else cached or freshly generated TEST parameters under a name no official
 * file can have (cuzk/params_store.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/params_store.h"
#include "cuzk/log.h"
#include "util/atomic_file.h"
#include "util/msg.h"

/* ---- Paths --------------------------------------------------------------- */

static bool fits(int n, size_t cap) { return n > 0 && (size_t)n < cap; }

static bool official_dir(char *out, size_t cap, const char *given) {
  const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
  /* settings.rs: the default rust-fil-proofs uses when the variable is unset */
  const char *d = given ? given : env && *env ? env : "/var/tmp/filecoin-proof-parameters";
  size_t n = strlen(d);
  while (n > 1 && d[n - 1] == '/') n--; /* the default ends in '/' upstream */
  return fits(snprintf(out, cap, "%.*s", (int)n, d), cap);
}

/* The same default as cuzk-bench prove --synthetic always used. */
static bool test_dir(char *out, size_t cap, const char *given) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (given) n = snprintf(out, cap, "%s", given);
  else if (xdg && *xdg) n = snprintf(out, cap, "%s/cuzk", xdg);
  else if (home && *home) n = snprintf(out, cap, "%s/.cache/cuzk", home);
  else n = snprintf(out, cap, "/tmp/cuzk-cache");
  return fits(n, cap);
}

cz_err cz_params_store_paths(const char *name, const cz_params_store_opts *o,
                             char official[CZ_PARAMS_PATH_MAX], char test[CZ_PARAMS_PATH_MAX]) {
  static const cz_params_store_opts none;
  if (!o) o = &none;
  if (!name || !*name || strchr(name, '/')) return CZ_ERR_INVALID_ARG;
  char dir[CZ_PARAMS_PATH_MAX];
  if (official) {
    if (!official_dir(dir, sizeof dir, o->official_dir) ||
        !fits(snprintf(official, CZ_PARAMS_PATH_MAX, "%s/%s.params", dir, name),
              CZ_PARAMS_PATH_MAX))
      return CZ_ERR_INVALID_ARG;
  }
  if (test) {
    const char *tag = o->test_tag && *o->test_tag ? o->test_tag : NULL;
    if (tag && strchr(tag, '/')) return CZ_ERR_INVALID_ARG;
    if (!test_dir(dir, sizeof dir, o->test_dir) ||
        !fits(snprintf(test, CZ_PARAMS_PATH_MAX, "%s/" CZ_PARAMS_TEST_PREFIX "%s%s%s.params", dir,
                       tag ? tag : "", tag ? "-" : "", name),
              CZ_PARAMS_PATH_MAX))
      return CZ_ERR_INVALID_ARG;
  }
  return CZ_OK;
}

/* mkdir -p of the directory part of path. */
static int make_parent_dirs(const char *path) {
  char buf[CZ_PARAMS_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  char *slash = strrchr(buf, '/');
  if (!slash || slash == buf) return 0;
  *slash = 0;
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* ---- Loading -------------------------------------------------------------- */

/* Bytes before the IC count in an uncompressed vk (params.h layout): alpha
 * and beta in G1, beta and gamma in G2, delta in G1 and G2. */
#define VK_IC_COUNT_OFFSET (3 * CZ_G1_UNCOMPRESSED_BYTES + 3 * CZ_G2_UNCOMPRESSED_BYTES)

/* The IC count announced in a params file's header, without mapping it. */
static cz_err peek_ic_count(const char *path, size_t *n_ic, char *msg, size_t msg_len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  uint8_t b[4];
  ssize_t got = pread(fd, b, sizeof b, VK_IC_COUNT_OFFSET);
  close(fd);
  if (got != (ssize_t)sizeof b)
    return cz_msg_err(msg, msg_len, CZ_ERR_TRUNCATED, "%s: too short for a parameter file header",
                      path);
  *n_ic = (size_t)b[0] << 24 | (size_t)b[1] << 16 | (size_t)b[2] << 8 | b[3];
  return CZ_OK;
}

/* Load path, refusing a file whose vk does not have want_ic IC points (0:
 * any). The count is checked in the header first and again after loading. */
static cz_err load_fitting(cz_groth16_params *out, const char *path, size_t want_ic,
                           const cz_params_store_opts *o, char *msg, size_t msg_len) {
  size_t have = 0;
  cz_err e = peek_ic_count(path, &have, msg, msg_len);
  if (e != CZ_OK) return e;
  if (want_ic && have != want_ic)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s: the verifying key has %zu IC points, the circuit needs %zu", path, have,
                      want_ic);
  char why[384] = "";
  if (o->decode)
    e = cz_groth16_params_load_progress(out, path, o->checked, o->n_threads, o->progress, why,
                                        sizeof why);
  else if ((e = cz_groth16_params_map(out, path, o->checked, o->n_threads, why, sizeof why)) ==
           CZ_OK)
    cz_progress_report(o->progress, "map params", "B", out->map.len, out->map.len);
  if (e != CZ_OK) {
    cz_msg(msg, msg_len, "%s: %s%s%s", path, cz_err_str(e), *why ? ": " : "", why);
    return e;
  }
  if (want_ic && out->vk.n_ic != want_ic) { /* the file changed under us */
    cz_msg(msg, msg_len, "%s: the verifying key has %zu IC points, the circuit needs %zu", path,
           out->vk.n_ic, want_ic);
    cz_groth16_params_free(out);
    return CZ_ERR_INVALID_ARG;
  }
  return CZ_OK;
}

/* ---- Generating ------------------------------------------------------------ */

static cz_err generate(cz_groth16_params *out, size_t want_ic, const cz_params_store_opts *o,
                       char *msg, size_t msg_len) {
  cz_keygen_cols cols;
  memset(&cols, 0, sizeof cols);
  char why[384] = "";
  cz_progress_report(o->progress, "keygen", "", 0, 0); /* no count: it synthesizes once */
  cz_err e = o->keygen(o->keygen_ctx, &cols, why, sizeof why);
  if (e != CZ_OK) {
    cz_msg(msg, msg_len, "keygen: %s%s%s", cz_err_str(e), *why ? ": " : "", why);
    cz_keygen_cols_free(&cols);
    return e;
  }
  if (want_ic && cols.n_inputs != want_ic) {
    cz_msg(msg, msg_len, "keygen: the circuit has %zu inputs (ONE included), expected %zu",
           cols.n_inputs, want_ic);
    cz_keygen_cols_free(&cols);
    return CZ_ERR_INVALID_ARG;
  }
  cz_groth16_toxic t;
  e = cz_groth16_toxic_random(&t);
  if (e == CZ_OK)
    e = cz_groth16_setup_progress(out, &cols, &t, o->n_threads, o->progress, why, sizeof why);
  memset(&t, 0, sizeof t); /* the toxic waste must not outlive setup */
  if (e != CZ_OK) cz_msg(msg, msg_len, "setup: %s%s%s", cz_err_str(e), *why ? ": " : "", why);
  cz_keygen_cols_free(&cols);
  return e;
}

cz_err cz_params_shape_evals(cz_qap_evals *ev, cz_params_shape_fn shape, void *ctx,
                             const cz_fr *tau, char *msg, size_t msg_len) {
  memset(ev, 0, sizeof *ev);
  cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
  if (!cs) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = shape(ctx, cs);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  cz_qap_config cfg = {cz_cs_num_inputs(cs), cz_cs_num_aux(cs),
                       cz_cs_num_constraints(cs) + cz_cs_num_inputs(cs), *tau};
  if (e != CZ_OK) cz_msg(msg, msg_len, "counting: %s", cz_cs_errmsg(cs));
  cz_cs_free(cs);
  cs = NULL;
  if (e == CZ_OK && (e = cz_cs_new_qap(&cs, &cfg, msg, msg_len)) == CZ_OK) {
    e = shape(ctx, cs);
    if (e == CZ_OK) e = cz_cs_finish(cs);
    if (e == CZ_OK) e = cz_cs_take_qap(cs, ev);
    if (e != CZ_OK) cz_msg(msg, msg_len, "%s", cz_cs_errmsg(cs));
  }
  cz_cs_free(cs);
  return e;
}

/* The evaluations at tau from keygen's columns. */
static cz_err evals_from_keygen(cz_qap_evals *ev, const cz_params_store_opts *o, const cz_fr *tau,
                                char *msg, size_t msg_len) {
  cz_keygen_cols cols;
  memset(&cols, 0, sizeof cols);
  cz_err e = o->keygen(o->keygen_ctx, &cols, msg, msg_len);
  if (e == CZ_OK) e = cz_groth16_qap_from_cols(ev, &cols, tau, o->n_threads, msg, msg_len);
  cz_keygen_cols_free(&cols);
  return e;
}

/* New test parameters streamed into path (cz_groth16_setup_stream). */
static cz_err generate_file(const char *path, size_t want_ic, const cz_params_store_opts *o,
                            char *msg, size_t msg_len) {
  cz_groth16_toxic t;
  cz_qap_evals ev;
  memset(&ev, 0, sizeof ev);
  char why[512] = "";
  cz_err e = cz_groth16_toxic_random(&t);
  if (e != CZ_OK) return cz_msg_err(msg, msg_len, e, "setup: no random toxic waste");
  cz_progress_report(o->progress, "keygen", "", 0, 0); /* no count: it synthesizes once */
  e = o->shape ? cz_params_shape_evals(&ev, o->shape, o->keygen_ctx, &t.tau, why, sizeof why)
               : evals_from_keygen(&ev, o, &t.tau, why, sizeof why);
  if (e != CZ_OK) {
    cz_msg(msg, msg_len, "keygen: %s%s%s", cz_err_str(e), *why ? ": " : "", why);
  } else if (want_ic && ev.n_inputs != want_ic) {
    e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                   "keygen: the circuit has %zu inputs (ONE included), expected %zu", ev.n_inputs,
                   want_ic);
  } else if (make_parent_dirs(path) != 0) {
    e = cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot make the directory of %s: %s", path,
                   strerror(errno));
  } else {
    cz_groth16_stream_opts so = {.n_threads = o->n_threads, .progress = o->progress};
    e = cz_groth16_setup_stream(path, &ev, &t, &so, why, sizeof why);
    if (e != CZ_OK) cz_msg(msg, msg_len, "setup: %s%s%s", cz_err_str(e), *why ? ": " : "", why);
  }
  memset(&t, 0, sizeof t); /* the toxic waste must not outlive setup */
  cz_qap_evals_free(&ev);
  return e;
}

/* Hold <test>.lock (flock, exclusive) while the cached test file is looked
 * up and, when missing, made: two processes sharing a cache (a daemon and
 * a bench run, two tests) otherwise each make their own random parameters
 * and the last rename wins, leaving one of them proving against a key the
 * file no longer holds. -1 (no lock, as before) when the lock file cannot
 * be made. The lock file stays; it is empty. */
static int lock_test_cache(const char *test) {
  char path[CZ_PARAMS_PATH_MAX + 8];
  snprintf(path, sizeof path, "%s.lock", test);
  if (make_parent_dirs(path) != 0) return -1;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  while (flock(fd, LOCK_EX) != 0)
    if (errno != EINTR) {
      close(fd);
      return -1;
    }
  return fd;
}

static void unlock_test_cache(int fd) {
  if (fd >= 0) close(fd); /* releases the flock */
}

/* ---- The store --------------------------------------------------------------- */

static cz_err test_params(cz_groth16_params *out, const char *test, const char *official,
                          size_t n_ic, const cz_params_store_opts *o, cz_params_origin *org,
                          char *msg, size_t msg_len);

cz_err cz_params_store_get(cz_groth16_params *out, const char *name, size_t n_ic,
                           const cz_params_store_opts *o, cz_params_origin *origin, char *msg,
                           size_t msg_len) {
  static const cz_params_store_opts defaults;
  if (!o) o = &defaults;
  memset(out, 0, sizeof *out);
  char official[CZ_PARAMS_PATH_MAX], test[CZ_PARAMS_PATH_MAX];
  if (cz_params_store_paths(name, o, official, test) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "parameter name or directory unusable (too long or holds '/')");
  cz_params_origin org;
  memset(&org, 0, sizeof org);
  cz_err e;

  if (!o->no_official && access(official, F_OK) == 0) {
    e = load_fitting(out, official, n_ic, o, msg, msg_len);
    if (e != CZ_OK) return e;
    org.source = CZ_PARAMS_OFFICIAL;
    snprintf(org.path, sizeof org.path, "%s", official);
    goto done;
  }
  if (o->official_only)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO,
                      "official parameters %s not found (test parameters refused)", official);
  int lock = o->no_test_cache ? -1 : lock_test_cache(test);
  e = test_params(out, test, official, n_ic, o, &org, msg, msg_len);
  unlock_test_cache(lock);
  if (e != CZ_OK) return e;
done:
  if (origin) *origin = org;
  return CZ_OK;
}

/* The cached test file, else new test parameters (cached unless
 * no_test_cache); the caller holds the cache lock. */
static cz_err test_params(cz_groth16_params *out, const char *test, const char *official,
                          size_t n_ic, const cz_params_store_opts *o, cz_params_origin *org,
                          char *msg, size_t msg_len) {
  const char *who = o->who ? o->who : "cuzk";
  const char *why_test = o->no_official ? "" : " (official file not found)";

  if (!o->no_test_cache) cz_atomic_sweep(test); /* what a killed run left (we hold the lock) */
  if (!o->no_test_cache && access(test, F_OK) == 0) {
    char why[512];
    cz_err e = load_fitting(out, test, n_ic, o, why, sizeof why);
    if (e == CZ_OK) {
      cz_log(CZ_LOG_INFO, "params", "%s: using TEST parameters (not Filecoin's) %s%s", who, test,
             why_test);
      org->source = CZ_PARAMS_TEST_CACHED;
      snprintf(org->path, sizeof org->path, "%s", test);
      return CZ_OK;
    }
    cz_log(CZ_LOG_WARN, "params", "%s: cached test parameters unusable (%s); generating them again",
           who, why);
  }
  if (!o->keygen && !(o->shape && !o->no_test_cache))
    return cz_msg_err(msg, msg_len, CZ_ERR_IO,
                      "no parameters: %s not found and no circuit to generate test parameters",
                      o->no_official ? test : official);
  org->source = CZ_PARAMS_TEST_GENERATED;
  if (o->no_test_cache) {
    cz_err e = generate(out, n_ic, o, msg, msg_len);
    if (e != CZ_OK) return e;
    cz_log(CZ_LOG_INFO, "params",
           "%s: generated TEST parameters (random toxic waste, discarded; not Filecoin's)%s", who,
           why_test);
    return CZ_OK;
  }
  cz_err e = generate_file(test, n_ic, o, msg, msg_len);
  if (e == CZ_OK) e = load_fitting(out, test, n_ic, o, msg, msg_len);
  if (e != CZ_OK) return e;
  snprintf(org->path, sizeof org->path, "%s", test);
  cz_log(CZ_LOG_INFO, "params",
         "%s: generated TEST parameters (random toxic waste, discarded; not Filecoin's) into "
         "%s%s",
         who, test, why_test);
  return CZ_OK;
}
