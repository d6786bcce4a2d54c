/* Layer: ec */
/* Fp: the 381-bit base field of BLS12-381,
 * p =
 * 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab.
 *
 * Elements are kept in Montgomery form (a*R mod p, R = 2^384) in six
 * little-endian 64-bit limbs and are always fully reduced (< p). All
 * operations accept aliased arguments (r may equal a or b). Nothing keeps
 * state (the ADX / portable choice is cuzk/cpu.h's): any thread,
 * concurrently. Only cz_fp_batch_inv allocates. Inputs must be reduced
 * elements; nothing checks it. Source: src/ec/fp.c over the Fp/Fr template
 * src/ec/field_impl.h. */
#ifndef CUZK_FP_H
#define CUZK_FP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

#define CZ_FP_LIMBS 6
#define CZ_FP_BYTES 48

typedef struct {
  uint64_t l[CZ_FP_LIMBS];
} cz_fp;

extern const cz_fp CZ_FP_ZERO;
extern const cz_fp CZ_FP_ONE; /* R mod p */
extern const uint64_t CZ_FP_MODULUS[CZ_FP_LIMBS];

void cz_fp_add(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sub(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_neg(cz_fp *r, const cz_fp *a);
void cz_fp_dbl(cz_fp *r, const cz_fp *a);
void cz_fp_mul(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sqr(cz_fp *r, const cz_fp *a);
/* The two implementations behind cz_fp_mul/sqr, for tests and benchmarks.
 * The _adx ones must only be called when cz_cpu_has_adx() is true, and
 * exist only in x86-64 builds (src/ec/mont_adx.c is empty elsewhere). */
void cz_fp_mul_portable(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sqr_portable(cz_fp *r, const cz_fp *a);
void cz_fp_mul_adx(cz_fp *r, const cz_fp *a, const cz_fp *b);
/* a b with a, b < 2p (not necessarily reduced) and the result below 2p,
 * not canonical: for chains of products only (see mont_adx.c). */
void cz_fp_mul_adx_lazy(cz_fp *r, const cz_fp *a, const cz_fp *b);
void cz_fp_sqr_adx(cz_fp *r, const cz_fp *a);

/* r = a^e, e given as n little-endian 64-bit limbs (not secret: variable
 * time); n = 0 or e = 0 gives 1. */
void cz_fp_pow(cz_fp *r, const cz_fp *a, const uint64_t *e, size_t n);
/* r = 1/a. Returns false (and r = 0) when a = 0.
 * Variable time (binary GCD): for public values only. */
bool cz_fp_inv(cz_fp *r, const cz_fp *a);
/* The same result as a^(p-2) (Fermat): a fixed sequence of multiplications,
 * so its timing does not depend on a. For secret values and as the test
 * oracle for cz_fp_inv. */
bool cz_fp_inv_fermat(cz_fp *r, const cz_fp *a);
/* out[i] = 1/in[i] for n elements with one inversion (Montgomery's trick);
 * zero inputs give zero outputs. out may equal in (not partly overlap it).
 * Allocates n elements of scratch; when that fails it falls back to one
 * cz_fp_inv per element (same result). */
void cz_fp_batch_inv(cz_fp *out, const cz_fp *in, size_t n);
/* r = a square root of a. Returns false (r unchanged) when a is not a square. */
bool cz_fp_sqrt(cz_fp *r, const cz_fp *a);
bool cz_fp_is_square(const cz_fp *a);

bool cz_fp_is_zero(const cz_fp *a);
bool cz_fp_is_one(const cz_fp *a);
bool cz_fp_eq(const cz_fp *a, const cz_fp *b);
/* True when a > (p-1)/2 as an integer: zcash's "lexicographically largest". */
bool cz_fp_is_lexicographically_largest(const cz_fp *a);

void cz_fp_from_u64(cz_fp *r, uint64_t v);
/* Convert between Montgomery form and canonical little-endian limbs. */
void cz_fp_from_canonical(cz_fp *r, const uint64_t a[CZ_FP_LIMBS]); /* a < p required */
void cz_fp_to_canonical(uint64_t r[CZ_FP_LIMBS], const cz_fp *a);
/* Bytes: 48-byte big- or little-endian canonical integers. Decoding rejects
 * values >= p with CZ_ERR_NONCANONICAL. */
CZ_MUST_CHECK cz_err cz_fp_from_bytes_be(cz_fp *r, const uint8_t in[CZ_FP_BYTES]);
CZ_MUST_CHECK cz_err cz_fp_from_bytes_le(cz_fp *r, const uint8_t in[CZ_FP_BYTES]);
void cz_fp_to_bytes_be(uint8_t out[CZ_FP_BYTES], const cz_fp *a);
void cz_fp_to_bytes_le(uint8_t out[CZ_FP_BYTES], const cz_fp *a);

#endif
