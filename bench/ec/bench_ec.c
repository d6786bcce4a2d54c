/* cuzk-bench ec: ns/op of field, curve and pairing operations.
 *
 * Each entry runs a dependent chain (every result feeds the next operation)
 * so that latency, not throughput, is measured: that is what the curve
 * formulas and the pairing see. A measurement is the median over --reps
 * repetitions of elapsed / iterations, after one warm-up run; elapsed is
 * thread CPU time unless --wall is given. Output lines
 * are `name value unit`; comparison ratios are measured in the same run. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/bench_commands.h"
#include "cuzk/cpu.h"
#include "cuzk/fp.h"
#include "cuzk/fr.h"
#include "cuzk/fp2.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/pairing.h"
#include "ec/ifma_field.h"
#include "common/args.h"

/* Operands shared by the chains; the final "# sink" line keeps them live. */
static cz_fp fp_x, fp_y;
static cz_fr fr_x, fr_y;

static void fp_setup(void) {
  cz_fp_from_u64(&fp_x, 0x0123456789abcdefULL);
  cz_fp_from_u64(&fp_y, 0xfedcba9876543210ULL);
  cz_fp_inv(&fp_y, &fp_y); /* a full-width operand */
}
static void fr_setup(void) {
  cz_fr_from_u64(&fr_x, 0x0123456789abcdefULL);
  cz_fr_from_u64(&fr_y, 0xfedcba9876543210ULL);
  cz_fr_inv(&fr_y, &fr_y);
}

static void fp_mul(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_mul(&fp_x, &fp_x, &fp_y);
}
static void fp_sqr(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_sqr(&fp_x, &fp_x);
}
static void fp_add(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_add(&fp_x, &fp_x, &fp_y);
}
static void fp_sub(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_sub(&fp_x, &fp_x, &fp_y);
}
static void fp_dbl(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_dbl(&fp_x, &fp_x);
}
static void fp_inv(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_inv(&fp_x, &fp_x);
}
static void fp_inv_fermat(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_inv_fermat(&fp_x, &fp_x);
}
static void fp_mul_portable(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_mul_portable(&fp_x, &fp_x, &fp_y);
}
static void fp_sqr_portable(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp_sqr_portable(&fp_x, &fp_x);
}

static void fr_mul(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fr_mul(&fr_x, &fr_x, &fr_y);
}
static void fr_sqr(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fr_sqr(&fr_x, &fr_x);
}
static void fr_add(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fr_add(&fr_x, &fr_x, &fr_y);
}
static void fr_inv(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fr_inv(&fr_x, &fr_x);
}
static void fr_inv_fermat(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fr_inv_fermat(&fr_x, &fr_x);
}
static void fr_mul_portable(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fr_mul_portable(&fr_x, &fr_x, &fr_y);
}
static void fr_sqr_portable(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fr_sqr_portable(&fr_x, &fr_x);
}

/* ---- Fp2 ---- */
static cz_fp2 fp2_x, fp2_y;
/* Throughput (ns per element) of the products the NTT and MSM batch:
 * independent operands, 64 elements in L1, scalar one at a time and 8-lane
 * IFMA 8 at a time, same data. Each run(n) does n element products. */
