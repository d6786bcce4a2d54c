/* cuzk-bench prove: setup (cached on disk), synthesis, proof and
 * verification of a synthetic circuit, printing the prover's phase times.
 *
 * The parameters are test parameters made here from random toxic waste
 * that is then discarded: cached as <cache>/synthetic-<shape>-<K>.params,
 * where <cache> is --cache-dir, else $XDG_CACHE_HOME/cuzk, else
 * ~/.cache/cuzk. They are never Filecoin's parameters.
 *
 * Output: CUZK_TIMING: lines on stderr (from the prover's hook) and
 * `name value unit` lines on stdout. Exit status 0 when every proof
 * verifies, 1 when one does not, 2 on a usage or setup problem. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "args.h"
#include "commands.h"
#include "cuzk/params.h"
#include "cuzk/prover.h"
#include "cuzk/synthetic.h"

static const char SYNOPSIS[] =
    "--synthetic chain|sparse --log-constraints K [--threads N] [--count N] [--cache-dir DIR] "
    "[--no-cache] [--checked]";

static double ms_since(uint64_t t0) { return (double)(cz_prove_now_ns() - t0) / 1e6; }

/* mkdir -p */
static int make_dirs(const char *path) {
  char buf[4096];
  if (strlen(path) >= sizeof buf) return -1;
  strcpy(buf, path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int cache_dir(char *out, size_t len, const char *given) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (given) n = snprintf(out, len, "%s", given);
  else if (xdg && *xdg) n = snprintf(out, len, "%s/cuzk", xdg);
  else if (home && *home) n = snprintf(out, len, "%s/.cache/cuzk", home);
  else n = snprintf(out, len, "/tmp/cuzk-cache");
  return n > 0 && (size_t)n < len ? 0 : -1;
}

static cz_err make_params(cz_groth16_params *p, const char *shape, size_t n, unsigned threads) {
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_synthetic_by_name(shape, cs, n, NULL, 1);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  cz_keygen_cols k;
  if (e == CZ_OK) e = cz_cs_take_keygen(cs, &k);
  cz_cs_free(cs);
  if (e != CZ_OK) return e;
  cz_groth16_toxic t;
  char msg[256];
  if ((e = cz_groth16_toxic_random(&t)) == CZ_OK)
    e = cz_groth16_setup(p, &k, &t, threads, msg, sizeof msg);
  memset(&t, 0, sizeof t);
  if (e != CZ_OK) fprintf(stderr, "prove: setup: %s: %s\n", cz_err_str(e), msg);
  cz_keygen_cols_free(&k);
  return e;
}

int cmd_prove(int argc, char **argv) {
  const char *shape = NULL, *dir_opt = NULL;
  unsigned long logc = 0, threads = 0, count = 1;
  bool no_cache = false, checked = false, help = false;
  const cz_opt opts[] = {
      {"synthetic", CZ_OPT_STRING, &shape, "SHAPE", "chain (dense witness) or sparse (0/1 witness)"},
      {"log-constraints", CZ_OPT_UINT, &logc, "K", "2^K constraints, input constraints included"},
      {"threads", CZ_OPT_UINT, &threads, "N", "thread budget (0 = all cores)"},
      {"count", CZ_OPT_UINT, &count, "N", "proofs to make and verify (default 1)"},
      {"cache-dir", CZ_OPT_STRING, &dir_opt, "DIR",
       "where test parameters are cached (default $XDG_CACHE_HOME/cuzk or ~/.cache/cuzk)"},
      {"no-cache", CZ_OPT_FLAG, &no_cache, NULL, "always run setup; read/write no file"},
      {"checked", CZ_OPT_FLAG, &checked, NULL, "load cached parameters with subgroup checks"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse(argc, argv, opts, &help);
  if (rc) return rc;
  if (help) {
    cz_opts_usage(stdout, "prove", SYNOPSIS, opts);
    return 0;
  }
  if (!shape || (strcmp(shape, "chain") && strcmp(shape, "sparse"))) {
    fprintf(stderr, "prove: --synthetic must be chain or sparse (usage: cuzk-bench prove %s)\n",
            SYNOPSIS);
    return 2;
  }
  if (logc < 2 || logc > 28 || count < 1 || count > 64 || threads > 1024) {
    fprintf(stderr, "prove: need 2 <= --log-constraints <= 28, 1 <= --count <= 64\n");
    return 2;
  }
  const size_t n = ((size_t)1 << logc) - CZ_SYNTHETIC_INPUTS;
  const unsigned th = (unsigned)threads;

  /* Parameters: from the cache, else setup (and cache them). */
  cz_groth16_params params;
  char dir[4096], path[4200], tmp[4300], msg[512];
  bool have = false;
  if (!no_cache) {
    if (cache_dir(dir, sizeof dir, dir_opt) != 0) {
      fprintf(stderr, "prove: cache directory name too long\n");
      return 2;
    }
    snprintf(path, sizeof path, "%s/synthetic-%s-%lu.params", dir, shape, logc);
    if (access(path, R_OK) == 0) {
      uint64_t t0 = cz_prove_now_ns();
      cz_err e = cz_groth16_params_load(&params, path, checked, th, msg, sizeof msg);
      if (e == CZ_OK) {
        have = true;
        printf("load_params %.1f ms\n", ms_since(t0));
        fprintf(stderr, "prove: using cached test parameters %s\n", path);
      } else {
        fprintf(stderr, "prove: cached parameters unusable (%s: %s); running setup again\n",
                cz_err_str(e), msg);
      }
    }
  }
  if (!have) {
    uint64_t t0 = cz_prove_now_ns();
    if (make_params(&params, shape, n, th) != CZ_OK) return 2;
    printf("setup %.1f ms\n", ms_since(t0));
    if (!no_cache) {
      snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
      if (make_dirs(dir) != 0 || cz_groth16_params_save(&params, tmp) != CZ_OK ||
          rename(tmp, path) != 0) {
        fprintf(stderr, "prove: could not cache parameters in %s (continuing)\n", dir);
        unlink(tmp);
      } else {
        fprintf(stderr,
                "prove: wrote synthetic TEST parameters (random toxic waste, discarded; not "
                "Filecoin parameters) to %s\n",
                path);
      }
    }
  }

  /* Synthesis (timed here, reported through the prover's hook). */
  cz_assignment *as = calloc(count, sizeof *as);
  cz_fr *inputs = calloc(count, sizeof *inputs);
  cz_groth16_proof *proofs = calloc(count, sizeof *proofs);
  if (!as || !inputs || !proofs) {
    fprintf(stderr, "prove: out of memory\n");
    return 2;
  }
  uint64_t t0 = cz_prove_now_ns();
  cz_err e = CZ_OK;
  for (unsigned long i = 0; i < count && e == CZ_OK; i++) {
    cz_fr x;
    cz_fr_from_u64(&x, 3 + i);
    cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
    if (!cs) { e = CZ_ERR_NOMEM; break; }
    e = cz_synthetic_by_name(shape, cs, n, &x, 1);
    if (e == CZ_OK) e = cz_cs_finish(cs);
    if (e == CZ_OK) e = cz_cs_take_assignment(cs, &as[i]);
    cz_cs_free(cs);
    if (e == CZ_OK) inputs[i] = as[i].inputs[1];
  }
  if (e != CZ_OK) {
    fprintf(stderr, "prove: synthesis: %s\n", cz_err_str(e));
    return 2;
  }
  cz_prove_timing_emit(NULL, CZ_PHASE_SYNTHESIS, cz_prove_now_ns() - t0);

  cz_prove_opts po = {th, NULL, NULL, NULL, msg, sizeof msg};
  t0 = cz_prove_now_ns();
  e = cz_groth16_prove(NULL, &params, as, count, proofs, &po);
  double prove_ms = ms_since(t0);
  for (unsigned long i = 0; i < count; i++) cz_assignment_free(&as[i]);
  free(as);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", cz_err_str(e), msg);
    return 2;
  }
  printf("constraints %zu count\n", (size_t)1 << logc);
  printf("prove %.1f ms\n", prove_ms / (double)count);

  t0 = cz_prove_now_ns();
  int bad = 0;
  for (unsigned long i = 0; i < count; i++)
    if (cz_groth16_verify(&params.vk, &inputs[i], 1, &proofs[i]) != CZ_OK) bad++;
  if (count > 1 && cz_groth16_verify_batch(&params.vk, inputs, 1, proofs, count) != CZ_OK) bad++;
  printf("verify %.1f ms\n", ms_since(t0));
  printf("%s\n", bad ? "invalid" : "valid");
  free(inputs);
  free(proofs);
  cz_groth16_params_free(&params);
  return bad ? 1 : 0;
}
