/* The NTT's 8-lane IFMA kernels: the same blocks and panels as
 * ntt_scalar.c, with every butterfly step done on 8 independent butterflies
 * at once in cz_frv form.
 *
 * Layout: a block or a panel is converted once into the worker's scratch
 * as cz_frv groups (cz_frv_load: four loads and a transpose per 8
 * elements), runs all its stages there, and is converted back.
 *   - Stages with half-size h >= 8: lane k is column j + k, so u and v are
 *     two groups; block twiddles come prepared from the domain's vtw tables,
 *     panel twiddles are 8 table entries with stride s, gathered, converted
 *     and prepared once per row residue and reused for every row group.
 *   - The three stages h = 4, 2, 1 (the end of the DIF, the start of the
 *     DIT) run in registers on pairs of groups, forming u and v with
 *     two-source lane permutes.
 * Field operations are exact and reduced, so the results are bit-identical
 * to the scalar path whatever the grouping (tests/ntt/test_ntt.c compares
 * the paths). The twiddle of exponent 0 is simply multiplied (by 1 or -1)
 * instead of skipped as the scalar code does: same values. */
#include <stdint.h>
#include <stdlib.h>
#include "ec/ifma_field.h"
#include "ntt/ntt_impl.h"

#ifdef CZ_IFMA

/* ---- twiddles -------------------------------------------------------------- */

/* The table indices of the twiddles for exponents e0 + k step, k < 8:
 * half - e for the inverse root (ntt_twid's convention). Exponents are
 * < 2^32: madd52lo is exact, and needs no DQ. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET __m512i tw_exponents(size_t e0, size_t step,
                                                                 size_t half, int inv) {
  const __m512i k = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  __m512i e = _mm512_madd52lo_epu64(_mm512_set1_epi64((long long)e0), k,
                                    _mm512_set1_epi64((long long)step));
  return inv ? _mm512_sub_epi64(_mm512_set1_epi64((long long)half), e) : e;
}

/* t = lanes tw[e_k] (e: 8 table indices). */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void tw_gather(cz_frv *t, const cz_fr *tw, __m512i e) {
  __m512i idx = _mm512_slli_epi64(e, 2); /* 4 words per element */
  __m512i w[4];
  for (int i = 0; i < 4; i++) w[i] = _mm512_i64gather_epi64(idx, (const void *)&tw[0].l[i], 8);
  cz_frv_from_words_(t, w);
}

/* tp = prepared vector of the twiddles for exponents e0 + k step, k < 8,
 * from the scalar table tw (half + 1 entries), with ntt_twid's convention:
 * entry half - e for the inverse root. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void tw_fetch(cz_frv *tp, const cz_fr *tw, size_t half,
                                                          size_t e0, size_t step, int inv) {
  if (step == 1) { /* 8 consecutive entries: plain loads (reversed for inv) */
    cz_frv t;
    if (!inv) {
      cz_frv_load(&t, tw + e0);
    } else { /* entries half - e0 - 7 .. half - e0, lane k takes half - e0 - k */
      cz_frv_load(&t, tw + (half - e0 - 7));
      const __m512i rev = _mm512_setr_epi64(7, 6, 5, 4, 3, 2, 1, 0);
      for (int i = 0; i < 5; i++) t.l[i] = _mm512_permutexvar_epi64(rev, t.l[i]);
    }
    cz_frv_mul_prepare(tp, &t);
    return;
  }
  cz_frv t;
  tw_gather(&t, tw, tw_exponents(e0, step, half, inv));
  cz_frv_mul_prepare(tp, &t);
}

/* The same from a domain's split tables (ntt_tw_at): the lanes' low and
 * high parts gathered from the two small tables and multiplied. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void tw_fetch_split(cz_frv *tp, const cz_ntt_domain *d,
                                                                size_t e0, size_t step, int inv) {
  __m512i e = tw_exponents(e0, step, d->half, inv);
  cz_frv lo, hi;
  tw_gather(&lo, d->tw_lo, _mm512_and_si512(e, _mm512_set1_epi64((long long)d->tw_lo_mask)));
  tw_gather(&hi, d->tw_hi, _mm512_srli_epi64(e, d->tw_lo_log));
  cz_frv_mul(&lo, &lo, &hi);
  cz_frv_mul_prepare(tp, &lo);
}

/* ---- butterflies ----------------------------------------------------------- */

