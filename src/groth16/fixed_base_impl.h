/* One source for the fixed-base multiplication of G1 and G2 (fixed_base.c).
 * Include after defining:
 *   F, FF(x)        the coordinate field and its inline names (fpi_##x)
 *   F_ONE           its Montgomery one
 *   AFF, JAC, GN(x) the point types and the group's names (cz_g1_##x)
 *   FB(x)           this instance's names (cz_g16_fixed_base_g1##x)
 *
 * Signed digits: k = sum_j d_j 2^(w j) with d_j in (-2^(w-1), 2^(w-1)], so a
 * table row needs only |d| in [1, 2^(w-1)]: T[j][|d| - 1] = |d| 2^(w j) base,
 * half the table of unsigned digits, and y is negated for d < 0.
 *
 * Batched affine accumulation: a worker takes FB_CHUNK scalars and, window by
 * window, adds the table point of every scalar into that scalar's affine
 * accumulator, all FB_CHUNK additions sharing one field inversion
 * (Montgomery's trick): ~6 multiplications per addition against ~11 for a
 * mixed Jacobian addition, and the result needs no conversion at the end.
 * An accumulator that is the identity takes the point as a copy; one whose x
 * equals the point's (a doubling or P - P, which signed digits make
 * impossible below the top window but which reduction mod r allows there)
 * is added in Jacobian form on the side. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const AFF *table;
  unsigned w, nwin;
  const cz_fr *k;
  AFF *out;
  uint8_t *scratch; /* scratch_bytes per worker */
  size_t scratch_bytes;
  cz_progress_counter *pc; /* NULL: no reports */
  unsigned weight;         /* units per scalar */
} FB(_ctx);

static inline bool FB(_aff_is_id)(const AFF *p) {
  const uint64_t *q = (const uint64_t *)p;
  uint64_t acc = 0;
  for (size_t i = 0; i < sizeof(AFF) / 8; i++) acc |= q[i];
  return acc == 0;
}

/* acc += s P in Jacobian form, s = +-1, for the rare x1 = x2 cases. */
__attribute__((noinline, cold)) static void FB(_add_slow)(AFF *acc, const AFF *p, bool neg) {
  JAC j;
  AFF q = *p;
  if (neg) GN(affine_neg)(&q, &q);
  GN(from_affine)(&j, acc);
  GN(add_affine)(&j, &j, &q);
  GN(to_affine)(acc, &j);
}

/* *a += (neg ? -*p : *p) once inv_l = 1 / (x2 - x1) is known:
 * lambda = (y2 - y1) / (x2 - x1), x3 = lambda^2 - x1 - x2,
 * y3 = lambda (x1 - x3) - y1. */
static inline __attribute__((always_inline)) void FB(_add_line)(AFF *a, const AFF *p, bool neg,
                                                                const F *inv_l) {
  F lambda, x3, t;
  if (neg) {
    FF(add)(&lambda, &p->y, &a->y);
    FF(neg)(&lambda, &lambda);
  } else {
    FF(sub)(&lambda, &p->y, &a->y);
  }
  FF(mul)(&lambda, &lambda, inv_l);
  FF(sqr)(&x3, &lambda);
  FF(sub)(&x3, &x3, &a->x);
  FF(sub)(&x3, &x3, &p->x);
  FF(sub)(&t, &a->x, &x3);
  FF(mul)(&t, &t, &lambda);
  a->x = x3;
  FF(sub)(&a->y, &t, &a->y);
}

/* One window in scalar code: acc[i] += sign(d[i]) T[|d[i]| - 1], i < m,
 * the plain additions sharing one inversion (den, pre, live: FB_CHUNK
 * entries of scratch). */
