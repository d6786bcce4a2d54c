/* The scalar NTT kernels: one element per butterfly, on every path (ADX
 * products where the CPU has them, the portable C product otherwise).
 *
 * Forward is decimation in frequency (natural in, bit-reversed out), inverse
 * is decimation in time (bit-reversed in, natural out), so the pair needs no
 * permutation. Twiddles come from the domain's tables, tw (omega^i) for the
 * levels and tw_blk (the block's own roots) inside blocks; the inverse root
 * is free (see ntt_twid). Blocks run their stages in place two at a time
 * (radix-4); panels are copied into a row-major buffer of NTT_PANEL_W
 * columns, run every stage of their level there, and are copied back. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "ntt/ntt_impl.h"

/* ---- butterflies --------------------------------------------------------- */

/* DIF: (u, v) <- (u + v, (u - v) w); with w = -t for the inverse root.
 * The product goes straight to v: through a temporary, gcc copied it with
 * 16-byte loads of a value just stored in 8-byte limbs, which the store
 * buffer cannot forward, and each butterfly stalled on that copy (perf:
 * a fifth of the kernels' samples on it; 2% of the forward transform). */
static inline __attribute__((always_inline)) void bf_dif(cz_fr *u, cz_fr *v, const cz_fr *t,
                                                         int inv) {
  cz_fr d;
  if (inv) ntt_fr_diff_for_mul(&d, v, u);
  else ntt_fr_diff_for_mul(&d, u, v);
  ntt_fr_add(u, u, v);
  ntt_fr_mul(v, t, &d);
}

/* DIT: (u, v) <- (u + m, u - m) for m = v w, in two parts: the product,
 * then the sum and difference (with w = -t for the inverse root). The
 * quadruples run a product of another pair between the two, so that the
 * additions do not wait on the product just issued (see bf4_step). */
static inline __attribute__((always_inline)) void dit_join(cz_fr *u, cz_fr *v, const cz_fr *m,
                                                           int inv) {
  if (inv) {
    ntt_fr_add(v, u, m);
    ntt_fr_sub(u, u, m);
  } else {
    ntt_fr_sub(v, u, m);
    ntt_fr_add(u, u, m);
  }
}

static inline __attribute__((always_inline)) void bf_dit(cz_fr *u, cz_fr *v, const cz_fr *t,
                                                         int inv) {
  cz_fr m;
  ntt_fr_mul(&m, v, t);
  dit_join(u, v, &m, inv);
}

/* Both butterflies with twiddle 1 (exponent 0; for the inverse root t = -1,
 * which gives the same result): (u, v) <- (u + v, u - v), no product.
 * Column 0 of every stage has it: n products in all, two stages' worth. */
static inline __attribute__((always_inline)) void bf_one(cz_fr *u, cz_fr *v) {
  cz_fr d;
  ntt_fr_sub(&d, u, v);
  ntt_fr_add(u, u, v);
  *v = d;
}

/* A DIT butterfly (bf_one when t is NULL), its outputs then times *scale
 * when scale is not NULL; or a DIF butterfly. */
static inline __attribute__((always_inline)) void bf2(cz_fr *u, cz_fr *v, const cz_fr *t, int inv,
                                                      int dit, const cz_fr *scale) {
  if (!t) bf_one(u, v);
  else if (dit) bf_dit(u, v, t, inv);
  else bf_dif(u, v, t, inv);
  if (scale) {
    ntt_fr_mul(u, u, scale);
    ntt_fr_mul(v, v, scale);
  }
}

/* Two stages on q = (p0, p1, p2, p3), columns j, j + g, j + 2g, j + 3g,
 * with ta = omega_4g^j, tb = omega_4g^(j+g), tc = omega_2g^j (ta = tc =
 * NULL for j = 0). The two halves are separate so that loops can run the
 * first half of the next quadruple before the second half of this one: a
 * quadruple is longer than the out-of-order window, and its halves depend
 * on each other, so the products of the next one would otherwise wait. */
typedef struct {
  cz_fr *p[4];
  const cz_fr *ta, *tb, *tc;
} quad;

