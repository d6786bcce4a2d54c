/* MSM over G2, instantiated from msm_impl.h with the inlinable field layer
 * (ec/fp_inline.h: Fp2 add/sub inline, mul straight to the ADX Fp2 product). */
#include "cuzk/msm.h"
#include "ec/fp_inline.h"

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
#include "msm/msm_impl.h"