static void FB(_window_scalar)(AFF *acc, const int32_t *d, const AFF *T, size_t m, F *den, F *pre,
                               uint16_t *live) {
  /* Forward: copies into empty accumulators, and the prefix products
   * of the x differences of the real additions (listed in live[]). */
  size_t nl = 0;
  F prod = F_ONE;
  for (size_t i = 0; i < m; i++) {
    /* Table rows reach megabytes: fetch both cache lines of the
     * point a few scalars ahead. */
    if (i + FB_PREFETCH < m && d[i + FB_PREFETCH]) {
      const uint8_t *q = (const uint8_t *)&T[abs(d[i + FB_PREFETCH]) - 1];
      __builtin_prefetch(q);
      __builtin_prefetch(q + sizeof(AFF) - 1);
    }
    int32_t di = d[i];
    if (!di) continue;
    const AFF *p = &T[abs(di) - 1];
    AFF *a = &acc[i];
    if (FB(_aff_is_id)(a)) {
      a->x = p->x;
      if (di < 0) FF(neg)(&a->y, &p->y);
      else a->y = p->y;
      continue;
    }
    if (FF(eq)(&a->x, &p->x)) {
      FB(_add_slow)(a, p, di < 0);
      continue;
    }
    FF(sub)(&den[nl], &p->x, &a->x);
    pre[nl] = prod;
    FF(mul)(&prod, &prod, &den[nl]);
    live[nl++] = (uint16_t)i;
  }
  if (!nl) return;
  F inv;
  FF(inv)(&inv, &prod);
  /* Backward: lambda = (y2 - y1) / (x2 - x1), x3 = lambda^2 - x1 - x2,
   * y3 = lambda (x1 - x3) - y1, with y2 negated for negative digits. */
  for (size_t l = nl; l-- > 0;) {
    size_t i = live[l];
    int32_t di = d[i];
    const AFF *p = &T[abs(di) - 1];
    F inv_l;
    FF(mul)(&inv_l, &inv, &pre[l]);
    FF(mul)(&inv, &inv, &den[l]);
    FB(_add_line)(&acc[i], p, di < 0, &inv_l);
  }
}

static void FB(_worker)(void *vctx, size_t begin, size_t end, unsigned worker) {
  FB(_ctx) *c = vctx;
  const unsigned w = c->w, nwin = c->nwin;
  const size_t row = (size_t)1 << (w - 1);
  uint8_t *mem = c->scratch + (size_t)worker * c->scratch_bytes;
#ifdef FBV_GROUP
  /* The 8-lane window (fixed_base_vec.h) where the CPU has IFMA; its
   * groups start the worker's scratch (64-byte aligned). */
  FBV_GROUP *grp = cz_ifma_use ? (FBV_GROUP *)mem : NULL;
  mem += FB_VEC_BYTES;
#endif
  F *den = (F *)mem, *pre = den + FB_CHUNK;
  uint16_t *live = (uint16_t *)(pre + FB_CHUNK);
  int32_t *dig = (int32_t *)(live + FB_CHUNK); /* [window][i] */
  for (size_t s = begin; s < end; s += FB_CHUNK) {
    const size_t m = end - s < FB_CHUNK ? end - s : FB_CHUNK;
    AFF *acc = c->out + s;
    for (size_t i = 0; i < m; i++) {
      cz_scalar k;
      cz_fr_to_scalar(&k, &c->k[s + i]);
      fb_recode(dig + i, FB_CHUNK, &k, w, nwin);
      memset(&acc[i], 0, sizeof acc[i]); /* identity */
    }
    for (unsigned j = 0; j < nwin; j++) {
      const AFF *T = c->table + (size_t)j * row;
      const int32_t *d = dig + (size_t)j * FB_CHUNK;
#ifdef FBV_GROUP
      if (grp) {
        FBV(_window)(acc, d, T, m, grp, live);
        continue;
      }
#endif
      FB(_window_scalar)(acc, d, T, m, den, pre, live);
    }
    if (c->pc) cz_progress_add(c->pc, (uint64_t)m * c->weight);
  }
}

/* The table rows T[j][e] = (e + 1) 2^(w j) base, j < nwin, e < 2^(w-1),
 * built in Jacobian form and converted with one batched inversion. */
