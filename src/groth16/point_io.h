/* Point decoding shared by the verifying-key and proof readers: every point
 * is checked fully (flags, canonical coordinates, curve, subgroup), and the
 * point at infinity is refused, as bellperson refuses it in keys and proofs
 * (a Groth16 key or proof never holds it; accepting it only widens what an
 * attacker may feed the verifier). */
#ifndef CUZK_GROTH16_POINT_IO_H
#define CUZK_GROTH16_POINT_IO_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/g1.h"
#include "cuzk/g2.h"

static inline size_t cz_g1_enc_bytes(bool compressed) {
  return compressed ? CZ_G1_COMPRESSED_BYTES : CZ_G1_UNCOMPRESSED_BYTES;
}
static inline size_t cz_g2_enc_bytes(bool compressed) {
  return compressed ? CZ_G2_COMPRESSED_BYTES : CZ_G2_UNCOMPRESSED_BYTES;
}

/* Decode one non-identity point; an identity point gives CZ_ERR_BAD_FLAGS
 * (its infinity flag is set where the format forbids infinity). */
static inline cz_err cz_groth16_read_g1(cz_g1_affine *p, const uint8_t *in, bool compressed) {
  cz_err e =
      compressed ? cz_g1_affine_decompress(p, in, true) : cz_g1_affine_deserialize(p, in, true);
  if (e == CZ_OK && cz_g1_affine_is_identity(p)) e = CZ_ERR_BAD_FLAGS;
  return e;
}
static inline cz_err cz_groth16_read_g2(cz_g2_affine *p, const uint8_t *in, bool compressed) {
  cz_err e =
      compressed ? cz_g2_affine_decompress(p, in, true) : cz_g2_affine_deserialize(p, in, true);
  if (e == CZ_OK && cz_g2_affine_is_identity(p)) e = CZ_ERR_BAD_FLAGS;
  return e;
}
static inline void cz_groth16_write_g1(uint8_t *out, const cz_g1_affine *p, bool compressed) {
  if (compressed) cz_g1_affine_compress(out, p);
  else cz_g1_affine_serialize(out, p);
}
static inline void cz_groth16_write_g2(uint8_t *out, const cz_g2_affine *p, bool compressed) {
  if (compressed) cz_g2_affine_compress(out, p);
  else cz_g2_affine_serialize(out, p);
}

#endif
