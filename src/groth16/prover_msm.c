/* The prover's single entry to the MSM: bellperson-layout segments passed
 * to cz_msm (Pippenger with density bitmaps), G1 and G2; a mapped key's
 * segments slice by slice (prover_msm_mapped.c). A backend that wants
 * another MSM changes only these files. */
#include "cuzk/msm.h"
#include "groth16/g16_internal.h"

#define MAX_SEGS 4

static cz_err msm_g1(cz_g1 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads) {
  cz_msm_g1_segment s[MAX_SEGS];
  if (n_segs > MAX_SEGS) return CZ_ERR_INVALID_ARG;
  for (size_t i = 0; i < n_segs; i++)
    s[i] = (cz_msm_g1_segment){segs[i].bases,     segs[i].n_bases, NULL,          segs[i].frs,
                               segs[i].n_scalars, segs[i].density, segs[i].packed};
  return cz_msm_g1_segments(out, s, n_segs, n_threads, NULL);
}

static cz_err msm_g2(cz_g2 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads) {
  cz_msm_g2_segment s[MAX_SEGS];
  if (n_segs > MAX_SEGS) return CZ_ERR_INVALID_ARG;
  for (size_t i = 0; i < n_segs; i++)
    s[i] = (cz_msm_g2_segment){segs[i].bases,     segs[i].n_bases, NULL,          segs[i].frs,
                               segs[i].n_scalars, segs[i].density, segs[i].packed};
  return cz_msm_g2_segments(out, s, n_segs, n_threads, NULL);
}

static cz_err add_slice_g1(void *acc, const g16_msm_seg *seg, unsigned n_threads) {
  cz_g1 part;
  cz_err e = msm_g1(&part, seg, 1, n_threads);
  if (e == CZ_OK) cz_g1_add(acc, acc, &part);
  return e;
}

static cz_err add_slice_g2(void *acc, const g16_msm_seg *seg, unsigned n_threads) {
  cz_g2 part;
  cz_err e = msm_g2(&part, seg, 1, n_threads);
  if (e == CZ_OK) cz_g2_add(acc, acc, &part);
  return e;
}

cz_err cz_g16_msm_g1(cz_g1 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads) {
  if (!n_segs || !segs[0].key) return msm_g1(out, segs, n_segs, n_threads);
  cz_g1_set_identity(out);
  return cz_g16_msm_mapped(segs, n_segs, false, add_slice_g1, out, n_threads);
}

cz_err cz_g16_msm_g2(cz_g2 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads) {
  if (!n_segs || !segs[0].key) return msm_g2(out, segs, n_segs, n_threads);
  cz_g2_set_identity(out);
  return cz_g16_msm_mapped(segs, n_segs, true, add_slice_g2, out, n_threads);
}