/* d = a - b + p in (0, 2p), normalized 52-bit limbs but not reduced: one
 * signed carry chain where cz_frv_sub runs two and a blend. Only for the
 * first operand of cz_frv_mul_prepared, whose bound holds for any first
 * operand below 2^256 (ifma_field_impl.h). */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vsub_lazy(cz_frv *d, const cz_frv *a,
                                                           const cz_frv *b) {
  const __m512i m = _mm512_set1_epi64((long long)CZ_IFMA_MASK52);
  __m512i c = _mm512_setzero_si512();
  CZ_IFMA_UNROLL
  for (int k = 0; k < 5; k++) {
    __m512i t =
        _mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(a->l[k], cz_frv_p_(k)), b->l[k]), c);
    c = _mm512_srai_epi64(t, 52);
    d->l[k] = _mm512_and_si512(t, m);
  }
}

/* DIF: (u, v) <- (u + v, (u - v) w); w = -t for the inverse root. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf_dif(cz_frv *u, cz_frv *v, const cz_frv *tp,
                                                         int inv) {
  cz_frv d;
  if (inv) vsub_lazy(&d, v, u);
  else vsub_lazy(&d, u, v);
  cz_frv_add(u, u, v);
  cz_frv_mul_prepared(v, &d, tp);
}

/* Both butterflies with twiddle 1 (for the inverse root -1, the same
 * result): (u, v) <- (u + v, u - v), no product. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf_one(cz_frv *u, cz_frv *v) {
  cz_frv d;
  cz_frv_sub(&d, u, v);
  cz_frv_add(u, u, v);
  *v = d;
}

/* DIT: (u, v) <- (u + m, u - m) for the product m = v w (w = -t for the
 * inverse root); vbf_join is the part after the product. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf_join(cz_frv *u, cz_frv *v, const cz_frv *m,
                                                          int inv) {
  if (inv) {
    cz_frv_add(v, u, m);
    cz_frv_sub(u, u, m);
  } else {
    cz_frv_sub(v, u, m);
    cz_frv_add(u, u, m);
  }
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf_dit(cz_frv *u, cz_frv *v, const cz_frv *tp,
                                                         int inv) {
  cz_frv m;
  cz_frv_mul_prepared(&m, v, tp);
  vbf_join(u, v, &m, inv);
}

/* One radix-2 step on (u, v): DIT (then times the prepared scale, when
 * given) or DIF. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf2(cz_frv *u, cz_frv *v, const cz_frv *t,
                                                      int inv, int dit, const cz_frv *scale) {
  if (dit) {
    vbf_dit(u, v, t, inv);
    if (scale) {
      cz_frv_mul_prepared(u, u, scale);
      cz_frv_mul_prepared(v, v, scale);
    }
  } else {
    vbf_dif(u, v, t, inv);
  }
}

/* One radix-4 step on (A, B, C, D) = columns j, j + g, j + 2g, j + 3g with
 * ta = omega_4g^j, tb = omega_4g^(j+g), tc = omega_2g^j: two radix-2 stages,
 * in DIT or DIF order. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf4(cz_frv *A, cz_frv *B, cz_frv *C, cz_frv *D,
                                                      const cz_frv *ta, const cz_frv *tb,
                                                      const cz_frv *tc, int inv, int dit,
                                                      const cz_frv *scale) {
  if (dit) {
    /* each stage's two products first, then their additions, which would
     * otherwise wait on the product just issued */
    cz_frv m0, m1;
    cz_frv_mul_prepared(&m0, B, tc);
    cz_frv_mul_prepared(&m1, D, tc);
    vbf_join(A, B, &m0, inv);
    vbf_join(C, D, &m1, inv);
    cz_frv_mul_prepared(&m0, C, ta);
    cz_frv_mul_prepared(&m1, D, tb);
    vbf_join(A, C, &m0, inv);
    vbf_join(B, D, &m1, inv);
    if (scale) {
      cz_frv_mul_prepared(A, A, scale);
      cz_frv_mul_prepared(B, B, scale);
      cz_frv_mul_prepared(C, C, scale);
      cz_frv_mul_prepared(D, D, scale);
    }
  } else {
    vbf_dif(A, C, ta, inv);
    vbf_dif(B, D, tb, inv);
    vbf_dif(A, B, tc, inv);
    vbf_dif(C, D, tc, inv);
  }
}

/* ---- the stages h = 4, 2, 1 in registers ------------------------------------ */

/* For stage h (index 0, 1, 2 for h = 4, 2, 1) over a run of 16 elements
 * X (0..7) | Y (8..15): U takes lanes UI of X|Y and V lanes UI + h; XI and
 * YI put (U, V) back. Lane L of U is pair b = L / h, column j = L % h. */
