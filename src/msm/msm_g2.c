/* MSM over G2, instantiated from msm_impl.h with the inlinable field layer
 * (ec/fp_inline.h: Fp2 add/sub inline, mul straight to the ADX Fp2 product). */
#include "cuzk/msm.h"
#include "ec/fp_inline.h"
#include "ec/ifma_field.h"

#define F cz_fp2
#define FF(x) fp2i_##x
#define F_ZERO CZ_FP2_ZERO
#define F_ONE CZ_FP2_ONE
#define F_ADD fp2i_add
#define F_SUB fp2i_sub
#define AFF cz_g2_affine
#define JAC cz_g2
#define XYZZ cz_g2_xyzz
#define GN(x) cz_g2_##x
#define SEG cz_msm_g2_segment
#define MSM(x) cz_msm_g2##x

#ifdef CZ_IFMA
/* 8 lanes of Fp2 = Fp[u]/(u^2 + 1), built from the IFMA Fp operations the
 * way fp2.c builds Fp2 from Fp (Karatsuba: 3 products per multiplication). */
typedef struct {
  cz_fpv c0, c1;
} msm_fp2v;

CZ_IFMA_TARGET static inline void msm_fp2v_sub(msm_fp2v *r, const msm_fp2v *a, const msm_fp2v *b) {
  cz_fpv_sub(&r->c0, &a->c0, &b->c0);
  cz_fpv_sub(&r->c1, &a->c1, &b->c1);
}
/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
CZ_IFMA_TARGET static inline void msm_fp2v_mul(msm_fp2v *r, const msm_fp2v *a, const msm_fp2v *b) {
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
CZ_IFMA_TARGET static inline void msm_fp2v_sqr(msm_fp2v *r, const msm_fp2v *a) {
  cz_fpv s, d, p;
  cz_fpv_add(&s, &a->c0, &a->c1);
  cz_fpv_sub(&d, &a->c0, &a->c1);
  cz_fpv_mul(&p, &a->c0, &a->c1);
  cz_fpv_mul(&r->c0, &s, &d);
  cz_fpv_add(&r->c1, &p, &p);
}
CZ_IFMA_TARGET static inline void msm_fp2v_one(msm_fp2v *r) {
  cz_fpv_one(&r->c0);
  cz_fpv_zero(&r->c1);
}
CZ_IFMA_TARGET static inline void msm_fp2v_zero(msm_fp2v *r) {
  cz_fpv_zero(&r->c0);
  cz_fpv_zero(&r->c1);
}
CZ_IFMA_TARGET static inline __mmask8 msm_fp2v_is_zero(const msm_fp2v *a) {
  return (__mmask8)(cz_fpv_is_zero(&a->c0) & cz_fpv_is_zero(&a->c1));
}
CZ_IFMA_TARGET static inline void msm_fp2v_select(msm_fp2v *r, __mmask8 m, const msm_fp2v *a,
                                                  const msm_fp2v *b) {
  cz_fpv_select(&r->c0, m, &a->c0, &b->c0);
  cz_fpv_select(&r->c1, m, &a->c1, &b->c1);
}
CZ_IFMA_TARGET static inline void msm_fp2v_gather(msm_fp2v *r, const cz_fp2 *p[8]) {
  const cz_fp *p0[8], *p1[8];
  for (int l = 0; l < 8; l++) {
    p0[l] = &p[l]->c0;
    p1[l] = &p[l]->c1;
  }
  cz_fpv_from_mont(&r->c0, p0);
  cz_fpv_from_mont(&r->c1, p1);
}
CZ_IFMA_TARGET static inline void msm_fp2v_scatter(cz_fp2 *p[8], const msm_fp2v *a) {
  cz_fp *p0[8], *p1[8];
  for (int l = 0; l < 8; l++) {
    p0[l] = &p[l]->c0;
    p1[l] = &p[l]->c1;
  }
  cz_fpv_to_mont(p0, &a->c0);
  cz_fpv_to_mont(p1, &a->c1);
}
#define MSM_VEC 1
#define VF msm_fp2v
#define VF_TARGET CZ_IFMA_TARGET
#define VF_SUB msm_fp2v_sub
#define VF_MUL msm_fp2v_mul
#define VF_SQR msm_fp2v_sqr
#define VF_ONE msm_fp2v_one
#define VF_ZERO msm_fp2v_zero
#define VF_IS_ZERO msm_fp2v_is_zero
#define VF_SELECT msm_fp2v_select
#define VF_GATHER msm_fp2v_gather
#define VF_SCATTER msm_fp2v_scatter
#endif
#include "msm/msm_impl.h"
