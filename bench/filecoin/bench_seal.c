/* cuzk-bench seal: seal a test sector in memory (cz_porep_seal) and verify
 * its vanilla proofs (cz_porep_vanilla_verify); wall and process CPU time of
 * each. The 8 MiB seal is the benchmark the test suite leaves out.
 *
 *   cuzk-bench seal [--registered-proof N] [--threads N] [--reps R]
 * Output: "name value unit" lines (the seal and verify times once per rep). Exit status 0, 1 when
 * sealing or verification fails, 2 for bad options. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/bench_clock.h"
#include "common/args.h"
#include "common/bench_commands.h"
#include "cuzk/parallel.h"
#include "cuzk/porep.h"
#include "common/progress_out.h"

int cz_bench_cmd_seal(int argc, char **argv) {
  unsigned long id = 6, threads = 0, reps = 1;
  const cz_opt opts[] = {
      {"registered-proof", CZ_OPT_UINT, &id, "N", "seal proof 0-9 (default 6: 8MiB V1_1)"},
      {"threads", CZ_OPT_UINT, &threads, "N", "thread budget (default 0: all cores)"},
      {"reps", CZ_OPT_UINT, &reps, "R", "seals to time (default 1)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "seal", "[options]");
  if (rc >= 0) return rc;
  const cz_registered_porep *k = cz_registered_porep_by_id((uint32_t)id);
  if (!k || reps == 0) {
    fprintf(stderr, "seal: unknown registered proof %lu or zero reps\n", id);
    return 2;
  }
  cz_porep_seal_input in;
  memset(&in, 0, sizeof in);
  in.registered = k;
  in.sector_id = 1;
  in.progress = cz_bench_progress();
  for (int i = 0; i < 32; i++) in.ticket[i] = in.seed[i] = (uint8_t)i;
  printf("seal.registered_proof %lu id\nseal.sector_bytes %llu B\nseal.threads %u threads\n", id,
         (unsigned long long)k->sector_size, cz_parallel_threads((unsigned)threads));
  for (unsigned long r = 0; r < reps; r++) {
    cz_porep_c1 c1;
    char msg[256] = "";
    double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
    cz_err e = cz_porep_seal(&in, &c1, (unsigned)threads, msg, sizeof msg);
    double w1 = cz_bench_wall_s(), c1t = cz_bench_cpu_s();
    if (e != CZ_OK) {
      fprintf(stderr, "seal: %s\n", msg);
      return 1;
    }
    e = cz_porep_vanilla_verify(&c1, msg, sizeof msg);
    double w2 = cz_bench_wall_s(), c2 = cz_bench_cpu_s();
    cz_porep_c1_free(&c1);
    if (e != CZ_OK) {
      fprintf(stderr, "seal: verification failed: %s\n", msg);
      return 1;
    }
    printf("seal.wall %.6f s\nseal.cpu %.6f s\nverify.wall %.6f s\nverify.cpu %.6f s\n", w1 - w0,
           c1t - c0, w2 - w1, c2 - c1t);
  }
  return 0;
}
