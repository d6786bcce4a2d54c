/* cuzk-bench circuit-info: the size of a registered circuit (one partition)
 * counted on a COUNT system (constraints, inputs, aux) without storing
 * matrices or values, and what counting cost:
 *
 *   cuzk-bench circuit-info --kind porep|winning-post|window-post|update
 *       [--registered-proof N | --sector-size S] [--sectors N] [--challenges N]
 *       [--witness | --prove] [--threads N]
 * --registered-proof is in the kind's numbering (seal 0-9, PoSt 0-14,
 * update 0-4); a sector size picks PoRep V1_1, Winning V1 or Window V1_1;
 * for update (SnapDeals) it may also be a test size rust-fil-proofs allows
 * (1KiB-32KiB, 16MiB), counted with its own constants. --sectors and
 * --challenges change a PoSt circuit's slots and challenges per slot. With
 * --witness (PoSt), also cz_post_witness over random paths on --threads
 * (synth_input.h): not a satisfying witness, but the same work (hashing,
 * bits, inserts), as a synthesis rate in constraints per core-second;
 * --prove times the same as the prover's plain path runs it, a PROVE
 * synthesis (a/b rows and densities too), as prove.* lines. synth-only
 * --kind window-post measures the same with system time and peak RSS.
 * Output: "name value unit" lines. Constraints are as TestConstraintSystem
 * (and rust-fil-proofs' tests) count them; a PROVE or KEYGEN run holds
 * circuit.inputs more. Exit 0, 1 when synthesis fails, 2 for bad options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "commands.h"
#include "common/args.h"
#include "common/bench_clock.h"
#include "cuzk/parallel.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/post_circuit.h"
#include "cuzk/snap_circuit.h"
#include "input.h"
#include "synth_input.h"

/* What the PoSt witness timing needs of a circuit. */
typedef struct {
  cz_merkle_shape tree;
  size_t sector_leaves, n_sectors, n_challenges;
} post_size;

/* A synthesis of `kind` over random paths (synth_input.h); its lines
 * start with `tag`. */
static int time_witness(const cz_post_kind *k, const post_size *cfg, cz_cs_kind kind,
                        const char *tag, unsigned threads, size_t n_constraints) {
  synth_spec spec = {k->type == CZ_POST_WINNING ? SYN_WINNING : SYN_WINDOW, k->sector_size, NULL,
                     0, cfg->n_sectors, cfg->n_challenges, threads};
  char msg[200] = "";
  synth_input *in = synth_input_make(&spec, msg, sizeof msg);
  if (!in) {
    fprintf(stderr, "circuit-info: %s\n", msg);
    return 1;
  }
  cz_assignment as;
  double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
  cz_err e = synth_input_run(in, kind, NULL, NULL, threads, &as, msg, sizeof msg);
  double w1 = cz_bench_wall_s(), c1 = cz_bench_cpu_s();
  synth_input_free(in);
  if (e != CZ_OK) {
    fprintf(stderr, "circuit-info: %s: %s\n", tag, msg);
    return 1;
  }
  cz_assignment_free(&as);
  printf("%s.threads %u threads\n%s.wall %.3f s\n%s.cpu %.3f s\n", tag,
         cz_parallel_threads(threads), tag, w1 - w0, tag, c1 - c0);
  if (c1 > c0)
    printf("%s.rate %.0f constraints_per_core_s\n", tag, (double)n_constraints / (c1 - c0));
  return 0;
}

/* Synthesize the chosen circuit on cs (values not needed). */
static cz_err count(cz_cs *cs, const cz_porep_kind *pk, const cz_snap_shape *us,
                    const post_size *ps) {
  if (pk) return cz_porep_circuit(cs, &pk->shape, NULL, 0);
  if (us) return cz_snap_circuit(cs, us, NULL, NULL);
  return cz_post_circuit(cs, &ps->tree, ps->sector_leaves, ps->n_sectors, ps->n_challenges, NULL);
}

