/* MSM over G2, instantiated from msm_impl.h with the inlinable field layer
 * (ec/fp_inline.h: Fp2 add/sub inline, mul straight to the ADX Fp2 product). */
#include "cuzk/msm.h"
#include "ec/fp_inline.h"
#include "ec/ifma_fp2.h"

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
#define MSM_VEC 1
#define VF cz_fp2v
#define VF_TARGET CZ_IFMA_TARGET
#define VF_SUB cz_fp2v_sub
#define VF_MUL cz_fp2v_mul
#define VF_SQR cz_fp2v_sqr
#define VF_ONE cz_fp2v_one
#define VF_ZERO cz_fp2v_zero
#define VF_IS_ZERO cz_fp2v_is_zero
#define VF_SELECT cz_fp2v_select
#define VF_GATHER cz_fp2v_from_mont
#define VF_SCATTER cz_fp2v_to_mont
#endif
#include "msm/msm_impl.h"
