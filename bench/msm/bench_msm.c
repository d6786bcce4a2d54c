/* cuzk-bench msm: multi-scalar multiplication time per point (wall clock,
 * median of --reps calls) for G1 or G2 at 2^K points.
 *
 *   cuzk-bench msm --group g1|g2 --log-n K [--threads T] [--density dense|sparse01]
 *                  [--reps R] [--scaling] [--vs-scalar] [--window C] [--acc auto|xyzz|affine]
 *                  [--equal D]
 *
 * Wall time is what --threads speeds up; process CPU time (cpu_per_point) is
 * steadier on a shared machine and equals wall time at one thread when idle.
 * Scalars are random Fr elements in Montgomery form (as the prover passes
 * them). sparse01 mimics a Filecoin witness: 50% zeros, 45% ones, 5% random;
 * it is measured alternately with dense in the same run and reported with the
 * sparse/dense time ratio. --scaling also times 1 thread in the same run
 * (speedup_vs_t1 = wall time(1 thread) / wall time(T threads), and
 * speedup_cpu_bound = CPU time(1 thread) / critical path(T threads), which
 * holds on a machine shared with other work). It also times 1 thread pinned
 * to each of the T CPUs, which on a VM are not always equally fast:
 * speedup_ideal = wall time(1 thread) x the sum of the pinned runs' speeds
 * is the best T threads could do on them, and parallel_efficiency =
 * speedup_vs_t1 / speedup_ideal. --vs-scalar also times the
 * scalar field code (cz_msm_opts.no_ifma) in the same run: ifma_vs_scalar is
 * the wall-time ratio, ifma_vs_scalar_cpu the ratio of critical paths.
 * --equal D also times scalars drawn from D random values (as a PoSt
 * witness repeats values), grouped and with grouping off
 * (cz_msm_opts.no_grouping), alternately: grouped_vs_plain is the ratio.
 * Output: "name value unit" lines. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/msm.h"
#include "util/bigbuf.h"

#define BENCH_MAX_REPS 64
#define BENCH_MAX_CPUS 8

typedef struct {
  const char *group;
  unsigned log_n, threads, window;
  int reps;
  bool sparse, scaling, vs_scalar;
  cz_msm_accumulate acc;
  unsigned equal; /* --equal D: 0 = off */
} bench_args;

static volatile uint64_t bench_sink;

static double bench_clock_ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}
static double bench_now_ms(void) { return bench_clock_ms(CLOCK_MONOTONIC); }
/* Process CPU time (all threads): on a shared machine the one-thread figures
 * compare better by CPU time than by wall time. */
static double bench_cpu_ms(void) { return bench_clock_ms(CLOCK_PROCESS_CPUTIME_ID); }

/* The first `want` CPUs this process may run on (at most BENCH_MAX_CPUS);
 * also remembers the whole set for bench_pin(-1). */
static cpu_set_t bench_all_cpus;
static int bench_cpus(int *out, int want) {
  if (sched_getaffinity(0, sizeof bench_all_cpus, &bench_all_cpus)) return 0;
  int n = 0;
  for (int c = 0; c < CPU_SETSIZE && n < want && n < BENCH_MAX_CPUS; c++)
    if (CPU_ISSET(c, &bench_all_cpus)) out[n++] = c;
  return n;
}
/* Runs the calling thread (and the MSM workers it starts) on one CPU, or on
 * all of them again for cpu < 0. Nonzero: the kernel refused. */
