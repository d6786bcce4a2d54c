/* MSM over G1, instantiated from msm_impl.h with the inlinable field layer
 * (ec/fp_inline.h: add/sub inline, mul straight to the selected backend). */
#include "cuzk/msm.h"
#include "ec/fp_inline.h"
#include "ec/ifma_field.h"

#define F cz_fp
#define FF(x) fpi_##x
#define F_ZERO CZ_FP_ZERO
#define F_ONE CZ_FP_ONE
#define F_ADD fpi_add
#define F_SUB fpi_sub
#define AFF cz_g1_affine
#define JAC cz_g1
#define XYZZ cz_g1_xyzz
#define GN(x) cz_g1_##x
#define SEG cz_msm_g1_segment
#define MSM(x) cz_msm_g1##x

#ifdef CZ_IFMA
/* The 8-lane batched additions run on the IFMA field as it is. */
#define MSM_VEC 1
#define VF cz_fpv
#define VF_TARGET CZ_IFMA_TARGET
#define VF_SUB cz_fpv_sub
#define VF_MUL cz_fpv_mul
#define VF_SQR cz_fpv_sqr
#define VF_ONE cz_fpv_one
#define VF_ZERO cz_fpv_zero
#define VF_IS_ZERO cz_fpv_is_zero
#define VF_SELECT cz_fpv_select
#define VF_GATHER cz_fpv_from_mont
#define VF_SCATTER cz_fpv_to_mont
#endif
#include "msm/msm_impl.h"
