/* cuzk-bench post-count: the size of a registered PoSt partition circuit
 * (cz_post_circuit on a COUNT system: constraints, inputs, aux) and what
 * counting it cost, without storing matrices or values.
 *
 *   cuzk-bench post-count [--size 32GiB] [--winning] [--sectors N] [--challenges N]
 * Output: "name value unit" lines. Constraints are as TestConstraintSystem
 * counts them; a PROVE or KEYGEN run holds post.inputs more after finish.
 * Exit status 0, 1 when synthesis fails, 2 for bad options. */
#include <stdio.h>
#include <sys/resource.h>

#include "common/bench_clock.h"
#include "args.h"
#include "commands.h"
#include "cuzk/post_circuit.h"
#include "input.h"

int cmd_bench_post_count(int argc, char **argv) {
  const char *size = "32GiB";
  unsigned long sectors = 0, challenges = 0;
  bool help = false, winning = false;
  const cz_opt opts[] = {
      {"size", CZ_OPT_STRING, &size, "S", "sector size (default 32GiB)"},
      {"winning", CZ_OPT_FLAG, &winning, NULL, "WinningPoSt (default WindowPoSt)"},
      {"sectors", CZ_OPT_UINT, &sectors, "N", "sector slots (default: the registered count)"},
      {"challenges", CZ_OPT_UINT, &challenges, "N", "challenges per slot (default: registered)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse(argc, argv, opts, &help);
  if (rc) return rc;
  if (help) {
    cz_opts_usage(stdout, "post-count", "[options]", opts);
    return 0;
  }
  uint64_t bytes;
  cz_post_config cfg;
  if (cz_bench_parse_size(size, &bytes) != 0 || cz_post_config_get(!winning, bytes, &cfg) != CZ_OK) {
    fprintf(stderr, "post-count: --size %s is not a registered PoSt sector size\n", size);
    return 2;
  }
  if (sectors) cfg.n_sectors = sectors;
  if (challenges) cfg.n_challenges = challenges;
  cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
  if (!cs) {
    fprintf(stderr, "post-count: out of memory\n");
    return 1;
  }
  double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
  cz_err e = cz_post_circuit(cs, &cfg.tree, cfg.sector_leaves, cfg.n_sectors, cfg.n_challenges,
                             NULL);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  double w1 = cz_bench_wall_s(), c1 = cz_bench_cpu_s();
  if (e != CZ_OK) {
    fprintf(stderr, "post-count: %s %s\n", cz_err_str(e), cz_cs_errmsg(cs));
    cz_cs_free(cs);
    return 1;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("post.sector_bytes %llu B\npost.tree %u-%u-%u shape\npost.sectors %zu slots\n"
         "post.challenges %zu per_slot\n",
         (unsigned long long)bytes, cfg.tree.base_arity, cfg.tree.sub_arity, cfg.tree.top_arity,
         cfg.n_sectors, cfg.n_challenges);
  printf("post.constraints %zu constraints\npost.inputs %zu inputs\npost.aux %zu aux\n",
         cz_cs_num_constraints(cs), cz_cs_num_inputs(cs), cz_cs_num_aux(cs));
  printf("post.wall %.3f s\npost.cpu %.3f s\npost.max_rss %ld KiB\n", w1 - w0, c1 - c0,
         ru.ru_maxrss);
  cz_cs_free(cs);
  return 0;
}
