/* MSM over G1, instantiated from msm_impl.h. */
#include "cuzk/msm.h"
#include "ec/mont.h"
#include "ec/mont_x86.h"

/* Inline add/sub for the batched additions: called ~6 times per bucket
 * addition, where the out-of-line calls cost ~10% of the MSM. */
static inline void msm_fp_add(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_X86
  mont_add6_x86(r->l, a->l, b->l, CZ_FP_MODULUS);
#else
  mont_add(r->l, a->l, b->l, CZ_FP_MODULUS, CZ_FP_LIMBS);
#endif
}
static inline void msm_fp_sub(cz_fp *r, const cz_fp *a, const cz_fp *b) {
#ifdef CZ_MONT_X86
  mont_sub6_x86(r->l, a->l, b->l, CZ_FP_MODULUS);
#else
  mont_sub(r->l, a->l, b->l, CZ_FP_MODULUS, CZ_FP_LIMBS);
#endif
}

#define F cz_fp
#define FF(x) cz_fp_##x
#define F_ZERO CZ_FP_ZERO
#define F_ONE CZ_FP_ONE
#define F_ADD msm_fp_add
#define F_SUB msm_fp_sub
#define AFF cz_g1_affine
#define JAC cz_g1
#define XYZZ cz_g1_xyzz
#define GN(x) cz_g1_##x
#define SEG cz_msm_g1_segment
#define MSM(x) cz_msm_g1##x
#include "msm/msm_impl.h"
