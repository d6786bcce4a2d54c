/* libFuzzer target: G1 zcash decoding never crashes, and whatever it accepts
 * is a point on the curve (in G1 when checked) that re-encodes to the same
 * bytes; the checks live in fuzz_curve_decode_impl.h, shared with G2.
 * Decodes the first 48 input bytes as a compressed point and the first
 * 96 as an uncompressed one. */
#include "cuzk/g1.h"

#define AFF cz_g1_affine
#define GN(x) cz_g1_##x
#define COMPRESSED_BYTES CZ_G1_COMPRESSED_BYTES
#define UNCOMPRESSED_BYTES CZ_G1_UNCOMPRESSED_BYTES
#include "fuzz_curve_decode_impl.h"
