/* Emulated devices as separate instances with injected faults
 * (cz_gpu_emu_open, cz_gpu_emu_set_faults): each device has its own memory and
 * faults; a batch too large for the device is retried smaller and still
 * gives the CPU's proof; an allocation failure or a launch error is the
 * prove's error; the CPU library's kernels (cz_gpu_emu_use_library) give the
 * same proofs; a wrong result gives a proof that does not verify (so
 * cz_groth16_prove_verified refuses it); the self-test passes on a sound
 * device and names the failing step on a faulty one; two provers share one
 * device. */
#include <pthread.h>
#include "check.h"
#include "synth_sparse.h"
#include "cuda/czg_host.h"
#include "cuzk/groth16_prove.h"
#include "rand_field.h"

static const cz_prove_timing QUIET = {NULL, NULL, true};
enum { N_CONS = 60 };

static cz_assignment synth(uint64_t x) { return check_sparse_assignment(N_CONS, x); }

typedef struct {
  czg_backend_state st;
  cz_prover_backend b;
} device;

static void open_device(device *d, const char *name, size_t mem) {
  czg_ops ops;
  CHECK_EQ_INT(cz_gpu_emu_open(&ops, name, mem), CZ_OK);
  cz_gpu_backend_init(&d->b, &d->st, &ops);
}

/* One proof with r = s = 1 on b; the error, the proof in *out. */
static cz_err prove(const cz_prover_backend *b, const cz_groth16_params *p, uint64_t x,
                    cz_groth16_proof *out, char *msg, size_t len) {
  cz_assignment a = synth(x);
  cz_fr one = CZ_FR_ONE;
  cz_prove_opts o = {1, &one, &one, &QUIET, msg, len};
  cz_err e = cz_groth16_prove(b, p, &a, 1, out, &o);
  cz_assignment_free(&a);
  return e;
}

static bool same_proof(const cz_groth16_proof *x, const cz_groth16_proof *y) {
  return cz_g1_affine_eq(&x->a, &y->a) && cz_g2_affine_eq(&x->b, &y->b) &&
         cz_g1_affine_eq(&x->c, &y->c);
}

static void test_instances_and_faults(const cz_groth16_params *p) {
  cz_groth16_proof want, got;
  char msg[256] = "";
  CHECK_EQ_INT(prove(cz_prover_cpu(), p, 5, &want, msg, sizeof msg), CZ_OK);
  device d0, d1;
  open_device(&d0, "emu-0", 1 << 20);
  open_device(&d1, "emu-1", 1 << 22);
  CHECK(strcmp(d0.st.ops.name, "emu-0") == 0 && strcmp(d1.b.name, "emu-1") == 0);
  CHECK(d0.st.ops.mem_total == (1u << 20) && d1.st.ops.mem_total == (1u << 22));

  /* batches over 8 points fail on d0 only: retried smaller, same proof */
  cz_gpu_emu_set_faults(&d0.st.ops, &(czg_emu_faults){.max_points = 8});
  CHECK_EQ_INT(prove(&d0.b, p, 5, &got, msg, sizeof msg), CZ_OK);
  CHECK(same_proof(&got, &want));
  CHECK(__atomic_load_n(&d0.st.oom_retries, __ATOMIC_RELAXED) > 0);
  CHECK_EQ_INT(prove(&d1.b, p, 5, &got, msg, sizeof msg), CZ_OK);
  CHECK(same_proof(&got, &want));
  CHECK(__atomic_load_n(&d1.st.oom_retries, __ATOMIC_RELAXED) == 0);

  /* an allocation failure in H (step 1) and a launch error later */
  cz_gpu_emu_set_faults(&d0.st.ops, &(czg_emu_faults){.fail_step = 1, .fail_err = CZ_ERR_NOMEM});
  CHECK_EQ_INT(prove(&d0.b, p, 5, &got, msg, sizeof msg), CZ_ERR_NOMEM);
  CHECK(strstr(msg, "out of memory") != NULL);
  cz_gpu_emu_set_faults(&d0.st.ops, &(czg_emu_faults){.fail_step = 3, .fail_err = CZ_ERR_DEVICE});
  CHECK_EQ_INT(prove(&d0.b, p, 5, &got, msg, sizeof msg), CZ_ERR_DEVICE);
  CHECK(strstr(msg, "emu-0: device error") != NULL);
  CHECK(cz_gpu_emu_steps(&d0.st.ops) == 3);

  /* a wrong result: the proof differs and does not verify */
  cz_gpu_emu_set_faults(&d0.st.ops, &(czg_emu_faults){.corrupt_step = 2});
  CHECK_EQ_INT(prove(&d0.b, p, 5, &got, msg, sizeof msg), CZ_OK);
  CHECK(!same_proof(&got, &want));
  cz_assignment a = synth(5);
  CHECK(cz_groth16_verify(&p->vk, a.inputs + 1, p->vk.n_ic - 1, &got) != CZ_OK);
  cz_assignment_free(&a);

  /* the CPU library's H and MSMs on d1 (the daemon's emulated devices):
   * the same proof; a wrong result there too is caught */
  cz_gpu_emu_use_library(&d1.st.ops, true);
  cz_gpu_emu_set_faults(&d1.st.ops, &(czg_emu_faults){.max_points = 8});
  CHECK_EQ_INT(prove(&d1.b, p, 5, &got, msg, sizeof msg), CZ_OK);
  CHECK(same_proof(&got, &want));
  cz_gpu_emu_set_faults(&d1.st.ops, &(czg_emu_faults){.corrupt_step = 1});
  CHECK_EQ_INT(prove(&d1.b, p, 5, &got, msg, sizeof msg), CZ_OK);
  CHECK(!same_proof(&got, &want));
  cz_gpu_emu_set_faults(&d1.st.ops, &(czg_emu_faults){.corrupt_step = 4});
  CHECK_EQ_INT(prove(&d1.b, p, 5, &got, msg, sizeof msg), CZ_OK);
  CHECK(!same_proof(&got, &want));

  /* a slow device is only slow */
  cz_gpu_emu_set_faults(&d0.st.ops, &(czg_emu_faults){.delay_ms = 2});
  CHECK_EQ_INT(prove(&d0.b, p, 5, &got, msg, sizeof msg), CZ_OK);
  CHECK(same_proof(&got, &want));
  cz_gpu_backend_destroy(&d0.st);
  cz_gpu_backend_destroy(&d1.st);
}

