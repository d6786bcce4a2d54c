/* The Groth16 quotient polynomial H, equal to bellperson's (groth16/prover:
 * ifft, coset_fft, mul, sub, divide_by_z_on_coset, icoset_fft, drop the top
 * coefficient) but with six transforms instead of seven, fused into eleven
 * passes over memory at 2^22 (cz_ntt_run) and one permutation.
 *
 * bellperson computes H = icoset(ab_coset - c_coset) / Z(g), where Z(X) = X^n - 1
 * takes the single value Z(g) = g^n - 1 on the coset g*H. The inverse coset
 * transform is linear and exact on polynomials of degree < n, so
 * icoset(c_coset) is C itself: H = (icoset(ab_coset) - C) / Z(g), for any
 * a, b, c, satisfied or not. C's coefficients need only the first half of
 * its round trip:
 *
 *   a, b: DIF with omega^-1    natural evals -> n * coeffs, bit-reversed
 *         x[p] *= g^rev(p) / n (coset shift, in the DIF's block pass)
 *         DIT with omega       -> evaluations on g*H, natural
 *   c:    DIF with omega^-1    -> n * C, bit-reversed
 *   a = a * b                  (as the next DIF loads a)
 *   DIF with omega^-1, x[p] = x[p] g^-rev(p) / (n Z(g)) - c[p] / (n Z(g))
 *   in its block pass, then the bit-reversal permutation. */
#include <stdint.h>
#include "cuzk/ntt.h"
#include "ntt/ntt_impl.h"

/* evaluations on H -> evaluations on g*H. */
static void to_coset(const cz_ntt_domain *d, cz_fr *v, unsigned n_threads) {
  ntt_job job = {1, 1, 1, 0, NULL, 0, d->n_inv, NULL, CZ_FR_ZERO, NULL};
  cz_ntt_run(d, v, &job, n_threads);
}

void cz_ntt_h_poly(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, unsigned n_threads) {
  /* k = 1 / (n Z(g)), Z(g) = g^n - 1; g = 7 is not an n-th root of unity. */
  cz_fr k, nf;
  uint64_t e = (uint64_t)d->n; /* n <= 2^32 fits one limb */
  cz_fr_pow(&k, &d->g, &e, 1);
  cz_fr_sub(&k, &k, &CZ_FR_ONE);
  cz_fr_from_u64(&nf, d->n);
  cz_fr_mul(&k, &k, &nf);
  cz_fr_inv(&k, &k);

  to_coset(d, a, n_threads);
  to_coset(d, b, n_threads);
  ntt_job dif_c = {1, 1, 0, 0, NULL, -1, CZ_FR_ZERO, NULL, CZ_FR_ZERO, NULL};
  cz_ntt_run(d, c, &dif_c, n_threads);
  ntt_job last = {1, 1, 0, 0, b, 1, k, c, k, NULL};
  cz_ntt_run(d, a, &last, n_threads);
  cz_ntt_bit_reverse(d, a, n_threads);
}
