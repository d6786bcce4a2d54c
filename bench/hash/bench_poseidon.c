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
static double gadget_run(const cz_poseidon_params *p, const cz_cs_config *cfg0, cz_cs_kind kind,
                         const cz_fr *in, size_t circuits, size_t *constraints) {
  cz_cs_config cfg = *cfg0;
  cfg.hint_constraints = circuits * 600 + 64;
  cfg.hint_aux = circuits * 620 + 64;
  cz_cs *cs = cz_cs_new(kind, &cfg);
  if (!cs) return 0;
  double t0 = cz_bench_cpu_s();
  cz_var vars[CZ_POSEIDON_MAX_ARITY], out;
  for (size_t c = 0; c < circuits; c++) {
    for (unsigned i = 0; i < p->arity; i++) cz_cs_alloc(cs, &vars[i], &in[c * p->arity + i]);
    CZ_PUSH_NS(cs, "hash %zu", c);
    cz_poseidon_gadget(cs, p, vars, &out);
    CZ_POP_NS(cs);
  }
  cz_err e = cz_cs_finish(cs);
  double dt = cz_bench_cpu_s() - t0;
  *constraints = cz_cs_num_constraints(cs);
  if (e) fprintf(stderr, "cuzk-bench poseidon: %s\n", cz_cs_errmsg(cs));
  cz_cs_free(cs);
  return e ? 0 : dt;
}

int cmd_bench_poseidon(int argc, char **argv) {
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
  const char *synopsis = "[--arity A] [--hashes N] [--circuits N] [--backend B] [--lc L] [--reps R]";
  int rc = cz_opts_parse_or_help(argc, argv, opts, "poseidon", synopsis);
  if (rc >= 0) return rc;
  const cz_poseidon_params *p = cz_poseidon_params_get((unsigned)arity);
  if (!p || hashes == 0 || circuits == 0 || reps == 0) {
    fprintf(stderr, "poseidon: need a supported --arity and positive --hashes, --circuits, --reps\n");
    return 2;
  }
  cz_cs_kind kind;
  if (!cz_bench_parse_backend(backend, &kind)) {
    fprintf(stderr, "poseidon: unknown backend '%s'\n", backend);
    return 2;
  }
  enum { NL = CZ_BENCH_N_LAYOUTS };
  const cz_bench_layout *lay = cz_bench_layouts;
  bool on[NL];
  if (!cz_bench_select_layouts(lc, on)) {
    fprintf(stderr, "poseidon: unknown layout '%s'\n", lc);
    return 2;
  }

  size_t n_in = (hashes > circuits ? hashes : circuits) * arity;
  cz_fr *in = malloc(n_in * sizeof(cz_fr)), *out = malloc(hashes * sizeof(cz_fr));
  if (!in || !out) {
    free(in);
    free(out);
    fprintf(stderr, "poseidon: out of memory\n");
    return 1;
  }
  fill(in, n_in);

  double best_opt = 0, best_plain = 0, best[NL] = {0}, best_generic = 0;
  size_t constraints = 0;
  uint64_t checksum = 0;
  /* Warm-up: parameters and the constraint template are built at first
   * use, outside the timed runs. */
  if (gadget_run(p, &lay[0].cfg, kind, in, 1, &constraints) <= 0) {
    free(in);
    free(out);
    return 1;
  }
  for (unsigned long r = 0; r < reps; r++) {
    double dt = native_run(p, in, out, hashes, false);
    checksum += out[hashes - 1].l[0];
    if (best_opt == 0 || dt < best_opt) best_opt = dt;
    dt = native_run(p, in, out, hashes, true);
    checksum += out[hashes - 1].l[0];
    if (best_plain == 0 || dt < best_plain) best_plain = dt;
    /* Layouts alternate within a round so that noise hits all alike. */
    for (int i = 0; i < NL; i++) {
      if (!on[i]) continue;
      dt = gadget_run(p, &lay[i].cfg, kind, in, circuits, &constraints);
      if (dt <= 0) {
        free(in);
        free(out);
        return 1;
      }
      if (best[i] == 0 || dt < best[i]) best[i] = dt;
    }
    cz_poseidon_gadget_set_templates(false);
    dt = gadget_run(p, &lay[0].cfg, kind, in, circuits, &constraints);
    cz_poseidon_gadget_set_templates(true);
    if (dt <= 0) {
      free(in);
      free(out);
      return 1;
    }
    if (best_generic == 0 || dt < best_generic) best_generic = dt;
  }
  printf("poseidon.native.a%lu.opt %.0f hashes/s\n", arity, (double)hashes / best_opt);
  printf("poseidon.native.a%lu.plain %.0f hashes/s\n", arity, (double)hashes / best_plain);
  printf("poseidon.native.a%lu.opt_vs_plain %.3f ratio\n", arity, best_plain / best_opt);
  /* Count the gadget's own constraints only: the trailing input
   * constraints (ONE) of PROVE/RECORD are not synthesis work. */
  size_t per = kind == CZ_CS_WITNESS ? constraints : constraints - 1;
  for (int i = 0; i < NL; i++) {
    if (!on[i]) continue;
    printf("poseidon.gadget.%s.a%lu.%s %.0f constraints/s\n", backend, arity, lay[i].name,
           (double)per / best[i]);
    if (i) printf("poseidon.gadget.%s.a%lu.%s_vs_vec %.3f ratio\n", backend, arity, lay[i].name,
                  best[0] / best[i]);
  }
  printf("poseidon.gadget.%s.a%lu.generic_vec %.0f constraints/s\n", backend, arity,
         (double)per / best_generic);
  if (on[0])
    printf("poseidon.gadget.%s.a%lu.vec_vs_generic %.3f ratio\n", backend, arity,
           best_generic / best[0]);
  printf("poseidon.gadget.a%lu.constraints_per_hash %zu constraints\n", arity, per / circuits);
  fprintf(stderr, "poseidon: checksum %016llx\n", (unsigned long long)checksum);
  fflush(stdout);
  free(in);
  free(out);
  return 0;
}
