/* Groth16 verification.
 *
 * The equation e(A,B) = e(alpha,beta) e(acc,gamma) e(C,delta), with
 * acc = IC0 + sum x_i IC_i, is checked as
 *     e(-A,B) e(alpha,beta) e(acc,gamma) e(C,delta) == 1,
 * i.e. one multi-Miller loop over four pairs and one final exponentiation:
 * the squarings of the Miller loop and the whole final exponentiation are
 * shared instead of being paid four times. */
#include "cuzk/groth16.h"
#include "cuzk/pairing.h"

/* acc = IC0 + sum_i inputs[i] * IC_{i+1}. Inputs 0 and 1 are common in
 * Filecoin circuits (flags, small indices) and need no multiplication. */
static void ic_combination(cz_g1_affine *out, const cz_groth16_vk *vk, const cz_fr *inputs,
                           size_t n) {
  cz_g1 acc, t;
  cz_g1_from_affine(&acc, &vk->ic[0]);
  for (size_t i = 0; i < n; i++) {
    const cz_g1_affine *base = &vk->ic[i + 1];
    if (cz_fr_is_zero(&inputs[i])) continue;
    if (cz_fr_is_one(&inputs[i])) {
      cz_g1_add_affine(&acc, &acc, base);
      continue;
    }
    cz_g1_from_affine(&t, base);
    cz_g1_mul_fr(&t, &t, &inputs[i]);
    cz_g1_add(&acc, &acc, &t);
  }
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
  ic_combination(&p[2], vk, inputs, n_inputs);
  q[2] = vk->gamma_g2;
  p[3] = proof->c;
  q[3] = vk->delta_g2;
  return cz_pairing_product_is_one(p, q, 4) ? CZ_OK : CZ_ERR_PROOF_INVALID;
}
