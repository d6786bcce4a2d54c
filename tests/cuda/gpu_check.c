/* cuzk-gpu-check: the CUDA backend against the CPU backend, bit for bit,
 * on a machine with a GPU (built only with CUZK_CUDA; run by
 * tests/cuda/gpu_check.sh, not by ctest: CI machines have no GPU).
 *
 *   H (6 NTTs) at 2^min .. 2^min(max, 24), against cz_ntt_h_poly;
 *   the G1 MSM at 2^min, 2^(min+2), ... 2^max, against cz_msm_g1, with its
 *     time on both and the ratio;
 *   batch_add at 2^min(max, 24), against the CPU sum;
 *   whole proofs (sparse and chain synthetic circuits, 2^proof-log), same
 *     r and s on both backends: equal bytes, and they verify.
 *
 * --device N checks CUDA device N (default 0); --count prints how many
 * devices the CUDA runtime reports and exits (gpu_check.sh runs one check
 * per device).
 *
 * Output: `name value unit` lines and one `gpu_check ok|FAILED` line.
 * Exit 0 when everything matched, 1 on a mismatch, 3 with no device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda/czg_cuda.h"
#include "cuda/czg_host.h"
#include "cuzk/clock.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "cuzk/params.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/synthetic.h"
#include "groth16/g16_internal.h"

/* A setup step that must succeed before anything can be compared: the check
 * stops (exit 1) when it fails. */
