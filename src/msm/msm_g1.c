/* MSM over G1, instantiated from msm_impl.h with the inlinable field layer
 * (ec/fp_inline.h: add/sub inline, mul straight to the selected backend). */
#include "cuzk/msm.h"
#include "ec/fp_inline.h"

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
#include "msm/msm_impl.h"