enum { TPUT_N = 64 };
static cz_fr tr_x[TPUT_N], tr_y[TPUT_N];
static cz_fp tp_x[TPUT_N], tp_y[TPUT_N];
static void tput_setup(void) {
  fr_setup();
  fp_setup();
  for (int i = 0; i < TPUT_N; i++) {
    cz_fr_mul(&tr_x[i], i ? &tr_x[i - 1] : &fr_x, &fr_y);
    cz_fr_add(&tr_y[i], &tr_x[i], &fr_y);
    cz_fp_mul(&tp_x[i], i ? &tp_x[i - 1] : &fp_x, &fp_y);
    cz_fp_add(&tp_y[i], &tp_x[i], &fp_y);
  }
}
static void fr_mul_tput(uint64_t n) {
  for (uint64_t k = 0; k < n; k += TPUT_N)
    for (int i = 0; i < TPUT_N; i++) cz_fr_mul(&tr_x[i], &tr_x[i], &tr_y[i]);
  fr_x = tr_x[0];
}
static void fp_mul_tput(uint64_t n) {
  for (uint64_t k = 0; k < n; k += TPUT_N)
    for (int i = 0; i < TPUT_N; i++) cz_fp_mul(&tp_x[i], &tp_x[i], &tp_y[i]);
  fp_x = tp_x[0];
}
#ifdef CZ_IFMA
static CZ_IFMA_TARGET void frv_mul(uint64_t n) {
  cz_frv x[TPUT_N / 8], y[TPUT_N / 8];
  for (int i = 0; i < TPUT_N / 8; i++) {
    cz_frv_load(&x[i], &tr_x[8 * i]);
    cz_frv_load(&y[i], &tr_y[8 * i]);
  }
  for (uint64_t k = 0; k < n; k += TPUT_N)
    for (int i = 0; i < TPUT_N / 8; i++) cz_frv_mul(&x[i], &x[i], &y[i]);
  for (int i = 0; i < TPUT_N / 8; i++) cz_frv_store(&tr_x[8 * i], &x[i]);
  fr_x = tr_x[0];
}
static CZ_IFMA_TARGET void fpv_mul(uint64_t n) {
  cz_fpv x[TPUT_N / 8], y[TPUT_N / 8];
  for (int i = 0; i < TPUT_N / 8; i++) {
    cz_fpv_load(&x[i], &tp_x[8 * i]);
    cz_fpv_load(&y[i], &tp_y[8 * i]);
  }
  for (uint64_t k = 0; k < n; k += TPUT_N)
    for (int i = 0; i < TPUT_N / 8; i++) cz_fpv_mul(&x[i], &x[i], &y[i]);
  for (int i = 0; i < TPUT_N / 8; i++) cz_fpv_store(&tp_x[8 * i], &x[i]);
  fp_x = tp_x[0];
}
#else
static void frv_mul(uint64_t n) { (void)n; }
static void fpv_mul(uint64_t n) { (void)n; }
#endif

static void fp2_setup(void) {
  fp_setup();
  fp2_x.c0 = fp_x;
  fp2_x.c1 = fp_y;
  fp2_y.c0 = fp_y;
  cz_fp_sqr(&fp2_y.c1, &fp_y);
}
static void fp2_mul(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp2_mul(&fp2_x, &fp2_x, &fp2_y);
}
static void fp2_sqr(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_fp2_sqr(&fp2_x, &fp2_x);
}

/* ---- curves ----
 * Chains P = P + Q and P = 2P from generator multiples in general position
 * (Z != 1), so the formulas' generic paths are timed, not the shortcuts. */
static cz_g1 g1_p, g1_q;
static cz_g1_affine g1_qa;
static cz_g1_xyzz g1_pz;
static cz_g2 g2_p, g2_q;
static cz_g2_affine g2_qa;
static cz_scalar sc; /* a full-width scalar below r */
static uint8_t g1_bytes[CZ_G1_COMPRESSED_BYTES], g2_bytes[CZ_G2_COMPRESSED_BYTES];
static uint8_t g1_raw[CZ_G1_UNCOMPRESSED_BYTES], g2_raw[CZ_G2_UNCOMPRESSED_BYTES];
static cz_g1_affine g1_dec;
static cz_g2_affine g2_dec;

