/* Internals shared by the NTT sources (not a public interface). */
#ifndef CUZK_NTT_IMPL_H
#define CUZK_NTT_IMPL_H
#include "cuzk/ntt.h"

struct cz_ntt_domain {
  unsigned log_n;
  size_t n, half;      /* half = n / 2 */
  cz_fr omega, omega_inv, n_inv, g, g_inv;
  cz_fr *tw;           /* omega^i, i in [0, half] */
  cz_fr *tw_blk;       /* omega_B^i, i in [0, blk_half], B = min(n, cache block) */
  size_t blk_half;
};

/* 64-byte aligned storage for count elements (free with free()). */
cz_fr *cz_ntt_alloc_fr(size_t count);

/* x[i] *= c * base^e(i), e(i) = i (rev = 0) or rev(i) (rev = 1). With
 * permute (rev = 0 only) the result is natural: y[i] = x[rev(i)] c base^i. */
void cz_ntt_scale_powers(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                         int rev, int permute, unsigned n_threads);

#endif