static int bench_pin(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  if (cpu >= 0) CPU_SET(cpu, &one);
  int e = sched_setaffinity(0, sizeof one, cpu >= 0 ? &one : &bench_all_cpus);
  if (e) perror("cuzk-bench msm: sched_setaffinity");
  return e;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint64_t bench_rng = 0x2545f4914f6cdd1dULL;
static uint64_t bench_rand(void) { /* xorshift64*: fixed seed, reproducible */
  bench_rng ^= bench_rng >> 12;
  bench_rng ^= bench_rng << 25;
  bench_rng ^= bench_rng >> 27;
  return bench_rng * 0x2545f4914f6cdd1dULL;
}

/* On huge pages, as the prover's witness and H coefficients are. equal > 0:
 * n draws from the first `equal` random values instead. */
static cz_fr *bench_scalars(size_t n, bool sparse, unsigned equal) {
  cz_fr *k = cz_huge_alloc(n * sizeof *k);
  if (!k) return NULL;
  if (equal) {
    cz_fr *pool = bench_scalars(equal, false, 0);
    if (!pool) {
      free(k);
      return NULL;
    }
    for (size_t i = 0; i < n; i++) k[i] = pool[bench_rand() % equal];
    free(pool);
    return k;
  }
  for (size_t i = 0; i < n; i++) {
    unsigned r = sparse ? (unsigned)(bench_rand() % 100) : 99;
    if (r < 50) {
      k[i] = CZ_FR_ZERO;
    } else if (r < 95) {
      k[i] = CZ_FR_ONE;
    } else {
      uint8_t wide[64];
      for (int j = 0; j < 64; j += 8) {
        uint64_t v = bench_rand();
        memcpy(wide + j, &v, 8);
      }
      cz_fr_from_wide_le(&k[i], wide);
    }
  }
  return k;
}

/* Configurations timed by one bench run: [0] dense at T threads, [1]
 * sparse at T, [2] dense at 1, [3] dense at T on the scalar field code (no
 * IFMA), [4] and [5] the --equal scalars at T grouped and not, [MSM_PIN + i]
 * dense at 1 pinned to the i-th CPU this process may use (--scaling). */
enum { MSM_PIN = 6, MSM_NC = MSM_PIN + BENCH_MAX_CPUS };
typedef struct {
  bool on[MSM_NC];
  int cpus[BENCH_MAX_CPUS], n_cpus;
  double ms[MSM_NC][BENCH_MAX_REPS], cpu[MSM_NC][BENCH_MAX_REPS], crit[MSM_NC][BENCH_MAX_REPS];
  cz_msm_opts used[MSM_NC];
} msm_runs;

/* Each configuration's figures (median wall, us/point, window, paths). */
static void msm_report_each(const char *name, const bench_args *a, msm_runs *r, size_t n,
                            double *med) {
  static const char *label[MSM_PIN] = {"dense",        "sparse01", "dense_t1",
                                       "dense_scalar", "equal",    "equal_plain"};
  for (int c = 0; c < MSM_NC; c++) {
    if (!r->on[c]) continue;
    med[c] = bench_median(r->ms[c], a->reps);
    char lb[32];
    if (c < MSM_PIN) snprintf(lb, sizeof lb, "%s", label[c]);
    else snprintf(lb, sizeof lb, "dense_t1_cpu%d", r->cpus[c - MSM_PIN]);
    printf("%s.%s.total %.3f ms\n", name, lb, med[c]);
    printf("%s.%s.per_point %.4f us/point\n", name, lb, 1e3 * med[c] / (double)n);
    printf("%s.%s.cpu_per_point %.4f us/point\n", name, lb,
           1e3 * bench_median(r->cpu[c], a->reps) / (double)n);
    if (r->used[c].n_other) printf("%s.%s.window %u bits\n", name, lb, r->used[c].used_window_bits);
    printf("%s.%s.batch_affine %d bool\n", name, lb, r->used[c].used_batch_affine ? 1 : 0);
    printf("%s.%s.ifma %d bool\n", name, lb, r->used[c].used_ifma ? 1 : 0);
    if (c == 4 || c == 5) printf("%s.%s.distinct %zu scalars\n", name, lb, r->used[c].n_distinct);
  }
}

/* The figures of a run, then the ratios between its configurations. */
static void msm_report(const bench_args *a, msm_runs *r, size_t n) {
  char name[96];
  snprintf(name, sizeof name, "msm.%s.2^%u.t%u", a->group, a->log_n, a->threads);
  double med[MSM_NC];
  msm_report_each(name, a, r, n, med);
  if (r->on[4]) printf("%s.grouped_vs_plain %.4f ratio\n", name, med[4] / med[5]);
  if (r->on[3]) {
    /* Same run, alternating: wall and the load-independent critical path. */
    printf("%s.ifma_vs_scalar %.4f ratio\n", name, med[0] / med[3]);
    printf("%s.ifma_vs_scalar_cpu %.4f ratio\n", name,
           bench_median(r->crit[0], a->reps) / bench_median(r->crit[3], a->reps));
  }
  if (r->on[1]) printf("%s.sparse01_vs_dense %.4f ratio\n", name, med[1] / med[0]);
  if (r->on[2]) {
    printf("%s.speedup_vs_t1 %.3f ratio\n", name, med[2] / med[0]);
    /* Load-independent: one thread's CPU time over the T-thread run's
     * critical path (cz_msm_opts.cpu_critical_ms). */
    printf("%s.speedup_cpu_bound %.3f ratio\n", name,
           bench_median(r->cpu[2], a->reps) / bench_median(r->crit[0], a->reps));
  }
  if (r->on[2] && r->n_cpus == (int)a->threads) {
    /* What the same CPUs give at best, each at the speed it ran one thread
     * pinned in this run: on a VM whose vCPUs are not equally fast (the
     * host's other load), 2 threads cannot reach twice the faster one. */
    double capacity = 0;
    for (int i = 0; i < r->n_cpus; i++) capacity += 1.0 / med[MSM_PIN + i];
    printf("%s.speedup_ideal %.3f ratio\n", name, med[2] * capacity);
    printf("%s.parallel_efficiency %.3f ratio\n", name, 1.0 / (med[0] * capacity));
  }
}

#define AFF cz_g1_affine
#define JAC cz_g1
#define GN(x) cz_g1_##x
#define SEG cz_msm_g1_segment
#define MSM(x) cz_msm_g1##x
#define GEN CZ_G1_GENERATOR
#include "msm/bench_msm_impl.h"
#undef AFF
#undef JAC
#undef GN
#undef SEG
#undef MSM
#undef GEN
#define AFF cz_g2_affine
#define JAC cz_g2
#define GN(x) cz_g2_##x
#define SEG cz_msm_g2_segment
#define MSM(x) cz_msm_g2##x
#define GEN CZ_G2_GENERATOR
#include "msm/bench_msm_impl.h"
#include "common/args.h"

int cz_bench_cmd_msm(int argc, char **argv) {
  bench_args a = {"g1", 16, 1, 0, 3, false, false, false, CZ_MSM_ACC_AUTO, 0};
  bool help = false;
  for (int i = 1; i < argc; i++) {
    if ((help = cz_bench_help_arg(argv[i]))) goto usage;
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--group") && v) a.group = argv[++i];
    else if (!strcmp(argv[i], "--log-n") && v) a.log_n = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && v) a.threads = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && v) a.reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--window") && v) a.window = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--density") && v) {
      v = argv[++i];
      if (!strcmp(v, "sparse01")) a.sparse = true;
      else if (strcmp(v, "dense")) goto usage;
    } else if (!strcmp(argv[i], "--acc") && v) {
      v = argv[++i];
      if (!strcmp(v, "xyzz")) a.acc = CZ_MSM_ACC_XYZZ;
      else if (!strcmp(v, "affine")) a.acc = CZ_MSM_ACC_BATCH_AFFINE;
      else if (strcmp(v, "auto")) goto usage;
    } else if (!strcmp(argv[i], "--scaling")) a.scaling = true;
    else if (!strcmp(argv[i], "--vs-scalar")) a.vs_scalar = true;
    else if (!strcmp(argv[i], "--equal") && v) {
      long d = atol(argv[++i]);
      if (d < 1 || d > (1L << 24)) goto usage;
      a.equal = (unsigned)d;
    } else goto usage;
  }
  if ((strcmp(a.group, "g1") && strcmp(a.group, "g2")) || a.log_n > 26 || a.reps < 1 ||
      a.reps > BENCH_MAX_REPS || a.window > 16)
    goto usage;
  if (!a.threads) a.threads = 0; /* 0 = all cores, passed through */
  return !strcmp(a.group, "g1") ? cz_g1_bench_run(&a) : cz_g2_bench_run(&a);
usage:
  fprintf(help ? stdout : stderr,
          "usage: cuzk-bench msm --group g1|g2 --log-n K [--threads T] "
          "[--density dense|sparse01]\n"
          "                      [--reps R] [--scaling] [--vs-scalar] [--window C]\n"
          "                      [--acc auto|xyzz|affine] [--equal D]\n" CZ_BENCH_EXIT_STATUS);
  return help ? 0 : 2;
}
