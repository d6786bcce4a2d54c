/* Groth16 proofs: A (G1) | B (G2) | C (G1), compressed, 192 bytes, as
 * bellperson's Proof::write lays them out. */
#include <string.h>
#include "cuzk/groth16.h"
#include "groth16/point_io.h"

cz_err cz_groth16_proof_read(cz_groth16_proof *proof, const uint8_t in[CZ_GROTH16_PROOF_BYTES]) {
  cz_groth16_proof p;
  cz_err e;
  if ((e = cz_groth16_read_g1(&p.a, in, true)) != CZ_OK) return e;
  if ((e = cz_groth16_read_g2(&p.b, in + CZ_G1_COMPRESSED_BYTES, true)) != CZ_OK) return e;
  if ((e = cz_groth16_read_g1(&p.c, in + CZ_G1_COMPRESSED_BYTES + CZ_G2_COMPRESSED_BYTES, true)) !=
      CZ_OK)
    return e;
  *proof = p;
  return CZ_OK;
}

void cz_groth16_proof_write(uint8_t out[CZ_GROTH16_PROOF_BYTES], const cz_groth16_proof *proof) {
  cz_g1_affine_compress(out, &proof->a);
  cz_g2_affine_compress(out + CZ_G1_COMPRESSED_BYTES, &proof->b);
  cz_g1_affine_compress(out + CZ_G1_COMPRESSED_BYTES + CZ_G2_COMPRESSED_BYTES, &proof->c);
}
