/* The NTT's 8-lane IFMA path: the same transform as ntt.c's scalar code
 * (same passes, same blocking, same twiddle tables), with every butterfly
 * step done on 8 independent butterflies at once in cz_frv form.
 *
 * Layout: the data stay in cz_fr (AoS) between steps. A step loads 8
 * consecutive elements per operand (cz_frv_load: four loads and a
 * transpose), computes, and stores them back; that costs little next to
 * the products and keeps every other pass and caller unchanged.
 *   - Stages with half-size h >= 8: lane k is column j + k, so u and v are
 *     two runs of 8 consecutive elements; twiddles are 8 table entries with
 *     stride s, gathered, converted and prepared once per 8 columns and then
 *     reused for every block (columns outer, blocks inner).
 *   - The three stages h = 4, 2, 1 (the end of the DIF, the start of the
 *     DIT) run in registers on runs of 16 elements, forming u and v with
 *     two-source lane permutes.
 * Field operations are exact and reduced, so the results are bit-identical
 * to the scalar path whatever the grouping (tests/ntt/test_ntt.c compares
 * the two paths). The twiddle of exponent 0 is simply multiplied (by 1 or
 * -1) instead of skipped as the scalar code does: same values. */
#include <stdint.h>
#include <stdlib.h>
#include "cuzk/parallel.h"
#include "ec/ifma_field.h"
#include "ntt/ntt_impl.h"

#ifdef CZ_IFMA

/* ---- twiddles -------------------------------------------------------------- */

/* tp = prepared vector of the twiddles for exponents e0 + k step, k < 8,
 * from the scalar table tw (half + 1 entries), with twid()'s convention:
 * entry half - e for the inverse root. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void tw_fetch(cz_frv *tp, const cz_fr *tw, size_t half, size_t e0,
                                           size_t step, int inv) {
  const __m512i k = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
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
  /* e0 + k step (exponents are < 2^32: madd52lo is exact, and needs no DQ) */
  __m512i e = _mm512_madd52lo_epu64(_mm512_set1_epi64((long long)e0), k,
                                    _mm512_set1_epi64((long long)step));
  if (inv) e = _mm512_sub_epi64(_mm512_set1_epi64((long long)half), e);
  __m512i idx = _mm512_slli_epi64(e, 2); /* 4 words per element */
  __m512i w[4];
  for (int i = 0; i < 4; i++) w[i] = _mm512_i64gather_epi64(idx, (const void *)&tw[0].l[i], 8);
  cz_frv t;
  cz_frv_from_words_(&t, w);
  cz_frv_mul_prepare(tp, &t);
}

/* ---- butterflies ----------------------------------------------------------- */

/* DIF: (u, v) <- (u + v, (u - v) w); w = -t for the inverse root. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf_dif(cz_frv *u, cz_frv *v, const cz_frv *tp, int inv) {
  cz_frv d;
  if (inv) cz_frv_sub(&d, v, u);
  else cz_frv_sub(&d, u, v);
  cz_frv_add(u, u, v);
  cz_frv_mul_prepared(v, &d, tp);
}

/* DIT: (u, v) <- (u + v w, u - v w); w = -t for the inverse root. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf_dit(cz_frv *u, cz_frv *v, const cz_frv *tp, int inv) {
  cz_frv m;
  cz_frv_mul_prepared(&m, v, tp);
  if (inv) { cz_frv_add(v, u, &m); cz_frv_sub(u, u, &m); }
  else { cz_frv_sub(v, u, &m); cz_frv_add(u, u, &m); }
}

/* One radix-2 step on (u, v): DIT (then times the prepared scale, when
 * given) or DIF. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vbf2(cz_frv *u, cz_frv *v, const cz_frv *t,
                                                      int inv, int dit, const cz_frv *scale) {
  if (dit) {
    vbf_dit(u, v, t, inv);
    if (scale) { cz_frv_mul_prepared(u, u, scale); cz_frv_mul_prepared(v, v, scale); }
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
    vbf_dit(A, B, tc, inv);
    vbf_dit(C, D, tc, inv);
    vbf_dit(A, C, ta, inv);
    vbf_dit(B, D, tb, inv);
    if (scale) {
      cz_frv_mul_prepared(A, A, scale); cz_frv_mul_prepared(B, B, scale);
      cz_frv_mul_prepared(C, C, scale); cz_frv_mul_prepared(D, D, scale);
    }
  } else {
    vbf_dif(A, C, ta, inv);
    vbf_dif(B, D, tb, inv);
    vbf_dif(A, B, tc, inv);
    vbf_dif(C, D, tc, inv);
  }
}

/* ---- passes over stages with half-size >= 8 -------------------------------- */