int cmd_circuit_info(int argc, char **argv) {
  const char *kind = NULL, *size = NULL;
  unsigned long reg = ~0ul, sectors = 0, challenges = 0, threads = 0;
  bool witness = false, prove = false;
  const cz_opt opts[] = {
      {"kind", CZ_OPT_STRING, &kind, "K", "porep, winning-post, window-post or update"},
      {"registered-proof", CZ_OPT_UINT, &reg, "N", "registered proof in the kind's numbering"},
      {"sector-size", CZ_OPT_STRING, &size, "S", "sector size (2KiB ... 64GiB)"},
      {"sectors", CZ_OPT_UINT, &sectors, "N", "PoSt sector slots (default: the registered count)"},
      {"challenges", CZ_OPT_UINT, &challenges, "N", "PoSt challenges per slot (default: registered)"},
      {"witness", CZ_OPT_FLAG, &witness, NULL, "PoSt: also time cz_post_witness on random paths"},
      {"prove", CZ_OPT_FLAG, &prove, NULL, "PoSt: also time a PROVE synthesis (a/b/c too)"},
      {"threads", CZ_OPT_UINT, &threads, "N", "thread budget of --witness/--prove (default 0: all)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "circuit-info", "--kind K [options]");
  if (rc >= 0) return rc;
  bool porep = kind && !strcmp(kind, "porep"), winning = kind && !strcmp(kind, "winning-post"),
       window = kind && !strcmp(kind, "window-post"), update = kind && !strcmp(kind, "update");
  if (!porep && !winning && !window && !update) {
    fprintf(stderr, "circuit-info: --kind must be porep, winning-post, window-post or update\n");
    return 2;
  }
  if ((reg != ~0ul) == (size != NULL)) {
    fprintf(stderr, "circuit-info: give one of --registered-proof and --sector-size\n");
    return 2;
  }
  uint64_t bytes = 0;
  if (size && cz_bench_parse_size(size, &bytes) != 0) {
    fprintf(stderr, "circuit-info: --sector-size %s: not a size\n", size);
    return 2;
  }
  const cz_porep_kind *pk = NULL;
  const cz_post_kind *qk = NULL;
  const cz_snap_kind *uk = NULL;
  cz_snap_shape us_buf, *us = NULL;
  if (update) {
    uk = size ? cz_snap_kind_by_sector_size(bytes) : cz_snap_kind_by_id((uint32_t)reg);
    if (uk) us_buf = uk->shape;
    if (uk || (size && bytes % 32 == 0 && cz_snap_shape_of(bytes / 32, &us_buf))) us = &us_buf;
  } else if (porep) {
    pk = size ? cz_porep_kind_by_sector_size(bytes, true) : cz_porep_kind_by_id((uint32_t)reg);
  } else if (size) {
    for (uint32_t id = winning ? 0 : 10; id < (winning ? 5u : 15u) && !qk; id++)
      if (cz_post_kind_by_id(id)->sector_size == bytes) qk = cz_post_kind_by_id(id);
  } else if (reg < CZ_POST_N_KINDS) {
    qk = cz_post_kind_by_id((uint32_t)reg);
    if (qk->type != (winning ? CZ_POST_WINNING : CZ_POST_WINDOW)) qk = NULL;
  }
  if (!pk && !qk && !us) {
    fprintf(stderr, "circuit-info: no registered %s proof %s %s\n", kind,
            size ? "of sector size" : "numbered", size ? size : "(see --help)");
    return 2;
  }
  post_size ps = {0};
  if (qk) {
    ps = (post_size){qk->tree_r, (size_t)(qk->sector_size / 32),
                     sectors ? sectors : qk->sector_count,
                     challenges ? challenges : qk->challenge_count};
  } else if (sectors || challenges || witness || prove) { /* PoRep, update */
    fprintf(stderr, "circuit-info: --sectors, --challenges, --witness and --prove are for PoSt\n");
    return 2;
  }
  cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
  if (!cs) {
    fprintf(stderr, "circuit-info: out of memory\n");
    return 1;
  }
  double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
  cz_err e = count(cs, pk, us, &ps);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  double w1 = cz_bench_wall_s(), c1 = cz_bench_cpu_s();
  if (e != CZ_OK) {
    fprintf(stderr, "circuit-info: %s %s\n", cz_err_str(e), cz_cs_errmsg(cs));
    cz_cs_free(cs);
    return 1;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const cz_merkle_shape *t = pk ? &pk->shape.tree_r : us ? &us->tree_r : &qk->tree_r;
  if (pk || qk || uk)
    printf("circuit.name %s registered_proof\ncircuit.id %u registered_proof_id\n",
           pk ? pk->name : qk ? qk->name : uk->name, pk ? pk->id : qk ? qk->id : uk->id);
  else
    printf("circuit.name test-size registered_proof\n");
  printf("circuit.sector_bytes %llu B\ncircuit.tree %u-%u-%u shape\n",
         (unsigned long long)(pk ? pk->sector_size : us ? us->nodes * 32 : qk->sector_size),
         t->base_arity, t->sub_arity, t->top_arity);
  if (us) printf("circuit.partitions %u partitions\ncircuit.challenges %u per_partition\n",
                 us->partitions, us->challenges);
  if (qk) printf("circuit.sectors %zu slots\ncircuit.challenges %zu per_slot\n", ps.n_sectors,
                 ps.n_challenges);
  size_t n = cz_cs_num_constraints(cs);
  printf("circuit.constraints %zu constraints\ncircuit.inputs %zu inputs\ncircuit.aux %zu aux\n", n,
         cz_cs_num_inputs(cs), cz_cs_num_aux(cs));
  printf("circuit.wall %.3f s\ncircuit.cpu %.3f s\ncircuit.max_rss %ld KiB\n", w1 - w0, c1 - c0,
         ru.ru_maxrss);
  cz_cs_free(cs);
  int r = witness ? time_witness(qk, &ps, CZ_CS_WITNESS, "witness", (unsigned)threads, n) : 0;
  if (r == 0 && prove) r = time_witness(qk, &ps, CZ_CS_PROVE, "prove", (unsigned)threads, n);
  return r;
}