/* The DIF's halves: stage 2g, then stage g. */
static inline __attribute__((always_inline)) void dif_first(const quad *q, int inv) {
  bf2(q->p[0], q->p[2], q->ta, inv, 0, NULL);
  bf2(q->p[1], q->p[3], q->tb, inv, 0, NULL);
}

static inline __attribute__((always_inline)) void dif_second(const quad *q, int inv) {
  bf2(q->p[0], q->p[1], q->tc, inv, 0, NULL);
  bf2(q->p[2], q->p[3], q->tc, inv, 0, NULL);
}

/* The DIT's halves (stage g, then stage 2g, whose outputs are then times
 * *scale when set) run in two parts each. First the products for pairs
 * (u0, v0) and (u1, v1): m[i] = v_i t_i, none where t_i is NULL (twiddle
 * 1). */
static inline __attribute__((always_inline)) void dit_muls(cz_fr m[2], const cz_fr *v0,
                                                           const cz_fr *t0, const cz_fr *v1,
                                                           const cz_fr *t1) {
  if (t0) ntt_fr_mul(&m[0], v0, t0);
  if (t1) ntt_fr_mul(&m[1], v1, t1);
}

/* Sum and difference of a pair whose product m is ready (bf_one when the
 * twiddle is 1), then times *scale when set. */
static inline __attribute__((always_inline)) void dit_finish(cz_fr *u, cz_fr *v, const cz_fr *t,
                                                             const cz_fr *m, int inv,
                                                             const cz_fr *scale) {
  if (t) dit_join(u, v, m, inv);
  else bf_one(u, v);
  if (scale) {
    ntt_fr_mul(u, u, scale);
    ntt_fr_mul(v, v, scale);
  }
}

/* The quadruple loops' step: the first half of q (when not NULL), then
 * the second half of prev (when not NULL). The DIT orders it as the
 * products of both, then the additions of both, so that each sum and
 * difference comes a product or two after the product it needs (measured:
 * the inverse 4-5% faster); the DIF's additions need no product, so its
 * halves simply alternate. */
static inline __attribute__((always_inline)) void bf4_step(const quad *q, const quad *prev, int inv,
                                                           int dit, const cz_fr *scale) {
  if (!dit) {
    if (q) dif_first(q, inv);
    if (prev) dif_second(prev, inv);
    return;
  }
  cz_fr mq[2], mp[2];
  if (q) dit_muls(mq, q->p[1], q->tc, q->p[3], q->tc);
  if (prev) dit_muls(mp, prev->p[2], prev->ta, prev->p[3], prev->tb);
  if (q) {
    dit_finish(q->p[0], q->p[1], q->tc, &mq[0], inv, NULL);
    dit_finish(q->p[2], q->p[3], q->tc, &mq[1], inv, NULL);
  }
  if (prev) {
    dit_finish(prev->p[0], prev->p[2], prev->ta, &mp[0], inv, scale);
    dit_finish(prev->p[1], prev->p[3], prev->tb, &mp[1], inv, scale);
  }
}

/* ---- blocks -------------------------------------------------------------- */

/* One stage (radix-2, half-size h) or stage pair (radix-4, half-sizes 2g
 * and g, g = h) over the block x[0 .. len), twiddles from tw_blk. */
typedef struct {
  cz_fr *x;
  size_t len, h;
  const cz_fr *tw;
  size_t half;
  int inv, dit;
  const cz_fr *scale;
  ntt_lines *ahead; /* stepped once per column (or NULL) */
} stage_ctx;

static void block_radix2(const stage_ctx *c) {
  size_t h = c->h, s = c->half / h;
  for (size_t base = 0; base < c->len; base += 2 * h)
    for (size_t j = 0; j < h; j++) {
      if (c->ahead) ntt_lines_step(c->ahead);
      const cz_fr *t = j ? ntt_twid(c->tw, c->half, j * s, c->inv) : NULL;
      bf2(&c->x[base + j], &c->x[base + j + h], t, c->inv, c->dit, c->scale);
    }
}

