/* The MSM template's batched affine addition, included by msm_impl.h after
 * its macros and includes: the field helpers, Montgomery's trick over a
 * batch of independent additions (scalar here, 8-lane in msm_vec_impl.h),
 * and the scratch blocks they work in. It stands apart as the one primitive
 * that both the bucket windows (msm_bucket_impl.h) and the point sums
 * (msm_sums_impl.h) are built on. */

/* Field elements are arrays of 64-bit limbs, fully reduced, so zero is all
 * words zero; inline because the bucket loop asks several times per point. */
_Static_assert(sizeof(F) % 8 == 0 && sizeof(AFF) == 2 * sizeof(F), "limb arrays without padding");
static inline bool GN(msm_f_is_zero)(const F *a) {
  const uint64_t *w = (const uint64_t *)a;
  uint64_t acc = 0;
  for (size_t i = 0; i < sizeof(F) / 8; i++) acc |= w[i];
  return acc == 0;
}
static inline bool GN(msm_aff_is_id)(const AFF *p) {
  const uint64_t *w = (const uint64_t *)p;
  uint64_t acc = 0;
  for (size_t i = 0; i < sizeof(AFF) / 8; i++) acc |= w[i];
  return acc == 0;
}
/* An affine point spans two (G1) or more cache lines wherever it starts:
 * fetch them all, or the second line misses when y is read. */
static inline void GN(msm_prefetch)(const void *p, int rw) {
  uintptr_t a = (uintptr_t)p & ~(uintptr_t)63, end = (uintptr_t)p + sizeof(AFF);
  for (; a < end; a += 64) {
    if (rw) __builtin_prefetch((const void *)a, 1);
    else __builtin_prefetch((const void *)a, 0);
  }
}
static inline void GN(msm_f_neg)(F *r, const F *a) { F_SUB(r, &F_ZERO, a); }
static inline bool GN(msm_f_eq)(const F *a, const F *b) { return !memcmp(a, b, sizeof(F)); }

/* ---- batched affine addition ------------------------------------------- */

enum { BA_ADD, BA_DBL, BA_ZERO, BA_COPY, BA_KEEP };

typedef struct {
  F *den, *pre;
  uint8_t *kind;
  void *vec; /* GN(msm_vscratch) when the 8-lane path is on, else NULL */
} GN(msm_batch_scratch);

/* A scratch block (util/bigbuf.h) and its size, carved by msm_carve. */
typedef struct {
  void *p;
  size_t bytes;
} GN(msm_block);

/* The first pass of msm_batch_add_scalar for addition i, *a += (ng ? -*p :
 * *p): its kind, and for a line (an addition or a doubling) its
 * denominator in s->den[i]; false when it has none. */
static inline __attribute__((always_inline)) bool GN(msm_ba_classify)(
    const AFF *a, const AFF *p, bool ng, const GN(msm_batch_scratch) * s, size_t i, bool regular) {
  if (!regular) {
    if (GN(msm_aff_is_id)(p)) {
      s->kind[i] = BA_KEEP;
      return false;
    }
    if (GN(msm_aff_is_id)(a)) {
      s->kind[i] = BA_COPY;
      return false;
    }
  }
  if (GN(msm_f_eq)(&a->x, &p->x)) {
    F y2 = p->y;
    if (ng) GN(msm_f_neg)(&y2, &y2);
    if (!GN(msm_f_eq)(&a->y, &y2) || GN(msm_f_is_zero)(&a->y)) {
      s->kind[i] = BA_ZERO;
      return false;
    }
    s->kind[i] = BA_DBL;
    FF(dbl)(&s->den[i], &a->y);
  } else {
    s->kind[i] = BA_ADD;
    F_SUB(&s->den[i], &p->x, &a->x);
  }
  return true;
}

/* The second pass for a line once 1 / den is known (inv_i): *a += (ng ?
 * -*p : *p), an addition (add) or a doubling. */
static inline __attribute__((always_inline)) void GN(msm_ba_line)(AFF *a, const AFF *p, bool ng,
                                                                  bool add, const F *inv_i) {
  F lambda, t;
  if (add) {
    /* Subtracting, lambda = -(y2 + y1) / den: keep mu = -lambda and flip
     * the sign of the (x1 - x3) factor instead. */
    if (ng) F_ADD(&lambda, &p->y, &a->y);
    else F_SUB(&lambda, &p->y, &a->y);
    FF(mul_lazy)(&lambda, &lambda, inv_i); /* only ever multiplied */
    FF(sqr)(&t, &lambda);
    F_SUB(&t, &t, &a->x);
    F_SUB(&t, &t, &p->x); /* x3 = lambda^2 - x1 - x2 */
    if (ng) {
      F dx;
      F_SUB(&dx, &t, &a->x);
      FF(mul)(&dx, &dx, &lambda);
      a->x = t;
      F_SUB(&a->y, &dx, &a->y); /* y3 = mu (x3 - x1) - y1 */
      return;
    }
  } else {
    FF(sqr)(&t, &a->x);
    FF(mul)(&lambda, &t, inv_i);
    FF(dbl)(&t, &lambda);
    F_ADD(&lambda, &lambda, &t); /* 3 x1^2 / (2 y1) */
    FF(sqr)(&t, &lambda);
    F_SUB(&t, &t, &a->x);
    F_SUB(&t, &t, &a->x);
  }
  F dx;
  F_SUB(&dx, &a->x, &t);
  FF(mul)(&dx, &dx, &lambda);
  a->x = t;
  F_SUB(&a->y, &dx, &a->y); /* y3 = lambda (x1 - x3) - y1 */
}