static const long long TAIL_UI[3][8] = {{0, 1, 2, 3, 8, 9, 10, 11},
                                        {0, 1, 4, 5, 8, 9, 12, 13},
                                        {0, 2, 4, 6, 8, 10, 12, 14}};
static const long long TAIL_XI[3][8] = {{0, 1, 2, 3, 8, 9, 10, 11},
                                        {0, 1, 8, 9, 2, 3, 10, 11},
                                        {0, 8, 1, 9, 2, 10, 3, 11}};
static const long long TAIL_YI[3][8] = {{4, 5, 6, 7, 12, 13, 14, 15},
                                        {4, 5, 12, 13, 6, 7, 14, 15},
                                        {4, 12, 5, 13, 6, 14, 7, 15}};

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vperm(cz_frv *r, const cz_frv *a, __m512i idx,
                                                       const cz_frv *b) {
  for (int k = 0; k < 5; k++) r->l[k] = _mm512_permutex2var_epi64(a->l[k], idx, b->l[k]);
}

typedef struct {
  __m512i ui[3], vi[3], xi[3], yi[3];
  cz_frv tw[3]; /* prepared, lane L: omega_2h^(L % h) by ntt_twid's convention */
} vtail;

static CZ_IFMA_TARGET void vtail_init(vtail *t, const cz_fr *tw, size_t half, int inv) {
  for (int s = 0; s < 3; s++) {
    size_t h = (size_t)4 >> s;
    t->ui[s] = _mm512_loadu_si512((const void *)TAIL_UI[s]);
    t->vi[s] = _mm512_add_epi64(t->ui[s], _mm512_set1_epi64((long long)h));
    t->xi[s] = _mm512_loadu_si512((const void *)TAIL_XI[s]);
    t->yi[s] = _mm512_loadu_si512((const void *)TAIL_YI[s]);
    cz_fr lanes[8];
    for (int L = 0; L < 8; L++) {
      size_t e = (size_t)L % h * (half / h);
      lanes[L] = inv ? tw[half - e] : tw[e];
    }
    cz_frv v;
    cz_frv_load(&v, lanes);
    cz_frv_mul_prepare(&t->tw[s], &v);
  }
}

/* ---- blocks held in cz_frv form ---------------------------------------------
 * A block's elements are converted once into a buffer of cz_frv groups
 * (group i = elements 8i..8i+7), all its stages run there, and it is
 * converted back: no transposes between its stages. Stage twiddles come
 * ready (prepared, grouped by 8 columns) from the domain's vtw tables. */

typedef struct {
  cz_frv *B;
  size_t len;       /* elements */
  const cz_frv *tw; /* vtw_fwd or vtw_inv */
  int inv, dit;
  const cz_frv *scale; /* last DIT stage (or NULL) */
  ntt_lines *ahead;    /* stepped once per column group (or NULL) */
} spass;

static inline const cz_frv *stage_tw(const cz_frv *tw, size_t h) { return tw + (h / 8 - 1); }

static CZ_IFMA_TARGET void srun_radix2(const spass *c, size_t h) {
  size_t hg = h / 8;
  const cz_frv *t = stage_tw(c->tw, h);
  for (size_t base = 0; base < c->len / 8; base += 2 * hg)
    for (size_t jg = 0; jg < hg; jg++) {
      if (c->ahead) ntt_lines_step(c->ahead);
      cz_frv *u = &c->B[base + jg], *v = u + hg;
      vbf2(u, v, &t[jg], c->inv, c->dit, c->scale);
    }
}

static CZ_IFMA_TARGET void srun_radix4(const spass *c, size_t g) {
  size_t gg = g / 8;
  const cz_frv *t2 = stage_tw(c->tw, 2 * g), *t1 = stage_tw(c->tw, g);
  int inv = c->inv;
  for (size_t base = 0; base < c->len / 8; base += 4 * gg)
    for (size_t jg = 0; jg < gg; jg++) {
      if (c->ahead) ntt_lines_step(c->ahead);
      cz_frv *A = &c->B[base + jg], *B = A + gg, *C = B + gg, *D = C + gg;
      const cz_frv *ta = &t2[jg], *tb = &t2[jg + gg], *tc = &t1[jg];
      vbf4(A, B, C, D, ta, tb, tc, inv, c->dit, c->scale);
    }
}