/* The radix-4 step over the block, for one direction (dit a constant). */
static inline __attribute__((always_inline)) void block_radix4_as(const stage_ctx *c, int dit) {
  size_t g = c->h, s1 = c->half / (2 * g);
  int inv = c->inv;
  quad prev = {{NULL}, NULL, NULL, NULL};
  for (size_t base = 0; base < c->len; base += 4 * g)
    for (size_t j = 0; j < g; j++) {
      if (c->ahead) ntt_lines_step(c->ahead);
      cz_fr *p0 = &c->x[base + j];
      quad q = {{p0, p0 + g, p0 + 2 * g, p0 + 3 * g},
                j ? ntt_twid(c->tw, c->half, j * s1, inv) : NULL,
                ntt_twid(c->tw, c->half, (j + g) * s1, inv),
                j ? ntt_twid(c->tw, c->half, 2 * j * s1, inv) : NULL};
      bf4_step(&q, prev.p[0] ? &prev : NULL, inv, dit, c->scale);
      prev = q;
    }
  bf4_step(NULL, &prev, inv, dit, c->scale);
}

static void block_radix4_dif(const stage_ctx *c) { block_radix4_as(c, 0); }
static void block_radix4_dit(const stage_ctx *c) { block_radix4_as(c, 1); }

/* Every stage with h < len, in the order the direction needs (DIF: large
 * to small; DIT: small to large, the last one scaling when scale is set).
 * The first step also steps ahead (when not NULL) once per column. */
static void block_stages(cz_fr *x, size_t len, const cz_ntt_domain *d, int dit, int inv,
                         const cz_fr *scale, ntt_lines *ahead) {
  unsigned stages = 0;
  while (((size_t)1 << stages) < len) stages++;
  stage_ctx c = {x, len, 0, d->tw_blk, d->blk_half, inv, dit, NULL, ahead};
  if (!dit) {
    size_t h = len / 2;
    for (; stages >= 2; stages -= 2, h /= 4, c.ahead = NULL) {
      c.h = h / 2;
      block_radix4_dif(&c);
    }
    if (stages) {
      c.h = h;
      block_radix2(&c);
    }
    return;
  }
  size_t h = 1;
  if (stages & 1) {
    c.h = 1;
    c.scale = stages == 1 ? scale : NULL;
    block_radix2(&c);
    h = 2;
    stages--;
    c.ahead = NULL;
  }
  for (; stages >= 2; stages -= 2, h *= 4, c.ahead = NULL) {
    c.h = h;
    c.scale = stages == 2 ? scale : NULL;
    block_radix4_dit(&c);
  }
}

/* x[p] = x[p] f(p) - sub[p] k over one block at position p0 (ntt_job). */
static void block_coset(const ntt_block_pass *p, cz_fr *x, size_t p0) {
  const cz_ntt_domain *d = p->d;
  const ntt_job *job = p->job;
  const cz_fr *lo = d->rev_lo[job->coset] + (p0 & ((size_t)2 * d->blk_half - 1));
  const cz_fr *sub = job->sub ? job->sub + p0 : NULL;
  cz_fr c, f[2], t;
  ntt_coset_block(&c, d, job, p0);
  /* f(p) one element ahead, so that no product waits on the one before */
  ntt_fr_mul(&f[0], &lo[0], &c);
  for (size_t i = 0; i < p->bsize; i++) {
    if (sub) ntt_fr_mul(&t, &sub[i], &job->sub_k);
    if (i + 1 < p->bsize) ntt_fr_mul(&f[(i + 1) & 1], &lo[i + 1], &c);
    ntt_fr_mul(&x[i], &x[i], &f[i & 1]);
    if (sub) ntt_fr_sub(&x[i], &x[i], &t);
  }
}

