/* Layer: ec */
/* Fp2 = Fp[u]/(u^2 + 1): the field G2's coordinates live in.
 * An element is c0 + c1*u, both in Montgomery form. Aliasing is allowed;
 * nothing allocates or keeps state (any thread). Source: src/ec/fp2.c. */
#ifndef CUZK_FP2_H
#define CUZK_FP2_H
#include "cuzk/fp.h"

typedef struct {
  cz_fp c0, c1;
} cz_fp2;

extern const cz_fp2 CZ_FP2_ZERO;
extern const cz_fp2 CZ_FP2_ONE;

void cz_fp2_add(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sub(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_neg(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_dbl(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_mul(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sqr(cz_fp2 *r, const cz_fp2 *a);
void cz_fp2_mul_fp(cz_fp2 *r, const cz_fp2 *a, const cz_fp *b);
/* r = a * (1 + u), the non-residue that defines Fp6 over Fp2. */
void cz_fp2_mul_by_nonresidue(cz_fp2 *r, const cz_fp2 *a);
/* r = conjugate of a = a^p (the Frobenius map of Fp2). */
void cz_fp2_conj(cz_fp2 *r, const cz_fp2 *a);
bool cz_fp2_inv(cz_fp2 *r, const cz_fp2 *a);  /* false (r = 0) when a = 0 */
bool cz_fp2_sqrt(cz_fp2 *r, const cz_fp2 *a); /* false (r unchanged) for a non-square */
bool cz_fp2_is_square(const cz_fp2 *a);
void cz_fp2_pow(cz_fp2 *r, const cz_fp2 *a, const uint64_t *e, size_t n);

bool cz_fp2_is_zero(const cz_fp2 *a);
bool cz_fp2_is_one(const cz_fp2 *a);
bool cz_fp2_eq(const cz_fp2 *a, const cz_fp2 *b);
/* zcash's sign rule for G2: compare c1 first; when c1 = 0, compare c0. */
bool cz_fp2_is_lexicographically_largest(const cz_fp2 *a);

#endif