static void test_self_test(void) {
  device d;
  open_device(&d, "emu-st", 1 << 20);
  char msg[256] = "";
  CHECK_EQ_INT(cz_gpu_self_test(&d.st, msg, sizeof msg), CZ_OK);
  cz_gpu_emu_set_faults(&d.st.ops, &(czg_emu_faults){.corrupt_all = true});
  CHECK_EQ_INT(cz_gpu_self_test(&d.st, msg, sizeof msg), CZ_ERR_PROOF_INVALID);
  CHECK(strstr(msg, "emu-st: self-test H differs") != NULL);
  cz_gpu_emu_set_faults(&d.st.ops, &(czg_emu_faults){.corrupt_step = 2});
  CHECK_EQ_INT(cz_gpu_self_test(&d.st, msg, sizeof msg), CZ_ERR_PROOF_INVALID);
  CHECK(strstr(msg, "self-test MSM differs") != NULL);
  cz_gpu_emu_set_faults(&d.st.ops, &(czg_emu_faults){.fail_step = 3, .fail_err = CZ_ERR_DEVICE});
  CHECK_EQ_INT(cz_gpu_self_test(&d.st, msg, sizeof msg), CZ_ERR_DEVICE);
  CHECK(strstr(msg, "self-test batch addition failed") != NULL);
  cz_gpu_emu_set_faults(&d.st.ops, NULL);
  CHECK_EQ_INT(cz_gpu_self_test(&d.st, msg, sizeof msg), CZ_OK);
  /* A device that takes small batches only passes: the self-test's MSM and
   * batch addition are retried smaller, as a proof's are. */
  unsigned long retries = d.st.oom_retries;
  cz_gpu_emu_set_faults(&d.st.ops, &(czg_emu_faults){.max_points = 8});
  CHECK_EQ_INT(cz_gpu_self_test(&d.st, msg, sizeof msg), CZ_OK);
  CHECK(d.st.oom_retries > retries);
  cz_gpu_backend_destroy(&d.st);
}

/* Two threads prove on one device at once (two workers per device). */
typedef struct {
  const cz_prover_backend *b;
  const cz_groth16_params *p;
  uint64_t x;
  cz_groth16_proof proof;
  cz_err e;
} prover_arg;

static void *prover_main(void *v) {
  prover_arg *a = v;
  char msg[256];
  a->e = prove(a->b, a->p, a->x, &a->proof, msg, sizeof msg);
  return NULL;
}

static void test_two_workers(const cz_groth16_params *p) {
  device d;
  open_device(&d, "emu-w", 1 << 20);
  cz_gpu_emu_set_faults(&d.st.ops, &(czg_emu_faults){.delay_ms = 1});
  prover_arg a[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    a[i] = (prover_arg){.b = &d.b, .p = p, .x = 7 + (uint64_t)i};
    CHECK(pthread_create(&t[i], NULL, prover_main, &a[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    CHECK_EQ_INT(a[i].e, CZ_OK);
    cz_groth16_proof want;
    char msg[256];
    CHECK_EQ_INT(prove(cz_prover_cpu(), p, a[i].x, &want, msg, sizeof msg), CZ_OK);
    CHECK(same_proof(&a[i].proof, &want));
  }
  cz_gpu_backend_destroy(&d.st);
}

int main(void) {
  cz_groth16_params p;
  if (check_sparse_setup(&p, N_CONS)) {
    test_instances_and_faults(&p);
    test_two_workers(&p);
    cz_groth16_params_free(&p);
  }
  test_self_test();
  return check_report("test_czg_faults");
}
