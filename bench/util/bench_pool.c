/* cuzk-bench pool: what a big buffer's first touch costs against reusing
 * one from the pool (src/util/bigbuf.h), the choice behind the pool.
 *
 *   cuzk-bench pool [--gib N] [--rounds R] [--threads T]
 *
 * Each round, alternating (each round starts one variant later), writes
 * N GiB into:
 *   huge_1t  a fresh mapping advised MADV_HUGEPAGE, touched by one thread;
 *   huge_nt  the same touched by T threads (pre-faulting on all threads);
 *   plain_nt a fresh mapping without advice (4 KiB pages, or THP "always"),
 *            T threads;
 *   pool     a block from the pool written again (taken, given back, taken).
 * Per variant: the median wall time per GiB, the system time per GiB, and
 * the pool's speedup against each. The kernel's THP settings are printed
 * with them (defrag decides whether an MADV_HUGEPAGE fault compacts memory
 * first). Lines are "name value unit". */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "common/args.h"
#include "common/bench_clock.h"
#include "common/bench_commands.h"
#include "cuzk/parallel.h"
#include "util/bigbuf.h"

#define MAX_ROUNDS 64
enum { HUGE_1T, HUGE_NT, PLAIN_NT, POOL, N_VARIANTS };
static const char *const NAMES[N_VARIANTS] = {"huge_1t", "huge_nt", "plain_nt", "pool"};

static double sys_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

typedef struct {
  unsigned char *p;
  size_t bytes;
} touch_ctx;

/* One byte per 4 KiB page of the worker's share. */
static void touch(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  const touch_ctx *t = ctx;
  for (size_t i = begin; i < end; i++) t->p[i << 12] = (unsigned char)i;
}

/* Wall and system seconds to touch a buffer of variant v (NULL: failed). */
static bool run(int v, size_t bytes, unsigned threads, double *wall, double *sys) {
  unsigned char *p;
  if (v == POOL) {
    p = cz_pool_take(bytes); /* faulted in by an earlier round (or the warm-up) */
  } else {
    p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    if (v != PLAIN_NT) madvise(p, bytes, MADV_HUGEPAGE);
  }
  if (!p) return false;
  touch_ctx t = {p, bytes};
  double w0 = cz_bench_wall_s(), s0 = sys_s();
  cz_parallel_for(bytes >> 12, v == HUGE_1T ? 1 : threads, touch, &t);
  *wall = cz_bench_wall_s() - w0;
  *sys = sys_s() - s0;
  if (v == POOL) cz_pool_give(p);
  else munmap(p, bytes);
  return true;
}

static void thp_setting(const char *name) {
  char path[128], line[256] = "?";
  snprintf(path, sizeof path, "/sys/kernel/mm/transparent_hugepage/%s", name);
  FILE *f = fopen(path, "r");
  if (f && fgets(line, sizeof line, f)) line[strcspn(line, "\n")] = 0;
  if (f) fclose(f);
  printf("thp.%s \"%s\" setting\n", name, line);
}

int cz_bench_cmd_pool(int argc, char **argv) {
  unsigned long gib = 2, rounds = 3, threads = 0;
  const cz_opt opts[] = {
      {"gib", CZ_OPT_UINT, &gib, "N", "GiB written per variant (default 2)"},
      {"rounds", CZ_OPT_UINT, &rounds, "R", "alternating rounds (default 3)"},
      {"threads", CZ_OPT_UINT, &threads, "T", "threads of the _nt variants (0 = all cores)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "pool", "[--gib N] [--rounds R] [--threads T]");
  if (rc >= 0) return rc;
  if (!gib || gib > 64 || !rounds || rounds > MAX_ROUNDS) {
    fprintf(stderr, "pool: need 1 <= --gib <= 64 and 1 <= --rounds <= %d\n", MAX_ROUNDS);
    return 2;
  }
  size_t bytes = (size_t)gib << 30;
  unsigned t = cz_parallel_threads((unsigned)threads);
  thp_setting("enabled");
  thp_setting("defrag");
  printf("pool.threads %u threads\n", t);
  double wall[N_VARIANTS][MAX_ROUNDS], sys[N_VARIANTS][MAX_ROUNDS], w, s;
  if (!run(POOL, bytes, t, &w, &s)) { /* the warm-up: the pool's first touch */
    fprintf(stderr, "pool: out of memory\n");
    return 1;
  }
  /* Each round starts one variant later: a fresh mapping right after
   * another's munmap finds its pages freed (and huge pages whole). */
  for (unsigned long r = 0; r < rounds; r++)
    for (int k = 0; k < N_VARIANTS; k++) {
      int v = (int)((r + (unsigned long)k) % N_VARIANTS);
      if (!run(v, bytes, t, &wall[v][r], &sys[v][r])) {
        fprintf(stderr, "pool: out of memory\n");
        return 1;
      }
      printf("round %lu %s wall_s=%.3f sys_s=%.3f\n", r, NAMES[v], wall[v][r], sys[v][r]);
    }
  double med[N_VARIANTS];
  for (int v = 0; v < N_VARIANTS; v++) {
    med[v] = cz_bench_median(wall[v], rounds) / (double)gib;
    printf("%s.wall_per_gib %.3f s\n", NAMES[v], med[v]);
    printf("%s.sys_per_gib %.3f s\n", NAMES[v], cz_bench_median(sys[v], rounds) / (double)gib);
  }
  for (int v = 0; v < POOL; v++)
    printf("ratio.%s_over_pool %.1f ratio\n", NAMES[v], med[v] / med[POOL]);
  cz_pool_trim(SIZE_MAX);
  return 0;
}
