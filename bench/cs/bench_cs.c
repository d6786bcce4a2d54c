/* cuzk-bench cs: synthesis throughput (constraints/s) of two circuits for
 * each LC layout, with ratios against the heap vector measured in the same
 * run (process CPU time: the build machine is shared, wall time is noise).
 * Each constraint builds fresh LCs (init/free), as bellpepper's
 * closures do; the "reuse" line shows the same circuit with three LCs
 * cleared and reused, the bound that no layout choice can beat.
 *
 *   cuzk-bench cs [--lc vec|inline:N|arena|all] [--constraints N]
 *                 [--backend prove|witness|record] [--reps R]
 * Output: "name value unit" lines. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/bench_clock.h"
#include "common/synth_opts.h"
#include "cuzk/cs.h"
#include "common/args.h"

typedef struct {
  const char *name;
  cz_cs_config cfg;
  bool reuse;
} layout;

/* x_{i+1} = x_i^2: one term per LC, the cheapest possible constraint. */
static void chain(cz_cs *cs, size_t n, bool reuse) {
  cz_fr x, y;
  cz_fr_from_u64(&x, 3);
  cz_var v, w;
  cz_cs_sticky(cz_cs_alloc(cs, &v, &x));
  /* The reused LCs are heap vectors: a long-lived arena LC would pin the
   * arena (see lc.h). */
  cz_lc ra, rb, rc;
  cz_lc_init_layout(&ra, CZ_LC_VEC, 0, NULL);
  cz_lc_init_layout(&rb, CZ_LC_VEC, 0, NULL);
  cz_lc_init_layout(&rc, CZ_LC_VEC, 0, NULL);
  for (size_t i = 0; i < n; i++) {
    cz_fr_sqr(&y, &x);
    cz_cs_sticky(cz_cs_alloc(cs, &w, &y));
    cz_lc a, b, c, *pa = &ra, *pb = &rb, *pc = &rc;
    if (reuse) {
      cz_lc_clear(pa);
      cz_lc_clear(pb);
      cz_lc_clear(pc);
    } else {
      cz_lc_init(pa = &a, cs);
      cz_lc_init(pb = &b, cs);
      cz_lc_init(pc = &c, cs);
    }
    cz_lc_add(pa, v);
    cz_lc_add(pb, v);
    cz_lc_add(pc, w);
    CZ_ENFORCE(cs, pa, pb, pc, "square %zu", i);
    if (!reuse) {
      cz_lc_free(pa);
      cz_lc_free(pb);
      cz_lc_free(pc);
    }
    v = w;
    x = y;
  }
  cz_lc_free(&ra);
  cz_lc_free(&rb);
  cz_lc_free(&rc);
}

/* A packing-style constraint (SHA-256, multipack): a = sum of 8 bits with
 * power-of-two coefficients plus a constant, b = bit - ONE (2 terms, ONE
 * inserted in front), c = a fresh variable. */
static void wide(cz_cs *cs, size_t n, bool reuse) {
  enum { W = 32 };
  cz_var bits[W];
  cz_fr pow2[8], bitv, k, acc;
  for (int j = 0; j < 8; j++) cz_fr_from_u64(&pow2[j], 1ull << j);
  cz_fr_from_u64(&bitv, 1);
  cz_fr_from_u64(&k, 12345);
  for (int j = 0; j < W; j++) cz_cs_sticky(cz_cs_alloc(cs, &bits[j], &bitv));
  cz_fr_from_u64(&acc, 7);
  /* The reused LCs are heap vectors: a long-lived arena LC would pin the
   * arena (see lc.h). */
  cz_lc ra, rb, rc;
  cz_lc_init_layout(&ra, CZ_LC_VEC, 0, NULL);
  cz_lc_init_layout(&rb, CZ_LC_VEC, 0, NULL);
  cz_lc_init_layout(&rc, CZ_LC_VEC, 0, NULL);
  for (size_t i = 0; i < n; i++) {
    cz_var out;
    cz_cs_sticky(cz_cs_alloc(cs, &out, &acc));
    cz_lc a, b, c, *pa = &ra, *pb = &rb, *pc = &rc;
    if (reuse) {
      cz_lc_clear(pa);
      cz_lc_clear(pb);
      cz_lc_clear(pc);
    } else {
      cz_lc_init(pa = &a, cs);
      cz_lc_init(pb = &b, cs);
      cz_lc_init(pc = &c, cs);
    }
    for (int j = 0; j < 8; j++) cz_lc_add_term(pa, bits[(i + (size_t)j) % W], &pow2[j]);
    cz_lc_add_const(pa, &k);
    cz_lc_add(pb, bits[i % W]);
    cz_lc_sub(pb, CZ_VAR_ONE);
    cz_lc_add(pc, out);
    CZ_ENFORCE(cs, pa, pb, pc, "pack %zu", i);
    if (!reuse) {
      cz_lc_free(pa);
      cz_lc_free(pb);
      cz_lc_free(pc);
    }
  }
  cz_lc_free(&ra);
  cz_lc_free(&rb);
  cz_lc_free(&rc);
}

