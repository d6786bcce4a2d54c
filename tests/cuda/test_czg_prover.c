/* The GPU prover's host side (czg_prover.c) on the emulated device: its
 * proofs equal the CPU backend's bit for bit for the same r and s, with
 * batches small enough that every MSM is cut into many, and verify; a
 * device with no memory fails cleanly; the backend choice falls back to the
 * CPU when there is no CUDA device and says why. */
#include "check.h"
#include "setup_keygen.h"
#include "cuda/czg_host.h"
#include "cuda/gpu_present.h"
#include "cuzk/params.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/cuda_backend.h"
#include "cuzk/synthetic.h"
#include "rand_field.h"

static const cz_prove_timing QUIET = {NULL, NULL, true};

static cz_assignment synth(bool sparse, size_t n, uint64_t x) {
  cz_fr xv;
  cz_fr_from_u64(&xv, x);
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(sparse ? cz_synthetic_sparse(cs, n, &xv, 42) : cz_synthetic_chain(cs, n, &xv),
               CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_assignment as;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_OK);
  cz_cs_free(cs);
  return as;
}

static bool setup(cz_groth16_params *p, bool sparse, size_t n) {
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  cz_fr x = CZ_FR_ONE;
  CHECK_EQ_INT(sparse ? cz_synthetic_sparse(cs, n, &x, 42) : cz_synthetic_chain(cs, n, &x), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return check_setup_from(p, cs);
}

static void check_same_proofs(bool sparse, size_t n, size_t free_bytes, size_t max_batch) {
  cz_groth16_params p;
  if (!setup(&p, sparse, n)) return;
  czg_ops ops;
  cz_gpu_emu_ops(&ops, free_bytes);
  czg_backend_state st;
  cz_prover_backend gpu;
  cz_gpu_backend_init(&gpu, &st, &ops);
  st.max_batch = max_batch;
  enum { N = 3 };
  cz_fr r[N], s[N];
  for (int i = 0; i < N; i++) {
    r[i] = check_rand_fr();
    s[i] = check_rand_fr();
  }
  r[2] = CZ_FR_ZERO; /* bellperson skips b_g1 when r = 0: so must the split */
  cz_assignment a1[N], a2[N];
  cz_groth16_proof p1[N], p2[N];
  for (int i = 0; i < N; i++) {
    a1[i] = synth(sparse, n, 3 + (uint64_t)i);
    a2[i] = synth(sparse, n, 3 + (uint64_t)i);
  }
  char msg[256] = "";
  cz_prove_opts o = {2, r, s, &QUIET, msg, sizeof msg};
  CHECK_EQ_INT(cz_groth16_prove(cz_prover_cpu(), &p, a1, N, p1, &o), CZ_OK);
  CHECK_EQ_INT(cz_groth16_prove(&gpu, &p, a2, N, p2, &o), CZ_OK);
  for (int i = 0; i < N; i++) {
    CHECK(cz_g1_affine_eq(&p1[i].a, &p2[i].a));
    CHECK(cz_g2_affine_eq(&p1[i].b, &p2[i].b));
    CHECK(cz_g1_affine_eq(&p1[i].c, &p2[i].c));
    CHECK(a2[i].a == NULL && a2[i].b == NULL && a2[i].c == NULL); /* consumed */
    CHECK_EQ_INT(cz_groth16_verify(&p.vk, a2[i].inputs + 1, p.vk.n_ic - 1, &p2[i]), CZ_OK);
    cz_assignment_free(&a1[i]);
    cz_assignment_free(&a2[i]);
  }
  /* random r, s: still a valid proof */
  a2[0] = synth(sparse, n, 11);
  o.r = o.s = NULL;
  CHECK_EQ_INT(cz_groth16_prove(&gpu, &p, a2, 1, p2, &o), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify(&p.vk, a2[0].inputs + 1, p.vk.n_ic - 1, &p2[0]), CZ_OK);
  cz_assignment_free(&a2[0]);
  cz_gpu_backend_destroy(&st);
  cz_groth16_params_free(&p);
}

static void test_no_device_memory(void) {
  cz_groth16_params p;
  if (!setup(&p, true, 40)) return;
  czg_ops ops;
  cz_gpu_emu_ops(&ops, 100); /* not one point fits */
  czg_backend_state st;
  cz_prover_backend gpu;
  cz_gpu_backend_init(&gpu, &st, &ops);
  cz_assignment a = synth(true, 40, 3);
  char msg[256] = "";
  cz_prove_opts o = {1, NULL, NULL, &QUIET, msg, sizeof msg};
  cz_groth16_proof pr;
  CHECK_EQ_INT(cz_groth16_prove(&gpu, &p, &a, 1, &pr, &o), CZ_ERR_NOMEM);
  CHECK(strstr(msg, "out of memory") != NULL);
  /* an assignment that does not fit is refused before the device is used */
  cz_assignment b = synth(true, 41, 3);
  msg[0] = 0;
  CHECK_EQ_INT(cz_groth16_prove(&gpu, &p, &b, 1, &pr, &o), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "does not fit") != NULL);
  cz_assignment_free(&a);
  cz_assignment_free(&b);
  cz_gpu_backend_destroy(&st);
  cz_groth16_params_free(&p);
}

static void test_pick(void) {
  char why[256] = "";
  bool fell = true;
  CHECK(cz_prover_pick("cpu", &fell, why, sizeof why) == cz_prover_cpu());
  CHECK(!fell);
  CHECK(cz_prover_pick("gpu", &fell, why, sizeof why) == NULL);
  CHECK(strstr(why, "cpu, cuda or auto") != NULL);
  /* One outcome is required: the device opens exactly when this build has
   * the backend and the driver shows a GPU. */
  bool want_gpu = cz_prover_cuda_built() && gpu_present();
  /* The ordinal is free until the device is opened, then fixed. */
  CHECK_EQ_INT(cz_prover_cuda_set_device(-1), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_prover_cuda_set_device(1), CZ_OK);
  CHECK_EQ_INT(cz_prover_cuda_set_device(0), CZ_OK);
  const cz_prover_backend *cuda = cz_prover_cuda(why, sizeof why);
  CHECK_EQ_INT(cz_prover_cuda_set_device(1), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_prover_cuda_set_device(0), CZ_OK);
  CHECK(want_gpu == (cuda != NULL));
  if (!cuda) fprintf(stderr, "test_czg_prover: no device (%s)\n", why);
  if (!cz_prover_cuda_built()) CHECK(strstr(why, "no CUDA backend") != NULL);
  why[0] = 0;
  fell = true;
  const cz_prover_backend *b = cz_prover_pick("cuda", &fell, why, sizeof why);
  if (want_gpu) { /* the GPU, named */
    CHECK(b == cuda && b && !fell && !strcmp(b->name, "cuda"));
  } else { /* asked for and absent: refused, with the reason */
    CHECK(b == NULL && !fell);
    CHECK(strstr(why, "no usable CUDA device: ") == why && strlen(why) > 23);
  }
  why[0] = 0;
  b = cz_prover_pick("auto", &fell, why, sizeof why);
  if (want_gpu) {
    CHECK(b == cuda && b && !fell);
  } else { /* auto: the CPU, said */
    CHECK(b == cz_prover_cpu() && fell && why[0] != 0);
  }
}

int main(void) {
  test_pick();
  /* sparse: most scalars 0/1 (batch_add); chain: dense (tail MSM) */
  check_same_proofs(true, 200, 1 << 20, 7);
  check_same_proofs(false, 150, 640 * 20, 0);
  test_no_device_memory();
  return check_report("test_czg_prover");
}
