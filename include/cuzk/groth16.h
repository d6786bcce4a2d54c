/* Layer: groth16 */
/* Groth16 over BLS12-381 in bellperson's byte layouts: verifying keys,
 * 192-byte proofs (A G1 | B G2 | C G1, compressed) and verification
 * (src/groth16/vk.c, proof.c, verify.c, batch_verify.c). Nothing here keeps
 * state: any thread may read, write or verify at the same time; the
 * verifiers run on the calling thread only. */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"

#define CZ_GROTH16_PROOF_BYTES 192

typedef struct {
  cz_g1_affine alpha_g1, beta_g1;
  cz_g2_affine beta_g2, gamma_g2;
  cz_g1_affine delta_g1;
  cz_g2_affine delta_g2;
  size_t n_ic;      /* number of public inputs + 1 (ONE) */
  cz_g1_affine *ic; /* n_ic points, heap-owned */
} cz_groth16_vk;

typedef struct {
  cz_g1_affine a;
  cz_g2_affine b;
  cz_g1_affine c;
} cz_groth16_proof;

/* Parse a verifying key from buf. compressed=false: bellperson's layout
 * (uncompressed points, u32 big-endian IC count); compressed=true: the same
 * order with compressed points. Every point is checked (curve and subgroup).
 * *used, when not NULL, receives the number of bytes consumed; trailing bytes
 * are allowed only when used is not NULL (a vk at the head of a params file).
 * On success the caller owns vk->ic and frees it with cz_groth16_vk_free.
 * Details: the whole length is checked against the IC count before anything
 * is decoded or allocated (CZ_ERR_TRUNCATED when short, CZ_ERR_TRAILING when
 * long and used is NULL); an IC count of 0 gives CZ_ERR_PARSE; a point at
 * infinity anywhere gives CZ_ERR_BAD_FLAGS (bellperson refuses it in IC, and
 * a real key never holds it). On error *vk is zeroed and owns nothing. */
CZ_MUST_CHECK cz_err cz_groth16_vk_read(cz_groth16_vk *vk, const uint8_t *buf, size_t len,
                                        bool compressed, size_t *used);
/* Same, from a file that holds exactly one key (raw bytes; CZ_ERR_IO when it
 * cannot be opened or read, CZ_ERR_NOMEM). */
CZ_MUST_CHECK cz_err cz_groth16_vk_load(cz_groth16_vk *vk, const char *path, bool compressed);
/* Serialise in the same layouts; returns the byte count written, or the count
 * needed when out is NULL. vk->n_ic must fit the u32 count field (not
 * checked: the count is truncated). */
size_t cz_groth16_vk_write(uint8_t *out, const cz_groth16_vk *vk, bool compressed);
/* Frees vk->ic and clears the count; NULL and a zeroed vk are fine. */
void cz_groth16_vk_free(cz_groth16_vk *vk);

/* Decode / encode a 192-byte proof; decoding checks every point fully and,
 * like bellperson, refuses a point at infinity (CZ_ERR_BAD_FLAGS). On error
 * *proof is untouched. */
CZ_MUST_CHECK cz_err cz_groth16_proof_read(cz_groth16_proof *proof,
                                           const uint8_t in[CZ_GROTH16_PROOF_BYTES]);
void cz_groth16_proof_write(uint8_t out[CZ_GROTH16_PROOF_BYTES], const cz_groth16_proof *proof);

/* Verify e(A,B) = e(alpha,beta) e(IC0 + sum x_i IC_i, gamma) e(C,delta).
 * n_inputs must equal vk->n_ic - 1 (else CZ_ERR_INVALID_ARG, as for a NULL
 * vk, proof, vk->ic, or inputs with n_inputs > 0).
 * Returns CZ_OK for a valid proof, CZ_ERR_PROOF_INVALID for an invalid one.
 * vk and proof must hold checked points (as the readers above produce); the
 * check is one multi-Miller loop and one final exponentiation. */
CZ_MUST_CHECK cz_err cz_groth16_verify(const cz_groth16_vk *vk, const cz_fr *inputs,
                                       size_t n_inputs, const cz_groth16_proof *proof);

/* A verifying key prepared for repeated verification: the Miller-loop lines
 * of gamma and delta and the Miller-loop value of (alpha, beta) are computed
 * once. The prepared key copies what it needs (vk may be freed afterwards)
 * and is read-only once made, so threads may share it. */
typedef struct cz_groth16_pvk cz_groth16_pvk;

/* NULL when vk has no IC points or an allocation fails. The caller frees
 * the result with cz_groth16_pvk_free. */
cz_groth16_pvk *cz_groth16_prepare(const cz_groth16_vk *vk);
void cz_groth16_pvk_free(cz_groth16_pvk *pvk); /* NULL is allowed */
/* Same contract and verdicts as cz_groth16_verify, plus CZ_ERR_NOMEM when
 * the per-proof line buffer for B cannot be allocated. */
CZ_MUST_CHECK cz_err cz_groth16_verify_prepared(const cz_groth16_pvk *pvk, const cz_fr *inputs,
                                                size_t n_inputs, const cz_groth16_proof *proof);

/* Batch verification of n proofs for the same key: with random non-zero
 * 128-bit z_j from getrandom, checks
 *   prod_j e(z_j A_j, B_j) = e(alpha, beta)^(sum z_j)
 *                            e(sum_j z_j acc_j, gamma) e(sum_j z_j C_j, delta)
 * as one multi-Miller loop over n + 3 pairs and one final exponentiation.
 * inputs holds n_inputs values per proof, proof after proof. CZ_OK when all
 * proofs verify; CZ_ERR_PROOF_INVALID when at least one does not (except
 * with probability about 2^-128); CZ_ERR_INVALID_ARG when n_inputs !=
 * vk->n_ic - 1; CZ_ERR_NOMEM; CZ_ERR_IO when getrandom fails. n = 0 is OK.
 * Points must be checked ones, as for cz_groth16_verify. Working memory
 * about 600 bytes per proof plus two MSMs'; single-threaded. */
CZ_MUST_CHECK cz_err cz_groth16_verify_batch(const cz_groth16_vk *vk, const cz_fr *inputs,
                                             size_t n_inputs, const cz_groth16_proof *proofs,
                                             size_t n);

#endif
