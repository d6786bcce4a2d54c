/* The Groth16 quotient polynomial H, equal to bellperson's (groth16/prover:
 * ifft, coset_fft, mul, sub, divide_by_z_on_coset, icoset_fft, drop the top
 * coefficient) but with six transforms instead of seven and no permutations.
 *
 * bellperson computes H = icoset(ab_coset - c_coset) / Z(g), where Z(X) = X^n - 1
 * takes the single value Z(g) = g^n - 1 on the coset g*H. The inverse coset
 * transform is linear and exact on polynomials of degree < n, so
 * icoset(c_coset) is C itself: H = (icoset(ab_coset) - C) / Z(g), for any
 * a, b, c, satisfied or not. C's coefficients need only the first half of
 * its round trip:
 *
 *   a, b: DIF with omega^-1    natural evals -> n * coeffs, bit-reversed
 *         x[p] *= g^rev(p) / n (coset shift)
 *         DIT with omega       -> evaluations on g*H, natural
 *   c:    DIF with omega^-1    -> n * C, bit-reversed
 *   a = a * b
 *   DIF with omega^-1, then one pass that bit-reverses, multiplies by
 *   g^-i / (n Z(g)) and subtracts c[rev(i)] / (n Z(g)). */
#include <stdint.h>
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "ec/mont.h"
#include "ntt/ntt_impl.h"

typedef struct {
  cz_fr *a;
  const cz_fr *b;
} mul_ctx;

static void mul_worker(void *ctx, size_t i0, size_t i1, unsigned worker) {
  (void)worker;
  const mul_ctx *k = ctx;
  if (ntt_use_ifma()) {
    cz_ntt_ifma_product(k->a, k->b, i0, i1);
    return;
  }
  for (size_t i = i0; i < i1; i++) ntt_fr_mul(&k->a[i], &k->a[i], &k->b[i]);
}

/* evaluations on H -> evaluations on g*H. */
static void to_coset(const cz_ntt_domain *d, cz_fr *v, unsigned n_threads) {
  cz_ntt_forward_inv_root(d, v, n_threads);
  cz_ntt_scale_powers(d, v, &d->g, &d->n_inv, 1, 0, n_threads);
  cz_ntt_inverse_fwd_root(d, v, n_threads);
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
  cz_ntt_forward_inv_root(d, c, n_threads);
  mul_ctx m = {a, b};
  cz_parallel_for(d->n, ntt_threads(d->n, n_threads), mul_worker, &m);
  cz_ntt_forward_inv_root(d, a, n_threads);
  cz_ntt_permute_scale_sub(d, a, &d->g_inv, &k, c, &k, n_threads);
}