static void curve_setup(void) {
  fr_setup();
  cz_fr_to_scalar(&sc, &fr_y);
  cz_g1 g;
  cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
  cz_g1_dbl(&g1_p, &g);
  cz_g1_mul(&g1_q, &g, &sc);
  cz_g1_to_affine(&g1_qa, &g1_q);
  cz_g1_dbl(&g1_q, &g1_q); /* Z != 1 */
  cz_g1_xyzz_set_identity(&g1_pz);
  cz_g1_xyzz_add_affine(&g1_pz, &g1_pz, &CZ_G1_GENERATOR);
  cz_g1_xyzz_dbl(&g1_pz, &g1_pz);
  cz_g1_affine_compress(g1_bytes, &g1_qa);
  cz_g1_affine_serialize(g1_raw, &g1_qa);
  cz_g2 h;
  cz_g2_from_affine(&h, &CZ_G2_GENERATOR);
  cz_g2_dbl(&g2_p, &h);
  cz_g2_mul(&g2_q, &h, &sc);
  cz_g2_to_affine(&g2_qa, &g2_q);
  cz_g2_dbl(&g2_q, &g2_q);
  cz_g2_affine_compress(g2_bytes, &g2_qa);
  cz_g2_affine_serialize(g2_raw, &g2_qa);
}
static void g1_add(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g1_add(&g1_p, &g1_p, &g1_q);
}
static void g1_dbl(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g1_dbl(&g1_p, &g1_p);
}
static void g1_madd(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g1_add_affine(&g1_p, &g1_p, &g1_qa);
}
static void g1_xyzz_madd(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g1_xyzz_add_affine(&g1_pz, &g1_pz, &g1_qa);
}
static void g2_add(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g2_add(&g2_p, &g2_p, &g2_q);
}
static void g2_dbl(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g2_dbl(&g2_p, &g2_p);
}
static void g2_madd(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g2_add_affine(&g2_p, &g2_p, &g2_qa);
}
static void g1_mul(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g1_mul(&g1_p, &g1_p, &sc);
}
static void g2_mul(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_g2_mul(&g2_p, &g2_p, &sc);
}
/* Decoding reads the same bytes each time (a chain would need a re-encode
 * in the loop); the results feed the sink. A failure aborts the run. */
static void g1_decompress(uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (cz_g1_affine_decompress(&g1_dec, g1_bytes, true) != CZ_OK) abort();
}
static void g1_decompress_nocheck(uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (cz_g1_affine_decompress(&g1_dec, g1_bytes, false) != CZ_OK) abort();
}
static void g2_decompress(uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (cz_g2_affine_decompress(&g2_dec, g2_bytes, true) != CZ_OK) abort();
}
static void g2_decompress_nocheck(uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (cz_g2_affine_decompress(&g2_dec, g2_bytes, false) != CZ_OK) abort();
}
/* A key's uncompressed point as a proof decodes it (flags and canonical
 * coordinates, not the curve equation), one point at a time: the mapped
 * key's decoder where there is no AVX-512 IFMA. */
static void g1_deserialize(uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (cz_g1_affine_deserialize_checking(&g1_dec, g1_raw, CZ_POINT_ENCODING) != CZ_OK) abort();
}
static void g2_deserialize(uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (cz_g2_affine_deserialize_checking(&g2_dec, g2_raw, CZ_POINT_ENCODING) != CZ_OK) abort();
}

/* ---- pairing ---- */
static cz_fp12 gt;
static void pairing_setup(void) {
  curve_setup();
  cz_miller_loop(&gt, &g1_qa, &g2_qa, 1);
}
static void miller_loop(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    cz_fp12 f;
    cz_miller_loop(&f, &g1_qa, &g2_qa, 1);
    cz_fp12_mul(&gt, &gt, &f); /* keeps every result live; ~1% of the loop */
  }
}
static void final_exp(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) cz_final_exponentiation(&gt, &gt);
}
static void pairing(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    cz_fp12 f;
    cz_pairing(&f, &g1_qa, &g2_qa);
    gt.c0.c0.c0.l[0] ^= f.c0.c0.c0.l[0];
  }
}

/* One entry per measured operation. An operation costing about `div` times
 * an Fp multiplication runs iters/div times, so every entry takes a
 * similar time. Add curve and pairing operations here, one line each. */
typedef struct {
  const char *name;
  void (*setup)(void); /* may be NULL */
  void (*run)(uint64_t n);
  uint64_t div;
  int needs_ifma; /* skipped (with a # line) when the IFMA path is off */
} bench_entry;