typedef struct {
  cz_fr *x;
  size_t h;           /* radix-2: the stage's half-size; radix-4: g */
  const cz_fr *tw;
  size_t half;
  int inv, dit, radix4;
  const cz_frv *scale; /* prepared; DIT only: multiply every output (or NULL) */
} vpass;

/* Blocks [b0, b1) x columns [j0, j1), j0 and j1 multiples of 8. */
static CZ_IFMA_TARGET void vrun_radix2(const vpass *c, size_t b0, size_t b1, size_t j0, size_t j1) {
  size_t h = c->h, s = c->half / h;
  for (size_t j = j0; j < j1; j += 8) {
    cz_frv t;
    tw_fetch(&t, c->tw, c->half, j * s, s, c->inv);
    for (size_t blk = b0; blk < b1; blk++) {
      cz_fr *u = c->x + blk * 2 * h + j;
      cz_frv U, V;
      cz_frv_load(&U, u);
      cz_frv_load(&V, u + h);
      vbf2(&U, &V, &t, c->inv, c->dit, c->scale);
      cz_frv_store(u, &U);
      cz_frv_store(u + h, &V);
    }
  }
}

static CZ_IFMA_TARGET void vrun_radix4(const vpass *c, size_t b0, size_t b1, size_t j0, size_t j1) {
  size_t g = c->h, s1 = c->half / (2 * g);
  int inv = c->inv;
  for (size_t j = j0; j < j1; j += 8) {
    cz_frv ta, tb, tc; /* omega_4g^j, omega_4g^(j+g), omega_2g^j (lanes j..j+7) */
    tw_fetch(&ta, c->tw, c->half, j * s1, s1, inv);
    tw_fetch(&tb, c->tw, c->half, (j + g) * s1, s1, inv);
    tw_fetch(&tc, c->tw, c->half, 2 * j * s1, 2 * s1, inv);
    for (size_t blk = b0; blk < b1; blk++) {
      cz_fr *p0 = c->x + blk * 4 * g + j, *p1 = p0 + g, *p2 = p1 + g, *p3 = p2 + g;
      cz_frv A, B, C, D;
      cz_frv_load(&A, p0);
      cz_frv_load(&B, p1);
      cz_frv_load(&C, p2);
      cz_frv_load(&D, p3);
      vbf4(&A, &B, &C, &D, &ta, &tb, &tc, inv, c->dit, c->scale);
      cz_frv_store(p0, &A);
      cz_frv_store(p1, &B);
      cz_frv_store(p2, &C);
      cz_frv_store(p3, &D);
    }
  }
}