static double run_once(int circuit, const layout *l, cz_cs_mode mode, size_t n) {
  cz_cs_config cfg = l->cfg;
  cfg.hint_constraints = n + 64;
  cfg.hint_aux = n + 64;
  cz_cs *cs = cz_cs_new(mode, &cfg);
  if (!cs) return 0;
  double t0 = cz_bench_cpu_s();
  if (circuit == 0) chain(cs, n, l->reuse);
  else wide(cs, n, l->reuse);
  cz_err e = cz_cs_finish(cs);
  double dt = cz_bench_cpu_s() - t0;
  if (e) fprintf(stderr, "cuzk-bench cs: %s\n", cz_cs_errmsg(cs));
  cz_cs_free(cs);
  /* A tiny run can read a zero CPU-time delta; count it as 1 ns, not as a
   * failure (0 is reserved for errors). */
  return e ? 0 : (dt > 0 ? dt : 1e-9);
}

int cz_bench_cmd_cs(int argc, char **argv) {
  const char *lc = "all", *backend = "prove";
  size_t n = 1u << 20;
  int reps = 3;
  for (int i = 1; i < argc; i++) {
    bool help = cz_bench_help_arg(argv[i]);
    if (!strcmp(argv[i], "--lc") && i + 1 < argc) lc = argv[++i];
    else if (!strcmp(argv[i], "--constraints") && i + 1 < argc) n = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--backend") && i + 1 < argc) backend = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else {
      fprintf(help ? stdout : stderr,
              "usage: cuzk-bench cs [--lc vec|inline:N|arena|all] [--constraints N]\n"
              "                     [--backend prove|witness|record] [--reps "
              "R]\n" CZ_BENCH_EXIT_STATUS);
      return help ? 0 : 2;
    }
  }
  cz_cs_mode mode;
  if (!cz_bench_parse_backend(backend, &mode)) {
    fprintf(stderr, "cuzk-bench cs: unknown backend '%s'\n", backend);
    return 2;
  }
  if (n == 0 || reps < 1) {
    fprintf(stderr, "cuzk-bench cs: --constraints and --reps must be positive\n");
    return 2;
  }
  /* The shared layouts, plus "reuse": vec LCs cleared and reused. */
  layout all[CZ_BENCH_N_LAYOUTS + 1];
  bool on[CZ_BENCH_N_LAYOUTS + 1];
  for (int i = 0; i < CZ_BENCH_N_LAYOUTS; i++)
    all[i] = (layout){cz_bench_layouts[i].name, cz_bench_layouts[i].cfg, false};
  all[CZ_BENCH_N_LAYOUTS] = (layout){"reuse", cz_bench_layouts[0].cfg, true};
  if (!cz_bench_select_layouts(lc, on)) {
    fprintf(stderr, "cuzk-bench cs: unknown layout '%s'\n", lc);
    return 2;
  }
  on[CZ_BENCH_N_LAYOUTS] = !strcmp(lc, "all");
  const char *circ[2] = {"chain", "wide"};
  for (int c = 0; c < 2; c++) {
    double best[6] = {0};
    /* Rounds alternate layouts so that machine noise hits all alike; the
     * best round of each counts. */
    for (int r = 0; r < reps; r++)
      for (int i = 0; i < 6; i++) {
        if (!on[i]) continue;
        double dt = run_once(c, &all[i], mode, n);
        if (dt <= 0) return 1;
        if (best[i] == 0 || dt < best[i]) best[i] = dt;
      }
    for (int i = 0; i < 6; i++) {
      if (!on[i]) continue;
      printf("cs.%s.%s.%s %.0f constraints/s\n", backend, circ[c], all[i].name,
             (double)n / best[i]);
      if (i)
        printf("cs.%s.%s.%s_vs_vec %.3f ratio\n", backend, circ[c], all[i].name, best[0] / best[i]);
    }
  }
  fflush(stdout);
  return 0;
}
