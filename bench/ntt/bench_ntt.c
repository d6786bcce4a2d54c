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
#include "common/bench_clock.h"
#include "common/bench_commands.h"
#include "cuzk/cpu.h"
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "ec/ifma_field.h"
#include "common/args.h"
#include "util/bigbuf.h"

int cmd_bench_ntt(int argc, char **argv);




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
  fprintf(out, "usage: cuzk-bench ntt --log-n K [--threads T] [--reps R] [--h] [--portable|--no-ifma]\n"
                  "  K in 1..28; T = 0 means all cores (default 1); --h also times the\n"
                  "  H polynomial (7 transforms plus pointwise passes); --portable forces\n"
                  "  the portable scalar path (no ADX, no IFMA); --no-ifma only turns IFMA off\n"
                  CZ_BENCH_EXIT_STATUS);
  return out == stdout ? 0 : 2;
}

int cmd_bench_ntt(int argc, char **argv) {
  unsigned log_n = 0, threads = 1, reps = 5;
  int with_h = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--log-n") && i + 1 < argc) log_n = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--h")) with_h = 1;
    else if (!strcmp(argv[i], "--portable")) cz_cpu_force_portable(true);
    else if (!strcmp(argv[i], "--no-ifma")) cz_cpu_disable_ifma(true);
    else return usage(cz_bench_help_arg(argv[i]) ? stdout : stderr);
  }
  if (log_n < 1 || log_n > 28 || reps < 1) return usage(stderr);
  threads = cz_parallel_threads(threads);

  cz_ntt_domain *d;
  cz_err e = cz_ntt_domain_new(&d, log_n);
  if (e != CZ_OK) { fprintf(stderr, "ntt: %s\n", cz_err_str(e)); return 1; }
  size_t n = cz_ntt_domain_size(d);
  /* On huge pages where the kernel allows, as the prover's a, b, c are. */
  cz_fr *a = cz_huge_alloc(n * sizeof *a), *b = with_h ? cz_huge_alloc(n * sizeof *b) : NULL;
  cz_fr *c = with_h ? cz_huge_alloc(n * sizeof *c) : NULL;
  if (!a || (with_h && (!b || !c))) { fprintf(stderr, "ntt: out of memory\n"); return 1; }

  /* Each rep times Fr mul just before and after its transforms and forms its
   * own ratio, so load changes on a shared machine hit both sides alike; the
   * reported ratios are the medians over reps, the times the best. */
  double butterflies = (double)(n / 2) * log_n;
  double *rf = calloc(reps, sizeof *rf), *ri = calloc(reps, sizeof *ri);
  double *rc = calloc(reps, sizeof *rc), *rh = calloc(reps, sizeof *rh);
  /* The same ratios against the bound with the 8-lane product's cost. */
  double *vf = calloc(reps, sizeof *vf), *vi = calloc(reps, sizeof *vi);
  double *vc = calloc(reps, sizeof *vc), *vh = calloc(reps, sizeof *vh);
  double mul = 1e30, vmul = 1e30, fwd = 1e30, inv = 1e30, h = 1e30;
  double fwd_cpu = 1e30, h_cpu = 1e30; /* process CPU time: robust on a shared machine */
  int vec = cz_cpu_use_ifma();
  for (unsigned r = 0; r < reps; r++) {
    fill_random(a, n);
    if (with_h) { fill_random(b, n); fill_random(c, n); }
    double m0 = fr_mul_ns(), v0 = vec ? frv_mul_ns() : 0;
    double c0 = cz_bench_cpu_s(), t0 = cz_bench_wall_s();
    cz_ntt_forward(d, a, threads);
    double t1 = cz_bench_wall_s(), c1 = cz_bench_cpu_s();
    cz_ntt_inverse(d, a, threads);
    double t2 = cz_bench_wall_s(), th = 0;
    if (with_h) {
      double hc0 = cz_bench_cpu_s();
      cz_ntt_h_poly(d, a, b, c, threads);
      th = cz_bench_wall_s() - t2;
      double hc = cz_bench_cpu_s() - hc0;
      if (hc < h_cpu) h_cpu = hc;
    }
    if (c1 - c0 < fwd_cpu) fwd_cpu = c1 - c0;
    double m1 = fr_mul_ns(), m = (m0 + m1) / 2;
    double v1 = vec ? frv_mul_ns() : 0, v = (v0 + v1) / 2;
    double bound = butterflies * m * 1e-9 / threads;
    if (vec) {
      double vb = butterflies * v * 1e-9 / threads;
      vf[r] = (t1 - t0) / vb;
      vi[r] = (t2 - t1) / vb;
      vc[r] = (c1 - c0) / (vb * threads);
      vh[r] = th / vb;
      if (v0 < vmul) vmul = v0;
      if (v1 < vmul) vmul = v1;
    }
    rf[r] = (t1 - t0) / bound;
    ri[r] = (t2 - t1) / bound;
    rc[r] = (c1 - c0) / (bound * threads);
    rh[r] = th / bound;
    if (m0 < mul) mul = m0;
    if (m1 < mul) mul = m1;
    if (t1 - t0 < fwd) fwd = t1 - t0;
    if (t2 - t1 < inv) inv = t2 - t1;
    if (with_h && th < h) h = th;
  }
  printf("ntt_log_n %u count\n", log_n);
  printf("ntt_threads %u count\n", threads);
  printf("ntt_fr_path %s name\n", cz_cpu_use_adx() ? "adx" : "portable");
  printf("ntt_vec_path %s name\n", vec ? "ifma" : "none");
  printf("fr_mul %.2f ns\n", mul);
  printf("ntt_bound %.3f ms\n", butterflies * mul * 1e-6 / threads);
  if (vec) { /* ns per element of the 8-lane product, and the bound it gives */
    printf("frv_mul %.2f ns\n", vmul);
    printf("ntt_bound_vec %.3f ms\n", butterflies * vmul * 1e-6 / threads);
  }
  printf("ntt_forward %.3f ms\n", fwd * 1e3);
  printf("ntt_inverse %.3f ms\n", inv * 1e3);
  printf("ntt_forward_ratio %.3f x\n", cz_bench_median(rf, reps));
  printf("ntt_inverse_ratio %.3f x\n", cz_bench_median(ri, reps));
  /* CPU time of all threads against the one-thread bound: the work done,
   * insensitive to time lost to other processes on a shared machine. */
  printf("ntt_forward_cpu_ratio %.3f x\n", cz_bench_median(rc, reps));
  printf("ntt_forward_cpu %.3f ms\n", fwd_cpu * 1e3); /* all threads' CPU time */
  if (vec) {
    printf("ntt_forward_ratio_vec %.3f x\n", cz_bench_median(vf, reps));
    printf("ntt_inverse_ratio_vec %.3f x\n", cz_bench_median(vi, reps));
    printf("ntt_forward_cpu_ratio_vec %.3f x\n", cz_bench_median(vc, reps));
  }
  if (with_h) {
    printf("ntt_h_poly %.3f ms\n", h * 1e3);
    printf("ntt_h_poly_ratio %.3f x\n", cz_bench_median(rh, reps)); /* in bound transforms */
    printf("ntt_h_poly_cpu %.3f ms\n", h_cpu * 1e3);
    if (vec) printf("ntt_h_poly_ratio_vec %.3f x\n", cz_bench_median(vh, reps));
  }
  free(rf); free(ri); free(rc); free(rh);
  free(vf); free(vi); free(vc); free(vh);
  free(a); free(b); free(c);
  cz_ntt_domain_free(d);
  return 0;
}
