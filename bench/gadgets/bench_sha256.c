/* cuzk-bench sha256-synth: synthesis throughput of the SHA-256 gadget on
 * the SDR label shape (a 1248-byte message: 20 blocks after padding), in
 * constraints per second of process CPU time on one core, for each LC
 * layout, with ratios against the heap vector measured in the same run.
 * The message bits are allocated in the timed region too (as the label
 * circuit allocates its inputs). MultiEq's accumulators are always heap
 * vectors (they live across constraints), whatever the layout.
 *
 *   cuzk-bench sha256-synth [--lc vec|inline:N|arena|all]
 *                           [--backend prove|witness|record] [--reps R]
 *                           [--bytes N]
 * Output: "name value unit" lines. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/bench_clock.h"
#include "common/bench_commands.h"
#include "common/synth_opts.h"
#include "cuzk/gadgets.h"
#include "common/args.h"

/* One synthesis; returns CPU seconds (0 on error) and the constraint count. */
static double run_once(const cz_cs_config *base, cz_cs_mode mode, const uint8_t *msg, size_t n,
                       size_t *n_constraints) {
  cz_cs_config cfg = *base;
  cfg.hint_constraints = 27000 * (n / 64 + 2);
  cfg.hint_aux = cfg.hint_constraints;
  cz_cs *cs = cz_cs_new(mode, &cfg);
  cz_bool *bits = malloc(8 * n * sizeof *bits + 1), out[256];
  if (!cs || !bits) {
    cz_cs_free(cs);
    free(bits);
    return 0;
  }
  double t0 = cz_bench_cpu_s();
  for (size_t i = 0; i < 8 * n; i++) {
    cz_abit b;
    cz_cs_sticky(cz_abit_alloc(cs, &b, (msg[i / 8] >> (7 - i % 8)) & 1));
    bits[i] = cz_bool_from_bit(b);
  }
  cz_err e = cz_sha256(cs, out, bits, 8 * n), fin = cz_cs_finish(cs);
  if (e == CZ_OK) e = fin;
  double dt = cz_bench_cpu_s() - t0;
  if (e) fprintf(stderr, "cuzk-bench sha256-synth: %s\n", cz_cs_errmsg(cs));
  *n_constraints = cz_cs_num_constraints(cs);
  cz_cs_free(cs);
  free(bits);
  return e ? 0 : dt;
}

int cz_bench_cmd_sha256(int argc, char **argv) {
  const char *lc = "all", *backend = "prove";
  size_t nbytes = 1248;
  int reps = 3;
  for (int i = 1; i < argc; i++) {
    bool help = cz_bench_help_arg(argv[i]);
    if (!strcmp(argv[i], "--lc") && i + 1 < argc) lc = argv[++i];
    else if (!strcmp(argv[i], "--backend") && i + 1 < argc) backend = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--bytes") && i + 1 < argc) nbytes = strtoull(argv[++i], NULL, 10);
    else {
      fprintf(help ? stdout : stderr,
              "usage: cuzk-bench sha256-synth [--lc vec|inline:N|arena|all]\n"
              "                               [--backend prove|witness|record] [--reps R] [--bytes "
              "N]\n" CZ_BENCH_EXIT_STATUS);
      return help ? 0 : 2;
    }
  }
  cz_cs_mode mode;
  if (!cz_bench_parse_backend(backend, &mode)) {
    fprintf(stderr, "cuzk-bench sha256-synth: unknown backend '%s'\n", backend);
    return 2;
  }
  if (reps < 1 || nbytes > (1u << 20)) {
    fprintf(stderr, "cuzk-bench sha256-synth: --reps must be positive, --bytes at most 1 MiB\n");
    return 2;
  }
  enum { NL = CZ_BENCH_N_LAYOUTS };
  const cz_bench_layout *all = cz_bench_layouts;
  bool on[NL];
  if (!cz_bench_select_layouts(lc, on)) {
    fprintf(stderr, "cuzk-bench sha256-synth: unknown layout '%s'\n", lc);
    return 2;
  }
  uint8_t *msg = malloc(nbytes + 1);
  if (!msg) return 1;
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < nbytes; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    msg[i] = (uint8_t)(s >> 56);
  }
  double best[NL] = {0};
  size_t nc = 0;
  /* Rounds alternate layouts so that machine noise hits all alike; the
   * best round of each counts. */
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < NL; i++) {
      if (!on[i]) continue;
      double dt = run_once(&all[i].cfg, mode, msg, nbytes, &nc);
      if (dt <= 0) {
        free(msg);
        return 1;
      }
      if (best[i] == 0 || dt < best[i]) best[i] = dt;
    }
  free(msg);
  size_t blocks = (8 * nbytes + 1 + 64 + 511) / 512;
  printf("sha256.%s.blocks %zu blocks\n", backend, blocks);
  printf("sha256.%s.constraints %zu constraints\n", backend, nc);
  for (int i = 0; i < NL; i++) {
    if (!on[i]) continue;
    printf("sha256.%s.%s %.0f constraints/s\n", backend, all[i].name, (double)nc / best[i]);
    printf("sha256.%s.%s.time %.6f s\n", backend, all[i].name, best[i]);
    if (i) printf("sha256.%s.%s_vs_vec %.3f ratio\n", backend, all[i].name, best[0] / best[i]);
  }
  fflush(stdout);
  return 0;
}
