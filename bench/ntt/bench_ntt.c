/* cuzk-bench ntt: time the forward/inverse NTT (and optionally the H
 * polynomial) at 2^K, on vectors on huge pages as the prover's are, and
 * compare with the bound
 *   butterflies x (Fr mul ns, measured in this run) / threads,
 * butterflies = (n/2) K. Prints `name value unit` lines; times are the best
 * of --reps runs, each on fresh random data. */
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include "common/bench_clock.h"
#include "common/bench_commands.h"
#include "cuzk/cpu.h"
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "ec/ifma_field.h"
#include "common/args.h"
#include "util/bigbuf.h"
#include "ntt/ntt_impl.h" /* cz_ntt_tw_full_max_log, for --tw */

int cz_bench_cmd_ntt(int argc, char **argv);

static uint64_t rng = 0x243f6a8885a308d3ULL;
static void fill_random(cz_fr *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t b[64];
    for (int k = 0; k < 64; k += 8) {
      uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      memcpy(b + k, &z, 8);
    }
    cz_fr_from_wide_le(&v[i], b);
  }
}

/* Best of a few rounds of ~10 ms of this thread's CPU time (time the
 * scheduler gives to other processes does not count): ns per operation,
 * where each call of sweep(ctx) does ops of them. */
static double best_ns_per_op(void (*sweep)(void *), void *ctx, size_t ops) {
  double best = 1e30;
  for (int round = 0; round < 3; round++) {
    size_t iters = 0;
    double t0 = cz_bench_thread_s(), t;
    do {
      sweep(ctx);
      iters += ops;
      t = cz_bench_thread_s() - t0;
    } while (t < 0.01);
    if (t * 1e9 / iters < best) best = t * 1e9 / iters;
  }
  return best;
}

enum { MUL_N = 512, MUL_REPS = 16 };

static void fr_mul_sweep(void *ctx) {
  cz_fr *x = ctx, *y = x + MUL_N;
  for (int r = 0; r < MUL_REPS; r++)
    for (int i = 0; i < MUL_N; i++) cz_fr_mul(&x[i], &x[i], &y[i]);
}

/* Throughput of cz_fr_mul on independent operands in L1: the unit cost
 * the bound uses. */
static double fr_mul_ns(void) {
  static cz_fr xy[2 * MUL_N];
  fill_random(xy, 2 * MUL_N);
  double ns = best_ns_per_op(fr_mul_sweep, xy, MUL_REPS * MUL_N);
  volatile uint64_t sink = xy[0].l[0];
  (void)sink;
  return ns;
}

/* The same for the 8-lane IFMA product: ns per element (8 per vector
 * product), on the same kind of operands; 0 when the IFMA path is off. */
#ifdef CZ_IFMA
static CZ_IFMA_TARGET void frv_mul_sweep(void *ctx) {
  cz_frv *x = ctx, *y = x + MUL_N / 8;
  for (int r = 0; r < MUL_REPS; r++)
    for (int i = 0; i < MUL_N / 8; i++) cz_frv_mul(&x[i], &x[i], &y[i]);
}

static CZ_IFMA_TARGET double frv_mul_ns_on(void) {
  static cz_fr xy[2 * MUL_N];
  fill_random(xy, 2 * MUL_N);
  cz_frv v[2 * MUL_N / 8];
  for (int i = 0; i < 2 * MUL_N / 8; i++) cz_frv_load(&v[i], &xy[8 * i]);
  double ns = best_ns_per_op(frv_mul_sweep, v, MUL_REPS * MUL_N);
  cz_frv_store(xy, &v[0]);
  volatile uint64_t sink = xy[0].l[0];
  (void)sink;
  return ns;
}
#endif
static double frv_mul_ns(void) {
#ifdef CZ_IFMA
  if (cz_cpu_use_ifma()) return frv_mul_ns_on();
#endif
  return 0;
}

static int usage(FILE *out) {
  fprintf(out,
          "usage: cuzk-bench ntt --log-n K [--threads T] [--reps R] [--h] [--portable|--no-ifma]\n"
          "                      [--tw full|split]\n"
          "  K in 1..28; T = 0 means all cores (default 1); --h also times the\n"
          "  H polynomial (six transforms, their pointwise steps and one\n"
          "  permutation); --portable forces the portable scalar path (no ADX, no\n"
          "  IFMA); --no-ifma only turns IFMA off; --tw picks the domain's twiddle\n"
          "  table (default: full up to 2^24, split above)\n" CZ_BENCH_EXIT_STATUS);
  return out == stdout ? 0 : 2;
}