void cz_ntt_scalar_blocks(const ntt_block_pass *p, size_t b0, size_t b1) {
  const ntt_job *job = p->job;
  size_t len = p->bsize;
  for (size_t b = b0; b < b1; b++) {
    cz_fr *x = p->x + b * len;
    /* the next block, a few lines per column of the first step (len / 4
     * columns at least) */
    ntt_lines ahead;
    ntt_lines_init(&ahead, b + 1 < b1 ? x + len : NULL, len * sizeof *x, len / 4);
    if (p->pre_mul)
      for (size_t i = 0; i < len; i++) ntt_fr_mul(&x[i], &x[i], &p->pre_mul[b * len + i]);
    if (job->dif) block_stages(x, len, p->d, 0, job->dif_inv, NULL, &ahead);
    if (job->coset >= 0) block_coset(p, x, b * len);
    if (job->dit) block_stages(x, len, p->d, 1, job->dit_inv, p->scale, job->dif ? NULL : &ahead);
  }
}

/* ---- panels -------------------------------------------------------------- */

/* The panel's rows: row r, column c at P[r rs + c]. */
typedef struct {
  const ntt_level_pass *p;
  cz_fr *P;
  size_t rs, c0; /* c0: the panel's first column within its span */
  ntt_ahead ahead;
  /* Twiddles computed from a split table (ntt_tw_at): per row residue's
   * parity (a radix-4 step still reads the previous one's) and stage. */
  cz_fr twb[2][3][NTT_PANEL_W];
} panel;

/* The twiddles of residue rr of the stage of half-size m h_lo for the
 * panel's columns: t[c step] (exponent 0 is multiplied like the others:
 * the same values), into the table, or computed into buf when the domain
 * keeps the split one. Also prefetches the residues ahead. */
typedef struct {
  const cz_fr *t;
  ptrdiff_t step;
} tw_run;

static tw_run panel_tw(const panel *pn, size_t m, size_t rr, cz_fr *buf) {
  const ntt_level_pass *p = pn->p;
  const cz_ntt_domain *d = p->d;
  size_t s = ntt_panel_tw_stride(p, m), e0 = rr * p->h_lo + pn->c0;
  if (!d->tw) {
    for (size_t c = 0; c < p->width; c++) {
      size_t e = (e0 + c) * s;
      (void)ntt_tw_at(d, p->inv ? d->half - e : e, &buf[c]); /* split: computed into buf */
    }
    return (tw_run){buf, 1};
  }
  if (rr + NTT_PREFETCH_TW < m)
    ntt_prefetch_tw(d->tw, d->half, e0 + NTT_PREFETCH_TW * p->h_lo, s, p->width, p->inv);
  tw_run r = {ntt_twid(d->tw, d->half, e0 * s, p->inv), p->inv ? -(ptrdiff_t)s : (ptrdiff_t)s};
  return r;
}

/* The stage of half-size m h_lo: rows r and r + m paired. */
static void panel_radix2(panel *pn, size_t m, const cz_fr *scale) {
  const ntt_level_pass *p = pn->p;
  size_t W = p->width, rows = (size_t)1 << p->rows_log, rs = pn->rs;
  for (size_t rr = 0; rr < m; rr++) {
    tw_run t = panel_tw(pn, m, rr, pn->twb[0][0]);
    ntt_ahead_step(&pn->ahead);
    for (size_t base = rr; base < rows; base += 2 * m) {
      cz_fr *u = pn->P + base * rs, *v = u + m * rs;
      for (size_t c = 0; c < W; c++)
        bf2(&u[c], &v[c], t.t + (ptrdiff_t)c * t.step, p->inv, p->dit, scale);
    }
  }
}

/* The stages of half-sizes 2m h_lo and m h_lo: rows r, r + m, r + 2m,
 * r + 3m, as the blocks' radix-4 step. */
