/* The prover's single entry to the MSM.
 *
 * FALLBACK until wip/msm (cz_msm_*_segments) is merged: one scalar
 * multiplication per term, summed per worker. Slow but obviously right;
 * the segment layout is the one cz_msm takes, so switching is local. */
#include <stdlib.h>
#include "cuzk/parallel.h"
#include "groth16/g16_internal.h"

static bool seg_ok(const g16_msm_seg *s) {
  if (!s->n_scalars) return true;
  if (!s->frs) return false;
  size_t want = s->n_scalars;
  if (s->density) {
    want = 0;
    for (size_t i = 0; i < s->n_scalars; i++) want += (s->density[i >> 6] >> (i & 63)) & 1;
  }
  return want == s->n_bases && (s->bases || !want);
}

#define FALLBACK_IMPL(G, AFF, JAC)                                                     \
  typedef struct {                                                                     \
    const g16_msm_seg *seg;                                                            \
    const size_t *base_index; /* base of scalar i, or SIZE_MAX */                      \
    JAC *partial;                                                                      \
  } G##_ctx;                                                                           \
  static void G##_worker(void *vctx, size_t begin, size_t end, unsigned worker) {      \
    G##_ctx *c = vctx;                                                                 \
    const AFF *bases = c->seg->bases;                                                  \
    JAC acc, t;                                                                        \
    cz_##G##_set_identity(&acc);                                                       \
    for (size_t i = begin; i < end; i++) {                                             \
      size_t bi = c->base_index[i];                                                    \
      if (bi == SIZE_MAX || cz_fr_is_zero(&c->seg->frs[i])) continue;                  \
      cz_##G##_from_affine(&t, &bases[bi]);                                            \
      cz_##G##_mul_fr(&t, &t, &c->seg->frs[i]);                                        \
      cz_##G##_add(&acc, &acc, &t);                                                    \
    }                                                                                  \
    c->partial[worker] = acc;                                                          \
  }                                                                                    \
  cz_err g16_msm_##G(JAC *out, const g16_msm_seg *segs, size_t n_segs,                 \
                     unsigned n_threads) {                                             \
    cz_##G##_set_identity(out);                                                        \
    for (size_t s = 0; s < n_segs; s++)                                                \
      if (!seg_ok(&segs[s])) return CZ_ERR_INVALID_ARG;                                \
    JAC partial[CZ_PARALLEL_MAX_THREADS];                                              \
    for (size_t s = 0; s < n_segs; s++) {                                              \
      const g16_msm_seg *seg = &segs[s];                                               \
      if (!seg->n_scalars) continue;                                                   \
      size_t *idx = malloc(seg->n_scalars * sizeof *idx);                              \
      if (!idx) return CZ_ERR_NOMEM;                                                   \
      for (size_t i = 0, j = 0; i < seg->n_scalars; i++)                               \
        idx[i] = !seg->density || ((seg->density[i >> 6] >> (i & 63)) & 1) ? j++       \
                                                                           : SIZE_MAX; \
      G##_ctx ctx = {seg, idx, partial};                                               \
      unsigned w = cz_parallel_workers(seg->n_scalars, n_threads);                     \
      cz_parallel_for(seg->n_scalars, n_threads, G##_worker, &ctx);                    \
      for (unsigned i = 0; i < w; i++) cz_##G##_add(out, out, &partial[i]);            \
      free(idx);                                                                       \
    }                                                                                  \
    return CZ_OK;                                                                      \
  }

FALLBACK_IMPL(g1, cz_g1_affine, cz_g1)
FALLBACK_IMPL(g2, cz_g2_affine, cz_g2)
