/* Clocks and medians shared by the benchmarks. Process CPU time is the
 * figure to compare on the shared build machine (other jobs' load inflates
 * wall time, not our CPU time); wall time is what a user waits. */
#ifndef CUZK_BENCH_CLOCK_H
#define CUZK_BENCH_CLOCK_H
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

static inline double cz_bench_clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static inline double cz_bench_wall_s(void) { return cz_bench_clock_s(CLOCK_MONOTONIC); }
static inline double cz_bench_cpu_s(void) { return cz_bench_clock_s(CLOCK_PROCESS_CPUTIME_ID); }
static inline double cz_bench_thread_s(void) { return cz_bench_clock_s(CLOCK_THREAD_CPUTIME_ID); }

static inline int cz_bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
/* The median of v[0..n) (n >= 1); sorts v in place. */
static inline double cz_bench_median(double *v, size_t n) {
  qsort(v, n, sizeof *v, cz_bench_cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