/* The stages h = 4, 2, 1 on groups (2i, 2i + 1). */
static CZ_IFMA_TARGET void stail_run(const vtail *t, cz_frv *B, size_t groups, int dit, int inv,
                                     ntt_lines *ahead) {
  for (size_t i = 0; i < groups; i += 2) {
    if (ahead) ntt_lines_step(ahead);
    cz_frv U, V;
    for (int k = 0; k < 3; k++) {
      int s = dit ? 2 - k : k;
      vperm(&U, &B[i], t->ui[s], &B[i + 1]);
      vperm(&V, &B[i], t->vi[s], &B[i + 1]);
      if (s == 2) vbf_one(&U, &V); /* h = 1: every twiddle is omega^0 */
      else if (dit) vbf_dit(&U, &V, &t->tw[s], inv);
      else vbf_dif(&U, &V, &t->tw[s], inv);
      vperm(&B[i], &U, t->xi[s], &V);
      vperm(&B[i + 1], &U, t->yi[s], &V);
    }
  }
}

static CZ_IFMA_TARGET void build_vtw(cz_frv *out, const cz_fr *tw, size_t half, int inv) {
  for (size_t h = 8; h <= half; h *= 2) {
    cz_frv *t = out + (h / 8 - 1);
    size_t s = half / h;
    for (size_t jg = 0; jg < h / 8; jg++) tw_fetch(&t[jg], tw, half, jg * 8 * s, s, inv);
  }
}

void cz_ntt_ifma_domain_init(cz_ntt_domain *d) {
  d->vtw_fwd = d->vtw_inv = NULL;
  if (d->blk_half < 8) return;
  size_t groups = 2 * d->blk_half / 8; /* stages 8..blk_half: (2 blk_half - 8) / 8 < this */
  d->vtw_fwd = aligned_alloc(64, groups * sizeof(cz_frv));
  d->vtw_inv = aligned_alloc(64, groups * sizeof(cz_frv));
  if (!d->vtw_fwd || !d->vtw_inv) {
    cz_ntt_ifma_domain_free(d);
    return;
  }
  build_vtw(d->vtw_fwd, d->tw_blk, d->blk_half, 0);
  build_vtw(d->vtw_inv, d->tw_blk, d->blk_half, 1);
}

void cz_ntt_ifma_domain_free(cz_ntt_domain *d) {
  free(d->vtw_fwd);
  free(d->vtw_inv);
  d->vtw_fwd = d->vtw_inv = NULL;
}

static CZ_IFMA_TARGET void prepare_scalar(cz_frv *r, const cz_fr *s) {
  cz_frv v;
  cz_frv_set1(&v, s);
  cz_frv_mul_prepare(r, &v);
}

/* ---- blocks -------------------------------------------------------------------- */

/* The DIF (dit = 0) or DIT stages of one block in B (len / 8 groups); the
 * DIT's last stage times the prepared *scale when given. The first step
 * also steps ahead (when not NULL) once per column group. */
static CZ_IFMA_TARGET void block_stages(cz_frv *B, size_t len, const cz_ntt_domain *d,
                                        const vtail *t, int dit, int inv, const cz_frv *scale,
                                        ntt_lines *ahead) {
  spass c = {B, len, inv ? d->vtw_inv : d->vtw_fwd, inv, dit, NULL, ahead};
  unsigned big = 0; /* stages with h >= 8 */
  while (((size_t)16 << big) <= len) big++;
  if (!dit) {
    size_t h = len / 2;
    for (; big >= 2; big -= 2, h /= 4, c.ahead = NULL) srun_radix4(&c, h / 2);
    if (big) srun_radix2(&c, h);
    stail_run(t, B, len / 8, 0, inv, NULL);
    return;
  }
  stail_run(t, B, len / 8, 1, inv, ahead);
  c.ahead = NULL;
  size_t h = 8;
  if (big & 1) {
    c.scale = big == 1 ? scale : NULL;
    srun_radix2(&c, h);
    h = 16;
    big--;
  }
  for (; big >= 2; big -= 2, h *= 4) {
    c.scale = big == 2 ? scale : NULL;
    srun_radix4(&c, h);
  }
}

