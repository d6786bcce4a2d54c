/* cuzk-bench post-count: the size of a registered PoSt partition circuit
 * (cz_post_circuit on a COUNT system: constraints, inputs, aux) and what
 * counting it cost, without storing matrices or values.
 *
 *   cuzk-bench post-count [--size 32GiB] [--winning] [--sectors N] [--challenges N]
 *                         [--witness] [--threads N]
 * With --witness, also the time of cz_post_witness (WITNESS values of the
 * partition, slots in parallel on --threads) over random paths: not a
 * satisfying witness, but the same work (hashing, bits, inserts).
 * Output: "name value unit" lines. Constraints are as TestConstraintSystem
 * counts them; a PROVE or KEYGEN run holds post.inputs more after finish.
 * Exit status 0, 1 when synthesis fails, 2 for bad options. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "common/bench_clock.h"
#include "args.h"
#include "commands.h"
#include "cuzk/parallel.h"
#include "cuzk/post_circuit.h"
#include "input.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rand64(void) {
  uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static cz_fr rand_fr(void) {
  cz_fr r;
  cz_fr_from_u64(&r, rand64());
  return r;
}

/* A random path to a random leaf: right indices, random nodes. */
static void fake_proof(const cz_post_config *cfg, cz_merkle_proof *p) {
  size_t levels = cz_merkle_proof_levels(&cfg->tree, cfg->sector_leaves);
  size_t base = levels - (cfg->tree.sub_arity != 0) - (cfg->tree.top_arity != 0);
  p->shape = cfg->tree;
  p->n_levels = levels;
  p->challenge = (size_t)(rand64() % cfg->sector_leaves);
  p->leaf = rand_fr();
  p->root = rand_fr();
  size_t rest = p->challenge;
  for (size_t l = 0; l < levels; l++) {
    unsigned a = l < base ? cfg->tree.base_arity : l == base ? cfg->tree.sub_arity : cfg->tree.top_arity;
    p->arity[l] = a;
    p->index[l] = (unsigned)(rest % a);
    rest /= a;
    for (unsigned j = 0; j + 1 < a; j++) p->siblings[l][j] = rand_fr();
  }
}

static int time_witness(const cz_post_config *cfg, unsigned threads) {
  size_t n = cfg->n_sectors * cfg->n_challenges;
  cz_merkle_proof *proofs = malloc(n * sizeof *proofs);
  cz_post_sector *sec = malloc(cfg->n_sectors * sizeof *sec);
  if (!proofs || !sec) {
    free(proofs);
    free(sec);
    fprintf(stderr, "post-count: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < n; i++) fake_proof(cfg, &proofs[i]);
  for (size_t s = 0; s < cfg->n_sectors; s++)
    sec[s] = (cz_post_sector){rand_fr(), rand_fr(), rand_fr(), &proofs[s * cfg->n_challenges]};
  cz_assignment as;
  char msg[200] = "";
  double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
  cz_err e = cz_post_witness(&cfg->tree, cfg->sector_leaves, cfg->n_sectors, cfg->n_challenges,
                             sec, threads, &as, msg, sizeof msg);
  double w1 = cz_bench_wall_s(), c1 = cz_bench_cpu_s();
  free(proofs);
  free(sec);
  if (e != CZ_OK) {
    fprintf(stderr, "post-count: witness: %s\n", msg);
    return 1;
  }
  cz_assignment_free(&as);
  printf("post.witness_threads %u threads\npost.witness_wall %.3f s\npost.witness_cpu %.3f s\n",
         cz_parallel_threads(threads), w1 - w0, c1 - c0);
  return 0;
}

int cmd_bench_post_count(int argc, char **argv) {
  const char *size = "32GiB";
  unsigned long sectors = 0, challenges = 0, threads = 0;
  bool help = false, winning = false, witness = false;
  const cz_opt opts[] = {
      {"size", CZ_OPT_STRING, &size, "S", "sector size (default 32GiB)"},
      {"winning", CZ_OPT_FLAG, &winning, NULL, "WinningPoSt (default WindowPoSt)"},
      {"sectors", CZ_OPT_UINT, &sectors, "N", "sector slots (default: the registered count)"},
      {"challenges", CZ_OPT_UINT, &challenges, "N", "challenges per slot (default: registered)"},
      {"witness", CZ_OPT_FLAG, &witness, NULL, "also time cz_post_witness on random paths"},
      {"threads", CZ_OPT_UINT, &threads, "N", "thread budget of --witness (default 0: all cores)"},
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
  return witness ? time_witness(&cfg, (unsigned)threads) : 0;
}
