/* cuzk-bench porep-challenges: one partition's PoRep challenges under one
 * of the three rules, one node index per line, so that they can be checked
 * against an independent implementation (tests/reference/).
 *
 *   cuzk-bench porep-challenges --rule interactive|ni|synthetic
 *       --sector-size S --replica-id HEX [--seed HEX] [--comm-r HEX]
 *       [--partition K] [--count N] [--indexes]
 * interactive needs --seed, ni --comm-r, synthetic both. --count defaults
 * to the registered challenges per partition of the size; --indexes
 * (synthetic) prints the selected synthetic indexes instead. Exit 0, or 2
 * for bad options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "cuzk/porep.h"
#include "cuzk/sdr.h"
#include "input.h"

#define CMD "porep-challenges"

int cmd_porep_challenges(int argc, char **argv) {
  const char *rule = NULL, *size = NULL, *rid_hex = NULL, *seed_hex = NULL, *comm_r_hex = NULL;
  unsigned long partition = 0, count = 0;
  bool indexes = false, help = false;
  const cz_opt opts[] = {
      {"rule", CZ_OPT_STRING, &rule, "R", "interactive, ni or synthetic"},
      {"sector-size", CZ_OPT_STRING, &size, "S", "2KiB ... 64GiB"},
      {"replica-id", CZ_OPT_STRING, &rid_hex, "HEX", "32 bytes"},
      {"seed", CZ_OPT_STRING, &seed_hex, "HEX", "interactive, synthetic: the 32-byte seed"},
      {"comm-r", CZ_OPT_STRING, &comm_r_hex, "HEX", "ni, synthetic: the 32-byte comm_r"},
      {"partition", CZ_OPT_UINT, &partition, "K", "the partition (default 0)"},
      {"count", CZ_OPT_UINT, &count, "N", "challenges (default: the size's per partition)"},
      {"indexes", CZ_OPT_FLAG, &indexes, NULL, "synthetic: print the selected indexes"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse(argc, argv, opts, &help);
  if (rc) return rc;
  if (help) {
    cz_opts_usage(stdout, CMD, "--rule R --sector-size S --replica-id HEX [options]", opts);
    printf("\nexit codes: 0 printed, 2 bad options\n");
    return 0;
  }
  uint64_t bytes = 0;
  const cz_registered_porep *k = NULL;
  if (size && cz_bench_parse_size(size, &bytes) == 0)
    k = cz_registered_porep_by_sector_size(bytes, true);
  bool inter = rule && !strcmp(rule, "interactive"), ni = rule && !strcmp(rule, "ni"),
       synth = rule && !strcmp(rule, "synthetic");
  if (!k || !rid_hex || !(inter || ni || synth) || ((inter || synth) && !seed_hex) ||
      ((ni || synth) && !comm_r_hex) || (indexes && !synth) || partition > UINT32_MAX ||
      count > 1000000) {
    fprintf(stderr,
            "%s: give --rule interactive|ni|synthetic, a registered --sector-size, "
            "--replica-id, and --seed and/or --comm-r as the rule needs (see --help)\n",
            CMD);
    return 2;
  }
  uint8_t rid[32], seed[32] = {0}, comm_r[32] = {0};
  if (cz_bench_hex32(CMD, "replica-id", rid_hex, rid) != 0 ||
      (seed_hex && cz_bench_hex32(CMD, "seed", seed_hex, seed) != 0) ||
      (comm_r_hex && cz_bench_hex32(CMD, "comm-r", comm_r_hex, comm_r) != 0))
    return 2;
  size_t n = count ? count : k->shape.challenges;
  uint64_t *out = malloc(n * sizeof *out);
  uint32_t *idx = malloc(n * sizeof *idx);
  if (!out || !idx) {
    free(out);
    free(idx);
    fprintf(stderr, "%s: out of memory\n", CMD);
    return 1;
  }
  uint64_t nodes = k->shape.nodes;
  uint32_t p = (uint32_t)partition;
  if (inter) cz_sdr_challenges(out, n, nodes, rid, seed, p);
  else if (ni) cz_sdr_ni_challenges(out, n, nodes, rid, comm_r, p);
  else if (indexes) cz_sdr_synth_indexes(idx, n, nodes, rid, seed, p);
  else cz_sdr_synth_challenges(out, n, nodes, rid, comm_r, seed, p);
  for (size_t i = 0; i < n; i++) printf("%llu\n", (unsigned long long)(indexes ? idx[i] : out[i]));
  free(out);
  free(idx);
  return 0;
}