static const bench_entry ENTRIES[] = {
    {"fp_mul", fp_setup, fp_mul, 1, 0},
    {"fp_sqr", fp_setup, fp_sqr, 1, 0},
    {"fp_add", fp_setup, fp_add, 1, 0},
    {"fp_sub", fp_setup, fp_sub, 1, 0},
    {"fp_dbl", fp_setup, fp_dbl, 1, 0},
    {"fp_inv", fp_setup, fp_inv, 50, 0},
    {"fp_inv_fermat", fp_setup, fp_inv_fermat, 500, 0},
    {"fp_mul_portable", fp_setup, fp_mul_portable, 2, 0},
    {"fp_sqr_portable", fp_setup, fp_sqr_portable, 2, 0},
    {"fr_mul", fr_setup, fr_mul, 1, 0},
    {"fr_sqr", fr_setup, fr_sqr, 1, 0},
    {"fr_add", fr_setup, fr_add, 1, 0},
    {"fr_inv", fr_setup, fr_inv, 50, 0},
    {"fr_inv_fermat", fr_setup, fr_inv_fermat, 300, 0},
    {"fr_mul_portable", fr_setup, fr_mul_portable, 2, 0},
    {"fr_sqr_portable", fr_setup, fr_sqr_portable, 2, 0},
    {"fr_mul_tput", tput_setup, fr_mul_tput, 1, 0},
    {"frv_mul", tput_setup, frv_mul, 1, 1},
    {"fp_mul_tput", tput_setup, fp_mul_tput, 1, 0},
    {"fpv_mul", tput_setup, fpv_mul, 1, 1},
    {"fp2_mul", fp2_setup, fp2_mul, 3, 0},
    {"fp2_sqr", fp2_setup, fp2_sqr, 2, 0},
    {"g1_add", curve_setup, g1_add, 16, 0},
    {"g1_dbl", curve_setup, g1_dbl, 7, 0},
    {"g1_madd", curve_setup, g1_madd, 11, 0},
    {"g1_xyzz_madd", curve_setup, g1_xyzz_madd, 10, 0},
    {"g2_add", curve_setup, g2_add, 45, 0},
    {"g2_dbl", curve_setup, g2_dbl, 18, 0},
    {"g2_madd", curve_setup, g2_madd, 32, 0},
    {"g1_decompress", curve_setup, g1_decompress, 700, 0},
    {"g1_decompress_nocheck", curve_setup, g1_decompress_nocheck, 500, 0},
    {"g2_decompress", curve_setup, g2_decompress, 2000, 0},
    {"g2_decompress_nocheck", curve_setup, g2_decompress_nocheck, 1500, 0},
    {"g1_deserialize", curve_setup, g1_deserialize, 3, 0},
    {"g2_deserialize", curve_setup, g2_deserialize, 6, 0},
    {"g1_mul", curve_setup, g1_mul, 2000, 0},
    {"g2_mul", curve_setup, g2_mul, 5000, 0},
    {"miller_loop", pairing_setup, miller_loop, 10000, 0},
    {"final_exp", pairing_setup, final_exp, 15000, 0},
    {"pairing", pairing_setup, pairing, 25000, 0},
};
#define N_ENTRIES (sizeof ENTRIES / sizeof ENTRIES[0])

/* Ratios printed when both operands were measured in this run. */
static const struct {
  const char *name, *num, *den;
} RATIOS[] = {
    {"fp_mul_adx_over_portable", "fp_mul", "fp_mul_portable"},
    {"fp_sqr_adx_over_portable", "fp_sqr", "fp_sqr_portable"},
    {"fr_mul_adx_over_portable", "fr_mul", "fr_mul_portable"},
    {"fr_sqr_adx_over_portable", "fr_sqr", "fr_sqr_portable"},
    {"frv_mul_over_fr_mul_tput", "frv_mul", "fr_mul_tput"},
    {"fpv_mul_over_fp_mul_tput", "fpv_mul", "fp_mul_tput"},
    {"fp_inv_over_fermat", "fp_inv", "fp_inv_fermat"},
    {"fr_inv_over_fermat", "fr_inv", "fr_inv_fermat"},
};