static inline __attribute__((always_inline)) void panel_radix4_as(panel *pn, size_t m,
                                                                  const cz_fr *scale, int dit) {
  const ntt_level_pass *p = pn->p;
  size_t W = p->width, rows = (size_t)1 << p->rows_log, rs = pn->rs, mr = m * rs;
  quad prev = {{NULL}, NULL, NULL, NULL};
  for (size_t rr = 0; rr < m; rr++) {
    cz_fr(*b)[NTT_PANEL_W] = pn->twb[rr & 1];
    tw_run ta = panel_tw(pn, 2 * m, rr, b[0]), tb = panel_tw(pn, 2 * m, rr + m, b[1]),
           tc = panel_tw(pn, m, rr, b[2]);
    ntt_ahead_step(&pn->ahead);
    for (size_t base = rr; base < rows; base += 4 * m)
      for (size_t c = 0; c < W; c++) {
        cz_fr *p0 = pn->P + base * rs + c;
        quad q = {{p0, p0 + mr, p0 + 2 * mr, p0 + 3 * mr},
                  ta.t + (ptrdiff_t)c * ta.step,
                  tb.t + (ptrdiff_t)c * tb.step,
                  tc.t + (ptrdiff_t)c * tc.step};
        bf4_step(&q, prev.p[0] ? &prev : NULL, p->inv, dit, scale);
        prev = q;
      }
  }
  bf4_step(NULL, &prev, p->inv, dit, scale);
}

static void panel_radix4(panel *pn, size_t m, const cz_fr *scale) {
  if (pn->p->dit) panel_radix4_as(pn, m, scale, 1);
  else panel_radix4_as(pn, m, scale, 0);
}

/* Every stage of the level on one panel (its first step's twiddles
 * already asked for), each step's twiddles asked for one step ahead. */
static void panel_run(panel *pn) {
  const ntt_level_pass *p = pn->p;
  ntt_panel_step st[64];
  unsigned n = ntt_panel_steps(p, st);
  for (unsigned i = 0; i < n; i++) {
    if (i + 1 < n) ntt_panel_step_ahead(p, pn->c0, &st[i + 1]);
    const cz_fr *scale = st[i].last ? p->scale : NULL;
    if (st[i].radix4) panel_radix4(pn, st[i].m, scale);
    else panel_radix2(pn, st[i].m, scale);
  }
}

/* Copy panel q between x and the buffer B (rows of W elements): in, times
 * pre_mul when set; or out. */
static void panel_copy(const ntt_level_pass *p, size_t q, cz_fr *B, int in) {
  size_t rows = (size_t)1 << p->rows_log, W = p->width, base = ntt_panel_base(p, q);
  for (size_t r = 0; r < rows; r++) {
    cz_fr *row = p->x + base + r * p->h_lo, *b = B + r * W;
    if (r + NTT_PREFETCH_ROWS < rows) {
      ntt_prefetch_row(row + NTT_PREFETCH_ROWS * p->h_lo, W);
      if (p->pre_mul) ntt_prefetch_row(p->pre_mul + base + (r + NTT_PREFETCH_ROWS) * p->h_lo, W);
    }
    if (!in) {
      memcpy(row, b, W * sizeof *b);
      continue;
    }
    if (!p->pre_mul) {
      memcpy(b, row, W * sizeof *b);
      continue;
    }
    const cz_fr *y = p->pre_mul + base + r * p->h_lo;
    for (size_t c = 0; c < W; c++) ntt_fr_mul(&b[c], &row[c], &y[c]);
  }
}

void cz_ntt_scalar_panels(const ntt_level_pass *p, size_t q0, size_t q1, void *scratch) {
  size_t rows = (size_t)1 << p->rows_log, W = p->width;
  cz_fr *B = scratch;
  panel pn; /* twb is written before it is read */
  for (size_t q = q0; q < q1; q++) {
    pn.p = p;
    pn.P = B;
    pn.rs = W;
    pn.c0 = q / p->spans * W;
    ntt_ahead_init(&pn.ahead, p, q, q1);
    ntt_panel_first_ahead(p, pn.c0);
    if (B) {
      panel_copy(p, q, B, 1);
      panel_run(&pn);
      panel_copy(p, q, B, 0);
      continue;
    }
    /* No buffer: the same stages in place, on rows h_lo apart. */
    size_t base = ntt_panel_base(p, q);
    pn.P = p->x + base;
    pn.rs = p->h_lo;
    if (p->pre_mul)
      for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < W; c++) {
          cz_fr *e = &pn.P[r * pn.rs + c];
          ntt_fr_mul(e, e, &p->pre_mul[base + r * p->h_lo + c]);
        }
    panel_run(&pn);
  }
}
