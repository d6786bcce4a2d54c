/* Inlinable Fp and Fp2 operations for the library's hot code (fp2.c, fp12.c,
 * pairing.c, the curve formulas). The public cz_fp_add/... are out-of-line
 * calls; the tower and the point formulas make hundreds of them per
 * operation, so there the small ones are inlined from here, and mul/sqr go
 * straight to the selected backend instead of through the dispatcher.
 * Results are identical to the public functions (which use the same code). */
#ifndef CUZK_EC_FP_INLINE_H
#define CUZK_EC_FP_INLINE_H
#include "cuzk/fp.h"
#include "cuzk/fp2.h"
#include "ec/mont.h"
#include "ec/mont_x86.h"

static inline void fpi_add(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_X86
  mont_add6_x86(r->l, a->l, b->l, CZ_FP_MODULUS);
#else
  mont_add(r->l, a->l, b->l, CZ_FP_MODULUS, CZ_FP_LIMBS);
#endif
}
static inline void fpi_sub(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_X86
  mont_sub6_x86(r->l, a->l, b->l, CZ_FP_MODULUS);
#else
  mont_sub(r->l, a->l, b->l, CZ_FP_MODULUS, CZ_FP_LIMBS);
#endif
}
static inline void fpi_dbl(cz_fp *r, const cz_fp *a) { fpi_add(r, a, a); }
static inline void fpi_neg(cz_fp *r, const cz_fp *a) { fpi_sub(r, &CZ_FP_ZERO, a); }
static inline void fpi_mul(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    cz_fp_mul_adx(r, a, b);
    return;
  }
#endif
  cz_fp_mul_portable(r, a, b);
}
static inline void fpi_sqr(cz_fp *r, const cz_fp *a) { fpi_mul(r, a, a); }
/* A product inside a chain of products: a, b < 2p, result < 2p and not
 * canonical on the ADX path (one conditional subtraction fewer); the
 * portable path's is the full product, so there every value stays reduced.
 * Feed it only to fpi_mul/fpi_mul_lazy, or make it canonical with
 * fpi_add(r, r, &CZ_FP_ZERO). */
static inline void fpi_mul_lazy(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    cz_fp_mul_adx_lazy(r, a, b);
    return;
  }
#endif
  cz_fp_mul_portable(r, a, b);
}
static inline bool fpi_is_zero(const cz_fp *a) { return limbs_is_zero(a->l, CZ_FP_LIMBS); }
static inline bool fpi_eq(const cz_fp *a, const cz_fp *b) {
  return memcmp(a->l, b->l, sizeof a->l) == 0;
}
/* Forwarders, so code written against FF(x) can use the fpi_ names for all. */
static inline bool fpi_inv(cz_fp *r, const cz_fp *a) { return cz_fp_inv(r, a); }
static inline bool fpi_sqrt(cz_fp *r, const cz_fp *a) { return cz_fp_sqrt(r, a); }
static inline bool fpi_is_lexicographically_largest(const cz_fp *a) {
  return cz_fp_is_lexicographically_largest(a);
}

static inline void fp2i_add(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
  fpi_add(&r->c0, &a->c0, &b->c0);
  fpi_add(&r->c1, &a->c1, &b->c1);
}
static inline void fp2i_sub(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
  fpi_sub(&r->c0, &a->c0, &b->c0);
  fpi_sub(&r->c1, &a->c1, &b->c1);
}
static inline void fp2i_dbl(cz_fp2 *r, const cz_fp2 *a) {
  fpi_dbl(&r->c0, &a->c0);
  fpi_dbl(&r->c1, &a->c1);
}
static inline void fp2i_neg(cz_fp2 *r, const cz_fp2 *a) {
  fpi_neg(&r->c0, &a->c0);
  fpi_neg(&r->c1, &a->c1);
}
static inline void fp2i_conj(cz_fp2 *r, const cz_fp2 *a) {
  r->c0 = a->c0;
  fpi_neg(&r->c1, &a->c1);
}
/* r = a (1 + u) = (c0 - c1) + (c0 + c1) u. */
static inline void fp2i_mul_by_nonresidue(cz_fp2 *r, const cz_fp2 *a) {
  cz_fp t;
  fpi_sub(&t, &a->c0, &a->c1);
  fpi_add(&r->c1, &a->c0, &a->c1);
  r->c0 = t;
}
static inline void fp2i_mul_fp(cz_fp2 *r, const cz_fp2 *a, const cz_fp *b) {
  fpi_mul(&r->c0, &a->c0, b);
  fpi_mul(&r->c1, &a->c1, b);
}
/* Fp2 multiplication and squaring with lazy reduction on the ADX path
 * (mont_adx.c); they need BMI2/ADX (cz_mont_use_adx) and fully reduced
 * inputs, and return what cz_fp2_mul/cz_fp2_sqr's portable path returns. */
void cz_fp2_mul_adx(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sqr_adx(cz_fp2 *r, const cz_fp2 *a);
static inline void fp2i_mul(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    cz_fp2_mul_adx(r, a, b);
    return;
  }
#endif
  cz_fp2_mul(r, a, b);
}
/* Fp2 has no lazy product (cz_fp2_mul_adx wants reduced inputs): the
 * full one, for code generic over Fp and Fp2 (msm_impl.h). */
static inline void fp2i_mul_lazy(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) { fp2i_mul(r, a, b); }
static inline void fp2i_sqr(cz_fp2 *r, const cz_fp2 *a) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    cz_fp2_sqr_adx(r, a);
    return;
  }
#endif
  cz_fp2_sqr(r, a);
}
static inline bool fp2i_is_zero(const cz_fp2 *a) {
  return fpi_is_zero(&a->c0) && fpi_is_zero(&a->c1);
}
static inline bool fp2i_eq(const cz_fp2 *a, const cz_fp2 *b) {
  return memcmp(a, b, sizeof *a) == 0;
}
/* Some square root of a (false when a is not a square), not necessarily the
 * one cz_fp2_sqrt returns (it may be its negation): for callers that fix
 * the sign themselves, like point decompression. About 2x cz_fp2_sqrt's
 * speed. */
bool cz_fp2_sqrt_any(cz_fp2 *r, const cz_fp2 *a);
static inline bool fp2i_inv(cz_fp2 *r, const cz_fp2 *a) { return cz_fp2_inv(r, a); }
static inline bool fp2i_sqrt(cz_fp2 *r, const cz_fp2 *a) { return cz_fp2_sqrt(r, a); }
static inline bool fp2i_is_lexicographically_largest(const cz_fp2 *a) {
  return cz_fp2_is_lexicographically_largest(a);
}

#endif