typedef struct {
  unsigned log_n, threads, reps;
  int with_h;
} ntt_opts;

/* -1 when the options are good, else the exit status. */
static int parse(int argc, char **argv, ntt_opts *o) {
  *o = (ntt_opts){0, 1, 5, 0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--log-n") && i + 1 < argc) o->log_n = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) o->threads = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) o->reps = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--h")) o->with_h = 1;
    else if (!strcmp(argv[i], "--portable")) cz_cpu_force_portable(true);
    else if (!strcmp(argv[i], "--no-ifma")) cz_cpu_disable_ifma(true);
    else if (!strcmp(argv[i], "--tw") && i + 1 < argc && !strcmp(argv[i + 1], "full"))
      cz_ntt_tw_full_max_log = 28, i++;
    else if (!strcmp(argv[i], "--tw") && i + 1 < argc && !strcmp(argv[i + 1], "split"))
      cz_ntt_tw_full_max_log = 0, i++;
    else return usage(cz_bench_help_arg(argv[i]) ? stdout : stderr);
  }
  if (o->log_n < 1 || o->log_n > 28 || o->reps < 1) return usage(stderr);
  o->threads = cz_parallel_threads(o->threads);
  return -1;
}

/* What the reps measure: per rep, each time against the bound of that
 * rep (wall; CPU time of all threads against the one-thread bound, which
 * time lost to other processes on a shared machine does not move), with
 * the scalar product's cost and with the 8-lane one's; over the reps, the
 * best times and products. */
enum { FWD, INV, HP, TIMED };
typedef struct {
  double *wall[TIMED], *cpu[TIMED], *wall_vec[TIMED], *cpu_vec[TIMED];
  double best_wall[TIMED], best_cpu[TIMED], mul, vmul;
} ntt_stats;

static void stats_init(ntt_stats *st, unsigned reps) {
  for (int k = 0; k < TIMED; k++) {
    st->wall[k] = calloc(reps, sizeof(double));
    st->cpu[k] = calloc(reps, sizeof(double));
    st->wall_vec[k] = calloc(reps, sizeof(double));
    st->cpu_vec[k] = calloc(reps, sizeof(double));
    st->best_wall[k] = st->best_cpu[k] = 1e30;
  }
  st->mul = st->vmul = 1e30;
}

static void stats_free(ntt_stats *st) {
  for (int k = 0; k < TIMED; k++) {
    free(st->wall[k]);
    free(st->cpu[k]);
    free(st->wall_vec[k]);
    free(st->cpu_vec[k]);
  }
}

typedef struct {
  const cz_ntt_domain *d;
  cz_fr *a, *b, *c;
  const ntt_opts *o;
} ntt_work;

/* One rep on fresh random data: Fr mul just before and after the
 * transforms, so that load changes hit both sides of the ratio alike. */
static void one_rep(const ntt_work *w, unsigned r, int vec, ntt_stats *st) {
  size_t n = cz_ntt_domain_size(w->d);
  unsigned t = w->o->threads;
  fill_random(w->a, n);
  if (w->o->with_h) {
    fill_random(w->b, n);
    fill_random(w->c, n);
  }
  double m0 = fr_mul_ns(), v0 = vec ? frv_mul_ns() : 0, wall[TIMED] = {0}, cpu[TIMED] = {0};
  for (int k = 0; k < (w->o->with_h ? TIMED : HP); k++) {
    double c0 = cz_bench_cpu_s(), t0 = cz_bench_wall_s();
    if (k == FWD) cz_ntt_forward(w->d, w->a, t);
    else if (k == INV) cz_ntt_inverse(w->d, w->a, t);
    else cz_ntt_h_poly(w->d, w->a, w->b, w->c, t);
    wall[k] = cz_bench_wall_s() - t0;
    cpu[k] = cz_bench_cpu_s() - c0;
  }
  double m1 = fr_mul_ns(), v1 = vec ? frv_mul_ns() : 0;
  double butterflies = (double)(n / 2) * w->o->log_n;
  double bound = butterflies * (m0 + m1) / 2 * 1e-9 / t;
  double vbound = butterflies * (v0 + v1) / 2 * 1e-9 / t;
  for (int k = 0; k < TIMED; k++) {
    st->wall[k][r] = wall[k] / bound;
    st->cpu[k][r] = cpu[k] / (bound * t);
    if (vec) {
      st->wall_vec[k][r] = wall[k] / vbound;
      st->cpu_vec[k][r] = cpu[k] / (vbound * t);
    }
    if (wall[k] < st->best_wall[k]) st->best_wall[k] = wall[k];
    if (cpu[k] < st->best_cpu[k]) st->best_cpu[k] = cpu[k];
  }
  st->mul = fmin(st->mul, fmin(m0, m1));
  if (vec) st->vmul = fmin(st->vmul, fmin(v0, v1));
}

