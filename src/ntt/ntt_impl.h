/* Internals shared by the NTT sources (not a public interface). */
#ifndef CUZK_NTT_IMPL_H
#define CUZK_NTT_IMPL_H
#include <stdint.h>
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "ec/mont.h"
#include "ec/mont_adx_asm.h"
#include "ec/ifma_field.h"
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

struct cz_ntt_domain {
  unsigned log_n;
  size_t n, half;      /* half = n / 2 */
  cz_fr omega, omega_inv, n_inv, g, g_inv;
  cz_fr *tw;           /* omega^i, i in [0, half] */
  cz_fr *tw_blk;       /* omega_B^i, i in [0, blk_half], B = min(n, cache block) */
  size_t blk_half;
  /* The IFMA path's block twiddles, built when the CPU has IFMA (else NULL):
   * per stage h = 8, 16, ..., blk_half, the h/8 cz_frv (prepared, 8 columns
   * each) of omega_2h^j, j < h, at group offset h/8 - 1; vtw_inv the same
   * with twid()'s inverse-root convention. */
  void *vtw_fwd, *vtw_inv;
};

/* The budget n_threads, trimmed so that each worker gets at least 2^12
 * elements of an n-element pass: below that, starting a thread costs more
 * than it saves. */
static inline unsigned ntt_threads(size_t n, unsigned n_threads) {
  unsigned t = cz_parallel_threads(n_threads);
  size_t cap = n >> 12;
  if (cap < 1) cap = 1;
  return t > cap ? (unsigned)cap : t;
}

/* 64-byte aligned storage for count elements (free with free()). */
cz_fr *cz_ntt_alloc_fr(size_t count);

/* x[i] *= c * base^e(i), e(i) = i (rev = 0) or rev(i) (rev = 1). With
 * permute (rev = 0 only) the result is natural: y[i] = x[rev(i)] c base^i. */
void cz_ntt_scale_powers(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                         int rev, int permute, unsigned n_threads);

/* The permuted scaling with a subtrahend read at the same bit-reversed
 * positions: y[i] = x[rev(i)] * c * base^i - sub[rev(i)] * k (natural result
 * in x; sub is not modified and must not alias x). One pass, so that a
 * second bit-reversed vector costs no pass of its own. */
void cz_ntt_permute_scale_sub(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                              const cz_fr *sub, const cz_fr *k, unsigned n_threads);

/* The 8-lane IFMA path (ntt_ifma.c): the same results as the scalar code,
 * taken when ntt_use_ifma() is true. Only call these then. */
static inline int ntt_use_ifma(void) {
  /* (the transforms also need the domain's vector twiddles: see ntt.c) */
#ifdef CZ_IFMA
  return cz_ifma_use;
#else
  return 0;
#endif
}
/* The whole transform as ntt.c's transform() with blocks of bsize >= 64
 * elements (n >= bsize) and the given thread count. */
void cz_ntt_ifma_transform(const cz_ntt_domain *d, cz_fr *x, int dit, int inv, const cz_fr *scale,
                           size_t bsize, unsigned threads);
/* Knobs for tests, so that every IFMA code path runs (not thread-safe):
 * the outer stages use column panels while n / bsize <= panel_max_rows
 * (default 1024), else per-pass radix-4; blocks run in a cz_frv buffer
 * unless block_buffers is 0 (or the buffer cannot be allocated). */
extern size_t cz_ntt_ifma_panel_max_rows;
extern int cz_ntt_ifma_block_buffers;
/* Build / free d->vtw_fwd and d->vtw_inv (left NULL when it cannot). */
void cz_ntt_ifma_domain_init(cz_ntt_domain *d);
void cz_ntt_ifma_domain_free(cz_ntt_domain *d);
/* a[i] *= b[i] for i in [i0, i1). */
void cz_ntt_ifma_product(cz_fr *a, const cz_fr *b, size_t i0, size_t i1);
/* x[i] *= lo[i & (2^lo_log - 1)] * hi[i >> lo_log] for i in [i0, i1). */
void cz_ntt_ifma_scale(cz_fr *x, const cz_fr *lo, const cz_fr *hi, unsigned lo_log, size_t i0,
                       size_t i1);
/* The permuting form: for each pair {i, rev(i)} (k = log_n bits) whose
 * smaller index i is in [i0, i1), swap the two and multiply each by the
 * factor of its new index (scale_worker's permute case); with sub, then
 * also x[i] -= sub[rev(i)] * k for both (cz_ntt_permute_scale_sub). */
void cz_ntt_ifma_scale_permute(cz_fr *x, const cz_fr *lo, const cz_fr *hi, unsigned lo_log,
                               unsigned log_n, size_t i0, size_t i1, const cz_fr *sub,
                               const cz_fr *k);

/* Fr add and sub for the butterflies. The shared mont_add/mont_sub are
 * generic in the limb count and compile to slow carry handling here (about
 * 7 ns against 3.5 ns on x86-64), which the butterflies feel: a butterfly is
 * one mul and two of these. The carry intrinsics give plain adc/sbb chains. */
#if defined(__x86_64__)
/* Written limb by limb, with no arrays: GCC turns array-and-loop versions
 * into SSE selects that reload the adc results from the stack as 16-byte
 * words, a store-forwarding stall per add (measured: ~20 ns per butterfly). */
