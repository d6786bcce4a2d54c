/* Layer: ec */
/* The tower Fp6 = Fp2[v]/(v^3 - (1+u)) and Fp12 = Fp6[w]/(w^2 - v),
 * the target group of the BLS12-381 pairing. Aliasing is allowed; nothing
 * allocates, and the Frobenius constants are built once, thread-safely, on
 * first use: any thread. Source: src/ec/fp12.c. */
#ifndef CUZK_FP12_H
#define CUZK_FP12_H
#include "cuzk/fp2.h"

typedef struct {
  cz_fp2 c0, c1, c2;
} cz_fp6; /* c0 + c1 v + c2 v^2 */
typedef struct {
  cz_fp6 c0, c1;
} cz_fp12; /* c0 + c1 w */

extern const cz_fp6 CZ_FP6_ZERO;
extern const cz_fp6 CZ_FP6_ONE;
extern const cz_fp12 CZ_FP12_ONE;

void cz_fp6_add(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sub(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_neg(cz_fp6 *r, const cz_fp6 *a);
void cz_fp6_mul(cz_fp6 *r, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sqr(cz_fp6 *r, const cz_fp6 *a);
void cz_fp6_mul_by_nonresidue(cz_fp6 *r, const cz_fp6 *a);         /* r = a * v */
bool cz_fp6_inv(cz_fp6 *r, const cz_fp6 *a);                       /* false (r = 0) when a = 0 */
void cz_fp6_frobenius(cz_fp6 *r, const cz_fp6 *a, unsigned power); /* a^(p^power) */
bool cz_fp6_eq(const cz_fp6 *a, const cz_fp6 *b);
bool cz_fp6_is_zero(const cz_fp6 *a);

void cz_fp12_mul(cz_fp12 *r, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_sqr(cz_fp12 *r, const cz_fp12 *a);
/* Squaring valid only in the cyclotomic subgroup (after the easy part of
 * the final exponentiation); Granger-Scott. */
void cz_fp12_cyclotomic_sqr(cz_fp12 *r, const cz_fp12 *a);
/* r = a * ((c0 + c1 v) + (c4 v) w): the sparse shape of a Miller-loop line
 * (M-type twist; coefficients 0, 1, 4 of the basis 1, v, v^2, w, vw, v^2 w,
 * as blst/zkcrypto order them). */
void cz_fp12_mul_by_014(cz_fp12 *r, const cz_fp12 *a, const cz_fp2 *c0, const cz_fp2 *c1,
                        const cz_fp2 *c4);
bool cz_fp12_inv(cz_fp12 *r, const cz_fp12 *a); /* false (r = 0) when a = 0 */
void cz_fp12_conj(cz_fp12 *r,
                  const cz_fp12 *a); /* a^(p^6), the inverse on the cyclotomic subgroup */
void cz_fp12_frobenius(cz_fp12 *r, const cz_fp12 *a, unsigned power); /* a^(p^power) */
void cz_fp12_pow(cz_fp12 *r, const cz_fp12 *a, const uint64_t *e, size_t n);
bool cz_fp12_eq(const cz_fp12 *a, const cz_fp12 *b);
bool cz_fp12_is_one(const cz_fp12 *a);
/* 576-byte encoding (used by tests and vectors): the 12 Fp coefficients from
 * the lowest tower position up, c0 before c1 at every level:
 *   c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1,
 *   c1.c0.c0, c1.c0.c1, c1.c1.c0, c1.c1.c1, c1.c2.c0, c1.c2.c1,
 * each 48 bytes big-endian canonical (value < p). from_bytes rejects a
 * non-canonical coefficient with CZ_ERR_NONCANONICAL, leaving *r unchanged. */
void cz_fp12_to_bytes(uint8_t out[576], const cz_fp12 *a);
CZ_MUST_CHECK cz_err cz_fp12_from_bytes(cz_fp12 *r, const uint8_t in[576]);

#endif
