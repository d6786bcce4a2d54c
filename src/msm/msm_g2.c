/* MSM over G2, instantiated from msm_impl.h. */
#include "cuzk/msm.h"
#include "ec/mont.h"
#include "ec/mont_x86.h"

/* Inline Fp2 add/sub (coefficient-wise) for the batched additions. */
static inline void msm_fp_sub(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_X86
  mont_sub6_x86(r->l, a->l, b->l, CZ_FP_MODULUS);
#else
  mont_sub(r->l, a->l, b->l, CZ_FP_MODULUS, CZ_FP_LIMBS);
#endif
}
static inline void msm_fp_add(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_X86
  mont_add6_x86(r->l, a->l, b->l, CZ_FP_MODULUS);
#else
  mont_add(r->l, a->l, b->l, CZ_FP_MODULUS, CZ_FP_LIMBS);
#endif
}
static inline void msm_fp2_add(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
  msm_fp_add(&r->c0, &a->c0, &b->c0);
  msm_fp_add(&r->c1, &a->c1, &b->c1);
}
static inline void msm_fp2_sub(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
  msm_fp_sub(&r->c0, &a->c0, &b->c0);
  msm_fp_sub(&r->c1, &a->c1, &b->c1);
}

#define F cz_fp2
#define FF(x) cz_fp2_##x
#define F_ZERO CZ_FP2_ZERO
#define F_ONE CZ_FP2_ONE
#define F_ADD msm_fp2_add
#define F_SUB msm_fp2_sub
#define AFF cz_g2_affine
#define JAC cz_g2
#define XYZZ cz_g2_xyzz
#define GN(x) cz_g2_##x
#define SEG cz_msm_g2_segment
#define MSM(x) cz_msm_g2##x
#include "msm/msm_impl.h"
