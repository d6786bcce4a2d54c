/* cz_gpu_self_test (czg_host.h): the small checks that bring a device marked
 * unhealthy back. Each runs the device's own op on fixed pseudo-random
 * inputs and compares with the CPU library: H through ntt_h and h_read
 * against cz_ntt_h_poly, an MSM and a batch addition against cz_msm_g1 and
 * plain additions, in the batches a proof's MSMs would take (so a device
 * that takes only small batches is not failed for it). A few milliseconds
 * on a GPU. */
#include <stdlib.h>
#include <string.h>
#include "cuda/czg_host.h"
#include "cuzk/ntt.h"
#include "util/msg.h"

enum { TEST_LOG_N = 6, TEST_M = 50, TEST_POINTS = 96 };

/* Deterministic values: x_i = (i + seed)^3 + 5 in Fr. */
static void test_values(cz_fr *v, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++) {
    cz_fr x, five;
    cz_fr_from_u64(&x, i + seed);
    cz_fr_from_u64(&five, 5);
    cz_fr_mul(&v[i], &x, &x);
    cz_fr_mul(&v[i], &v[i], &x);
    cz_fr_add(&v[i], &v[i], &five);
  }
}

static cz_err check_h(czg_backend_state *st, char *msg, size_t len) {
  size_t n = (size_t)1 << TEST_LOG_N;
  cz_fr *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c);
  cz_fr *h = calloc(n, sizeof *h);
  cz_ntt_domain *d = NULL;
  cz_err e = a && b && c && h ? cz_ntt_domain_new(&d, TEST_LOG_N) : CZ_ERR_NOMEM;
  if (e == CZ_OK) {
    test_values(a, TEST_M, 1);
    test_values(b, TEST_M, 1000);
    for (size_t i = 0; i < TEST_M; i++) cz_fr_mul(&c[i], &a[i], &b[i]);
    e = st->ops.ntt_h(st->ops.ctx, a, b, c, TEST_M, TEST_LOG_N);
    if (e == CZ_OK) e = st->ops.h_read(st->ops.ctx, h);
    if (e != CZ_OK) cz_msg(msg, len, "%s: self-test H failed (%s)", st->ops.name, cz_err_str(e));
  }
  if (e == CZ_OK) {
    cz_ntt_h_poly(d, a, b, c, 1);
    if (memcmp(h, a, n * sizeof *h))
      e = cz_msg_err(msg, len, CZ_ERR_PROOF_INVALID, "%s: self-test H differs from the CPU's",
                     st->ops.name);
  }
  cz_ntt_domain_free(d);
  free(a), free(b), free(c), free(h);
  return e;
}

/* Bases [i + 1] G and scalars from test_values. */
static cz_err check_msm(czg_backend_state *st, char *msg, size_t len) {
  cz_g1_affine *pts = malloc(TEST_POINTS * sizeof *pts);
  cz_scalar *k = malloc(TEST_POINTS * sizeof *k);
  cz_fr *x = malloc(TEST_POINTS * sizeof *x);
  if (!pts || !k || !x) {
    free(pts), free(k), free(x);
    return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  }
  cz_g1 acc, g, sum, want, got;
  cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
  acc = g;
  test_values(x, TEST_POINTS, 77);
  for (size_t i = 0; i < TEST_POINTS; i++) {
    cz_g1_to_affine(&pts[i], &acc);
    cz_g1_add(&acc, &acc, &g);
    cz_fr_to_scalar(&k[i], &x[i]);
  }
  cz_err e = cz_msm_g1(&want, pts, k, TEST_POINTS, 1);
  const char *step = "MSM";
  if (e == CZ_OK) e = cz_gpu_msm_batched(st, pts, k, TEST_POINTS, &got);
  if (e == CZ_OK && !cz_g1_eq(&got, &want)) e = CZ_ERR_PROOF_INVALID;
  if (e == CZ_OK) {
    step = "batch addition";
    cz_g1_set_identity(&sum);
    for (size_t i = 0; i < TEST_POINTS; i++) cz_g1_add_affine(&sum, &sum, &pts[i]);
    e = cz_gpu_batch_add_batched(st, pts, TEST_POINTS, &got);
    if (e == CZ_OK && !cz_g1_eq(&got, &sum)) e = CZ_ERR_PROOF_INVALID;
  }
  if (e == CZ_ERR_PROOF_INVALID)
    cz_msg(msg, len, "%s: self-test %s differs from the CPU's", st->ops.name, step);
  else if (e != CZ_OK)
    cz_msg(msg, len, "%s: self-test %s failed (%s)", st->ops.name, step, cz_err_str(e));
  free(pts), free(k), free(x);
  return e;
}

cz_err cz_gpu_self_test(czg_backend_state *st, char *msg, size_t msg_len) {
  pthread_mutex_lock(&st->device);
  cz_err e = check_h(st, msg, msg_len);
  if (e == CZ_OK) e = check_msm(st, msg, msg_len);
  pthread_mutex_unlock(&st->device);
  return e;
}
