/* cuzk-bench ec: ns/op of field operations (curve and pairing entries are
 * added to the same table as their modules land).
 *
 * Each entry runs a dependent chain (every result feeds the next operation)
 * so that latency, not throughput, is measured: that is what the curve
 * formulas and the pairing see. A measurement is the median over --reps
 * repetitions of elapsed / iterations, after one warm-up run; elapsed is
 * thread CPU time unless --wall is given. Output lines
 * are `name value unit`; comparison ratios are measured in the same run. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "commands.h"
#include "cuzk/cpu.h"
#include "cuzk/fp.h"
#include "cuzk/fr.h"



/* Operands shared by the chains; the final "# sink" line keeps them live. */
static cz_fp fp_x, fp_y;
static cz_fr fr_x, fr_y;

static void fp_setup(void) {
  cz_fp_from_u64(&fp_x, 0x0123456789abcdefULL);
  cz_fp_from_u64(&fp_y, 0xfedcba9876543210ULL);
  cz_fp_inv(&fp_y, &fp_y); /* a full-width operand */
}
static void fr_setup(void) {
  cz_fr_from_u64(&fr_x, 0x0123456789abcdefULL);
  cz_fr_from_u64(&fr_y, 0xfedcba9876543210ULL);
  cz_fr_inv(&fr_y, &fr_y);
}

static void fp_mul(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_mul(&fp_x, &fp_x, &fp_y); }
static void fp_sqr(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_sqr(&fp_x, &fp_x); }
static void fp_add(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_add(&fp_x, &fp_x, &fp_y); }
static void fp_sub(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_sub(&fp_x, &fp_x, &fp_y); }
static void fp_dbl(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_dbl(&fp_x, &fp_x); }
static void fp_inv(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_inv(&fp_x, &fp_x); }
static void fp_inv_fermat(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_inv_fermat(&fp_x, &fp_x); }
static void fp_mul_portable(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_mul_portable(&fp_x, &fp_x, &fp_y); }
static void fp_sqr_portable(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fp_sqr_portable(&fp_x, &fp_x); }

static void fr_mul(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fr_mul(&fr_x, &fr_x, &fr_y); }
static void fr_sqr(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fr_sqr(&fr_x, &fr_x); }
static void fr_add(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fr_add(&fr_x, &fr_x, &fr_y); }
static void fr_inv(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fr_inv(&fr_x, &fr_x); }
static void fr_inv_fermat(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fr_inv_fermat(&fr_x, &fr_x); }
static void fr_mul_portable(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fr_mul_portable(&fr_x, &fr_x, &fr_y); }
static void fr_sqr_portable(uint64_t n) { for (uint64_t i = 0; i < n; i++) cz_fr_sqr_portable(&fr_x, &fr_x); }

/* One entry per measured operation. An operation costing about `div` times
 * an Fp multiplication runs iters/div times, so every entry takes a
 * similar time. Add curve and pairing operations here, one line each. */
typedef struct {
  const char *name;
  void (*setup)(void); /* may be NULL */
  void (*run)(uint64_t n);
  uint64_t div;
} bench_entry;

static const bench_entry ENTRIES[] = {
    {"fp_mul", fp_setup, fp_mul, 1},
    {"fp_sqr", fp_setup, fp_sqr, 1},
    {"fp_add", fp_setup, fp_add, 1},
    {"fp_sub", fp_setup, fp_sub, 1},
    {"fp_dbl", fp_setup, fp_dbl, 1},
    {"fp_inv", fp_setup, fp_inv, 50},
    {"fp_inv_fermat", fp_setup, fp_inv_fermat, 500},
    {"fp_mul_portable", fp_setup, fp_mul_portable, 2},
    {"fp_sqr_portable", fp_setup, fp_sqr_portable, 2},
    {"fr_mul", fr_setup, fr_mul, 1},
    {"fr_sqr", fr_setup, fr_sqr, 1},
    {"fr_add", fr_setup, fr_add, 1},
    {"fr_inv", fr_setup, fr_inv, 50},
    {"fr_inv_fermat", fr_setup, fr_inv_fermat, 300},
    {"fr_mul_portable", fr_setup, fr_mul_portable, 2},
    {"fr_sqr_portable", fr_setup, fr_sqr_portable, 2},
};
#define N_ENTRIES (sizeof ENTRIES / sizeof ENTRIES[0])