#define MUST(x) \
  do { \
    cz_err must_e = (x); \
    if (must_e != CZ_OK) { \
      printf("%s: %s\ngpu_check FAILED\n", #x, cz_err_str(must_e)); \
      exit(1); \
    } \
  } while (0)

static int failures;
static unsigned long long rng = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static cz_fr rand_fr(void) {
  uint8_t w[64];
  for (int i = 0; i < 8; i++) {
    uint64_t x = rnd();
    memcpy(w + 8 * i, &x, 8);
  }
  cz_fr r;
  cz_fr_from_wide_le(&r, w);
  return r;
}

static double ms(uint64_t t0) { return (double)(cz_now_ns() - t0) / 1e6; }

static void verdict(const char *what, bool ok) {
  printf("%s %s\n", what, ok ? "match" : "MISMATCH");
  if (!ok) failures++;
}

static void check_h(czg_ops *ops, unsigned lo, unsigned hi) {
  for (unsigned k = lo; k <= hi; k += 2) {
    size_t n = (size_t)1 << k;
    cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    cz_fr *h = malloc(n * sizeof *h);
    if (!a || !b || !c || !h) {
      puts("ntt: out of host memory");
      failures++;
      return;
    }
    for (size_t i = 0; i < n; i++) {
      a[i] = rand_fr();
      b[i] = rand_fr();
      c[i] = rand_fr();
    }
    size_t m = n - n / 5; /* padded on the device, as for a real circuit */
    uint64_t t0 = cz_now_ns();
    cz_err e = ops->ntt_h(ops->ctx, a, b, c, m, k);
    double g = ms(t0);
    if (e == CZ_OK) e = ops->h_read(ops->ctx, h);
    memset(a + m, 0, (n - m) * sizeof *a);
    memset(b + m, 0, (n - m) * sizeof *b);
    memset(c + m, 0, (n - m) * sizeof *c);
    cz_ntt_domain *d;
    MUST(cz_ntt_domain_new(&d, k));
    t0 = cz_now_ns();
    cz_ntt_h_poly(d, a, b, c, 0);
    double cpu = ms(t0);
    char what[64];
    snprintf(what, sizeof what, "ntt_h_2^%u", k);
    verdict(what, e == CZ_OK && !memcmp(h, a, n * sizeof *h));
    printf("ntt_h_2^%u_gpu %.1f ms\nntt_h_2^%u_cpu %.1f ms\n", k, g, k, cpu);
    cz_ntt_domain_free(d);
    free(a);
    free(b);
    free(c);
    free(h);
  }
}

static void check_msm(czg_ops *ops, unsigned lo, unsigned hi) {
  const size_t pool_n = (size_t)1 << (lo < 20 ? lo : 20);
  size_t nmax = (size_t)1 << hi;
  cz_g1_affine *pool = malloc(pool_n * sizeof *pool), *bases = malloc(nmax * sizeof *bases);
  cz_fr *kf = malloc(pool_n * sizeof *kf);
  cz_scalar *k = malloc(nmax * sizeof *k);
  if (!pool || !bases || !kf || !k) {
    puts("msm: out of host memory");
    failures++;
    return;
  }
  for (size_t i = 0; i < pool_n; i++) kf[i] = rand_fr();
  uint64_t t0 = cz_now_ns();
  if (cz_g16_fixed_base_g1(pool, &CZ_G1_GENERATOR, kf, pool_n, 0) != CZ_OK) {
    puts("msm: base generation failed");
    failures++;
    return;
  }
  printf("msm_bases_2^%u %.1f ms\n", lo < 20 ? lo : 20, ms(t0));
  /* bases repeat the pool (distinct points cost minutes to make on the CPU) */
  for (size_t i = 0; i < nmax; i++) bases[i] = pool[i % pool_n];
  for (size_t i = 0; i < nmax; i++) {
    cz_fr x = rand_fr();
    cz_fr_to_scalar(&k[i], &x);
  }
  for (unsigned lg = lo; lg <= hi; lg += 2) {
    size_t n = (size_t)1 << lg;
    cz_g1 g, c;
    t0 = cz_now_ns();
    cz_err e = ops->msm(ops->ctx, bases, k, n, &g);
    double tg = ms(t0);
    t0 = cz_now_ns();
    MUST(cz_msm_g1(&c, bases, k, n, 0));
    double tc = ms(t0);
    char what[64];
    snprintf(what, sizeof what, "msm_g1_2^%u", lg);
    verdict(what, e == CZ_OK && cz_g1_eq(&g, &c));
    printf(
        "msm_g1_2^%u_gpu %.1f ms\nmsm_g1_2^%u_cpu %.1f ms\nmsm_g1_2^%u_cpu_over_gpu %.2f ratio\n",
        lg, tg, lg, tc, lg, tc / tg);
  }
  /* batch_add: the sum of 2^min(hi, 24) bases, against an MSM of ones */
  size_t n = (size_t)1 << (hi < 24 ? hi : 24);
  for (size_t i = 0; i < n; i++) k[i] = (cz_scalar){{1, 0, 0, 0}};
  cz_g1 g, c;
  t0 = cz_now_ns();
  cz_err e = ops->batch_add(ops->ctx, bases, n, &g);
  double tg = ms(t0);
  t0 = cz_now_ns();
  MUST(cz_msm_g1(&c, bases, k, n, 0));
  double tc = ms(t0);
  char what[64];
  snprintf(what, sizeof what, "batch_add_2^%u", hi < 24 ? hi : 24);
  verdict(what, e == CZ_OK && cz_g1_eq(&g, &c));
  printf("%s_gpu %.1f ms\n%s_cpu %.1f ms\n", what, tg, what, tc);
  free(pool);
  free(bases);
  free(kf);
  free(k);
}

static cz_assignment synth(bool sparse, size_t n, uint64_t x) {
  cz_fr xv;
  cz_fr_from_u64(&xv, x);
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  cz_err e = sparse ? cz_synthetic_sparse(cs, n, &xv, 42) : cz_synthetic_chain(cs, n, &xv);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  cz_assignment as;
  memset(&as, 0, sizeof as);
  if (e == CZ_OK) e = cz_cs_take_assignment(cs, &as);
  if (e != CZ_OK) failures++;
  cz_cs_free(cs);
  return as;
}

static void check_proofs(const cz_prover_backend *gpu, unsigned lg) {
  for (int sparse = 1; sparse >= 0; sparse--) {
    size_t n = ((size_t)1 << lg) - CZ_SYNTHETIC_INPUTS;
    cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
    cz_fr one = CZ_FR_ONE;
    if (sparse) MUST(cz_synthetic_sparse(cs, n, &one, 42));
    else MUST(cz_synthetic_chain(cs, n, &one));
    MUST(cz_cs_finish(cs));
    cz_keygen_cols cols;
    MUST(cz_cs_take_keygen(cs, &cols));
    cz_cs_free(cs);
    cz_groth16_toxic t = {rand_fr(), rand_fr(), rand_fr(), rand_fr(), rand_fr()};
    cz_groth16_params p;
    char msg[256] = "";
    uint64_t t0 = cz_now_ns();
    if (cz_groth16_setup(&p, &cols, &t, 0, msg, sizeof msg) != CZ_OK) {
      printf("setup failed: %s\n", msg);
      failures++;
      cz_keygen_cols_free(&cols);
      return;
    }
    cz_keygen_cols_free(&cols);
    const char *shape = sparse ? "sparse" : "chain";
    printf("proof_%s_2^%u_setup %.1f ms\n", shape, lg, ms(t0));
    cz_fr r = rand_fr(), s = rand_fr();
    cz_prove_opts o = {0, &r, &s, NULL, msg, sizeof msg};
    cz_assignment a1 = synth(sparse, n, 5), a2 = synth(sparse, n, 5);
    cz_groth16_proof p1, p2;
    fprintf(stderr, "-- %s 2^%u on the CPU\n", shape, lg);
    t0 = cz_now_ns();
    cz_err e1 = cz_groth16_prove(cz_prover_cpu(), &p, &a1, 1, &p1, &o);
    double tc = ms(t0);
    fprintf(stderr, "-- %s 2^%u on the GPU\n", shape, lg);
    t0 = cz_now_ns();
    cz_err e2 = cz_groth16_prove(gpu, &p, &a2, 1, &p2, &o);
    double tg = ms(t0);
    if (e2 != CZ_OK) printf("gpu prove: %s\n", msg);
    char what[64];
    snprintf(what, sizeof what, "proof_%s_2^%u", shape, lg);
    verdict(what, e1 == CZ_OK && e2 == CZ_OK && cz_g1_affine_eq(&p1.a, &p2.a) &&
                      cz_g2_affine_eq(&p1.b, &p2.b) && cz_g1_affine_eq(&p1.c, &p2.c));
    bool v = e2 == CZ_OK && cz_groth16_verify(&p.vk, a2.inputs + 1, p.vk.n_ic - 1, &p2) == CZ_OK;
    printf("%s_verifies %s\n", what, v ? "yes" : "NO");
    if (!v) failures++;
    printf("%s_cpu %.1f ms\n%s_gpu %.1f ms\n", what, tc, what, tg);
    cz_assignment_free(&a1);
    cz_assignment_free(&a2);
    cz_groth16_params_free(&p);
  }
}

int main(int argc, char **argv) {
  unsigned lo = 20, hi = 26, proof_log = 16;
  int device = 0;
  if (argc == 2 && !strcmp(argv[1], "--count")) {
    printf("%d\n", cz_gpu_cuda_count());
    return 0;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--min-log")) lo = (unsigned)atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--max-log")) hi = (unsigned)atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--proof-log")) proof_log = (unsigned)atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--device")) device = atoi(argv[i + 1]);
  }
  if (lo < 1 || hi < lo || hi > 28 || proof_log < 4 || proof_log > 24 || device < 0) {
    fprintf(stderr,
            "usage: cuzk-gpu-check [--device N] [--min-log K] [--max-log K] "
            "[--proof-log K] | --count\n");
    return 2;
  }
  char why[256];
  czg_ops ops;
  if (cz_gpu_cuda_open((struct czg_ops *)&ops, device, why, sizeof why) != 0) {
    printf("gpu_check no_device (%s)\n", why);
    return 3;
  }
  size_t free_b = 0;
  ops.mem_free(ops.ctx, &free_b);
  printf("device %d %s\n", device, ops.model ? ops.model : "");
  printf("device_free_memory %.1f GiB\n", (double)free_b / (1u << 30));
  setvbuf(stdout, NULL, _IOLBF, 0);
  check_h(&ops, lo, hi < 24 ? hi : 24);
  check_msm(&ops, lo, hi);
  czg_backend_state st;
  cz_prover_backend gpu;
  cz_gpu_backend_init(&gpu, &st, &ops);
  check_proofs(&gpu, proof_log);
  cz_gpu_backend_destroy(&st);
  printf("gpu_check %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
