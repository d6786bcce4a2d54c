/* The prover's single entry to the MSM: bellperson-layout segments passed
 * to cz_msm (Pippenger with density bitmaps), G1 and G2. A backend that
 * wants another MSM changes only this file. */
#include "cuzk/msm.h"
#include "groth16/g16_internal.h"

#define MAX_SEGS 4

cz_err g16_msm_g1(cz_g1 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads) {
  cz_msm_g1_segment s[MAX_SEGS];
  if (n_segs > MAX_SEGS) return CZ_ERR_INVALID_ARG;
  for (size_t i = 0; i < n_segs; i++)
    s[i] = (cz_msm_g1_segment){segs[i].bases, segs[i].n_bases, NULL,       segs[i].frs,
                               segs[i].n_scalars, segs[i].density, segs[i].packed};
  return cz_msm_g1_segments(out, s, n_segs, n_threads, NULL);
}

cz_err g16_msm_g2(cz_g2 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads) {
  cz_msm_g2_segment s[MAX_SEGS];
  if (n_segs > MAX_SEGS) return CZ_ERR_INVALID_ARG;
  for (size_t i = 0; i < n_segs; i++)
    s[i] = (cz_msm_g2_segment){segs[i].bases, segs[i].n_bases, NULL,       segs[i].frs,
                               segs[i].n_scalars, segs[i].density, segs[i].packed};
  return cz_msm_g2_segments(out, s, n_segs, n_threads, NULL);
}
