/* Groth16 verification.
 *
 * The equation e(A,B) = e(alpha,beta) e(acc,gamma) e(C,delta), with
 * acc = IC0 + sum x_i IC_i, is checked as
 *     e(-A,B) e(alpha,beta) e(acc,gamma) e(C,delta) == 1,
 * i.e. one multi-Miller loop over four pairs and one final exponentiation:
 * the squarings of the Miller loop and the whole final exponentiation are
 * shared instead of being paid four times. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"
#include "cuzk/fp12.h"
#include "cuzk/pairing.h"

typedef struct {
  const cz_fr *x;
  const cz_g1_affine *base;
} ic_term;

static int cmp_terms(const void *a, const void *b) {
  return memcmp(((const ic_term *)a)->x->l, ((const ic_term *)b)->x->l, sizeof(cz_fr));
}

/* acc = IC0 + sum_i inputs[i] * IC_{i+1}.
 * Terms that share a scalar are summed first and multiplied once: Filecoin
 * inputs repeat (WinningPoSt lists the same comm_r in each of its 66 slots),
 * and a point addition costs about 1/200 of a scalar multiplication. Scalars
 * 0 and 1 need no multiplication at all. Falls back to one multiplication per
 * term if the sort buffer cannot be allocated. cz_msm_g1 (cuzk/msm.h) exists
 * now and groups equal scalars too; this loop stays because it runs on the
 * caller's thread with one small buffer, and the MSM has not been measured
 * against it at a verifier's sizes (tens to hundreds of inputs). */
static void ic_combination(cz_g1_affine *out, const cz_g1_affine *ic, const cz_fr *inputs,
                           size_t n) {
  cz_g1 acc, sum;
  cz_g1_from_affine(&acc, &ic[0]);
  ic_term *terms = n ? malloc(n * sizeof *terms) : NULL;
  if (!terms) {
    for (size_t i = 0; i < n; i++) {
      cz_g1_from_affine(&sum, &ic[i + 1]);
      cz_g1_mul_fr(&sum, &sum, &inputs[i]); /* 0 * P is the identity */
      cz_g1_add(&acc, &acc, &sum);
    }
    cz_g1_to_affine(out, &acc);
    return;
  }
  for (size_t i = 0; i < n; i++) terms[i] = (ic_term){&inputs[i], &ic[i + 1]};
  qsort(terms, n, sizeof *terms, cmp_terms);
  for (size_t i = 0; i < n;) {
    const cz_fr *x = terms[i].x;
    size_t j = i;
    if (cz_fr_is_zero(x)) {
      while (j < n && cz_fr_eq(terms[j].x, x)) j++;
      i = j;
      continue;
    }
    cz_g1_set_identity(&sum);
    for (; j < n && cz_fr_eq(terms[j].x, x); j++) cz_g1_add_affine(&sum, &sum, terms[j].base);
    if (!cz_fr_is_one(x)) cz_g1_mul_fr(&sum, &sum, x);
    cz_g1_add(&acc, &acc, &sum);
    i = j;
  }
  free(terms);
  cz_g1_to_affine(out, &acc);
}

cz_err cz_groth16_verify(const cz_groth16_vk *vk, const cz_fr *inputs, size_t n_inputs,
                         const cz_groth16_proof *proof) {
  if (!vk || !proof || !vk->ic || vk->n_ic == 0 || n_inputs != vk->n_ic - 1 ||
      (n_inputs && !inputs))
    return CZ_ERR_INVALID_ARG;

  cz_g1_affine p[4];
  cz_g2_affine q[4];
  cz_g1_affine_neg(&p[0], &proof->a);
  q[0] = proof->b;
  p[1] = vk->alpha_g1;
  q[1] = vk->beta_g2;
  ic_combination(&p[2], vk->ic, inputs, n_inputs);
  q[2] = vk->gamma_g2;
  p[3] = proof->c;
  q[3] = vk->delta_g2;
  return cz_pairing_product_is_one(p, q, 4) ? CZ_OK : CZ_ERR_PROOF_INVALID;
}

/* ---- prepared keys ------------------------------------------------------ */

struct cz_groth16_pvk {
  size_t n_ic;
  cz_g1_affine *ic;
  cz_fp12 ml_alpha_beta; /* MillerLoop(alpha, beta), not exponentiated */
  cz_g2_prepared *gamma, *delta;
};

cz_groth16_pvk *cz_groth16_prepare(const cz_groth16_vk *vk) {
  if (!vk || !vk->ic || vk->n_ic == 0) return NULL;
  cz_groth16_pvk *pvk = calloc(1, sizeof *pvk);
  if (!pvk) return NULL;
  pvk->n_ic = vk->n_ic;
  pvk->ic = malloc(vk->n_ic * sizeof *pvk->ic);
  pvk->gamma = cz_g2_prepare(&vk->gamma_g2);
  pvk->delta = cz_g2_prepare(&vk->delta_g2);
  if (!pvk->ic || !pvk->gamma || !pvk->delta) {
    cz_groth16_pvk_free(pvk);
    return NULL;
  }
  memcpy(pvk->ic, vk->ic, vk->n_ic * sizeof *pvk->ic);
  cz_miller_loop(&pvk->ml_alpha_beta, &vk->alpha_g1, &vk->beta_g2, 1);
  return pvk;
}

void cz_groth16_pvk_free(cz_groth16_pvk *pvk) {
  if (!pvk) return;
  free(pvk->ic);
  cz_g2_prepared_free(pvk->gamma);
  cz_g2_prepared_free(pvk->delta);
  free(pvk);
}

/* The same product as cz_groth16_verify: the (alpha, beta) factor comes from
 * the cache and only B's lines are computed here, then one multi-Miller loop
 * over (-A, B), (acc, gamma), (C, delta) and one final exponentiation. */
cz_err cz_groth16_verify_prepared(const cz_groth16_pvk *pvk, const cz_fr *inputs, size_t n_inputs,
                                  const cz_groth16_proof *proof) {
  if (!pvk || !proof || n_inputs != pvk->n_ic - 1 || (n_inputs && !inputs))
    return CZ_ERR_INVALID_ARG;
  cz_g2_prepared *b = cz_g2_prepare(&proof->b);
  if (!b) return CZ_ERR_NOMEM;
  cz_g1_affine p[3];
  const cz_g2_prepared *q[3] = {b, pvk->gamma, pvk->delta};
  cz_g1_affine_neg(&p[0], &proof->a);
  ic_combination(&p[1], pvk->ic, inputs, n_inputs);
  p[2] = proof->c;
  cz_fp12 f;
  cz_miller_loop_prepared(&f, p, q, 3);
  cz_g2_prepared_free(b);
  cz_fp12_mul(&f, &f, &pvk->ml_alpha_beta);
  cz_final_exponentiation(&f, &f);
  return cz_fp12_is_one(&f) ? CZ_OK : CZ_ERR_PROOF_INVALID;
}