/* Ratios printed when both operands were measured in this run. */
static const struct { const char *name, *num, *den; } RATIOS[] = {
    {"fp_mul_adx_over_portable", "fp_mul", "fp_mul_portable"},
    {"fp_sqr_adx_over_portable", "fp_sqr", "fp_sqr_portable"},
    {"fr_mul_adx_over_portable", "fr_mul", "fr_mul_portable"},
    {"fr_sqr_adx_over_portable", "fr_sqr", "fr_sqr_portable"},
    {"fp_inv_over_fermat", "fp_inv", "fp_inv_fermat"},
    {"fr_inv_over_fermat", "fr_inv", "fr_inv_fermat"},
};

/* Thread CPU time by default: on a shared machine, time spent preempted is
 * not the operation's cost (wall-clock readings varied 3x under load while
 * CPU time stayed put). --wall switches to CLOCK_MONOTONIC. */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(bench_clock, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double measure(const bench_entry *e, uint64_t iters, int reps) {
  uint64_t n = iters / e->div ? iters / e->div : 1;
  double t[64];
  if (e->setup) e->setup();
  e->run(n / 10 + 1); /* warm caches and clocks */
  for (int r = 0; r < reps; r++) {
    double t0 = now_ns();
    e->run(n);
    t[r] = (now_ns() - t0) / (double)n;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp_double);
  return t[reps / 2];
}

static int usage(void) {
  fprintf(stderr, "usage: cuzk-bench ec [--filter SUBSTR] [--iters N] [--reps N] [--wall] [--list]\n"
                  "  --iters N  iterations of a field multiplication per repetition (default 200000)\n"
                  "  --reps N   repetitions; the median is printed (default 9, at most 64)\n"
                  "  --wall     time with the wall clock instead of thread CPU time\n");
  return 2;
}

int cmd_bench_ec(int argc, char **argv) {
  const char *filter = NULL;
  uint64_t iters = 200000;
  int reps = 9;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--wall")) bench_clock = CLOCK_MONOTONIC;
    else if (!strcmp(argv[i], "--list")) {
      for (size_t k = 0; k < N_ENTRIES; k++) printf("%s\n", ENTRIES[k].name);
      return 0;
    } else return usage();
  }
  if (iters == 0 || reps < 1 || reps > 64) return usage();

  printf("# adx %d\n", cz_cpu_use_adx() ? 1 : 0);
  printf("# clock %s\n", bench_clock == CLOCK_MONOTONIC ? "wall" : "thread-cpu");
  double result[N_ENTRIES];
  for (size_t k = 0; k < N_ENTRIES; k++) {
    result[k] = -1;
    if (filter && !strstr(ENTRIES[k].name, filter)) continue;
    result[k] = measure(&ENTRIES[k], iters, reps);
    printf("%s %.1f ns/op\n", ENTRIES[k].name, result[k]);
    fflush(stdout);
  }
  for (size_t k = 0; k < sizeof RATIOS / sizeof RATIOS[0]; k++) {
    double num = -1, den = -1;
    for (size_t j = 0; j < N_ENTRIES; j++) {
      if (!strcmp(ENTRIES[j].name, RATIOS[k].num)) num = result[j];
      if (!strcmp(ENTRIES[j].name, RATIOS[k].den)) den = result[j];
    }
    if (num > 0 && den > 0) printf("%s %.3f ratio\n", RATIOS[k].name, num / den);
  }
  /* Keep the chains observable so the compiler cannot drop them. */
  printf("# sink %016llx\n", (unsigned long long)(fp_x.l[0] ^ fr_x.l[0]));
  return 0;
}
