/* cuzk-bench synth-only: in-process synthesis of the PoRep circuit, no
 * parameters, no proving: the microbenchmark the original cuzk built after
 * its SmallVec regression. Per iteration it prints wall time, synthesis
 * time, circuits and constraints; then medians and constraints per
 * core-second (process CPU time, so other load on the machine counts less).
 *
 *   --ab LAYOUT  alternate --lc and LAYOUT every iteration, ratio B/A
 *   --pce        also the pre-compiled path: record the circuit's compact
 *                CSR (cz_pce) once, then per iteration a witness-only run
 *                plus a/b/c = M w (cz_pce_eval on the thread budget);
 *                printed beside the plain path with the ratio, the split
 *                witness / eval and the recorded shape's memory
 *   --perf       hardware counters (cycles, instructions, IPC, L1d / LLC /
 *                branch misses) around each layout's iterations
 *   --no-hint    the plain path reserves nothing: by default, as
 *                cz_porep_c2_synthesize, it sizes its buffers from the
 *                previous run (cz_porep_size_hint), so iteration 0 is the
 *                cold case and later ones the steady state
 * Without --c1 it seals a 2 KiB sector in process (no outside data). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/bench_clock.h"
#include "common/args.h"
#include "commands.h"
#include "common/synth_opts.h"
#include "cuzk/clock.h"
#include "cuzk/parallel.h"
#include "cuzk/perf_counters.h"
#include "cuzk/porep.h"
#include "cuzk/prover.h"
#include "common/progress_out.h"

static const char SYNOPSIS[] =
    "[--c1 FILE] [--partition N] [-i N] [--lc vec|inline:N|arena] [--ab LAYOUT] [--pce] "
    "[--perf] [--no-hint] [--threads N]";

#define MAX_ITERS 1000




static int layout_index(const char *lc) {
  bool on[CZ_BENCH_N_LAYOUTS];
  if (!cz_bench_select_layouts(lc, on) || !strcmp(lc, "all")) return -1;
  for (int i = CZ_BENCH_N_LAYOUTS - 1; i >= 0; i--)
    if (on[i]) return i; /* vec is always on: the named one is the last set */
  return 0;
}

/* How one iteration synthesizes: plain (PROVE cs) or pre-compiled. */
typedef struct {
  const cz_porep_c1 *c1;
  uint32_t first, count; /* partitions */
  cz_cs_config cfg;
  const cz_pce *shape;   /* NULL: plain path */
  unsigned eval_threads; /* cz_pce_eval's budget per partition */
  bool hint;             /* plain path: size the buffers from the last run */
  cz_err err;
  size_t constraints;
  /* This iteration, summed over partitions: the witness run and a/b/c
   * evaluation (pce), and all of synthesis (both paths, without the frees). */
  uint64_t witness_ns, eval_ns, synth_ns;
} synth_job;

static cz_err synth_one(synth_job *j, uint32_t p, size_t *constraints) {
  cz_cs_config cfg = j->cfg;
  if (j->shape) { /* the shape knows how many aux the witness run makes */
    cz_pce_info info;
    cz_pce_get_info(j->shape, &info);
    cfg.hint_aux = info.n_aux;
  } else if (j->hint) { /* what the last plain run made, as cz_porep_c2 does */
    cz_porep_size_hint(j->c1->kind, &cfg);
  }
  uint64_t t0 = cz_now_ns();
  cz_cs *cs = cz_cs_new(j->shape ? CZ_CS_WITNESS : CZ_CS_PROVE, &cfg);
  if (!cs) return CZ_ERR_NOMEM;
  cz_assignment as;
  cz_err e = cz_porep_circuit(cs, &j->c1->kind->shape, j->c1, p);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_assignment(cs, &as);
  if (e == CZ_OK && !j->shape) cz_porep_note_size(j->c1->kind, as.n_constraints, as.n_aux);
  cz_cs_free(cs);
  uint64_t t1 = cz_now_ns();
  if (e == CZ_OK && j->shape) e = cz_pce_eval(j->shape, &as, j->eval_threads);
  if (j->shape) {
    __atomic_add_fetch(&j->witness_ns, t1 - t0, __ATOMIC_RELAXED);
    __atomic_add_fetch(&j->eval_ns, cz_now_ns() - t1, __ATOMIC_RELAXED);
  }
  __atomic_add_fetch(&j->synth_ns, cz_now_ns() - t0, __ATOMIC_RELAXED);
  if (e == CZ_OK) {
    *constraints = as.n_constraints;
    cz_assignment_free(&as);
  }
  return e;
}

static void synth_task(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  synth_job *j = ctx;
  for (size_t i = begin; i < end; i++) {
    size_t n = 0;
    cz_err e = synth_one(j, j->first + (uint32_t)i, &n);
    /* Partitions have equal sizes; any one error is reported (benign race:
     * every writer stores a valid value). */
    if (e != CZ_OK) __atomic_store_n(&j->err, e, __ATOMIC_RELAXED);
    else __atomic_store_n(&j->constraints, n, __ATOMIC_RELAXED);
  }
}

