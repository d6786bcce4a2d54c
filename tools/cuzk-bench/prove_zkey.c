/* cuzk-bench prove --zkey: see prove_zkey.h. */
#include "prove_zkey.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "cuzk/circom.h"
#include "cuzk/clock.h"
#include "cuzk/zkey.h"
#include "prove_common.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, unsigned n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* `repeat` proofs, each line printed; their median, or -1 after a failure. */
static double prove_all(const cz_zkey *z, const cz_wtns *w, const cz_bench_zkey_args *a) {
  double *ms = calloc(a->repeat, sizeof *ms);
  char msg[512] = "";
  if (!ms) return -1;
  for (unsigned i = 0; i < a->repeat; i++) {
    cz_groth16_proof proof;
    cz_zkey_prove_opts o = {a->threads, NULL, NULL, NULL, false, msg, sizeof msg};
    uint64_t t0 = cz_now_ns();
    if (cz_zkey_prove(z, w->v, w->n, &proof, &o) != CZ_OK) {
      fprintf(stderr, "prove: %s\n", msg);
      free(ms);
      return -1;
    }
    ms[i] = cz_bench_ms_since(t0);
    printf("prove_run %.1f ms\n", ms[i]);
    fflush(stdout);
  }
  double m = median(ms, a->repeat);
  free(ms);
  return m;
}

int cz_bench_prove_zkey(const cz_bench_zkey_args *a) {
  char msg[512] = "";
  cz_zkey *z = NULL;
  cz_wtns w = {0};
  uint64_t t0 = cz_now_ns();
  if (cz_zkey_load(&z, a->zkey, a->check_key ? CZ_ZKEY_CHECK_SUBGROUP : 0, a->threads, msg,
                   sizeof msg) != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", a->zkey, msg);
    return 2;
  }
  printf("load_zkey %.1f ms\n", cz_bench_ms_since(t0));
  cz_zkey_info info;
  cz_zkey_get_info(z, &info);
  printf("zkey_bytes %zu B\n", info.file_bytes);
  t0 = cz_now_ns();
  if (cz_wtns_load(&w, a->wtns, msg, sizeof msg) != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", a->wtns, msg);
    cz_zkey_free(z);
    return 2;
  }
  printf("load_wtns %.1f ms\n", cz_bench_ms_since(t0));
  printf("n_vars %zu count\ndomain_size %zu count\n", info.n_vars, info.domain_size);
  double m = prove_all(z, &w, a);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  if (m >= 0) printf("prove %.1f ms\n", m);
  printf("peak_rss %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
  printf("%s\n", m >= 0 ? "valid" : "invalid");
  cz_wtns_free(&w);
  cz_zkey_free(z);
  return m >= 0 ? 0 : 1;
}