static CZ_IFMA_TARGET void vrun_pass(const vpass *c, size_t len) {
  if (c->radix4) vrun_radix4(c, 0, len / (4 * c->h), 0, c->h);
  else vrun_radix2(c, 0, len / (2 * c->h), 0, c->h);
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

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void vperm(cz_frv *r, const cz_frv *a, __m512i idx, const cz_frv *b) {
  for (int k = 0; k < 5; k++) r->l[k] = _mm512_permutex2var_epi64(a->l[k], idx, b->l[k]);
}

typedef struct {
  __m512i ui[3], vi[3], xi[3], yi[3];
  cz_frv tw[3]; /* prepared, lane L: omega_2h^(L % h) by twid()'s convention */
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

/* DIF stages 4, 2, 1 (dit = 0) or DIT stages 1, 2, 4 on x[0..len), len % 16 == 0. */
static CZ_IFMA_TARGET void vtail_run(const vtail *t, cz_fr *x, size_t len, int dit, int inv) {
  for (size_t i = 0; i < len; i += 16) {
    cz_frv X, Y, U, V;
    cz_frv_load(&X, x + i);
    cz_frv_load(&Y, x + i + 8);
    for (int k = 0; k < 3; k++) {
      int s = dit ? 2 - k : k;
      vperm(&U, &X, t->ui[s], &Y);
      vperm(&V, &X, t->vi[s], &Y);
      if (dit) vbf_dit(&U, &V, &t->tw[s], inv);
      else vbf_dif(&U, &V, &t->tw[s], inv);
      vperm(&X, &U, t->xi[s], &V);
      vperm(&Y, &U, t->yi[s], &V);
    }
    cz_frv_store(x + i, &X);
    cz_frv_store(x + i + 8, &Y);
  }
}

/* ---- blocks held in cz_frv form ---------------------------------------------
 * A block's elements are converted once into a buffer of cz_frv groups
 * (group i = elements 8i..8i+7), all its stages run there, and it is
 * converted back: no transposes between its stages. Stage twiddles come
 * ready (prepared, grouped by 8 columns) from the domain's vtw tables. */

typedef struct {
  cz_frv *B;
  size_t len;          /* elements */
  const cz_frv *tw;    /* vtw_fwd or vtw_inv */
  int inv, dit;
  const cz_frv *scale; /* last DIT stage (or NULL) */
} spass;

static inline const cz_frv *stage_tw(const cz_frv *tw, size_t h) { return tw + (h / 8 - 1); }

static CZ_IFMA_TARGET void srun_radix2(const spass *c, size_t h) {
  size_t hg = h / 8;
  const cz_frv *t = stage_tw(c->tw, h);
  for (size_t base = 0; base < c->len / 8; base += 2 * hg)
    for (size_t jg = 0; jg < hg; jg++) {
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
      cz_frv *A = &c->B[base + jg], *B = A + gg, *C = B + gg, *D = C + gg;
      const cz_frv *ta = &t2[jg], *tb = &t2[jg + gg], *tc = &t1[jg];
      vbf4(A, B, C, D, ta, tb, tc, inv, c->dit, c->scale);
    }
}

/* The stages h = 4, 2, 1 on groups (2i, 2i + 1). */
static CZ_IFMA_TARGET void stail_run(const vtail *t, cz_frv *B, size_t groups, int dit, int inv) {
  for (size_t i = 0; i < groups; i += 2) {
    cz_frv U, V;
    for (int k = 0; k < 3; k++) {
      int s = dit ? 2 - k : k;
      vperm(&U, &B[i], t->ui[s], &B[i + 1]);
      vperm(&V, &B[i], t->vi[s], &B[i + 1]);
      if (dit) vbf_dit(&U, &V, &t->tw[s], inv);
      else vbf_dif(&U, &V, &t->tw[s], inv);
      vperm(&B[i], &U, t->xi[s], &V);
      vperm(&B[i + 1], &U, t->yi[s], &V);
    }
  }
}

static CZ_IFMA_TARGET void srun_block(const spass *c0, const vtail *t, cz_fr *x, cz_frv *B) {
  size_t len = c0->len, groups = len / 8;
  for (size_t i = 0; i < groups; i++) cz_frv_load(&B[i], x + 8 * i);
  spass c = *c0;
  c.B = B;
  c.scale = NULL;
  unsigned big = 0; /* stages with h >= 8 */
  while (((size_t)16 << big) <= len) big++;
  if (!c.dit) {
    size_t h = len / 2;
    for (; big >= 2; big -= 2, h /= 4) srun_radix4(&c, h / 2);
    if (big) srun_radix2(&c, h);
    stail_run(t, B, groups, 0, c.inv);
  } else {
    stail_run(t, B, groups, 1, c.inv);
    size_t h = 8;
    if (big & 1) {
      c.scale = big == 1 ? c0->scale : NULL;
      srun_radix2(&c, h);
      h = 16; big--;
    }
    for (; big >= 2; big -= 2, h *= 4) {
      c.scale = big == 2 ? c0->scale : NULL;
      srun_radix4(&c, h);
    }
  }
  for (size_t i = 0; i < groups; i++) cz_frv_store(x + 8 * i, &B[i]);
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
  if (!d->vtw_fwd || !d->vtw_inv) { cz_ntt_ifma_domain_free(d); return; }
  build_vtw(d->vtw_fwd, d->tw_blk, d->blk_half, 0);
  build_vtw(d->vtw_inv, d->tw_blk, d->blk_half, 1);
}

void cz_ntt_ifma_domain_free(cz_ntt_domain *d) {
  free(d->vtw_fwd);
  free(d->vtw_inv);
  d->vtw_fwd = d->vtw_inv = NULL;
}

/* ---- blocks and the whole transform ----------------------------------------- */

typedef struct {
  cz_fr *x;
  size_t bsize;
  const cz_fr *tw;
  size_t half;
  int inv, dit;
  const cz_frv *scale; /* for the last DIT stage when the block is everything */
  const cz_frv *vtw;   /* the domain's vtw_fwd or vtw_inv */
} vblock;

/* All stages of one block of len >= 16 elements: the stages h >= 8 as
 * radix-4 pairs (a radix-2 for an odd count, on the side nearest the tail),
 * and the tail. */
static CZ_IFMA_TARGET void vrun_block(const vblock *b, const vtail *t, cz_fr *x) {
  size_t len = b->bsize;
  unsigned big = 0; /* stages with h >= 8 */
  while (((size_t)16 << big) <= len) big++;
  vpass c = {x, 0, b->tw, b->half, b->inv, b->dit, 0, NULL};
  if (!b->dit) {
    size_t h = len / 2;
    for (; big >= 2; big -= 2, h /= 4) { c.h = h / 2; c.radix4 = 1; vrun_pass(&c, len); }
    if (big) { c.h = h; c.radix4 = 0; vrun_pass(&c, len); }
    vtail_run(t, x, len, 0, b->inv);
  } else {
    vtail_run(t, x, len, 1, b->inv);
    size_t h = 8;
    if (big & 1) {
      c.h = h; c.radix4 = 0; c.scale = big == 1 ? b->scale : NULL;
      vrun_pass(&c, len);
      h = 16; big--;
    }
    for (; big >= 2; big -= 2, h *= 4) {
      c.h = h; c.radix4 = 1; c.scale = big == 2 ? b->scale : NULL;
      vrun_pass(&c, len);
    }
  }
}

static CZ_IFMA_TARGET void vblock_worker(void *ctx, size_t b0, size_t b1, unsigned worker) {
  (void)worker;
  const vblock *b = ctx;
  vtail t;
  vtail_init(&t, b->tw, b->half, b->inv);
  cz_frv *buf = cz_ntt_ifma_block_buffers ? aligned_alloc(64, b->bsize / 8 * sizeof *buf) : NULL;
  if (!buf) { /* no room for the buffer: the same stages, transposing per stage */
    for (size_t i = b0; i < b1; i++) vrun_block(b, &t, b->x + i * b->bsize);
    return;
  }
  spass c = {NULL, b->bsize, b->vtw, b->inv, b->dit, b->scale};
  for (size_t i = b0; i < b1; i++) srun_block(&c, &t, b->x + i * b->bsize, buf);
  free(buf);
}

/* Outer passes, split by chunks of VCOLS columns as in ntt.c. */
#define VCOLS 64

typedef struct {
  vpass p;
  size_t n;
} vouter;

static CZ_IFMA_TARGET void vouter_worker(void *ctx, size_t c0, size_t c1, unsigned worker) {
  (void)worker;
  const vouter *o = ctx;
  size_t h = o->p.h;
  size_t blocks = o->n / ((o->p.radix4 ? 4 : 2) * h);
  size_t j0 = c0 * VCOLS, j1 = c1 * VCOLS < h ? c1 * VCOLS : h;
  if (o->p.radix4) vrun_radix4(&o->p, 0, blocks, j0, j1);
  else vrun_radix2(&o->p, 0, blocks, j0, j1);
}

static void vouter_pass(const vpass *c, size_t n, unsigned threads) {
  vouter o = {*c, n};
  cz_parallel_for((c->h + VCOLS - 1) / VCOLS, threads, vouter_worker, &o);
}

/* ---- all outer stages at once, on panels of columns --------------------------
 * With R = n / bsize rows of bsize elements, the outer stages (half-sizes
 * bsize .. n/2) pair rows r and r + m (m = h / bsize) column by column. A
 * panel of PG * 8 columns across all R rows is loaded once in cz_frv form,
 * runs every outer stage radix-2 in cache, and is stored once: one pass
 * over memory instead of one per stage pair. Used while a panel fits in
 * L2 (R <= cz_ntt_ifma_panel_max_rows); larger transforms keep the
 * per-pass code. */
#define PG 2

size_t cz_ntt_ifma_panel_max_rows = 1024;
int cz_ntt_ifma_block_buffers = 1;

typedef struct {
  cz_fr *x;
  size_t bsize, rows;
  const cz_fr *tw;
  size_t half;
  int inv, dit;
  const cz_frv *scale; /* DIT: after the last stage (or NULL) */
  cz_frv *buf;         /* one panel (rows * PG groups) per worker */
} vpanel;

static CZ_IFMA_TARGET void panel_stage(const vpanel *p, cz_frv *P, size_t c0, size_t m, int last) {
  size_t h = m * p->bsize, s = p->half / h;
  int inv = p->inv;
  for (size_t rr = 0; rr < m; rr++)
    for (size_t g = 0; g < PG; g++) {
      cz_frv t;
      tw_fetch(&t, p->tw, p->half, (rr * p->bsize + c0 + 8 * g) * s, s, inv);
      for (size_t base = 0; base < p->rows; base += 2 * m) {
        cz_frv *u = &P[(base + rr) * PG + g], *v = &P[(base + rr + m) * PG + g];
        if (p->dit) {
          vbf_dit(u, v, &t, inv);
          if (last && p->scale) {
            cz_frv_mul_prepared(u, u, p->scale);
            cz_frv_mul_prepared(v, v, p->scale);
          }
        } else {
          vbf_dif(u, v, &t, inv);
        }
      }
    }
}

static CZ_IFMA_TARGET void vpanel_worker(void *ctx, size_t c0, size_t c1, unsigned worker) {
  (void)worker;
  const vpanel *p = ctx;
  size_t R = p->rows;
  cz_frv *P = p->buf + (size_t)worker * R * PG;
  for (size_t c = c0; c < c1; c++) {
    size_t col = c * 8 * PG;
    for (size_t r = 0; r < R; r++)
      for (size_t g = 0; g < PG; g++) cz_frv_load(&P[r * PG + g], p->x + r * p->bsize + col + 8 * g);
    if (!p->dit)
      for (size_t m = R / 2; m >= 1; m /= 2) panel_stage(p, P, col, m, 0);
    else
      for (size_t m = 1; m < R; m *= 2) panel_stage(p, P, col, m, m == R / 2);
    for (size_t r = 0; r < R; r++)
      for (size_t g = 0; g < PG; g++) cz_frv_store(p->x + r * p->bsize + col + 8 * g, &P[r * PG + g]);
  }
}

/* Runs the outer stages by panels; false (nothing done) when it does not
 * apply or the panels cannot be allocated. */
static int vpanel_pass(const cz_ntt_domain *d, cz_fr *x, size_t bsize, int dit, int inv,
                       const cz_frv *scale, unsigned threads) {
  size_t rows = d->n / bsize, chunks = bsize / (8 * PG);
  if (rows < 2 || rows > cz_ntt_ifma_panel_max_rows || chunks < 1) return 0;
  unsigned workers = cz_parallel_workers(chunks, threads);
  cz_frv *buf = aligned_alloc(64, (size_t)workers * rows * PG * sizeof *buf);
  if (!buf) return 0;
  vpanel p = {x, bsize, rows, d->tw, d->half, inv, dit, scale, buf};
  cz_parallel_for(chunks, threads, vpanel_worker, &p);
  free(buf);
  return 1;
}

static CZ_IFMA_TARGET void prepare_scalar(cz_frv *r, const cz_fr *s) {
  cz_frv v;
  cz_frv_set1(&v, s);
  cz_frv_mul_prepare(r, &v);
}

typedef struct {
  vpass c;
  const cz_frv *scale; /* for the DIT's last pass */
  size_t n;
  unsigned threads;
} vouter_stages;

static void vouter_stage(void *ctx, size_t h, int radix4, int last) {
  vouter_stages *s = ctx;
  s->c.h = h;
  s->c.radix4 = radix4;
  s->c.scale = last ? s->scale : NULL;
  vouter_pass(&s->c, s->n, s->threads);
}

CZ_IFMA_TARGET void cz_ntt_ifma_transform(const cz_ntt_domain *d, cz_fr *x, int dit, int inv,
                                          const cz_fr *scale, size_t bsize, unsigned threads) {
  size_t n = d->n;
  unsigned outer = ntt_outer_count(d->log_n, bsize);
  cz_frv svec, *sv = NULL;
  if (scale) { prepare_scalar(&svec, scale); sv = &svec; }
  vblock bc = {x, bsize, d->tw_blk, d->blk_half, inv, dit, outer == 0 ? sv : NULL,
                inv ? d->vtw_inv : d->vtw_fwd};
  vouter_stages st = {{x, 0, d->tw, d->half, inv, dit, 0, NULL}, sv, n, threads};
  /* The panels run all outer stages in one pass where they apply. */
  if (!dit) {
    if (!(outer && vpanel_pass(d, x, bsize, dit, inv, NULL, threads)))
      ntt_outer_stages(n, bsize, outer, dit, vouter_stage, &st);
    cz_parallel_for(n / bsize, threads, vblock_worker, &bc);
  } else {
    cz_parallel_for(n / bsize, threads, vblock_worker, &bc);
    if (!(outer && vpanel_pass(d, x, bsize, dit, inv, sv, threads)))
      ntt_outer_stages(n, bsize, outer, dit, vouter_stage, &st);
  }
}

/* ---- pointwise passes -------------------------------------------------------- */

/* a[i] = a[i] b[i] - c[i] for i in [i0, i1). */
CZ_IFMA_TARGET void cz_ntt_ifma_product(cz_fr *a, const cz_fr *b, size_t i0, size_t i1) {
  size_t i = i0;
  for (; i < i1 && (i & 7); i++) ntt_fr_mul(&a[i], &a[i], &b[i]);
  for (; i + 8 <= i1; i += 8) {
    cz_frv A, B;
    cz_frv_load(&A, a + i);
    cz_frv_load(&B, b + i);
    cz_frv_mul(&A, &A, &B);
    cz_frv_store(a + i, &A);
  }
  for (; i < i1; i++) ntt_fr_mul(&a[i], &a[i], &b[i]);
}

/* x[i] *= lo[i & (2^lo_log - 1)] hi[i >> lo_log] for i in [i0, i1): the
 * factor product first, then x times it, as the scalar scale_worker does. */
CZ_IFMA_TARGET void cz_ntt_ifma_scale(cz_fr *x, const cz_fr *lo, const cz_fr *hi, unsigned lo_log,
                                      size_t i0, size_t i1) {
  size_t mask = ((size_t)1 << lo_log) - 1, i = i0;
  for (; i < i1 && ((i & 7) || lo_log < 3); i++) {
    cz_fr f;
    ntt_fr_mul(&f, &lo[i & mask], &hi[i >> lo_log]);
    ntt_fr_mul(&x[i], &x[i], &f);
  }
  size_t cur = SIZE_MAX;
  cz_frv H;
  cz_frv_zero(&H); /* set before use (cur starts invalid); quiets -Wmaybe-uninitialized */
  for (; i + 8 <= i1; i += 8) {
    if (i >> lo_log != cur) {
      cur = i >> lo_log;
      prepare_scalar(&H, &hi[cur]);
    }
    cz_frv L, X;
    cz_frv_load(&L, lo + (i & mask));
    cz_frv_mul_prepared(&L, &L, &H);
    cz_frv_load(&X, x + i);
    cz_frv_mul(&X, &X, &L);
    cz_frv_store(x + i, &X);
  }
  for (; i < i1; i++) {
    cz_fr f;
    ntt_fr_mul(&f, &lo[i & mask], &hi[i >> lo_log]);
    ntt_fr_mul(&x[i], &x[i], &f);
  }
}

/* Lanes of m: r = x[idx_k] (idx in elements), other lanes 0; only the
 * lanes of m are read. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void gather_fr(cz_frv *r, const cz_fr *x, __m512i idx,
                                                           __mmask8 m) {
  __m512i w[4], q = _mm512_slli_epi64(idx, 2);
  for (int i = 0; i < 4; i++)
    w[i] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), m, q, (const void *)&x[0].l[i], 8);
  cz_frv_from_words_(r, w);
}

/* x[idx_k] = lane k of a for the lanes of m; nothing else is written. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void scatter_fr(cz_fr *x, __m512i idx, __mmask8 m,
                                                            const cz_frv *a) {
  __m512i w[4], q = _mm512_slli_epi64(idx, 2);
  cz_frv_to_words_(w, a);
  for (int i = 0; i < 4; i++) _mm512_mask_i64scatter_epi64((void *)&x[0].l[i], m, q, w[i], 8);
}

/* The permuting scale: for each pair {i, r = rev_log_n(i)} whose smaller
 * index i lies in [i0, i1): x[i], x[r] = x[r] f(i), x[i] f(r), with
 * f(e) = lo[e & (2^lo_log - 1)] hi[e >> lo_log]. Lanes are 8 consecutive
 * i; a lane whose pair belongs to a smaller index is masked off (no read,
 * no write: that pair may be another worker's). */
CZ_IFMA_TARGET void cz_ntt_ifma_scale_permute(cz_fr *x, const cz_fr *lo, const cz_fr *hi,
                                              unsigned lo_log, unsigned log_n, size_t i0,
                                              size_t i1, const cz_fr *sub, const cz_fr *k) {
  size_t mask = ((size_t)1 << lo_log) - 1, i = i0;
  const __m512i lmask = _mm512_set1_epi64((long long)mask);
  for (; i < i1; i++) {
    if (!(i & 7) && lo_log >= 3 && i + 8 <= i1) break;
    size_t r = ntt_rev_bits(i, log_n);
    if (r >= i) ntt_scale_permute_pair(x, lo, hi, lo_log, i, r, sub, k);
  }
  size_t cur = SIZE_MAX;
  cz_frv H, K;
  cz_frv_zero(&H);
  cz_frv_zero(&K);
  if (sub) prepare_scalar(&K, k);
  for (; i + 8 <= i1 && lo_log >= 3; i += 8) {
    long long rr[8];
    __mmask8 m = 0;
    for (int j = 0; j < 8; j++) {
      size_t r = ntt_rev_bits(i + (size_t)j, log_n);
      rr[j] = (long long)r;
      if (r >= i + (size_t)j) m |= (__mmask8)(1u << j);
    }
    if (!m) continue;
    __m512i ridx = _mm512_loadu_si512((const void *)rr);
    __m512i iidx = _mm512_add_epi64(_mm512_set1_epi64((long long)i),
                                    _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
    if (i >> lo_log != cur) {
      cur = i >> lo_log;
      prepare_scalar(&H, &hi[cur]);
    }
    cz_frv fi, fr, fh, xi, xr;
    cz_frv_load(&fi, lo + (i & mask)); /* f(i) = lo[i & mask .. + 7] hi[i >> lo_log] */
    cz_frv_mul_prepared(&fi, &fi, &H);
    gather_fr(&fr, lo, _mm512_and_si512(ridx, lmask), m);
    gather_fr(&fh, hi, _mm512_srli_epi64(ridx, lo_log), m);
    cz_frv_mul(&fr, &fr, &fh);
    gather_fr(&xi, x, iidx, m);
    gather_fr(&xr, x, ridx, m);
    cz_frv_mul(&xr, &xr, &fi); /* new x[i] */
    cz_frv_mul(&xi, &xi, &fr); /* new x[r] */
    if (sub) { /* new x[i] -= sub[r] k, new x[r] -= sub[i] k */
      cz_frv si, sr;
      gather_fr(&sr, sub, ridx, m);
      gather_fr(&si, sub, iidx, m);
      cz_frv_mul_prepared(&sr, &sr, &K);
      cz_frv_mul_prepared(&si, &si, &K);
      cz_frv_sub(&xr, &xr, &sr);
      cz_frv_sub(&xi, &xi, &si);
    }
    scatter_fr(x, ridx, m, &xi); /* for r == i both write the same value */
    scatter_fr(x, iidx, m, &xr);
  }
  for (; i < i1; i++) {
    size_t r = ntt_rev_bits(i, log_n);
    if (r >= i) ntt_scale_permute_pair(x, lo, hi, lo_log, i, r, sub, k);
  }
}

#else /* no IFMA in this build: ntt.c never takes the path, but links these */

size_t cz_ntt_ifma_panel_max_rows = 1024;
int cz_ntt_ifma_block_buffers = 1;

void cz_ntt_ifma_domain_init(cz_ntt_domain *d) { d->vtw_fwd = d->vtw_inv = NULL; }
void cz_ntt_ifma_domain_free(cz_ntt_domain *d) { (void)d; }
void cz_ntt_ifma_transform(const cz_ntt_domain *d, cz_fr *x, int dit, int inv, const cz_fr *scale,
                           size_t bsize, unsigned threads) {
  (void)d; (void)x; (void)dit; (void)inv; (void)scale; (void)bsize; (void)threads;
}
void cz_ntt_ifma_product(cz_fr *a, const cz_fr *b, size_t i0, size_t i1) {
  (void)a; (void)b; (void)i0; (void)i1;
}
void cz_ntt_ifma_scale(cz_fr *x, const cz_fr *lo, const cz_fr *hi, unsigned lo_log, size_t i0,
                       size_t i1) {
  (void)x; (void)lo; (void)hi; (void)lo_log; (void)i0; (void)i1;
}
void cz_ntt_ifma_scale_permute(cz_fr *x, const cz_fr *lo, const cz_fr *hi, unsigned lo_log,
                               unsigned log_n, size_t i0, size_t i1, const cz_fr *sub,
                               const cz_fr *k) {
  (void)x; (void)lo; (void)hi; (void)lo_log; (void)log_n; (void)i0; (void)i1; (void)sub; (void)k;
}

#endif
