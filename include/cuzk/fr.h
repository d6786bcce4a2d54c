/* Layer: ec */
/* Fr: the 255-bit scalar field of BLS12-381,
 * r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001.
 *
 * Elements are kept in Montgomery form (a*R mod r, R = 2^256) in four
 * little-endian 64-bit limbs, fully reduced. Aliased arguments are allowed.
 * The field has 2-adicity 32 and multiplicative generator 7. The functions
 * without a comment behave as their cz_fp_ namesakes in cuzk/fp.h (thread
 * safety, _adx needing ADX, pow and batch_inv included). Source:
 * src/ec/fr.c over src/ec/field_impl.h. */
#ifndef CUZK_FR_H
#define CUZK_FR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

#define CZ_FR_LIMBS 4
#define CZ_FR_BYTES 32
#define CZ_FR_TWO_ADICITY 32
#define CZ_FR_GENERATOR 7

typedef struct {
  uint64_t l[CZ_FR_LIMBS];
} cz_fr;

/* A canonical (non-Montgomery) 256-bit integer, little-endian limbs:
 * the form scalar multiplication and MSM consume. */
typedef struct {
  uint64_t l[CZ_FR_LIMBS];
} cz_scalar;

extern const cz_fr CZ_FR_ZERO;
extern const cz_fr CZ_FR_ONE;
extern const uint64_t CZ_FR_MODULUS[CZ_FR_LIMBS];

void cz_fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_neg(cz_fr *r, const cz_fr *a);
void cz_fr_dbl(cz_fr *r, const cz_fr *a);
void cz_fr_mul(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_sqr(cz_fr *r, const cz_fr *a);
void cz_fr_mul_portable(cz_fr *r, const cz_fr *a, const cz_fr *b);
void cz_fr_sqr_portable(cz_fr *r, const cz_fr *a);
void cz_fr_mul_adx(cz_fr *r, const cz_fr *a, const cz_fr *b); /* needs ADX */
void cz_fr_sqr_adx(cz_fr *r, const cz_fr *a);                 /* needs ADX */

void cz_fr_pow(cz_fr *r, const cz_fr *a, const uint64_t *e, size_t n);
/* r = 1/a; false (r = 0) when a = 0. Variable time: public values only. */
bool cz_fr_inv(cz_fr *r, const cz_fr *a);
/* 1/a as a^(r-2): timing independent of a (secrets), and the test oracle. */
bool cz_fr_inv_fermat(cz_fr *r, const cz_fr *a);
void cz_fr_batch_inv(cz_fr *out, const cz_fr *in, size_t n);
/* Tonelli-Shanks, variable time; false (r unchanged) when non-square. */
bool cz_fr_sqrt(cz_fr *r, const cz_fr *a);
bool cz_fr_is_square(const cz_fr *a);

bool cz_fr_is_zero(const cz_fr *a);
bool cz_fr_is_one(const cz_fr *a);
bool cz_fr_eq(const cz_fr *a, const cz_fr *b);

void cz_fr_from_u64(cz_fr *r, uint64_t v);
void cz_fr_from_canonical(cz_fr *r, const uint64_t a[CZ_FR_LIMBS]); /* a < r required */
void cz_fr_to_canonical(uint64_t r[CZ_FR_LIMBS], const cz_fr *a);
void cz_fr_to_scalar(cz_scalar *s, const cz_fr *a);
CZ_MUST_CHECK cz_err cz_fr_from_bytes_le(cz_fr *r,
                                         const uint8_t in[CZ_FR_BYTES]); /* rejects >= r */
CZ_MUST_CHECK cz_err cz_fr_from_bytes_be(cz_fr *r, const uint8_t in[CZ_FR_BYTES]);
void cz_fr_to_bytes_le(uint8_t out[CZ_FR_BYTES], const cz_fr *a);
void cz_fr_to_bytes_be(uint8_t out[CZ_FR_BYTES], const cz_fr *a);
/* Reduce 64 little-endian bytes modulo r (for hashing to the field). */
void cz_fr_from_wide_le(cz_fr *r, const uint8_t in[64]);

/* r = a primitive 2^log_n-th root of unity (log_n <= 32, not checked: a
 * larger log_n gives the 2^32-th root), the one bellperson uses:
 * ROOT_OF_UNITY = 7^((r-1)/2^32) squared 32-log_n times. */
void cz_fr_root_of_unity(cz_fr *r, unsigned log_n);

#endif
