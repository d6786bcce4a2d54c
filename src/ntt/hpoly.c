/* The Groth16 quotient polynomial H, with bellperson's semantics
 * (groth16/prover: ifft, coset_fft, mul, sub, divide_by_z_on_coset,
 * icoset_fft, drop the top coefficient) but without its permutations:
 *
 *   per v in {a, b, c}: DIF with omega^-1    natural evals -> n * coeffs, bit-reversed
 *                       x[p] *= s g^rev(p) / n    (coset shift, s folds 1/Z(g))
 *                       DIT with omega        -> evaluations on g*H, natural
 *   a = a*b - c                               (Z(g)^-1 already folded into a and c)
 *   DIF with omega^-1, then one pass that bit-reverses and multiplies by g^-i / n.
 *
 * Z(X) = X^n - 1 takes the single value g^n - 1 on the coset g*H, so dividing
 * by it is a constant factor; folding it into a and c saves a pass. */
#include <stdint.h>
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "ec/mont.h"
#include "ntt/ntt_impl.h"

typedef struct {
  cz_fr *a;
  const cz_fr *b, *c;
} combine_ctx;

static void combine_worker(void *ctx, size_t i0, size_t i1, unsigned worker) {
  (void)worker;
  const combine_ctx *k = ctx;
  if (ntt_use_ifma()) {
    cz_ntt_ifma_combine(k->a, k->b, k->c, i0, i1);
    return;
  }
  for (size_t i = i0; i < i1; i++) {
    cz_fr t;
    ntt_fr_mul(&t, &k->a[i], &k->b[i]);
    ntt_fr_sub(&k->a[i], &t, &k->c[i]);
  }
}

/* evaluations on H -> evaluations on g*H, times s. */
static void to_coset(const cz_ntt_domain *d, cz_fr *v, const cz_fr *s, unsigned n_threads) {
  cz_fr c;
  ntt_fr_mul(&c, s, &d->n_inv);
  cz_ntt_forward_inv_root(d, v, n_threads);
  cz_ntt_scale_powers(d, v, &d->g, &c, 1, 0, n_threads);
  cz_ntt_inverse_fwd_root(d, v, n_threads);
}

void cz_ntt_h_poly(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, unsigned n_threads) {
  /* zinv = 1 / Z(g) = 1 / (g^n - 1); g = 7 is not an n-th root of unity. */
  cz_fr zinv;
  uint64_t e = (uint64_t)d->n; /* n <= 2^32 fits one limb */
  cz_fr_pow(&zinv, &d->g, &e, 1);
  cz_fr_sub(&zinv, &zinv, &CZ_FR_ONE);
  cz_fr_inv(&zinv, &zinv);

  to_coset(d, a, &zinv, n_threads);
  to_coset(d, b, &CZ_FR_ONE, n_threads);
  to_coset(d, c, &zinv, n_threads);
  combine_ctx k = {a, b, c};
  cz_parallel_for(d->n, ntt_threads(d->n, n_threads), combine_worker, &k);
  cz_ntt_icoset_fft(d, a, n_threads);
}