/* One iteration: every selected partition, in parallel over partitions. */
static cz_err iterate(synth_job *j, unsigned threads, double *wall_ms, double *cpu) {
  double c0 = cz_bench_cpu_s();
  uint64_t t0 = cz_now_ns();
  j->err = CZ_OK;
  j->witness_ns = j->eval_ns = j->synth_ns = 0;
  cz_parallel_for(j->count, threads, synth_task, j);
  *wall_ms = (double)(cz_now_ns() - t0) / 1e6;
  *cpu = cz_bench_cpu_s() - c0;
  return j->err;
}

static cz_err record_shape(const cz_porep_c1 *c1, cz_pce **shape, double *ms) {
  uint64_t t0 = cz_now_ns();
  cz_cs *cs = cz_cs_new(CZ_CS_RECORD, NULL);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_porep_circuit(cs, &c1->kind->shape, NULL, 0);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_pce(cs, shape);
  cz_cs_free(cs);
  *ms = (double)(cz_now_ns() - t0) / 1e6;
  return e;
}

static cz_err load_or_seal(cz_porep_c1 *c1, const char *path, unsigned threads) {
  char msg[512] = "";
  cz_err e;
  if (path) {
    e = cz_porep_c1_load(c1, path, msg, sizeof msg);
  } else {
    cz_porep_seal_input in = {0};
    in.kind = cz_porep_kind_by_id(5); /* StackedDrg2KiBV1_1 */
    in.sector_id = 1;
    in.progress = cz_bench_progress();
    memset(in.ticket, 0x0c, 32);
    memset(in.seed, 0x0d, 32);
    fprintf(stderr, "synth-only: no --c1: sealing a 2 KiB test sector in process\n");
    e = cz_porep_seal(&in, c1, threads, msg, sizeof msg);
  }
  if (e != CZ_OK) fprintf(stderr, "synth-only: %s: %s\n", cz_err_str(e), msg);
  return e;
}

typedef struct {
  const char *name;
  double wall[MAX_ITERS], cpu[MAX_ITERS], witness[MAX_ITERS], eval[MAX_ITERS];
  size_t n;
  bool perf_on;
  cz_perf perf;
  cz_perf_counts acc; /* summed over this series' iterations */
} series;

static void summary(series *s, size_t constraints) {
  double wall = cz_bench_median(s->wall, s->n), cpu = cz_bench_median(s->cpu, s->n);
  printf("%s.synthesis_median %.1f ms\n", s->name, wall);
  printf("%s.constraints_per_s %.0f constraints/s\n", s->name, (double)constraints / (wall / 1e3));
  printf("%s.constraints_per_core_s %.0f constraints/core-s\n", s->name,
         (double)constraints / cpu);
  if (!strcmp(s->name, "pce")) { /* summed over partitions */
    printf("pce.witness_median %.1f ms\n", cz_bench_median(s->witness, s->n));
    printf("pce.eval_median %.1f ms\n", cz_bench_median(s->eval, s->n));
  }
  if (s->perf_on) {
    char line[256];
    cz_perf_format(&s->acc, line, sizeof line);
    printf("%s.perf %s\n", s->name, line);
  }
}

static void perf_accumulate(series *s) {
  cz_perf_counts c;
  cz_perf_read(&s->perf, &c);
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) {
    s->acc.value[i] += c.value[i];
    s->acc.valid[i] = c.valid[i] && (s->n == 0 || s->acc.valid[i]);
  }
}

