/* One source for the G1 and G2 decoding fuzz targets: zcash decoding never
 * crashes, and whatever it accepts is a point on the curve (in the subgroup
 * when checked) that re-encodes to the same bytes. The first COMPRESSED_BYTES
 * input bytes are decoded as a compressed point and the first
 * UNCOMPRESSED_BYTES as an uncompressed one, each with and without the
 * subgroup check. Include after the group's header and after defining:
 *   AFF                  the affine point type (cz_g1_affine, cz_g2_affine)
 *   GN(x)                group function name builder (cz_g1_##x)
 *   COMPRESSED_BYTES     UNCOMPRESSED_BYTES   the two encoding sizes */
#include <stdlib.h>
#include <string.h>

#define REQUIRE(c) \
  do { \
    if (!(c)) abort(); \
  } while (0)

/* Exact-size heap copies so that ASan sees any read past the encoding. */
static uint8_t *copy(const uint8_t *data, size_t n) {
  uint8_t *b = malloc(n);
  REQUIRE(b);
  memcpy(b, data, n);
  return b;
}

static void check_accepted(const AFF *p, bool checked) {
  REQUIRE(GN(affine_is_on_curve)(p));
  if (checked) REQUIRE(GN(affine_is_in_subgroup)(p));
  /* the other encoding of the same point decodes back to it */
  uint8_t c[COMPRESSED_BYTES], u[UNCOMPRESSED_BYTES];
  AFF q;
  GN(affine_compress)(c, p);
  REQUIRE(GN(affine_decompress)(&q, c, false) == CZ_OK && GN(affine_eq)(&q, p));
  GN(affine_serialize)(u, p);
  REQUIRE(GN(affine_deserialize)(&q, u, false) == CZ_OK && GN(affine_eq)(&q, p));
}

static void one(const uint8_t *data, size_t n, bool compressed) {
  uint8_t *in = copy(data, n), out[UNCOMPRESSED_BYTES];
  AFF p, q;
  cz_err e =
      compressed ? GN(affine_decompress)(&p, in, false) : GN(affine_deserialize)(&p, in, false);
  cz_err ec =
      compressed ? GN(affine_decompress)(&q, in, true) : GN(affine_deserialize)(&q, in, true);
  REQUIRE(e >= CZ_OK && e < CZ_ERR_COUNT && e != CZ_ERR_NOT_IN_SUBGROUP);
  /* the subgroup check only adds CZ_ERR_NOT_IN_SUBGROUP to accepted input */
  REQUIRE(ec == e || (e == CZ_OK && ec == CZ_ERR_NOT_IN_SUBGROUP));
  if (e == CZ_OK) {
    if (compressed) GN(affine_compress)(out, &p);
    else GN(affine_serialize)(out, &p);
    REQUIRE(memcmp(out, in, n) == 0);
    check_accepted(&p, false);
    REQUIRE((ec == CZ_OK) == GN(affine_is_in_subgroup)(&p));
  }
  if (ec == CZ_OK) {
    REQUIRE(GN(affine_eq)(&p, &q));
    check_accepted(&q, true);
  }
  free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= COMPRESSED_BYTES) one(data, COMPRESSED_BYTES, true);
  if (size >= UNCOMPRESSED_BYTES) one(data, UNCOMPRESSED_BYTES, false);
  return 0;
}
