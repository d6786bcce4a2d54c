/* 8 lanes of Fp2 = Fp[u]/(u^2 + 1) on the AVX-512 IFMA Fp of
 * ec/ifma_field.h (internal; exported to msm and groth16): the G2 MSM's
 * batched additions and the setup's fixed-base multiplication. Same rules
 * as ifma_field.h: callers carry CZ_IFMA_TARGET and run only when
 * cz_ifma_use; every value is fully reduced, so results equal the scalar
 * Fp2's bit for bit. Declares nothing without CZ_IFMA. */
#ifndef CUZK_EC_IFMA_FP2_H
#define CUZK_EC_IFMA_FP2_H
#include "cuzk/fp2.h"
#include "ec/ifma_field.h"
#ifdef CZ_IFMA

/* Built the way fp2.c builds Fp2 from Fp (Karatsuba: 3 products per
 * multiplication). */
typedef struct {
  cz_fpv c0, c1;
} cz_fp2v;

CZ_IFMA_TARGET static inline void cz_fp2v_sub(cz_fp2v *r, const cz_fp2v *a, const cz_fp2v *b) {
  cz_fpv_sub(&r->c0, &a->c0, &b->c0);
  cz_fpv_sub(&r->c1, &a->c1, &b->c1);
}
/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
CZ_IFMA_TARGET static inline void cz_fp2v_mul(cz_fp2v *r, const cz_fp2v *a, const cz_fp2v *b) {
  cz_fpv t0, t1, sa, sb;
  cz_fpv_mul(&t0, &a->c0, &b->c0);
  cz_fpv_mul(&t1, &a->c1, &b->c1);
  cz_fpv_add(&sa, &a->c0, &a->c1);
  cz_fpv_add(&sb, &b->c0, &b->c1);
  cz_fpv_mul(&sa, &sa, &sb);
  cz_fpv_sub(&r->c0, &t0, &t1);
  cz_fpv_sub(&sa, &sa, &t0);
  cz_fpv_sub(&r->c1, &sa, &t1);
}
/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
CZ_IFMA_TARGET static inline void cz_fp2v_sqr(cz_fp2v *r, const cz_fp2v *a) {
  cz_fpv s, d, p;
  cz_fpv_add(&s, &a->c0, &a->c1);
  cz_fpv_sub(&d, &a->c0, &a->c1);
  cz_fpv_mul(&p, &a->c0, &a->c1);
  cz_fpv_mul(&r->c0, &s, &d);
  cz_fpv_add(&r->c1, &p, &p);
}
CZ_IFMA_TARGET static inline void cz_fp2v_neg(cz_fp2v *r, const cz_fp2v *a) {
  cz_fpv_neg(&r->c0, &a->c0);
  cz_fpv_neg(&r->c1, &a->c1);
}
CZ_IFMA_TARGET static inline void cz_fp2v_one(cz_fp2v *r) {
  cz_fpv_one(&r->c0);
  cz_fpv_zero(&r->c1);
}
CZ_IFMA_TARGET static inline void cz_fp2v_zero(cz_fp2v *r) {
  cz_fpv_zero(&r->c0);
  cz_fpv_zero(&r->c1);
}
CZ_IFMA_TARGET static inline __mmask8 cz_fp2v_is_zero(const cz_fp2v *a) {
  return (__mmask8)(cz_fpv_is_zero(&a->c0) & cz_fpv_is_zero(&a->c1));
}
CZ_IFMA_TARGET static inline void cz_fp2v_select(cz_fp2v *r, __mmask8 m, const cz_fp2v *a,
                                                 const cz_fp2v *b) {
  cz_fpv_select(&r->c0, m, &a->c0, &b->c0);
  cz_fpv_select(&r->c1, m, &a->c1, &b->c1);
}
CZ_IFMA_TARGET static inline void cz_fp2v_from_mont(cz_fp2v *r, const cz_fp2 *p[8]) {
  const cz_fp *p0[8], *p1[8];
  for (int l = 0; l < 8; l++) {
    p0[l] = &p[l]->c0;
    p1[l] = &p[l]->c1;
  }
  cz_fpv_from_mont(&r->c0, p0);
  cz_fpv_from_mont(&r->c1, p1);
}
CZ_IFMA_TARGET static inline void cz_fp2v_to_mont(cz_fp2 *p[8], const cz_fp2v *a) {
  cz_fp *p0[8], *p1[8];
  for (int l = 0; l < 8; l++) {
    p0[l] = &p[l]->c0;
    p1[l] = &p[l]->c1;
  }
  cz_fpv_to_mont(p0, &a->c0);
  cz_fpv_to_mont(p1, &a->c1);
}
#endif /* CZ_IFMA */
#endif