int cmd_synth_only(int argc, char **argv) {
  const char *c1_path = NULL, *lc = "inline:4", *ab = NULL;
  unsigned long partition = (unsigned long)-1, iters = 1, threads = 0;
  bool pce = false, perf = false, no_hint = false;
  const cz_opt opts[] = {
      {"c1", CZ_OPT_STRING, &c1_path, "FILE", "C1 output (JSON or Curio wrapper); default: seal 2 KiB"},
      {"partition", CZ_OPT_UINT, &partition, "N", "synthesize only partition N (default all)"},
      {"iterations", CZ_OPT_UINT, &iters, "N", "iterations (default 1)", 'i'},
      {"lc", CZ_OPT_STRING, &lc, "LAYOUT", "vec|inline:1|inline:2|inline:4|arena (default inline:4)"},
      {"ab", CZ_OPT_STRING, &ab, "LAYOUT", "alternate with this layout; print the ratio"},
      {"pce", CZ_OPT_FLAG, &pce, NULL, "also the pre-compiled (recorded CSR) path"},
      {"perf", CZ_OPT_FLAG, &perf, NULL, "read hardware counters (perf_event_open)"},
      {"no-hint", CZ_OPT_FLAG, &no_hint, NULL,
       "plain path: never size buffers from the last run (they grow as they fill)"},
      {"threads", CZ_OPT_UINT, &threads, "N", "partitions synthesized at once (0 = all cores)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "synth-only", SYNOPSIS);
  if (rc >= 0) return rc;
  int la = layout_index(lc), lb = ab ? layout_index(ab) : -1;
  if (la < 0 || (ab && lb < 0)) {
    fprintf(stderr, "synth-only: unknown layout '%s'\n", la < 0 ? lc : ab);
    return 2;
  }
  if (iters < 1 || iters > MAX_ITERS || (ab && pce)) {
    fprintf(stderr, "synth-only: need 1 <= -i <= %d, and --ab or --pce, not both\n", MAX_ITERS);
    return 2;
  }
  cz_porep_c1 c1;
  if (load_or_seal(&c1, c1_path, (unsigned)threads) != CZ_OK) return 2;
  if (partition != (unsigned long)-1 && partition >= c1.n_partitions) {
    fprintf(stderr, "synth-only: --partition %lu: the C1 has %u partitions\n", partition,
            c1.n_partitions);
    cz_porep_c1_free(&c1);
    return 2;
  }
  uint32_t first = partition == (unsigned long)-1 ? 0 : (uint32_t)partition;
  uint32_t count = partition == (unsigned long)-1 ? c1.n_partitions : 1;

  cz_pce *shape = NULL;
  if (pce) {
    double ms;
    cz_err e = record_shape(&c1, &shape, &ms);
    if (e != CZ_OK) {
      fprintf(stderr, "synth-only: recording the circuit: %s\n", cz_err_str(e));
      cz_porep_c1_free(&c1);
      return 2;
    }
    cz_pce_info info;
    cz_pce_get_info(shape, &info);
    printf("pce.record %.1f ms\n", ms);
    printf("pce.shape nnz_a=%zu nnz_b=%zu nnz_c=%zu coeffs=%zu code_bytes=%u\n", info.nnz[0],
           info.nnz[1], info.nnz[2], info.n_coeffs, info.code_bytes);
    printf("pce.shape_bytes %zu bytes\n", info.bytes);
  }

  /* Two series: A (--lc, plain) and B (--ab layout, or the pce path). */
  static series s[2];
  synth_job job[2];
  size_t n_series = ab || pce ? 2 : 1;
  for (size_t k = 0; k < n_series; k++) {
    const cz_bench_layout *l = &cz_bench_layouts[k == 0 || pce ? la : lb];
    /* The eval's budget: the cores left to each partition run at once. */
    unsigned per = cz_parallel_threads((unsigned)threads) / cz_parallel_workers(count, (unsigned)threads);
    job[k] = (synth_job){&c1, first, count, l->cfg, k == 1 && pce ? shape : NULL, per ? per : 1,
                         !no_hint, CZ_OK, 0, 0, 0};
    s[k].name = k == 1 && pce ? "pce" : l->name;
    s[k].n = 0;
    memset(&s[k].acc, 0, sizeof s[k].acc);
    s[k].perf_on = false;
    if (perf) {
      char why[256] = "";
      s[k].perf_on = cz_perf_open(&s[k].perf, why, sizeof why) == CZ_OK;
      if (!s[k].perf_on && k == 0) printf("perf unavailable: %s\n", why);
    }
  }
  printf("kind %s\ncircuits %u count\n", c1.kind->name, count);
  cz_err e = CZ_OK;
  for (unsigned long it = 0; it < iters && e == CZ_OK; it++) {
    for (size_t k = 0; k < n_series && e == CZ_OK; k++) {
      if (s[k].perf_on) cz_perf_start(&s[k].perf);
      double wall, cpu;
      e = iterate(&job[k], (unsigned)threads, &wall, &cpu);
      if (s[k].perf_on) {
        cz_perf_stop(&s[k].perf);
        perf_accumulate(&s[k]);
      }
      s[k].wall[s[k].n] = wall;
      s[k].witness[s[k].n] = (double)job[k].witness_ns / 1e6;
      s[k].eval[s[k].n] = (double)job[k].eval_ns / 1e6;
      s[k].cpu[s[k].n++] = cpu;
      printf("iteration %lu %s wall_ms=%.1f synthesis_ms=%.1f circuits=%u constraints=%zu\n", it,
             s[k].name, wall, (double)job[k].synth_ns / 1e6, count, job[k].constraints);
    }
  }
  if (e != CZ_OK) {
    fprintf(stderr, "synth-only: synthesis failed: %s\n", cz_err_str(e));
  } else {
    size_t total = job[0].constraints * count;
    printf("constraints %zu count\n", total);
    for (size_t k = 0; k < n_series; k++) summary(&s[k], total);
    if (n_series == 2)
      printf("ratio.%s_over_%s %.3f ratio\n", s[1].name, s[0].name,
             cz_bench_median(s[1].wall, s[1].n) / cz_bench_median(s[0].wall, s[0].n));
  }
  for (size_t k = 0; k < n_series && perf; k++) cz_perf_close(&s[k].perf);
  cz_pce_free(shape);
  cz_porep_c1_free(&c1);
  return e == CZ_OK ? 0 : 1;
}
