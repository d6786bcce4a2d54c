/* Layer: ec */
/* G2: points of the sextic twist E'(Fp2): y^2 = x^3 + 4(1+u), order-r subgroup.
 *
 * Representations:
 *   cz_g2_affine  (x, y); the point at infinity is (0, 0), which is not on
 *                 the curve, so no flag is needed and bases stay 192 bytes.
 *   cz_g2         Jacobian (X, Y, Z) = (X/Z^2, Y/Z^3); Z = 0 is infinity.
 *   cz_g2_xyzz    (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ), ZZ^3 = ZZZ^2; ZZ = 0 is
 *                 infinity. Cheapest for MSM bucket accumulation.
 * All coordinates are Montgomery-form Fp2. Aliased arguments are allowed
 * (except in cz_g2_batch_to_affine). Functions here are variable time: they
 * are for public data (proving keys, proofs); secret scalars in Groth16 are
 * blinded by the protocol itself. Nothing allocates or keeps state: any
 * thread, concurrently. Source: src/ec/g2.c over src/ec/curve_impl.h and
 * curve_encoding_impl.h; deserialize_many in src/ec/deserialize_many.c. */
#ifndef CUZK_G2_H
#define CUZK_G2_H
#include "cuzk/fp2.h"
#include "cuzk/fr.h"
#include "cuzk/g1.h" /* cz_point_check */

typedef struct {
  cz_fp2 x, y;
} cz_g2_affine;
typedef struct {
  cz_fp2 x, y, z;
} cz_g2;
typedef struct {
  cz_fp2 x, y, zz, zzz;
} cz_g2_xyzz;

#define CZ_G2_COMPRESSED_BYTES 96
#define CZ_G2_UNCOMPRESSED_BYTES 192

extern const cz_g2_affine CZ_G2_GENERATOR; /* the standard generator */

void cz_g2_set_identity(cz_g2 *r);
bool cz_g2_is_identity(const cz_g2 *p);
bool cz_g2_affine_is_identity(const cz_g2_affine *p);
bool cz_g2_eq(const cz_g2 *a, const cz_g2 *b);
bool cz_g2_affine_eq(const cz_g2_affine *a, const cz_g2_affine *b);

void cz_g2_from_affine(cz_g2 *r, const cz_g2_affine *a);
void cz_g2_to_affine(cz_g2_affine *r, const cz_g2 *p);
/* out[i] = affine form of in[i] with one field inversion in total
 * (identity -> (0, 0)); out and in must not overlap (out[i].x holds a
 * running product meanwhile). No allocation. */
void cz_g2_batch_to_affine(cz_g2_affine *out, const cz_g2 *in, size_t n);

void cz_g2_add(cz_g2 *r, const cz_g2 *a, const cz_g2 *b);
void cz_g2_add_affine(cz_g2 *r, const cz_g2 *a, const cz_g2_affine *b); /* mixed */
void cz_g2_dbl(cz_g2 *r, const cz_g2 *a);
void cz_g2_neg(cz_g2 *r, const cz_g2 *a);
void cz_g2_affine_neg(cz_g2_affine *r, const cz_g2_affine *a);

void cz_g2_xyzz_set_identity(cz_g2_xyzz *r);
void cz_g2_xyzz_add_affine(cz_g2_xyzz *r, const cz_g2_xyzz *a, const cz_g2_affine *b);
void cz_g2_xyzz_sub_affine(cz_g2_xyzz *r, const cz_g2_xyzz *a, const cz_g2_affine *b);
void cz_g2_xyzz_add(cz_g2_xyzz *r, const cz_g2_xyzz *a, const cz_g2_xyzz *b);
void cz_g2_xyzz_dbl(cz_g2_xyzz *r, const cz_g2_xyzz *a);
void cz_g2_xyzz_to_jacobian(cz_g2 *r, const cz_g2_xyzz *a);

/* r = k * p for any 256-bit canonical scalar k (k >= r included), for p
 * in the order-r subgroup or the identity: k is reduced mod r and split
 * with the psi endomorphism, which is exact only on that subgroup. For points
 * that may lie outside it (decoded without the subgroup check) use
 * cz_g2_mul_plain. */
void cz_g2_mul(cz_g2 *r, const cz_g2 *p, const cz_scalar *k);
void cz_g2_mul_fr(cz_g2 *r, const cz_g2 *p, const cz_fr *k);
/* r = k * p over all 256 bits of k with no endomorphism and no reduction
 * mod r: exact for every point on the curve, in the subgroup or not (for
 * example [r]p in a naive subgroup test). Slower than cz_g2_mul. */
void cz_g2_mul_plain(cz_g2 *r, const cz_g2 *p, const cz_scalar *k);

bool cz_g2_affine_is_on_curve(const cz_g2_affine *p); /* infinity counts as on the curve */
/* Endomorphism test, valid only for a point on the curve (not checked);
 * the identity is in the subgroup. */
bool cz_g2_affine_is_in_subgroup(const cz_g2_affine *p);

/* zcash encoding: 96-byte compressed / 192-byte uncompressed; x (then y),
 * each Fp2 coordinate c1 then c0, big-endian; top three bits of byte 0 =
 * compressed, infinity, y-sign. */
void cz_g2_affine_compress(uint8_t out[CZ_G2_COMPRESSED_BYTES], const cz_g2_affine *p);
void cz_g2_affine_serialize(uint8_t out[CZ_G2_UNCOMPRESSED_BYTES], const cz_g2_affine *p);
/* Decoding checks flags, canonical coordinates, the curve equation and,
 * when check_subgroup, subgroup membership, each with its own error:
 * CZ_ERR_BAD_FLAGS, CZ_ERR_NONCANONICAL, CZ_ERR_NOT_ON_CURVE,
 * CZ_ERR_NOT_IN_SUBGROUP. On error *p is left unspecified (for
 * CZ_ERR_NOT_IN_SUBGROUP it holds the decoded point). */
CZ_MUST_CHECK cz_err cz_g2_affine_decompress(cz_g2_affine *p,
                                             const uint8_t in[CZ_G2_COMPRESSED_BYTES],
                                             bool check_subgroup);
CZ_MUST_CHECK cz_err cz_g2_affine_deserialize(cz_g2_affine *p,
                                              const uint8_t in[CZ_G2_UNCOMPRESSED_BYTES],
                                              bool check_subgroup);
/* cz_g2_affine_deserialize with the checks named by check (cuzk/g1.h). */
CZ_MUST_CHECK cz_err cz_g2_affine_deserialize_checking(cz_g2_affine *p,
                                                       const uint8_t in[CZ_G2_UNCOMPRESSED_BYTES],
                                                       cz_point_check check);
/* n consecutive uncompressed points (a parameter-file vector) into out[0..n),
 * each with exactly cz_g2_affine_deserialize_checking's result; faster (8 points at a
 * time where the CPU has AVX-512 IFMA). On error returns the first bad
 * point's error and sets *bad (if not NULL) to its index; out[0..*bad) are
 * decoded, the rest unspecified. Single-threaded: callers split a vector
 * across threads themselves (cz_groth16_params_read does). */
CZ_MUST_CHECK cz_err cz_g2_affine_deserialize_many(cz_g2_affine *out, const uint8_t *in, size_t n,
                                                   cz_point_check check, size_t *bad);

#endif