/* The coset step on one block at position p0: B[i] = B[i] f - sub k. */
static CZ_IFMA_TARGET void block_coset(const ntt_block_pass *p, cz_frv *B, size_t p0) {
  const cz_ntt_domain *d = p->d;
  const ntt_job *job = p->job;
  const cz_fr *lo = d->rev_lo[job->coset] + (p0 & ((size_t)2 * d->blk_half - 1));
  cz_fr c;
  cz_frv C, K, f, s;
  ntt_coset_block(&c, d, job, p0);
  prepare_scalar(&C, &c);
  if (job->sub) prepare_scalar(&K, &job->sub_k);
  for (size_t i = 0; i < p->bsize / 8; i++) {
    cz_frv_load(&f, lo + 8 * i);
    cz_frv_mul_prepared(&f, &f, &C);
    cz_frv_mul(&B[i], &B[i], &f);
    if (!job->sub) continue;
    cz_frv_load(&s, job->sub + p0 + 8 * i);
    cz_frv_mul_prepared(&s, &s, &K);
    cz_frv_sub(&B[i], &B[i], &s);
  }
}

/* Block b; prefetches block b + 1 along when next is set. */
static CZ_IFMA_TARGET void run_block(const ntt_block_pass *p, const vtail tails[2], cz_frv *B,
                                     size_t b, int next, const cz_frv *scale) {
  const ntt_job *job = p->job;
  size_t len = p->bsize, groups = len / 8, p0 = b * len;
  cz_fr *x = p->x + p0;
  for (size_t i = 0; i < groups; i++) cz_frv_load(&B[i], x + 8 * i);
  if (p->pre_mul)
    for (size_t i = 0; i < groups; i++) {
      cz_frv y;
      cz_frv_load(&y, p->pre_mul + p0 + 8 * i);
      cz_frv_mul(&B[i], &B[i], &y);
    }
  /* the next block, a few lines per column group of the first step (len /
   * 32 groups at least) */
  ntt_lines ahead;
  ntt_lines_init(&ahead, next ? x + len : NULL, len * sizeof *x, len / 32);
  if (job->dif) block_stages(B, len, p->d, &tails[job->dif_inv], 0, job->dif_inv, NULL, &ahead);
  if (job->coset >= 0) block_coset(p, B, p0);
  if (job->dit)
    block_stages(B, len, p->d, &tails[job->dit_inv], 1, job->dit_inv, scale,
                 job->dif ? NULL : &ahead);
  for (size_t i = 0; i < groups; i++) cz_frv_store(x + 8 * i, &B[i]);
}

CZ_IFMA_TARGET int cz_ntt_ifma_blocks(const ntt_block_pass *p, size_t b0, size_t b1,
                                      void *scratch) {
  if (!scratch) return 0;
  vtail tails[2];
  vtail_init(&tails[0], p->d->tw_blk, p->d->blk_half, 0);
  vtail_init(&tails[1], p->d->tw_blk, p->d->blk_half, 1);
  cz_frv sv;
  if (p->scale) prepare_scalar(&sv, p->scale);
  for (size_t b = b0; b < b1; b++)
    run_block(p, tails, scratch, b, b + 1 < b1, p->scale ? &sv : NULL);
  return 1;
}

/* ---- panels -------------------------------------------------------------------- */

/* Panel P: one group of 8 columns per row. The twiddles of residue rr of
 * the stage of half-size m h_lo, gathered and prepared once for all its
 * row groups; also prefetches the residues ahead. */
static CZ_IFMA_TARGET void vpanel_tw(cz_frv *t, const ntt_level_pass *p, size_t c0, size_t m,
                                     size_t rr) {
  size_t s = ntt_panel_tw_stride(p, m), e0 = rr * p->h_lo + c0;
  if (!p->d->tw) {
    tw_fetch_split(t, p->d, e0 * s, s, p->inv);
    return;
  }
  if (rr + NTT_PREFETCH_TW < m)
    ntt_prefetch_tw(p->d->tw, p->d->half, e0 + NTT_PREFETCH_TW * p->h_lo, s, 8, p->inv);
  tw_fetch(t, p->d->tw, p->d->half, e0 * s, s, p->inv);
}

/* The stage of half-size m h_lo: rows r and r + m paired. */
static CZ_IFMA_TARGET void vpanel_radix2(const ntt_level_pass *p, cz_frv *P, size_t c0, size_t m,
                                         const cz_frv *scale, ntt_ahead *ahead) {
  size_t rows = (size_t)1 << p->rows_log;
  for (size_t rr = 0; rr < m; rr++) {
    cz_frv t;
    vpanel_tw(&t, p, c0, m, rr);
    ntt_ahead_step(ahead);
    for (size_t base = rr; base < rows; base += 2 * m)
      vbf2(&P[base], &P[base + m], &t, p->inv, p->dit, scale);
  }
}

