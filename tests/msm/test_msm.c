/* MSM against naive summation for G1 and G2: random, 0/1-heavy and small
 * scalars, every window width path, both bucket forms, threads, densities,
 * grouped equal scalars. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "ifma_skip.h"
#include "cuzk/cpu.h"
#include "cuzk/msm.h"

#define AFF cz_g1_affine
#define JAC cz_g1
#define GN(x) cz_g1_##x
#define SEG cz_msm_g1_segment
#define MSM(x) cz_msm_g1##x
#define GEN CZ_G1_GENERATOR
#include "msm/msm_test_impl.h"
#undef AFF
#undef JAC
#undef GN
#undef SEG
#undef MSM
#undef GEN

#define AFF cz_g2_affine
#define JAC cz_g2
#define GN(x) cz_g2_##x
#define SEG cz_msm_g2_segment
#define MSM(x) cz_msm_g2##x
#define GEN CZ_G2_GENERATOR
#include "msm/msm_test_impl.h"

int main(void) {
  /* t_paths holds the 8-lane bucket code (msm_vec_impl.h) to the scalar
   * one; without IFMA the scalar parts still run, and the test ends SKIPPED. */
  const char *missing = ifma_missing();
  cz_g1_t_modes("g1");
  cz_g1_t_density();
  cz_g1_t_paths();
  cz_g1_t_copies();
  cz_g1_t_groups();
  cz_g2_t_modes("g2");
  cz_g2_t_density();
  cz_g2_t_paths();
  cz_g2_t_copies();
  cz_g2_t_groups();
  return check_report_unless("test_msm", missing);
}
