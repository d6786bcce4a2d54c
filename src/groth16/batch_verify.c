/* Batch verification: one random linear combination of n Groth16 checks.
 *
 * For proof j the check is e(A_j, B_j) = e(alpha, beta) e(acc_j, gamma)
 * e(C_j, delta). Raising check j to a random 128-bit z_j and multiplying
 * gives
 *   prod_j e(z_j A_j, B_j) e(-(sum z_j) alpha, beta)
 *          e(-sum_j z_j acc_j, gamma) e(-sum_j z_j C_j, delta) = 1,
 * n + 3 pairs in one multi-Miller loop and one final exponentiation. A bad
 * proof passes only if the z_j hit a root of a non-zero linear relation:
 * probability 2^-128. sum_j z_j acc_j is one MSM over the IC points with
 * the scalars sum_j z_j x_j,i (and sum z_j for IC0). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"
#include "cuzk/pairing.h"
#include "groth16/g16_internal.h"

cz_err cz_groth16_verify_batch(const cz_groth16_vk *vk, const cz_fr *inputs, size_t n_inputs,
                               const cz_groth16_proof *proofs, size_t n) {
  if (!vk || vk->n_ic == 0 || n_inputs != vk->n_ic - 1) return CZ_ERR_INVALID_ARG;
  if (n == 0) return CZ_OK;
  if (!proofs || (n_inputs && !inputs)) return CZ_ERR_INVALID_ARG;
  const size_t np = n + 3;
  cz_fr *z = malloc(n * sizeof *z), *ic_k = calloc(vk->n_ic, sizeof *ic_k);
  cz_g1 *za = malloc(n * sizeof *za);
  cz_g1_affine *p = malloc(np * sizeof *p);
  cz_g2_affine *q = malloc(np * sizeof *q);
  cz_g1_affine *cs = malloc(n * sizeof *cs);
  uint64_t(*raw)[2] = malloc(n * sizeof *raw);
  cz_err e = CZ_ERR_NOMEM;
  if (!z || !ic_k || !za || !p || !q || !cs || !raw) goto done;
  if ((e = cz_g16_random_bytes(raw, n * sizeof *raw)) != CZ_OK) goto done;

  for (size_t j = 0; j < n; j++) {
    /* 128-bit non-zero z_j (a zero would drop proof j from the check). */
    if (!raw[j][0] && !raw[j][1]) raw[j][0] = 1;
    uint64_t limbs[CZ_FR_LIMBS] = {raw[j][0], raw[j][1], 0, 0};
    cz_fr_from_canonical(&z[j], limbs);
    cz_scalar k = {{raw[j][0], raw[j][1], 0, 0}};
    cz_g1 a;
    cz_g1_from_affine(&a, &proofs[j].a);
    cz_g1_mul(&za[j], &a, &k);
    q[j] = proofs[j].b;
    cs[j] = proofs[j].c;
    /* IC scalars: IC0 gets z_j, IC_{i+1} gets z_j x_j,i. */
    cz_fr t;
    cz_fr_add(&ic_k[0], &ic_k[0], &z[j]);
    for (size_t i = 0; i < n_inputs; i++) {
      cz_fr_mul(&t, &z[j], &inputs[j * n_inputs + i]);
      cz_fr_add(&ic_k[i + 1], &ic_k[i + 1], &t);
    }
  }
  cz_g1_batch_to_affine(p, za, n);

  cz_g1 acc, csum, al;
  g16_msm_seg seg = {vk->ic, vk->n_ic, ic_k, vk->n_ic, NULL, NULL, NULL};
  if ((e = cz_g16_msm_g1(&acc, &seg, 1, 1)) != CZ_OK) goto done;
  seg = (g16_msm_seg){cs, n, z, n, NULL, NULL, NULL};
  if ((e = cz_g16_msm_g1(&csum, &seg, 1, 1)) != CZ_OK) goto done;
  cz_g1_from_affine(&al, &vk->alpha_g1);
  cz_g1_mul_fr(&al, &al, &ic_k[0]); /* ic_k[0] = sum z_j */
  cz_g1_neg(&al, &al);
  cz_g1_neg(&acc, &acc);
  cz_g1_neg(&csum, &csum);
  cz_g1 tail[3] = {al, acc, csum};
  cz_g1_batch_to_affine(p + n, tail, 3);
  q[n] = vk->beta_g2;
  q[n + 1] = vk->gamma_g2;
  q[n + 2] = vk->delta_g2;
  e = cz_pairing_product_is_one(p, q, np) ? CZ_OK : CZ_ERR_PROOF_INVALID;

done:
  free(z);
  free(ic_k);
  free(za);
  free(p);
  free(q);
  free(cs);
  free(raw);
  return e;
}