/* The stages of half-sizes 2m h_lo and m h_lo on rows r, r + m, r + 2m, r + 3m. */
static CZ_IFMA_TARGET void vpanel_radix4(const ntt_level_pass *p, cz_frv *P, size_t c0, size_t m,
                                         const cz_frv *scale, ntt_ahead *ahead) {
  size_t rows = (size_t)1 << p->rows_log;
  for (size_t rr = 0; rr < m; rr++) {
    cz_frv ta, tb, tc;
    vpanel_tw(&ta, p, c0, 2 * m, rr);
    vpanel_tw(&tb, p, c0, 2 * m, rr + m);
    vpanel_tw(&tc, p, c0, m, rr);
    ntt_ahead_step(ahead);
    for (size_t base = rr; base < rows; base += 4 * m)
      vbf4(&P[base], &P[base + m], &P[base + 2 * m], &P[base + 3 * m], &ta, &tb, &tc, p->inv,
           p->dit, scale);
  }
}

/* Every stage of the level on one panel, in the scalar panels' order (and
 * with the same twiddle look-ahead). */
static CZ_IFMA_TARGET void vpanel_run(const ntt_level_pass *p, cz_frv *P, size_t c0,
                                      const cz_frv *scale, ntt_ahead *ahead) {
  ntt_panel_step st[64];
  unsigned n = ntt_panel_steps(p, st);
  for (unsigned i = 0; i < n; i++) {
    if (i + 1 < n) ntt_panel_step_ahead(p, c0, &st[i + 1]);
    const cz_frv *sc = st[i].last ? scale : NULL;
    if (st[i].radix4) vpanel_radix4(p, P, c0, st[i].m, sc, ahead);
    else vpanel_radix2(p, P, c0, st[i].m, sc, ahead);
  }
}

/* Converts panel q (rows of 8 elements) into P, times pre_mul when set. */
static CZ_IFMA_TARGET void panel_load(const ntt_level_pass *p, size_t q, cz_frv *P) {
  size_t rows = (size_t)1 << p->rows_log, base = ntt_panel_base(p, q);
  for (size_t r = 0; r < rows; r++) {
    size_t at = base + r * p->h_lo;
    if (r + NTT_PREFETCH_ROWS < rows) {
      ntt_prefetch_row(p->x + at + NTT_PREFETCH_ROWS * p->h_lo, 8);
      if (p->pre_mul) ntt_prefetch_row(p->pre_mul + at + NTT_PREFETCH_ROWS * p->h_lo, 8);
    }
    cz_frv_load(&P[r], p->x + at);
    if (!p->pre_mul) continue;
    cz_frv y;
    cz_frv_load(&y, p->pre_mul + at);
    cz_frv_mul(&P[r], &P[r], &y);
  }
}

CZ_IFMA_TARGET int cz_ntt_ifma_panels(const ntt_level_pass *p, size_t q0, size_t q1,
                                      void *scratch) {
  if (!scratch || p->width != 8) return 0;
  size_t rows = (size_t)1 << p->rows_log;
  cz_frv *P = scratch, sv;
  if (p->scale) prepare_scalar(&sv, p->scale);
  for (size_t q = q0; q < q1; q++) {
    size_t c0 = q / p->spans * p->width, base = ntt_panel_base(p, q);
    ntt_ahead ahead;
    ntt_ahead_init(&ahead, p, q, q1);
    ntt_panel_first_ahead(p, c0);
    panel_load(p, q, P);
    vpanel_run(p, P, c0, p->scale ? &sv : NULL, &ahead);
    for (size_t r = 0; r < rows; r++) cz_frv_store(p->x + base + r * p->h_lo, &P[r]);
  }
  return 1;
}

#else /* no IFMA in this build: ntt.c never takes the path, but links these */

void cz_ntt_ifma_domain_init(cz_ntt_domain *d) { d->vtw_fwd = d->vtw_inv = NULL; }
void cz_ntt_ifma_domain_free(cz_ntt_domain *d) { (void)d; }
int cz_ntt_ifma_blocks(const ntt_block_pass *p, size_t b0, size_t b1, void *scratch) {
  (void)p;
  (void)b0;
  (void)b1;
  (void)scratch;
  return 0;
}
int cz_ntt_ifma_panels(const ntt_level_pass *p, size_t q0, size_t q1, void *scratch) {
  (void)p;
  (void)q0;
  (void)q1;
  (void)scratch;
  return 0;
}

#endif
