/* libFuzzer target: G2 zcash decoding never crashes, and whatever it accepts
 * is a point on the curve (in G2 when checked) that re-encodes to the same
 * bytes. The first 96 input bytes are decoded as a compressed point and the
 * first 192 as an uncompressed one, each with and without the subgroup check. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/g2.h"

#define REQUIRE(c) \
  do {             \
    if (!(c)) abort(); \
  } while (0)

/* Exact-size heap copies so that ASan sees any read past the encoding. */
static uint8_t *copy(const uint8_t *data, size_t n) {
  uint8_t *b = malloc(n);
  REQUIRE(b);
  memcpy(b, data, n);
  return b;
}

static void check_accepted(const cz_g2_affine *p, bool checked) {
  REQUIRE(cz_g2_affine_is_on_curve(p));
  if (checked) REQUIRE(cz_g2_affine_is_in_subgroup(p));
  /* the other encoding of the same point decodes back to it */
  uint8_t c[CZ_G2_COMPRESSED_BYTES], u[CZ_G2_UNCOMPRESSED_BYTES];
  cz_g2_affine q;
  cz_g2_affine_compress(c, p);
  REQUIRE(cz_g2_affine_decompress(&q, c, false) == CZ_OK && cz_g2_affine_eq(&q, p));
  cz_g2_affine_serialize(u, p);
  REQUIRE(cz_g2_affine_deserialize(&q, u, false) == CZ_OK && cz_g2_affine_eq(&q, p));
}

static void one(const uint8_t *data, size_t n, bool compressed) {
  uint8_t *in = copy(data, n), out[CZ_G2_UNCOMPRESSED_BYTES];
  cz_g2_affine p, q;
  cz_err e = compressed ? cz_g2_affine_decompress(&p, in, false)
                        : cz_g2_affine_deserialize(&p, in, false);
  cz_err ec = compressed ? cz_g2_affine_decompress(&q, in, true)
                         : cz_g2_affine_deserialize(&q, in, true);
  REQUIRE(e >= CZ_OK && e < CZ_ERR_COUNT && e != CZ_ERR_NOT_IN_SUBGROUP);
  /* the subgroup check only adds CZ_ERR_NOT_IN_SUBGROUP to accepted input */
  REQUIRE(ec == e || (e == CZ_OK && ec == CZ_ERR_NOT_IN_SUBGROUP));
  if (e == CZ_OK) {
    if (compressed) cz_g2_affine_compress(out, &p);
    else cz_g2_affine_serialize(out, &p);
    REQUIRE(memcmp(out, in, n) == 0);
    check_accepted(&p, false);
    REQUIRE((ec == CZ_OK) == cz_g2_affine_is_in_subgroup(&p));
  }
  if (ec == CZ_OK) {
    REQUIRE(cz_g2_affine_eq(&p, &q));
    check_accepted(&q, true);
  }
  free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= CZ_G2_COMPRESSED_BYTES) one(data, CZ_G2_COMPRESSED_BYTES, true);
  if (size >= CZ_G2_UNCOMPRESSED_BYTES) one(data, CZ_G2_UNCOMPRESSED_BYTES, false);
  return 0;
}
