/* cuzk-bench poseidon: native Poseidon hashes/s (neptune's optimised form
 * and the textbook one) and the gadget's synthesis rate in constraints/s
 * for each LC layout, single-threaded, in process CPU time (the build
 * machine is shared; wall time is noise). Ratios are measured in the same
 * run: opt vs plain, each layout vs vec, and the replayed constraint
 * template (the default on PROVE/RECORD) vs the generic synthesis code
 * ("generic", vec layout).
 *
 *   cuzk-bench poseidon [--arity 2|4|8|11] [--hashes N] [--circuits N]
 *                       [--backend prove|witness|record] [--lc all|vec|inline:N|arena]
 *                       [--reps R]
 * Output: "name value unit" lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/bench_clock.h"
#include "common/args.h"
#include "common/synth_opts.h"
#include "cuzk/poseidon_gadget.h"
#include "gadgets/poseidon_internal.h"

static void fill(cz_fr *v, size_t n) {
  uint64_t s = 0x243f6a8885a308d3ULL;
  for (size_t i = 0; i < n; i++) {
    uint64_t limbs[4];
    for (int j = 0; j < 4; j++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      limbs[j] = s;
    }
    limbs[3] &= 0x3fffffffffffffffULL; /* below r */
    cz_fr_from_canonical(&v[i], limbs);
  }
}

/* Seconds for n native hashes; the results feed a checksum so that the
 * compiler keeps the work. */
static double native_run(const cz_poseidon_params *p, const cz_fr *in, cz_fr *out, size_t n,
                         bool plain) {
  double t0 = cz_bench_cpu_s();
  if (plain)
    for (size_t i = 0; i < n; i++) cz_poseidon_hash_plain(p, in + i * p->arity, &out[i]);
  else cz_poseidon_hash_many(p, in, out, n);
  return cz_bench_cpu_s() - t0;
}

/* Seconds to synthesize `circuits` hashes into one system (0 on error);
 * *constraints gets the count. */
static double gadget_run(const cz_poseidon_params *p, const cz_cs_config *cfg0, cz_cs_mode mode,
                         const cz_fr *in, size_t circuits, size_t *constraints) {
  cz_cs_config cfg = *cfg0;
  cfg.hint_constraints = circuits * 600 + 64;
  cfg.hint_aux = circuits * 620 + 64;
  cz_cs *cs = cz_cs_new(mode, &cfg);
  if (!cs) return 0;
  double t0 = cz_bench_cpu_s();
  cz_var vars[CZ_POSEIDON_MAX_ARITY], out;
  cz_err e = CZ_OK;
  for (size_t c = 0; e == CZ_OK && c < circuits; c++) {
    for (unsigned i = 0; i < p->arity; i++)
      cz_cs_sticky(cz_cs_alloc(cs, &vars[i], &in[c * p->arity + i]));
    CZ_PUSH_NS(cs, "hash %zu", c);
    e = cz_poseidon_gadget(cs, p, vars, &out);
    CZ_POP_NS(cs);
  }
  cz_err fin = cz_cs_finish(cs);
  if (e == CZ_OK) e = fin;
  double dt = cz_bench_cpu_s() - t0;
  *constraints = cz_cs_num_constraints(cs);
  if (e) fprintf(stderr, "cuzk-bench poseidon: %s\n", cz_cs_errmsg(cs));
  cz_cs_free(cs);
  return e ? 0 : dt;
}

/* What the rounds measure: the best (least) seconds of each. */
enum { NL = CZ_BENCH_N_LAYOUTS };
typedef struct {
  double opt, plain, layout[NL], generic;
  size_t constraints;
  uint64_t checksum;
} pos_best;

static void keep_best(double *best, double dt) {
  if (*best == 0 || dt < *best) *best = dt;
}

/* The run's inputs: the parameters, the backend and the layouts on. */
typedef struct {
  const cz_poseidon_params *p;
  cz_cs_mode mode;
  const bool *on;
  const cz_fr *in;
  cz_fr *out;
  size_t hashes, circuits;
} pos_run;

/* One round: native opt and plain, every layout on, then the generic
 * synthesis code on the vec layout (layouts alternate within a round so
 * that noise hits all alike). 0, or 1 when a synthesis failed. */
static int one_round(const pos_run *r, pos_best *b) {
  const cz_bench_layout *lay = cz_bench_layouts;
  keep_best(&b->opt, native_run(r->p, r->in, r->out, r->hashes, false));
  b->checksum += r->out[r->hashes - 1].l[0];
  keep_best(&b->plain, native_run(r->p, r->in, r->out, r->hashes, true));
  b->checksum += r->out[r->hashes - 1].l[0];
  for (int i = 0; i < NL; i++) {
    if (!r->on[i]) continue;
    double dt = gadget_run(r->p, &lay[i].cfg, r->mode, r->in, r->circuits, &b->constraints);
    if (dt <= 0) return 1;
    keep_best(&b->layout[i], dt);
  }
  cz_poseidon_gadget_set_templates(false);
  double dt = gadget_run(r->p, &lay[0].cfg, r->mode, r->in, r->circuits, &b->constraints);
  cz_poseidon_gadget_set_templates(true);
  if (dt <= 0) return 1;
  keep_best(&b->generic, dt);
  return 0;
}

