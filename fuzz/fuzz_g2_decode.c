/* libFuzzer target: G2 zcash decoding never crashes, and whatever it accepts
 * is a point on the curve (in G2 when checked) that re-encodes to the same
 * bytes; the checks live in fuzz_curve_decode_impl.h, shared with G1.
 * Decodes the first 96 input bytes as a compressed point and the first
 * 192 as an uncompressed one. */
#include "cuzk/g2.h"

#define AFF cz_g2_affine
#define GN(x) cz_g2_##x
#define COMPRESSED_BYTES CZ_G2_COMPRESSED_BYTES
#define UNCOMPRESSED_BYTES CZ_G2_UNCOMPRESSED_BYTES
#include "fuzz_curve_decode_impl.h"