/* Medians of the ratios over the reps; the H ratios count bound
 * transforms (six would be every transform at the bound). */
static void report(const ntt_opts *o, int vec, const ntt_stats *st) {
  static const char *name[TIMED] = {"ntt_forward", "ntt_inverse", "ntt_h_poly"};
  double butterflies = (double)((size_t)1 << (o->log_n - 1)) * o->log_n;
  printf("ntt_log_n %u count\n", o->log_n);
  printf("ntt_threads %u count\n", o->threads);
  printf("ntt_fr_path %s name\n", cz_cpu_use_adx() ? "adx" : "portable");
  printf("ntt_vec_path %s name\n", vec ? "ifma" : "none");
  printf("ntt_tw_table %s name\n", o->log_n > cz_ntt_tw_full_max_log ? "split" : "full");
  printf("fr_mul %.2f ns\n", st->mul);
  printf("ntt_bound %.3f ms\n", butterflies * st->mul * 1e-6 / o->threads);
  if (vec) { /* ns per element of the 8-lane product, and the bound it gives */
    printf("frv_mul %.2f ns\n", st->vmul);
    printf("ntt_bound_vec %.3f ms\n", butterflies * st->vmul * 1e-6 / o->threads);
  }
  for (int k = 0; k < (o->with_h ? TIMED : HP); k++) {
    double *w = st->wall[k], *c = st->cpu[k];
    printf("%s %.3f ms\n", name[k], st->best_wall[k] * 1e3);
    printf("%s_cpu %.3f ms\n", name[k], st->best_cpu[k] * 1e3); /* all threads' CPU time */
    printf("%s_ratio %.3f x\n", name[k], cz_bench_median(w, o->reps));
    printf("%s_cpu_ratio %.3f x\n", name[k], cz_bench_median(c, o->reps));
    if (!vec) continue;
    printf("%s_ratio_vec %.3f x\n", name[k], cz_bench_median(st->wall_vec[k], o->reps));
    printf("%s_cpu_ratio_vec %.3f x\n", name[k], cz_bench_median(st->cpu_vec[k], o->reps));
  }
}

int cz_bench_cmd_ntt(int argc, char **argv) {
  ntt_opts o;
  int rc = parse(argc, argv, &o);
  if (rc >= 0) return rc;
  cz_ntt_domain *d;
  cz_err e = cz_ntt_domain_new(&d, o.log_n);
  if (e != CZ_OK) {
    fprintf(stderr, "ntt: %s\n", cz_err_str(e));
    return 1;
  }
  size_t n = cz_ntt_domain_size(d);
  /* On huge pages where the kernel allows, as the prover's a, b, c are. */
  ntt_work w = {d, cz_huge_alloc(n * sizeof(cz_fr)), NULL, NULL, &o};
  if (o.with_h) {
    w.b = cz_huge_alloc(n * sizeof(cz_fr));
    w.c = cz_huge_alloc(n * sizeof(cz_fr));
  }
  if (!w.a || (o.with_h && (!w.b || !w.c))) {
    fprintf(stderr, "ntt: out of memory\n");
    free(w.a);
    free(w.b);
    free(w.c);
    cz_ntt_domain_free(d);
    return 1;
  }
  int vec = cz_cpu_use_ifma();
  ntt_stats st;
  stats_init(&st, o.reps);
  for (unsigned r = 0; r < o.reps; r++) one_rep(&w, r, vec, &st);
  report(&o, vec, &st);
  stats_free(&st);
  free(w.a);
  free(w.b);
  free(w.c);
  cz_ntt_domain_free(d);
  return 0;
}
