/* MSM over G1, instantiated from msm_impl.h. */
#include "cuzk/msm.h"

#define F cz_fp
#define FF(x) cz_fp_##x
#define F_ZERO CZ_FP_ZERO
#define F_ONE CZ_FP_ONE
#define AFF cz_g1_affine
#define JAC cz_g1
#define XYZZ cz_g1_xyzz
#define GN(x) cz_g1_##x
#define SEG cz_msm_g1_segment
#define MSM(x) cz_msm_g1##x
#include "msm/msm_impl.h"
