/* cuzk-bench synth-only: synthesis of one partition alone, no parameters,
 * no proving: the microbenchmark the original cuzk built after its SmallVec
 * regression, at the size users run.
 *
 *   synth-only [--kind porep|winning-post|window-post|update]
 *              [--sector-size S | --c1 FILE] [--partition N] [--sectors N]
 *              [-i N] [--threads N] [--scaling] [--lc L] [--ab L2] [--pce]
 *
 * Without --sector-size or --c1, PoRep seals a 2 KiB sector in process and
 * the other kinds take random 2 KiB vanilla proofs; with --sector-size each
 * builds an input of that sector's real shape in memory (synth_input.h).
 * Per iteration: wall time, user and system CPU time, the iteration's peak
 * RSS (VmHWM, reset before each) and the constraints. Then per series the
 * medians, constraints per second of wall time and per core-second
 * (user + system), and system time as a share of wall time. Series B, when
 * asked for, alternates with A, and B / A is printed:
 *   --ab LAYOUT  the same path with another LC layout (PoRep);
 *   --pce        the recorded shape (recorded once, then per iteration a
 *                WITNESS run and its evaluation, both on --threads);
 *   --scaling    one thread (B) against --threads (A): the speedup.
 * --perf reads hardware counters over each series (cycles, instructions,
 * IPC, cache and branch misses), or says in one line why it cannot.
 * Every line is "name value unit". Exit 0; 1 when synthesis fails; 2 for
 * bad options or input. --check (PoRep) synthesizes the partition once in
 * TEST mode instead and says whether every constraint holds (exit 1
 * naming the first that does not); --challenge I cuts it to the header and
 * challenge I. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "commands.h"
#include "common/args.h"
#include "common/bench_clock.h"
#include "common/synth_opts.h"
#include "cuzk/clock.h"
#include "cuzk/parallel.h"
#include "cuzk/perf_counters.h"
#include "input.h"
#include "synth_input.h"

static const char SYNOPSIS[] =
    "[--kind K] [--sector-size S | --c1 FILE] [--partition N] [--sectors N] [-i N] "
    "[--threads N] [--scaling] [--lc L] [--ab L2] [--pce] [--perf]\n"
    "       cuzk-bench synth-only [--sector-size S | --c1 FILE] [--partition N] --check "
    "[--challenge I]";

#define MAX_ITERS 1000

typedef struct {
  const char *name;
  cz_cs_config cfg;
  const cz_pce *shape;
  unsigned threads;
  double wall[MAX_ITERS], user[MAX_ITERS], sys[MAX_ITERS], rss_mb[MAX_ITERS];
  size_t n, constraints;
  bool perf_on;
  cz_perf perf;
  cz_perf_counts acc; /* summed over the series' iterations */
} series;

static int layout_index(const char *lc) {
  bool on[CZ_BENCH_N_LAYOUTS];
  if (!cz_bench_select_layouts(lc, on) || !strcmp(lc, "all")) return -1;
  for (int i = CZ_BENCH_N_LAYOUTS - 1; i >= 0; i--)
    if (on[i]) return i; /* vec is always on: the named one is the last set */
  return 0;
}

static void cpu_times(double *user, double *sys) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  *user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
  *sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* Peak RSS since the last reset (VmHWM, MiB); -1 when unreadable. Writing
 * 5 to clear_refs resets it (Linux 4.0 on). */
static void peak_reset(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f);
    fclose(f);
  }
}
static double peak_mb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  double mb = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6)) mb = strtod(line + 6, NULL) / 1024.0;
  if (f) fclose(f);
  return mb;
}

static void perf_add(series *s) {
  cz_perf_counts c;
  cz_perf_stop(&s->perf);
  cz_perf_read(&s->perf, &c);
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) {
    s->acc.value[i] += c.value[i];
    s->acc.valid[i] = c.valid[i] && (s->n == 0 || s->acc.valid[i]);
  }
}

/* One iteration of s; its figures appended. */
static int iterate(const synth_input *in, series *s, size_t it) {
  char msg[512] = "";
  cz_assignment as;
  peak_reset();
  double u0, s0, u1, s1, w0 = cz_bench_wall_s();
  cpu_times(&u0, &s0);
  if (s->perf_on) cz_perf_start(&s->perf);
  cz_err e = synth_input_run(in, CZ_CS_PROVE, &s->cfg, s->shape, s->threads, &as, msg, sizeof msg);
  if (s->perf_on) perf_add(s);
  double w1 = cz_bench_wall_s();
  cpu_times(&u1, &s1);
  double rss = peak_mb();
  if (e != CZ_OK) {
    fprintf(stderr, "synth-only: synthesis failed: %s: %s\n", cz_err_str(e), msg);
    return 1;
  }
  s->constraints = as.n_constraints;
  size_t aux = as.aux.n, full_aux = as.aux.n_other;
  cz_assignment_free(&as);
  size_t k = s->n++;
  s->wall[k] = (w1 - w0) * 1e3;
  s->user[k] = u1 - u0;
  s->sys[k] = s1 - s0;
  s->rss_mb[k] = rss;
  printf(
      "iteration %zu %s wall_ms=%.1f user_s=%.2f sys_s=%.2f peak_rss_mb=%.0f threads=%u "
      "constraints=%zu aux=%zu full_aux=%zu\n",
      it, s->name, s->wall[k], s->user[k], s->sys[k], rss, cz_parallel_threads(s->threads),
      s->constraints, aux, full_aux);
  fflush(stdout);
  return 0;
}

