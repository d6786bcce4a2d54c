/* Fixed-base multiplication for the setup: one base, many scalars.
 *
 * A table T[j][d] = d 2^(w j) base (affine) for every w-bit window j turns
 * each multiplication into at most ceil(255/w) mixed additions and no
 * doublings. w is chosen per call to minimise table plus multiplication
 * cost. Each worker computes a chunk in Jacobian form and converts it with
 * one batched inversion. */
#include <stdlib.h>
#include "cuzk/parallel.h"
#include "groth16/g16_internal.h"

#define FB_BITS 255   /* scalars are canonical, below r < 2^255 */
#define FB_CHUNK 1024 /* points per batched affine conversion */

static unsigned pick_window(size_t n) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned w = 1; w <= 16; w++) {
    double nwin = (FB_BITS + w - 1) / w;
    double cost = nwin * (double)(1u << w) + (double)n * nwin;
    if (w == 1 || cost < best_cost) { best = w; best_cost = cost; }
  }
  return best;
}

static unsigned digit(const cz_scalar *k, unsigned bit, unsigned w) {
  unsigned limb = bit / 64, off = bit % 64;
  uint64_t v = k->l[limb] >> off;
  if (off + w > 64 && limb + 1 < CZ_FR_LIMBS) v |= k->l[limb + 1] << (64 - off);
  return (unsigned)(v & ((1u << w) - 1));
}

/* One implementation for both groups. */
#define FIXED_BASE_IMPL(G, AFF, JAC)                                                   \
  typedef struct {                                                                     \
    const AFF *table;                                                                  \
    unsigned w, nwin;                                                                  \
    const cz_fr *k;                                                                    \
    AFF *out;                                                                          \
    JAC *scratch; /* FB_CHUNK per worker */                                            \
  } G##_fb_ctx;                                                                        \
                                                                                       \
  static void G##_fb_worker(void *vctx, size_t begin, size_t end, unsigned worker) {   \
    G##_fb_ctx *c = vctx;                                                              \
    JAC *tmp = c->scratch + (size_t)worker * FB_CHUNK;                                 \
    const size_t row = (size_t)1 << c->w;                                              \
    for (size_t s = begin; s < end; s += FB_CHUNK) {                                   \
      size_t m = end - s < FB_CHUNK ? end - s : FB_CHUNK;                              \
      for (size_t i = 0; i < m; i++) {                                                 \
        cz_scalar k;                                                                   \
        cz_fr_to_scalar(&k, &c->k[s + i]);                                             \
        cz_##G##_set_identity(&tmp[i]);                                                \
        for (unsigned j = 0; j < c->nwin; j++) {                                       \
          unsigned d = digit(&k, j * c->w, c->w);                                      \
          if (d) cz_##G##_add_affine(&tmp[i], &tmp[i], &c->table[j * row + d]);        \
        }                                                                              \
      }                                                                                \
      cz_##G##_batch_to_affine(c->out + s, tmp, m);                                    \
    }                                                                                  \
  }                                                                                    \
                                                                                       \
  cz_err g16_fixed_base_##G(AFF *out, const AFF *base, const cz_fr *k, size_t n,       \
                            unsigned n_threads) {                                      \
    if (!n) return CZ_OK;                                                              \
    unsigned w = pick_window(n), nwin = (FB_BITS + w - 1) / w;                         \
    size_t row = (size_t)1 << w, tn = (size_t)nwin * row;                              \
    unsigned workers = cz_parallel_workers(n, n_threads);                              \
    JAC *jt = malloc(tn * sizeof *jt);                                                 \
    AFF *table = malloc(tn * sizeof *table);                                           \
    JAC *scratch = malloc((size_t)workers * FB_CHUNK * sizeof *scratch);               \
    if (!jt || !table || !scratch) {                                                   \
      free(jt); free(table); free(scratch);                                            \
      return CZ_ERR_NOMEM;                                                             \
    }                                                                                  \
    JAC b;                                                                             \
    cz_##G##_from_affine(&b, base);                                                    \
    for (unsigned j = 0; j < nwin; j++) {                                              \
      JAC *r = jt + (size_t)j * row;                                                   \
      cz_##G##_set_identity(&r[0]);                                                    \
      for (size_t d = 1; d < row; d++) cz_##G##_add(&r[d], &r[d - 1], &b);             \
      for (unsigned t = 0; t < w; t++) cz_##G##_dbl(&b, &b);                           \
    }                                                                                  \
    cz_##G##_batch_to_affine(table, jt, tn);                                           \
    free(jt);                                                                          \
    G##_fb_ctx ctx = {table, w, nwin, k, out, scratch};                                \
    cz_parallel_for(n, n_threads, G##_fb_worker, &ctx);                                \
    free(table);                                                                       \
    free(scratch);                                                                     \
    return CZ_OK;                                                                      \
  }

FIXED_BASE_IMPL(g1, cz_g1_affine, cz_g1)
FIXED_BASE_IMPL(g2, cz_g2_affine, cz_g2)