static AFF *FB(_table)(const AFF *base, unsigned w, unsigned nwin) {
  const size_t row = (size_t)1 << (w - 1), tn = (size_t)nwin * row;
  JAC *jt = malloc(tn * sizeof *jt);
  AFF *table = malloc(tn * sizeof *table);
  if (!jt || !table) {
    free(jt);
    free(table);
    return NULL;
  }
  JAC b;
  GN(from_affine)(&b, base);
  for (unsigned j = 0; j < nwin; j++) {
    JAC *r = jt + (size_t)j * row;
    r[0] = b;
    for (size_t e = 1; e < row; e++) GN(add)(&r[e], &r[e - 1], &b);
    for (unsigned t = 0; t < w; t++) GN(dbl)(&b, &b);
  }
  GN(batch_to_affine)(table, jt, tn);
  free(jt);
  return table;
}

cz_err FB(_tab_new)(FB(_tab) * t, const AFF *base, unsigned w) {
  t->table = NULL;
  t->scratch = NULL;
  t->scratch_cap = 0;
  if (w < 1 || w > FB_MAX_W) return CZ_ERR_INVALID_ARG;
  t->w = w;
  t->nwin = fb_windows(w);
  t->table = FB(_table)(base, w, t->nwin);
  return t->table ? CZ_OK : CZ_ERR_NOMEM;
}

void FB(_tab_free)(FB(_tab) * t) {
  free(t->table);
  free(t->scratch);
  t->table = NULL;
  t->scratch = NULL;
  t->scratch_cap = 0;
}

cz_err FB(_tab_mul)(FB(_tab) * t, AFF *out, const cz_fr *k, size_t n, unsigned n_threads,
                    cz_progress_counter *pc, unsigned weight) {
  if (!n) return CZ_OK;
  unsigned workers = cz_parallel_workers(n, n_threads);
  /* [the 8-lane groups,] den, pre, live, then the digits (sizeof(F) and
   * 2 FB_CHUNK are multiples of 4, so the digits are aligned); each
   * worker's part rounded to 64 bytes. Kept with the table: a streaming
   * setup calls this chunk after chunk. */
  size_t bytes = FB_VEC_BYTES + FB_CHUNK * (2 * sizeof(F) + 2 + 4 * (size_t)t->nwin);
  bytes = (bytes + 63) / 64 * 64;
  if (t->scratch_cap < (size_t)workers * bytes) {
    free(t->scratch);
    t->scratch_cap = 0;
    if (!(t->scratch = aligned_alloc(64, (size_t)workers * bytes))) return CZ_ERR_NOMEM;
    t->scratch_cap = (size_t)workers * bytes;
  }
  FB(_ctx) ctx = {t->table, t->w, t->nwin, k, out, t->scratch, bytes, pc, weight};
  cz_parallel_for(n, n_threads, FB(_worker), &ctx);
  return CZ_OK;
}

static cz_err FB(_run)(AFF *out, const AFF *base, const cz_fr *k, size_t n, unsigned w,
                       unsigned n_threads, cz_progress_counter *pc, unsigned weight) {
  if (!n) return CZ_OK;
  if (w < 1 || w > FB_MAX_W) return CZ_ERR_INVALID_ARG;
  FB(_tab) t;
  cz_err e = FB(_tab_new)(&t, base, w);
  if (e == CZ_OK) e = FB(_tab_mul)(&t, out, k, n, n_threads, pc, weight);
  FB(_tab_free)(&t);
  return e;
}

cz_err FB(_window)(AFF *out, const AFF *base, const cz_fr *k, size_t n, unsigned w,
                   unsigned n_threads) {
  return FB(_run)(out, base, k, n, w, n_threads, NULL, 0);
}

cz_err FB()(AFF *out, const AFF *base, const cz_fr *k, size_t n, unsigned n_threads) {
  return FB(_run)(out, base, k, n, cz_g16_fixed_base_pick_window(n), n_threads, NULL, 0);
}

cz_err FB(_progress)(AFF *out, const AFF *base, const cz_fr *k, size_t n, unsigned n_threads,
                     cz_progress_counter *pc, unsigned weight) {
  return FB(_run)(out, base, k, n, cz_g16_fixed_base_pick_window(n), n_threads, pc, weight);
}
