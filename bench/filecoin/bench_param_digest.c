/* cuzk-bench param-digest: what checking an official parameter file
 * against parameters.json's digest costs the first time (later starts read
 * the stamp instead), against coreutils' b2sum on the same file.
 *
 *   cuzk-bench param-digest [--file F | --gib N] [--rounds R]
 *
 * --gib makes a sparse file of N GiB (default 47, about the 32 GiB PoRep
 * file) in $TMPDIR, so that the read costs nothing and the hash is what is
 * measured; a real file adds its disk's read time. Rounds alternate
 * between cuzk and b2sum. Lines are "name value unit": the median wall
 * time, GiB/s, CPU and system time per GiB of cuzk, b2sum's median when
 * b2sum is installed, and the ratio. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/args.h"
#include "common/bench_clock.h"
#include "common/bench_commands.h"
#include "cuzk/param_digest.h"

#define MAX_ROUNDS 32

static double sys_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* b2sum's wall seconds on path (a child process), or -1 when it fails. */
static double b2sum_wall(const char *path) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "b2sum '%s' >/dev/null 2>&1", path);
  double w0 = cz_bench_wall_s();
  int rc = system(cmd);
  return rc == 0 ? cz_bench_wall_s() - w0 : -1;
}

static int make_sparse(char *path, size_t cap, unsigned long gib) {
  const char *tmp = getenv("TMPDIR");
  snprintf(path, cap, "%s/cuzk-param-digest-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0 || ftruncate(fd, (off_t)gib << 30) != 0) {
    fprintf(stderr, "param-digest: cannot make a %lu GiB sparse file %s\n", gib, path);
    if (fd >= 0) close(fd), unlink(path);
    return 2;
  }
  close(fd);
  return 0;
}

int cz_bench_cmd_param_digest(int argc, char **argv) {
  const char *file = NULL;
  unsigned long gib = 47, rounds = 3;
  const cz_opt opts[] = {{"file", CZ_OPT_STRING, &file, "F",
                          "hash this file (default: a sparse file of --gib)", 'f'},
                         {"gib", CZ_OPT_UINT, &gib, "N",
                          "size of the sparse file in GiB (default 47)", 0},
                         {"rounds", CZ_OPT_UINT, &rounds, "R", "rounds of each (default 3)", 0},
                         {0}};
  int rc =
      cz_opts_parse_or_help(argc, argv, opts, "param-digest", "[--file F | --gib N] [--rounds R]");
  if (rc >= 0) return rc;
  if (rounds < 1 || rounds > MAX_ROUNDS || gib < 1)
    return fprintf(stderr, "param-digest: --rounds 1..32, --gib >= 1\n"), 2;
  char path[4096];
  if (file) snprintf(path, sizeof path, "%s", file);
  else if ((rc = make_sparse(path, sizeof path, gib)) != 0) return rc;
  struct stat st;
  if (stat(path, &st) != 0) return fprintf(stderr, "param-digest: cannot open %s\n", path), 2;
  double size_gib = (double)st.st_size / (1u << 30);
  double ours[MAX_ROUNDS], theirs[MAX_ROUNDS], cpu = 0, sys = 0;
  size_t n_theirs = 0;
  char hex[CZ_PARAM_DIGEST_HEX + 1], msg[512];
  for (unsigned long r = 0; r < rounds; r++) {
    double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s(), s0 = sys_s();
    if (cz_param_file_digest(path, hex, msg, sizeof msg) != CZ_OK) {
      fprintf(stderr, "param-digest: %s\n", msg);
      rc = 1;
      break;
    }
    ours[r] = cz_bench_wall_s() - w0;
    cpu += cz_bench_cpu_s() - c0, sys += sys_s() - s0;
    double b = b2sum_wall(path);
    if (b >= 0) theirs[n_theirs++] = b;
    printf("round %lu cuzk_s=%.3f b2sum_s=%.3f digest=%s\n", r, ours[r], b, hex);
  }
  if (!file) unlink(path);
  if (rc) return rc;
  double med = cz_bench_median(ours, rounds);
  printf("file_gib %.2f GiB\n", size_gib);
  printf("digest_wall %.3f s\n", med);
  printf("digest_rate %.3f GiB/s\n", size_gib / med);
  printf("digest_cpu_per_gib %.3f s\n", cpu / (double)rounds / size_gib);
  printf("digest_sys_per_gib %.3f s\n", sys / (double)rounds / size_gib);
  if (n_theirs) {
    double b = cz_bench_median(theirs, n_theirs);
    printf("b2sum_wall %.3f s\n", b);
    printf("ratio.b2sum_over_cuzk %.3f ratio\n", b / med);
  }
  return 0;
}