static inline void ntt_fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b) {
  const uint64_t *m = CZ_FR_MODULUS;
  unsigned long long s0, s1, s2, s3, d0, d1, d2, d3;
  unsigned char c = 0, br = 0;
  c = _addcarry_u64(c, a->l[0], b->l[0], &s0);
  c = _addcarry_u64(c, a->l[1], b->l[1], &s1);
  c = _addcarry_u64(c, a->l[2], b->l[2], &s2);
  (void)_addcarry_u64(c, a->l[3], b->l[3], &s3); /* no carry out: 2r < 2^256 */
  br = _subborrow_u64(br, s0, m[0], &d0);
  br = _subborrow_u64(br, s1, m[1], &d1);
  br = _subborrow_u64(br, s2, m[2], &d2);
  br = _subborrow_u64(br, s3, m[3], &d3);
  /* borrow: a + b < r, keep the sum */
  r->l[0] = br ? s0 : d0;
  r->l[1] = br ? s1 : d1;
  r->l[2] = br ? s2 : d2;
  r->l[3] = br ? s3 : d3;
}
static inline void ntt_fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b) {
  const uint64_t *m = CZ_FR_MODULUS;
  unsigned long long d0, d1, d2, d3;
  unsigned char c = 0, br = 0;
  br = _subborrow_u64(br, a->l[0], b->l[0], &d0);
  br = _subborrow_u64(br, a->l[1], b->l[1], &d1);
  br = _subborrow_u64(br, a->l[2], b->l[2], &d2);
  br = _subborrow_u64(br, a->l[3], b->l[3], &d3);
  uint64_t mask = 0 - (uint64_t)br; /* a < b: add r back */
  c = _addcarry_u64(c, d0, m[0] & mask, &d0);
  c = _addcarry_u64(c, d1, m[1] & mask, &d1);
  c = _addcarry_u64(c, d2, m[2] & mask, &d2);
  (void)_addcarry_u64(c, d3, m[3] & mask, &d3);
  r->l[0] = d0;
  r->l[1] = d1;
  r->l[2] = d2;
  r->l[3] = d3;
}
#else
static inline void ntt_fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b) {
  mont_add(r->l, a->l, b->l, CZ_FR_MODULUS, CZ_FR_LIMBS);
}
static inline void ntt_fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b) {
  mont_sub(r->l, a->l, b->l, CZ_FR_MODULUS, CZ_FR_LIMBS);
}
#endif

/* Fr product for the butterflies: the ADX product inline (no dispatcher and
 * backend calls, no spills around them), the same value cz_fr_mul gives. */
static inline void ntt_fr_mul(cz_fr *r, const cz_fr *a, const cz_fr *b) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    mont_adx_fr_mul(r->l, a->l, b->l);
    return;
  }
#endif
  cz_fr_mul(r, a, b);
}

/* i with its low k bits reversed (k = 0: 0). */
static inline size_t ntt_rev_bits(size_t i, unsigned k) {
  if (k == 0) return 0;
  uint64_t v = i;
  v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
  v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
  v = __builtin_bswap64(v);
  return (size_t)(v >> (64 - k));
}

/* One pair {i, r = rev(i)}, r >= i, of the permuting scale: swap, multiply
 * each by the factor of its new index, f(e) = lo[e & (2^lo_log - 1)]
 * hi[e >> lo_log]; with sub, also subtract sub[the other index] * k. */
static inline void ntt_scale_permute_pair(cz_fr *x, const cz_fr *lo, const cz_fr *hi,
                                          unsigned lo_log, size_t i, size_t r, const cz_fr *sub,
                                          const cz_fr *k) {
  size_t mask = ((size_t)1 << lo_log) - 1;
  cz_fr xi = x[i], xr = x[r], f, fr, t;
  ntt_fr_mul(&f, &lo[i & mask], &hi[i >> lo_log]);
  ntt_fr_mul(&fr, &lo[r & mask], &hi[r >> lo_log]);
  ntt_fr_mul(&x[i], &xr, &f);
  if (r != i) ntt_fr_mul(&x[r], &xi, &fr);
  if (!sub) return;
  ntt_fr_mul(&t, &sub[r], k);
  ntt_fr_sub(&x[i], &x[i], &t);
  if (r == i) return;
  ntt_fr_mul(&t, &sub[i], k);
  ntt_fr_sub(&x[r], &x[r], &t);
}

/* The stages with half-size >= bsize (outside the cache blocks) of a
 * transform of log_n stages. */
static inline unsigned ntt_outer_count(unsigned log_n, size_t bsize) {
  unsigned outer = log_n;
  for (size_t b = bsize; b > 1; b /= 2) outer--;
  return outer;
}

/* The outer stages in the order both paths run them, one call of
 * stage(ctx, h, radix4, last) per pass (h: the half-size, or g for a
 * radix-4 pass). DIF goes from the top in radix-4 pairs, then one radix-2
 * stage when the count is odd; DIT goes up from bsize, the odd radix-2
 * stage first. last marks the DIT's final pass, which scales the outputs. */
typedef void (*ntt_stage_fn)(void *ctx, size_t h, int radix4, int last);
static inline void ntt_outer_stages(size_t n, size_t bsize, unsigned outer, int dit,
                                    ntt_stage_fn stage, void *ctx) {
  if (!dit) {
    size_t h = n / 2;
    for (; outer >= 2; outer -= 2, h /= 4) stage(ctx, h / 2, 1, 0);
    if (outer) stage(ctx, h, 0, 0);
    return;
  }
  size_t h = bsize;
  if (outer & 1) {
    stage(ctx, h, 0, outer == 1);
    h *= 2;
    outer--;
  }
  for (; outer >= 2; outer -= 2, h *= 4) stage(ctx, h, 1, outer == 2);
}

#endif