/* Thread CPU time by default: on a shared machine, time spent preempted is
 * not the operation's cost (wall-clock readings varied 3x under load while
 * CPU time stayed put). --wall switches to CLOCK_MONOTONIC. */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(bench_clock, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double measure(const bench_entry *e, uint64_t iters, int reps) {
  uint64_t n = iters / e->div ? iters / e->div : 1;
  double t[64];
  if (e->setup) e->setup();
  e->run(n / 10 + 1); /* warm caches and clocks */
  for (int r = 0; r < reps; r++) {
    double t0 = now_ns();
    e->run(n);
    t[r] = (now_ns() - t0) / (double)n;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp_double);
  return t[reps / 2];
}

static int usage(FILE *out) {
  fprintf(
      out,
      "usage: cuzk-bench ec [--filter SUBSTR] [--iters N] [--reps N] [--wall] [--list]\n"
      "  --iters N  iterations of a field multiplication per repetition (default 200000)\n"
      "  --reps N   repetitions; the median is printed (default 9, at most 64)\n"
      "  --wall     time with the wall clock instead of thread CPU time\n" CZ_BENCH_EXIT_STATUS);
  return out == stdout ? 0 : 2;
}

int cz_bench_cmd_ec(int argc, char **argv) {
  const char *filter = NULL;
  uint64_t iters = 200000;
  int reps = 9;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--wall")) bench_clock = CLOCK_MONOTONIC;
    else if (!strcmp(argv[i], "--list")) {
      for (size_t k = 0; k < N_ENTRIES; k++) printf("%s\n", ENTRIES[k].name);
      return 0;
    } else return usage(cz_bench_help_arg(argv[i]) ? stdout : stderr);
  }
  if (iters == 0 || reps < 1 || reps > 64) return usage(stderr);

  printf("# adx %d\n", cz_cpu_use_adx() ? 1 : 0);
  printf("# ifma %d\n", cz_cpu_use_ifma() ? 1 : 0);
  printf("# clock %s\n", bench_clock == CLOCK_MONOTONIC ? "wall" : "thread-cpu");
  double result[N_ENTRIES];
  for (size_t k = 0; k < N_ENTRIES; k++) {
    result[k] = -1;
    if (filter && !strstr(ENTRIES[k].name, filter)) continue;
    if (ENTRIES[k].needs_ifma && !cz_cpu_use_ifma()) {
      printf("# %s skipped: the IFMA path is off (CPU or forced portable)\n", ENTRIES[k].name);
      continue;
    }
    result[k] = measure(&ENTRIES[k], iters, reps);
    printf("%s %.1f ns/op\n", ENTRIES[k].name, result[k]);
    fflush(stdout);
  }
  for (size_t k = 0; k < sizeof RATIOS / sizeof RATIOS[0]; k++) {
    double num = -1, den = -1;
    for (size_t j = 0; j < N_ENTRIES; j++) {
      if (!strcmp(ENTRIES[j].name, RATIOS[k].num)) num = result[j];
      if (!strcmp(ENTRIES[j].name, RATIOS[k].den)) den = result[j];
    }
    if (num > 0 && den > 0) printf("%s %.3f ratio\n", RATIOS[k].name, num / den);
  }
  /* Keep the chains observable so the compiler cannot drop them. */
  printf("# sink %016llx\n",
         (unsigned long long)(fp_x.l[0] ^ fr_x.l[0] ^ fp2_x.c0.l[0] ^ g1_p.x.l[0] ^ g1_pz.x.l[0] ^
                              g2_p.x.c0.l[0] ^ g1_dec.x.l[0] ^ g2_dec.x.c0.l[0] ^
                              gt.c0.c0.c0.l[0]));
  return 0;
}
