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
static int time_witness(const cz_registered_post *k, const post_size *cfg, cz_cs_mode mode,
                        const char *tag, unsigned threads, size_t n_constraints) {
  synth_spec spec = {k->type == CZ_POST_WINNING ? SYN_WINNING : SYN_WINDOW,
                     k->sector_size,
                     NULL,
                     0,
                     cfg->n_sectors,
                     cfg->n_challenges,
                     threads};
  char msg[200] = "";
  synth_input *in = synth_input_make(&spec, msg, sizeof msg);
  if (!in) {
    fprintf(stderr, "circuit-info: %s\n", msg);
    return 1;
  }
  cz_assignment as;
  double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
  cz_err e = synth_input_run(in, mode, NULL, NULL, threads, &as, msg, sizeof msg);
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

/* The circuit asked for: a PoRep kind (pk), a PoSt kind with its slots
 * and challenges (qk, ps), or an update shape (us; uk when registered). */
typedef struct {
  const cz_registered_porep *pk;
  const cz_registered_post *qk;
  const cz_registered_snap *uk;
  cz_snap_shape us_buf;
  const cz_snap_shape *us;
  post_size ps;
} circuit_pick;

/* The options as given. */
typedef struct {
  const char *kind, *size;
  unsigned long reg, sectors, challenges, threads;
  bool witness, prove;
} info_opts;

/* Synthesize the chosen circuit on cs (values not needed). */
static cz_err count(cz_cs *cs, const circuit_pick *c) {
  if (c->pk) return cz_porep_circuit(cs, &c->pk->shape, NULL, 0);
  if (c->us) return cz_snap_circuit(cs, c->us, NULL, NULL);
  const post_size *ps = &c->ps;
  return cz_post_circuit(cs, &ps->tree, ps->sector_leaves, ps->n_sectors, ps->n_challenges, NULL);
}

/* The registered circuit (or update test size) the options name. 0, or 2
 * after a line on stderr. */
static int pick_circuit(const info_opts *o, circuit_pick *c) {
  bool porep = o->kind && !strcmp(o->kind, "porep"),
       winning = o->kind && !strcmp(o->kind, "winning-post"),
       window = o->kind && !strcmp(o->kind, "window-post"),
       update = o->kind && !strcmp(o->kind, "update");
  if (!porep && !winning && !window && !update) {
    fprintf(stderr, "circuit-info: --kind must be porep, winning-post, window-post or update\n");
    return 2;
  }
  if ((o->reg != ~0ul) == (o->size != NULL)) {
    fprintf(stderr, "circuit-info: give one of --registered-proof and --sector-size\n");
    return 2;
  }
  uint64_t bytes = 0;
  if (o->size && cz_bench_parse_size(o->size, &bytes) != 0) {
    fprintf(stderr, "circuit-info: --sector-size %s: not a size\n", o->size);
    return 2;
  }
  *c = (circuit_pick){0};
  if (update) {
    c->uk = o->size ? cz_registered_snap_by_sector_size(bytes)
                    : cz_registered_snap_by_id((uint32_t)o->reg);
    if (c->uk) c->us_buf = c->uk->shape;
    if (c->uk || (o->size && bytes % 32 == 0 && cz_snap_shape_of(bytes / 32, &c->us_buf)))
      c->us = &c->us_buf;
  } else if (porep) {
    c->pk = o->size ? cz_registered_porep_by_sector_size(bytes, true)
                    : cz_registered_porep_by_id((uint32_t)o->reg);
  } else if (o->size) {
    for (uint32_t id = winning ? 0 : 10; id < (winning ? 5u : 15u) && !c->qk; id++)
      if (cz_registered_post_by_id(id)->sector_size == bytes) c->qk = cz_registered_post_by_id(id);
  } else if (o->reg < CZ_REGISTERED_POST_COUNT) {
    c->qk = cz_registered_post_by_id((uint32_t)o->reg);
    if (c->qk->type != (winning ? CZ_POST_WINNING : CZ_POST_WINDOW)) c->qk = NULL;
  }
  if (!c->pk && !c->qk && !c->us) {
    fprintf(stderr, "circuit-info: no registered %s proof %s %s\n", o->kind,
            o->size ? "of sector size" : "numbered", o->size ? o->size : "(see --help)");
    return 2;
  }
  if (c->qk) {
    c->ps = (post_size){c->qk->tree_r, (size_t)(c->qk->sector_size / 32),
                        o->sectors ? o->sectors : c->qk->sector_count,
                        o->challenges ? o->challenges : c->qk->challenge_count};
  } else if (o->sectors || o->challenges || o->witness || o->prove) { /* PoRep, update */
    fprintf(stderr, "circuit-info: --sectors, --challenges, --witness and --prove are for PoSt\n");
    return 2;
  }
  return 0;
}

/* The circuit's name and shape, then what cs counted and what counting
 * cost (wall and CPU seconds). */
static void report(const circuit_pick *c, const cz_cs *cs, double wall, double cpu) {
  const cz_registered_porep *pk = c->pk;
  const cz_registered_post *qk = c->qk;
  const cz_registered_snap *uk = c->uk;
  const cz_snap_shape *us = c->us;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const cz_merkle_shape *t = pk ? &pk->shape.tree_r : us ? &us->tree_r : &qk->tree_r;
  if (pk || qk || uk)
    printf("circuit.name %s registered_proof\ncircuit.id %u registered_proof_id\n",
           pk   ? pk->name
           : qk ? qk->name
                : uk->name,
           pk   ? pk->id
           : qk ? qk->id
                : uk->id);
  else printf("circuit.name test-size registered_proof\n");
  printf("circuit.sector_bytes %llu B\ncircuit.tree %u-%u-%u shape\n",
         (unsigned long long)(pk   ? pk->sector_size
                              : us ? us->nodes * 32
                                   : qk->sector_size),
         t->base_arity, t->sub_arity, t->top_arity);
  if (us)
    printf("circuit.partitions %u partitions\ncircuit.challenges %u per_partition\n",
           us->partitions, us->challenges);
  if (qk)
    printf("circuit.sectors %zu slots\ncircuit.challenges %zu per_slot\n", c->ps.n_sectors,
           c->ps.n_challenges);
  printf("circuit.constraints %zu constraints\ncircuit.inputs %zu inputs\ncircuit.aux %zu aux\n",
         cz_cs_num_constraints(cs), cz_cs_num_inputs(cs), cz_cs_num_aux(cs));
  printf("circuit.wall %.3f s\ncircuit.cpu %.3f s\ncircuit.max_rss %ld KiB\n", wall, cpu,
         ru.ru_maxrss);
}

int cmd_circuit_info(int argc, char **argv) {
  info_opts o = {.reg = ~0ul};
  const cz_opt opts[] = {
      {"kind", CZ_OPT_STRING, &o.kind, "K", "porep, winning-post, window-post or update"},
      {"registered-proof", CZ_OPT_UINT, &o.reg, "N", "registered proof in the kind's numbering"},
      {"sector-size", CZ_OPT_STRING, &o.size, "S", "sector size (2KiB ... 64GiB)"},
      {"sectors", CZ_OPT_UINT, &o.sectors, "N",
       "PoSt sector slots (default: the registered count)"},
      {"challenges", CZ_OPT_UINT, &o.challenges, "N",
       "PoSt challenges per slot (default: registered)"},
      {"witness", CZ_OPT_FLAG, &o.witness, NULL, "PoSt: also time cz_post_witness on random paths"},
      {"prove", CZ_OPT_FLAG, &o.prove, NULL, "PoSt: also time a PROVE synthesis (a/b/c too)"},
      {"threads", CZ_OPT_UINT, &o.threads, "N",
       "thread budget of --witness/--prove (default 0: all)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "circuit-info", "--kind K [options]");
  if (rc >= 0) return rc;
  circuit_pick c;
  if ((rc = pick_circuit(&o, &c)) != 0) return rc;
  cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
  if (!cs) {
    fprintf(stderr, "circuit-info: out of memory\n");
    return 1;
  }
  double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
  cz_err e = count(cs, &c);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  double w1 = cz_bench_wall_s(), c1 = cz_bench_cpu_s();
  if (e != CZ_OK) {
    fprintf(stderr, "circuit-info: %s %s\n", cz_err_str(e), cz_cs_errmsg(cs));
    cz_cs_free(cs);
    return 1;
  }
  report(&c, cs, w1 - w0, c1 - c0);
  size_t n = cz_cs_num_constraints(cs);
  cz_cs_free(cs);
  unsigned th = (unsigned)o.threads;
  int r = o.witness ? time_witness(c.qk, &c.ps, CZ_CS_WITNESS, "witness", th, n) : 0;
  if (r == 0 && o.prove) r = time_witness(c.qk, &c.ps, CZ_CS_PROVE, "prove", th, n);
  return r;
}
