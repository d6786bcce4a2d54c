/* Fixed-base multiplication for the setup: one base, many scalars.
 *
 * A table of the multiples |d| 2^(w j) base for every w-bit signed window j
 * turns each multiplication into at most floor(255/w) + 1 additions and no
 * doublings; the additions are batched affine ones sharing an inversion
 * across FB_CHUNK scalars (fixed_base_impl.h). w is chosen per call to
 * minimise table plus multiplication cost. */
#include <stdlib.h>
#include "cuzk/parallel.h"
#include "ec/fp_inline.h"
#include "ec/ifma_fp2.h"
#include "groth16/g16_internal.h"

#define FB_CHUNK 1024 /* scalars per batched inversion */
#ifndef CZ_IFMA
#define FB_VEC_BYTES 0 /* no 8-lane groups in the scratch */
#endif
#define FB_PREFETCH 16 /* scalars ahead */
#define FB_MAX_W 16    /* the widest a caller may ask for */

static unsigned fb_windows(unsigned w) { return 255 / w + 1; }

/* Modelled cost in field multiplications: every window adds one table point
 * per scalar (batched affine, ~7M with the bookkeeping) and builds 2^(w-1)
 * table points (Jacobian addition plus its share of the conversion, ~20M).
 * The automatic choice stops at FB_AUTO_MAX_W: beyond it a table row
 * (2^(w-1) points, 196 KB for G1 at w = 12) leaves L2 and the misses cost
 * more than the windows saved. Measured for G1 at 2^18 scalars, one thread,
 * CPU us per scalar: w = 10: 6.3, 12: 6.0, 14: 6.4, 16: 9.2. */
#define FB_AUTO_MAX_W 12
unsigned cz_g16_fixed_base_pick_window(size_t n) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned w = 1; w <= FB_AUTO_MAX_W; w++) {
    double cost = fb_windows(w) * (7.0 * (double)n + 20.0 * (double)((size_t)1 << (w - 1)));
    if (w == 1 || cost < best_cost) {
      best = w;
      best_cost = cost;
    }
  }
  return best;
}

/* Bits [pos, pos + w) of k (zero past bit 255), w <= 16. */
static unsigned fb_bits(const cz_scalar *k, unsigned pos, unsigned w) {
  unsigned limb = pos / 64, off = pos % 64;
  if (limb >= CZ_FR_LIMBS) return 0;
  uint64_t v = k->l[limb] >> off;
  if (off + w > 64 && limb + 1 < CZ_FR_LIMBS) v |= k->l[limb + 1] << (64 - off);
  return (unsigned)(v & ((1u << w) - 1));
}

/* Signed digits of k < r < 2^255: d_j = bits_j + carry, and d_j > 2^(w-1)
 * becomes d_j - 2^w with a carry into the next window. The top window holds
 * at most w - 1 bits of k, so its digit is at most 2^(w-1) and nothing is
 * carried out. out[j * stride] = d_j. */
static void fb_recode(int32_t *out, size_t stride, const cz_scalar *k, unsigned w, unsigned nwin) {
  const unsigned half = 1u << (w - 1), full = 1u << w;
  unsigned carry = 0;
  for (unsigned j = 0; j < nwin; j++) {
    unsigned d = fb_bits(k, j * w, w) + carry;
    carry = d > half;
    out[(size_t)j * stride] = carry ? (int32_t)d - (int32_t)full : (int32_t)d;
  }
}

#ifdef CZ_IFMA
/* The 8-lane windows (fixed_base_vec.h, included after the scalar helpers
 * they use for the cases that are not plain additions). A group of 8 plain
 * additions, kept from the forward pass for the backward one: the
 * accumulators (x1, y1), the table points (x2, y2; y2 negated for negative
 * digits) and the product of the earlier groups' denominators. */
typedef struct {
  cz_fpv x1, y1, x2, y2, pre;
} fbv_g1_group;
typedef struct {
  cz_fp2v x1, y1, x2, y2, pre;
} fbv_g2_group;
CZ_IFMA_TARGET __attribute__((noinline)) static void fbv_g1_window(cz_g1_affine *acc,
                                                                   const int32_t *d,
                                                                   const cz_g1_affine *T, size_t m,
                                                                   fbv_g1_group *grp,
                                                                   uint16_t *idx);
CZ_IFMA_TARGET __attribute__((noinline)) static void fbv_g2_window(cz_g2_affine *acc,
                                                                   const int32_t *d,
                                                                   const cz_g2_affine *T, size_t m,
                                                                   fbv_g2_group *grp,
                                                                   uint16_t *idx);
#endif

#define F cz_fp
#define FF(x) fpi_##x
#define F_ONE CZ_FP_ONE
#define AFF cz_g1_affine
#define JAC cz_g1
#define GN(x) cz_g1_##x
#define FB(x) cz_g16_fixed_base_g1##x
#ifdef CZ_IFMA
#define FB_VEC_BYTES ((FB_CHUNK / 8 + 1) * sizeof(fbv_g1_group))
#define FBV_GROUP fbv_g1_group
#define FBV(x) fbv_g1##x
#define VF cz_fpv
#define VFN(x) cz_fpv_##x
#endif
#include "groth16/fixed_base_impl.h"
#ifdef CZ_IFMA
#include "groth16/fixed_base_vec.h"
#endif
#undef F
#undef FF
#undef F_ONE
#undef AFF
#undef JAC
#undef GN
#undef FB
#undef FBV_GROUP
#undef FBV
#undef VF
#undef VFN
#ifdef CZ_IFMA
#undef FB_VEC_BYTES
#endif

#define F cz_fp2
#define FF(x) fp2i_##x
#define F_ONE CZ_FP2_ONE
#define AFF cz_g2_affine
#define JAC cz_g2
#define GN(x) cz_g2_##x
#define FB(x) cz_g16_fixed_base_g2##x
#ifdef CZ_IFMA
#define FB_VEC_BYTES ((FB_CHUNK / 8 + 1) * sizeof(fbv_g2_group))
#define FBV_GROUP fbv_g2_group
#define FBV(x) fbv_g2##x
#define VF cz_fp2v
#define VFN(x) cz_fp2v_##x
#endif
#include "groth16/fixed_base_impl.h"
#ifdef CZ_IFMA
#include "groth16/fixed_base_vec.h"
#endif