/* *acc[i] += (neg[i] ? -*pt[i] : *pt[i]) for i < m, sharing one inversion
 * (Montgomery's trick): lambda_i = num_i / den_i with den_i = x2 - x1, or 2 y1
 * when doubling. The prefix products, the running inverse, inv_i and an
 * addition's lambda are only ever multiplied, so they are lazy products
 * (FF(mul_lazy): no final subtraction on the ADX path, 4 of an addition's
 * 6 products); what is stored, compared or added is canonical. No two acc[i] may be the same point,
 * and no acc[i] may be a pt[j]; either side may be the identity unless regular, which promises
 * neither is (the bucket loop knows). neg may be NULL. */
static void GN(msm_batch_add_scalar)(AFF *const *acc, const AFF *const *pt, const uint8_t *neg,
                                     size_t m, const GN(msm_batch_scratch) * s, bool regular) {
  F prod = F_ONE;
  bool first = true;
  for (size_t i = 0; i < m; i++) {
    if (i + 4 < m) {
      GN(msm_prefetch)(acc[i + 4], 1);
      GN(msm_prefetch)(pt[i + 4], 0);
    }
    if (!GN(msm_ba_classify)(acc[i], pt[i], neg && neg[i], s, i, regular)) continue;
    if (first) {
      s->pre[i] = F_ONE;
      prod = s->den[i];
      first = false;
    } else {
      s->pre[i] = prod;
      FF(mul_lazy)(&prod, &prod, &s->den[i]);
    }
  }
  F inv = F_ONE;
  if (!first) {
    F_ADD(&prod, &prod, &F_ZERO); /* canonical for the inversion */
    FF(inv)(&inv, &prod);
  }
  for (size_t i = m; i-- > 0;) {
    AFF *a = acc[i];
    const AFF *p = pt[i];
    bool ng = neg && neg[i];
    switch (s->kind[i]) {
      case BA_KEEP: continue;
      case BA_COPY:
        a->x = p->x;
        if (ng) GN(msm_f_neg)(&a->y, &p->y);
        else a->y = p->y;
        continue;
      case BA_ZERO:
        a->x = F_ZERO;
        a->y = F_ZERO;
        continue;
      default: break;
    }
    F inv_i;
    FF(mul_lazy)(&inv_i, &inv, &s->pre[i]);
    FF(mul_lazy)(&inv, &inv, &s->den[i]);
    GN(msm_ba_line)(a, p, ng, s->kind[i] == BA_ADD, &inv_i);
  }
}

#ifdef MSM_VEC
#include "msm/msm_vec_impl.h"
#endif

/* Batches this small do not amortise the 8-lane path's per-batch cost (the
 * lane products' scalar inversion and a partly idle last group). */
#define MSM_VEC_MIN_BATCH 16

/* msm_batch_add_scalar's contract; the 8-lane path when the scratch has it. */
static void GN(msm_batch_add)(AFF *const *acc, const AFF *const *pt, const uint8_t *neg, size_t m,
                              const GN(msm_batch_scratch) * s, bool regular) {
#ifdef MSM_VEC
  if (s->vec && m >= MSM_VEC_MIN_BATCH) {
    GN(msm_batch_add_vec)(acc, pt, neg, m, s, regular);
    return;
  }
#endif
  GN(msm_batch_add_scalar)(acc, pt, neg, m, s, regular);
}

/* Lays out scratch for batches of up to cap additions (see msm_carve); vec
 * asks for the 8-lane path. */
static void GN(msm_scratch_carve)(GN(msm_batch_scratch) * s, size_t cap, bool vec, msm_carve *c) {
  s->den = msm_carve_take(c, cap * sizeof(F));
  s->pre = msm_carve_take(c, cap * sizeof(F));
  s->kind = msm_carve_take(c, cap);
  s->vec = NULL;
#ifdef MSM_VEC
  if (vec) s->vec = GN(msm_vscratch_carve)(cap, c);
#else
  (void)vec;
#endif
}

/* Sizes, takes and carves blk for `lay`, a statement that carves through
 * the msm_carve c_ (run twice: counting, then for real). blk->p NULL: out
 * of memory. */
#define MSM_BLOCK_INIT(blk, lay) \
  do { \
    msm_carve c_ = {NULL, 0}; \
    lay; \
    (blk)->bytes = c_.used + MSM_CARVE_SLACK; \
    (blk)->p = cz_pool_take((blk)->bytes); \
    if ((blk)->p) { \
      c_ = (msm_carve){(uint8_t *)(blk)->p, 0}; \
      lay; \
    } \
  } while (0)

static void GN(msm_block_free)(GN(msm_block) * b) {
  cz_pool_give(b->p);
  b->p = NULL;
}