static void summary(series *s) {
  double wall = cz_bench_median(s->wall, s->n), user = cz_bench_median(s->user, s->n);
  double sys = cz_bench_median(s->sys, s->n), rss = cz_bench_median(s->rss_mb, s->n);
  double n = (double)s->constraints;
  printf("%s.synthesis_median %.1f ms\n", s->name, wall);
  printf("%s.user_median %.2f s\n%s.sys_median %.2f s\n", s->name, user, s->name, sys);
  printf("%s.sys_share %.3f ratio\n", s->name, wall > 0 ? sys / (wall / 1e3) : 0);
  printf("%s.peak_rss_median %.0f MiB\n", s->name, rss);
  printf("%s.constraints_per_s %.0f constraints/s\n", s->name, n / (wall / 1e3));
  if (user + sys > 0)
    printf("%s.constraints_per_core_s %.0f constraints/core-s\n", s->name, n / (user + sys));
  if (s->perf_on) {
    char line[256];
    cz_perf_format(&s->acc, line, sizeof line);
    printf("%s.perf %s\n", s->name, line);
  }
}

static void perf_open(series *s, size_t n) {
  for (size_t k = 0; k < n; k++) {
    char why[256] = "";
    s[k].perf_on = cz_perf_open(&s[k].perf, why, sizeof why) == CZ_OK;
    if (!s[k].perf_on && k == 0) printf("perf unavailable: %s\n", why);
  }
}

typedef struct {
  const char *kind, *size, *c1, *lc, *ab;
  unsigned long partition, sectors, iters, threads;
  unsigned long challenge; /* ULONG_MAX: none */
  bool pce, scaling, perf, check;
} synth_args;

/* The input the options name; NULL (after a message) when they name none. */
static synth_input *make_input(const synth_args *a) {
  synth_spec spec = {SYN_POREP,           0, a->c1, (uint32_t)a->partition, a->sectors, 0,
                     (unsigned)a->threads};
  char why[600] = "";
  if (a->kind && !synth_circuit_parse(a->kind, &spec.kind)) {
    fprintf(stderr, "synth-only: --kind %s: porep, winning-post, window-post or update\n", a->kind);
    return NULL;
  }
  if (a->size && cz_bench_parse_size(a->size, &spec.sector_size) != 0) {
    fprintf(stderr, "synth-only: --sector-size %s: not a size\n", a->size);
    return NULL;
  }
  if ((a->c1 && (spec.kind != SYN_POREP || a->size)) ||
      (a->sectors && spec.kind != SYN_WINNING && spec.kind != SYN_WINDOW)) {
    fprintf(stderr, "synth-only: --c1 is for PoRep without --sector-size, --sectors for PoSt\n");
    return NULL;
  }
  synth_input *in = synth_input_make(&spec, why, sizeof why);
  if (!in) fprintf(stderr, "synth-only: %s\n", why);
  return in;
}

/* Series A, and B when --ab, --pce or --scaling asks for one. 0 or exit 2. */
static int make_series(const synth_args *a, const synth_input *in, series s[2], size_t *n,
                       cz_pce **shape) {
  int la = layout_index(a->lc), lb = a->ab ? layout_index(a->ab) : -1;
  if (la < 0 || (a->ab && lb < 0)) {
    fprintf(stderr, "synth-only: unknown layout '%s'\n", la < 0 ? a->lc : a->ab);
    return 2;
  }
  if (a->iters < 1 || a->iters > MAX_ITERS || !!a->ab + a->pce + a->scaling > 1) {
    fprintf(stderr, "synth-only: need 1 <= -i <= %d, and at most one of --ab, --pce, --scaling\n",
            MAX_ITERS);
    return 2;
  }
  s[0] = (series){.name = cz_bench_layouts[la].name,
                  .cfg = cz_bench_layouts[la].cfg,
                  .threads = (unsigned)a->threads};
  *n = 1;
  if (!a->ab && !a->pce && !a->scaling) return 0;
  s[1] = s[0];
  *n = 2;
  if (a->ab) {
    s[1].name = cz_bench_layouts[lb].name;
    s[1].cfg = cz_bench_layouts[lb].cfg;
  } else if (a->scaling) {
    s[1].name = "one_thread";
    s[1].threads = 1;
  } else {
    char msg[256] = "";
    double t0 = cz_bench_wall_s();
    cz_err e = synth_input_record(in, shape, msg, sizeof msg);
    if (e != CZ_OK) {
      fprintf(stderr, "synth-only: recording the circuit: %s: %s\n", cz_err_str(e), msg);
      return 1;
    }
    cz_pce_info info;
    cz_pce_get_info(*shape, &info);
    printf("pce.record %.1f ms\n", (cz_bench_wall_s() - t0) * 1e3);
    printf("pce.shape nnz_a=%zu nnz_b=%zu nnz_c=%zu coeffs=%zu code_bytes=%u\n", info.nnz[0],
           info.nnz[1], info.nnz[2], info.n_coeffs, info.code_bytes);
    printf("pce.shape_bytes %zu bytes\n", info.bytes);
    s[1].name = "pce";
    s[1].shape = *shape;
  }
  return 0;
}