static void report(const pos_run *r, const pos_best *b, const char *backend) {
  unsigned a = r->p->arity;
  const cz_bench_layout *lay = cz_bench_layouts;
  printf("poseidon.native.a%u.opt %.0f hashes/s\n", a, (double)r->hashes / b->opt);
  printf("poseidon.native.a%u.plain %.0f hashes/s\n", a, (double)r->hashes / b->plain);
  printf("poseidon.native.a%u.opt_vs_plain %.3f ratio\n", a, b->plain / b->opt);
  /* Count the gadget's own constraints only: the trailing input
   * constraints (ONE) of PROVE/RECORD are not synthesis work. */
  size_t per = r->mode == CZ_CS_WITNESS ? b->constraints : b->constraints - 1;
  for (int i = 0; i < NL; i++) {
    if (!r->on[i]) continue;
    printf("poseidon.gadget.%s.a%u.%s %.0f constraints/s\n", backend, a, lay[i].name,
           (double)per / b->layout[i]);
    if (i)
      printf("poseidon.gadget.%s.a%u.%s_vs_vec %.3f ratio\n", backend, a, lay[i].name,
             b->layout[0] / b->layout[i]);
  }
  printf("poseidon.gadget.%s.a%u.generic_vec %.0f constraints/s\n", backend, a,
         (double)per / b->generic);
  if (r->on[0])
    printf("poseidon.gadget.%s.a%u.vec_vs_generic %.3f ratio\n", backend, a,
           b->generic / b->layout[0]);
  printf("poseidon.gadget.a%u.constraints_per_hash %zu constraints\n", a, per / r->circuits);
  fprintf(stderr, "poseidon: checksum %016llx\n", (unsigned long long)b->checksum);
  fflush(stdout);
}

/* Warm-up (parameters and the constraint template are built at first use,
 * outside the timed runs), the rounds, the report. */
static int measure(const pos_run *r, unsigned long reps, const char *backend) {
  pos_best b = {0};
  if (gadget_run(r->p, &cz_bench_layouts[0].cfg, r->mode, r->in, 1, &b.constraints) <= 0) return 1;
  for (unsigned long k = 0; k < reps; k++)
    if (one_round(r, &b)) return 1;
  report(r, &b, backend);
  return 0;
}

int cz_bench_cmd_poseidon(int argc, char **argv) {
  unsigned long arity = 8, hashes = 20000, circuits = 200, reps = 3;
  const char *backend = "prove", *lc = "all";
  const cz_opt opts[] = {
      {"arity", CZ_OPT_UINT, &arity, "A", "2, 4, 8 or 11 (default 8)"},
      {"hashes", CZ_OPT_UINT, &hashes, "N", "native hashes per round (default 20000)"},
      {"circuits", CZ_OPT_UINT, &circuits, "N", "gadget hashes per round (default 200)"},
      {"backend", CZ_OPT_STRING, &backend, "B", "prove|witness|record (default prove)"},
      {"lc", CZ_OPT_STRING, &lc, "L", "all|vec|inline:N|arena (default all)"},
      {"reps", CZ_OPT_UINT, &reps, "R", "rounds; the best counts (default 3)"},
      {0},
  };
  const char *synopsis =
      "[--arity A] [--hashes N] [--circuits N] [--backend B] [--lc L] [--reps R]";
  int rc = cz_opts_parse_or_help(argc, argv, opts, "poseidon", synopsis);
  if (rc >= 0) return rc;
  const cz_poseidon_params *p = cz_poseidon_params_get((unsigned)arity);
  if (!p || hashes == 0 || circuits == 0 || reps == 0) {
    fprintf(stderr,
            "poseidon: need a supported --arity and positive --hashes, --circuits, --reps\n");
    return 2;
  }
  cz_cs_mode mode;
  if (!cz_bench_parse_backend(backend, &mode)) {
    fprintf(stderr, "poseidon: unknown backend '%s'\n", backend);
    return 2;
  }
  bool on[NL];
  if (!cz_bench_select_layouts(lc, on)) {
    fprintf(stderr, "poseidon: unknown layout '%s'\n", lc);
    return 2;
  }
  size_t n_in = (hashes > circuits ? hashes : circuits) * arity;
  cz_fr *in = malloc(n_in * sizeof(cz_fr)), *out = malloc(hashes * sizeof(cz_fr));
  if (!in || !out) {
    fprintf(stderr, "poseidon: out of memory\n");
    rc = 1;
  } else {
    fill(in, n_in);
    pos_run r = {p, mode, on, in, out, hashes, circuits};
    rc = measure(&r, reps, backend);
  }
  free(in);
  free(out);
  return rc;
}