int cmd_synth_only(int argc, char **argv) {
  synth_args a = {.lc = "inline:4", .iters = 1, .challenge = ULONG_MAX};
  const cz_opt opts[] = {
      {"kind", CZ_OPT_STRING, &a.kind, "K", "porep (default), winning-post, window-post, update"},
      {"sector-size", CZ_OPT_STRING, &a.size, "S", "a registered size, input of its real shape"},
      {"c1", CZ_OPT_STRING, &a.c1, "FILE", "PoRep: C1 output (JSON or Curio wrapper)"},
      {"partition", CZ_OPT_UINT, &a.partition, "N", "PoRep: the partition (default 0)"},
      {"sectors", CZ_OPT_UINT, &a.sectors, "N", "PoSt: sector slots (default: registered)"},
      {"iterations", CZ_OPT_UINT, &a.iters, "N", "iterations (default 1)", 'i'},
      {"threads", CZ_OPT_UINT, &a.threads, "N", "thread budget of the partition (0 = all cores)"},
      {"scaling", CZ_OPT_FLAG, &a.scaling, NULL, "alternate with one thread; print the speedup"},
      {"lc", CZ_OPT_STRING, &a.lc, "LAYOUT", "vec|inline:1|inline:2|inline:4|arena (PoRep)"},
      {"ab", CZ_OPT_STRING, &a.ab, "LAYOUT", "alternate with this layout; print the ratio"},
      {"pce", CZ_OPT_FLAG, &a.pce, NULL, "alternate with the recorded (pre-compiled) shape"},
      {"perf", CZ_OPT_FLAG, &a.perf, NULL, "read hardware counters (perf_event_open)"},
      {"check", CZ_OPT_FLAG, &a.check, NULL,
       "PoRep: one TEST-mode synthesis instead (several times the memory): is every constraint "
       "satisfied? (exit 1 naming the first that is not)"},
      {"challenge", CZ_OPT_UINT, &a.challenge, "I",
       "with --check: the partition's header and challenge I alone (1/18 of 32 GiB's)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "synth-only", SYNOPSIS);
  if (rc >= 0) return rc;
  synth_input *in = make_input(&a);
  if (!in) return 2;
  if (a.check || a.challenge != ULONG_MAX) {
    rc = !a.check ? (fprintf(stderr, "synth-only: --challenge goes with --check\n"), 2)
                  : synth_input_check(in, a.challenge == ULONG_MAX ? -1
                                          : a.challenge > LONG_MAX ? LONG_MAX
                                                                   : (long)a.challenge);
    synth_input_free(in);
    return rc;
  }
  static series s[2];
  size_t n_series = 0;
  cz_pce *shape = NULL;
  rc = make_series(&a, in, s, &n_series, &shape);
  if (rc == 0 && a.perf) perf_open(s, n_series);
  if (rc == 0) {
    printf("kind %s\nthreads %u threads\n", synth_input_name(in),
           cz_parallel_threads((unsigned)a.threads));
    for (unsigned long it = 0; it < a.iters && rc == 0; it++)
      for (size_t k = 0; k < n_series && rc == 0; k++) rc = iterate(in, &s[k], it);
  }
  if (rc == 0) {
    printf("constraints %zu count\n", s[0].constraints);
    for (size_t k = 0; k < n_series; k++) summary(&s[k]);
    if (n_series == 2)
      printf("ratio.%s_over_%s %.3f ratio\n", s[1].name, s[0].name,
             cz_bench_median(s[1].wall, s[1].n) / cz_bench_median(s[0].wall, s[0].n));
  }
  for (size_t k = 0; k < n_series; k++)
    if (s[k].perf_on) cz_perf_close(&s[k].perf);
  cz_pce_free(shape);
  synth_input_free(in);
  return rc;
}
