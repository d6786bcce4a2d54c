/* One source for the MSM of G1 and G2. Include after defining:
 *   F, FF(x)         the coordinate field and its function names (fpi_##x)
 *   F_ZERO, F_ONE    its zero and Montgomery one
 *   F_ADD, F_SUB     inline add and subtract (same contract as FF(add/sub))
 *   AFF, JAC, XYZZ   the point types
 *   GN(x)            the group's function names (cz_g1_##x)
 *   SEG              the public segment type (cz_msm_g1_segment)
 *   MSM(x)           the public MSM names (cz_msm_g1##x)
 * Uses the group's public point functions and the field's inline layer, which
 * picks the ADX or portable backend at run time. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "msm/msm_internal.h"
#include "util/bigbuf.h"

/* Inversion cost in field multiplications (safegcd: ~40 Fp muls), for the
 * window model. */
#define MSM_INV_COST 50.0
/* Bucket counts below this use XYZZ even in batch-affine mode (the top
 * window has few buckets, so a batch would mostly collide). */
#define MSM_MIN_AFFINE_BUCKETS 256
/* Points summed per batched tree when adding up the scalars equal to 1. */
#define MSM_ONES_BLOCK 2048

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

/* ---- bucket tasks ------------------------------------------------------- */

typedef struct {
  uint32_t bucket, neg;
  const AFF *p;
} GN(msm_entry);

/* Bucket states, kept apart from the buckets so that deciding between a
 * copy, a batched addition and a deferral touches one byte. A bucket that
 * became the identity (P + (-P)) is marked empty again, so a filled bucket
 * is never the identity and the batched addition may skip that check. */
enum { BK_EMPTY, BK_FILLED, BK_IN_BATCH };

/* Working state of one affine-bucket accumulation. */
typedef struct {
  AFF *bk;
  uint8_t *state;
  size_t cap; /* room in the batch arrays and the scratch */
  size_t batch, n, qcap, qn;
  AFF **acc;
  const AFF **pt;
  uint8_t *neg;
  uint32_t *bidx;
  GN(msm_entry) * q;
  GN(msm_batch_scratch) s;
  GN(msm_block) mem; /* all of the above but bk */
} GN(msm_acc);

static void GN(msm_flush)(GN(msm_acc) * A) {
  if (!A->n) return;
  GN(msm_batch_add)(A->acc, A->pt, A->neg, A->n, &A->s, true);
  /* P + (-P) empties a bucket: mark it so, the next point is then a copy. */
  for (size_t i = 0; i < A->n; i++)
    A->state[A->bidx[i]] = A->s.kind[i] == BA_ZERO ? BK_EMPTY : BK_FILLED;
  A->n = 0;
}

/* Bucket b is not in the current batch: an empty bucket takes the point as
 * it is, otherwise the addition joins the batch. */
static inline void GN(msm_place)(GN(msm_acc) * A, uint32_t b, uint32_t ng, const AFF *p) {
  AFF *bk = &A->bk[b];
  if (A->state[b] == BK_EMPTY) {
    bk->x = p->x;
    if (ng) GN(msm_f_neg)(&bk->y, &p->y);
    else bk->y = p->y;
    A->state[b] = BK_FILLED;
    return;
  }
  A->acc[A->n] = bk;
  A->pt[A->n] = p;
  A->neg[A->n] = (uint8_t)ng;
  A->bidx[A->n] = b;
  A->state[b] = BK_IN_BATCH;
  if (++A->n == A->batch) GN(msm_flush)(A);
}

/* Retry the deferred additions whose bucket has left the batch. */
static void GN(msm_drain)(GN(msm_acc) * A) {
  size_t keep = 0;
  for (size_t r = 0; r < A->qn; r++) {
    GN(msm_entry) e = A->q[r];
    if (A->state[e.bucket] == BK_IN_BATCH) A->q[keep++] = e;
    else GN(msm_place)(A, e.bucket, e.neg, e.p);
  }
  A->qn = keep;
}

static inline void GN(msm_insert)(GN(msm_acc) * A, uint32_t b, uint32_t ng, const AFF *p) {
  if (A->state[b] == BK_IN_BATCH) {
    if (A->qn == A->qcap) {
      GN(msm_flush)(A);
      GN(msm_drain)(A);
    }
    if (A->state[b] == BK_IN_BATCH) {
      A->q[A->qn++] = (GN(msm_entry)){b, ng, p};
      return;
    }
  }
  GN(msm_place)(A, b, ng, p);
}

/* sum_b (b + 1) bk[b] for affine buckets, with the running sums themselves
 * done by batched affine additions: the buckets are cut into L lanes of S
 * consecutive buckets, and each step adds one bucket into every lane's running
 * sum (one batch), then every running sum into its lane's total (another).
 * That leaves run_l = sum of lane l's buckets and sum_l = sum of
 * (b - lo_l + 1) bk[b] over it, with lo_l = l S; the answer is
 * sum_l sum_l + S * sum_l l run_l, the last by one more running sum over the
 * lanes and log2 S doublings. ~2 x 6.5M per bucket instead of 24M in XYZZ. */
static void GN(msm_reduce_affine)(JAC *out, const AFF *bk, size_t nb, GN(msm_acc) * A) {
  size_t L = nb / 32;
  L = L < 16 ? 16 : L > 128 ? 128 : L;
  const size_t S = nb / L;
  AFF run[128], sum[128];
  memset(run, 0, sizeof run);
  memset(sum, 0, sizeof sum);
  for (size_t step = S; step-- > 0;) {
    for (size_t l = 0; l < L; l++) {
      A->acc[l] = &run[l];
      A->pt[l] = &bk[l * S + step];
    }
    GN(msm_batch_add)(A->acc, A->pt, NULL, L, &A->s, false);
    for (size_t l = 0; l < L; l++) {
      A->acc[l] = &sum[l];
      A->pt[l] = &run[l];
    }
    GN(msm_batch_add)(A->acc, A->pt, NULL, L, &A->s, false);
  }
  XYZZ total, r, t;
  GN(xyzz_set_identity)(&total);
  GN(xyzz_set_identity)(&r);
  GN(xyzz_set_identity)(&t);
  for (size_t l = L; l-- > 1;) { /* t = sum_l l run_l */
    GN(xyzz_add_affine)(&r, &r, &run[l]);
    GN(xyzz_add)(&t, &t, &r);
  }
  for (size_t s = S; s > 1; s >>= 1) GN(xyzz_dbl)(&t, &t);
  for (size_t l = 0; l < L; l++) GN(xyzz_add_affine)(&total, &total, &sum[l]);
  GN(xyzz_add)(&total, &total, &t);
  GN(xyzz_to_jacobian)(out, &total);
}

/* sum_b (b + 1) B_b by running sums in XYZZ, over nb buckets held in XYZZ
 * (xz) or, when there are few of them, affine (af). */
static void GN(msm_reduce_running)(JAC *out, const XYZZ *xz, const AFF *af, size_t nb) {
  XYZZ run, sum;
  GN(xyzz_set_identity)(&run);
  GN(xyzz_set_identity)(&sum);
  for (size_t b = nb; b-- > 0;) {
    if (af) GN(xyzz_add_affine)(&run, &run, &af[b]);
    else GN(xyzz_add)(&run, &run, &xz[b]);
    GN(xyzz_add)(&sum, &sum, &run);
  }
  GN(xyzz_to_jacobian)(out, &sum);
}

static void GN(msm_acc_free)(GN(msm_acc) * A) {
  GN(msm_block_free)(&A->mem);
  memset(A, 0, sizeof *A);
}

/* Lays out the working state for windows of up to nb buckets. */
static void GN(msm_acc_carve)(GN(msm_acc) * A, size_t nb, bool vec, msm_carve *c) {
  A->cap = A->batch = msm_batch_size(nb);
  A->qcap = A->batch;
  A->state = msm_carve_take(c, nb);
  A->acc = msm_carve_take(c, A->batch * sizeof *A->acc);
  A->pt = msm_carve_take(c, A->batch * sizeof *A->pt);
  A->neg = msm_carve_take(c, A->batch);
  A->bidx = msm_carve_take(c, A->batch * sizeof *A->bidx);
  A->q = msm_carve_take(c, A->qcap * sizeof *A->q);
  GN(msm_scratch_carve)(&A->s, A->batch, vec, c);
}

/* Working state for windows of up to nb buckets, kept by one worker for all
 * its windows; bk is that worker's share of the MSM's bucket block. */
static bool GN(msm_acc_init)(GN(msm_acc) * A, AFF *bk, size_t nb, bool vec) {
  memset(A, 0, sizeof *A);
  MSM_BLOCK_INIT(&A->mem, GN(msm_acc_carve)(A, nb, vec, &c_));
  A->bk = bk;
  return A->mem.p != NULL;
}

/* The window's sum over nb buckets, accumulated in rep copies of them (rep a
 * power of two; term k goes to copy k mod rep). A window with few buckets,
 * such as the top one, would otherwise need batches so small that their
 * inversions and collisions cost more than the additions: it took 12 ms
 * where the others took 7.5 (G1, 2^16 points, c = 13). */
static void GN(msm_window_affine)(JAC *out, const msm_plan *plan, const uint16_t *dig, size_t k0,
                                  size_t k1, size_t nb, size_t rep, GN(msm_acc) * A) {
  const size_t nbr = nb * rep, rmask = rep - 1;
  memset(A->bk, 0, nbr * sizeof *A->bk); /* all (0, 0): empty */
  memset(A->state, BK_EMPTY, nbr);
  A->batch = msm_batch_size(nbr);
  A->qcap = A->batch;
  A->n = A->qn = 0;
  /* Buckets are hit at random: fetch the one a few points ahead. */
  enum { PF = 8 };
  for (size_t k = k0; k < k1; k++) {
    if (k + PF < k1 && dig[k + PF] != MSM_DIGIT_ZERO)
      GN(msm_prefetch)(&A->bk[(dig[k + PF] & 0x7fffu) + nb * ((k + PF) & rmask)], 1);
    uint32_t code = dig[k];
    if (code == MSM_DIGIT_ZERO) continue; /* identity bases have only zero digits */
    uint32_t b = (code & 0x7fffu) + (uint32_t)(nb * (k & rmask));
    GN(msm_insert)(A, b, code >> 15, (const AFF *)plan->term_base[k]);
  }
  while (A->n || A->qn) {
    GN(msm_flush)(A);
    GN(msm_drain)(A);
  }
  /* Fold the copies: bk[i] += bk[i + h], halving h down to nb. Copies may
   * be empty (the identity), so the additions are not regular. */
  for (size_t h = nbr / 2; h >= nb && rep > 1; h /= 2)
    for (size_t i = 0; i < h; i += A->cap) {
      size_t m = h - i < A->cap ? h - i : A->cap;
      for (size_t j = 0; j < m; j++) {
        A->acc[j] = &A->bk[i + j];
        A->pt[j] = &A->bk[i + j + h];
      }
      GN(msm_batch_add)(A->acc, A->pt, NULL, m, &A->s, false);
    }
  if (nb >= MSM_MIN_AFFINE_BUCKETS) GN(msm_reduce_affine)(out, A->bk, nb, A);
  else GN(msm_reduce_running)(out, NULL, A->bk, nb);
}

static bool GN(msm_window_xyzz)(JAC *out, const msm_plan *plan, const uint16_t *dig, size_t k0,
                                size_t k1, size_t nb) {
  XYZZ *bk = calloc(nb, sizeof *bk); /* ZZ = 0: identity */
  if (!bk) return false;
  for (size_t k = k0; k < k1; k++) {
    uint32_t code = dig[k];
    if (code == MSM_DIGIT_ZERO) continue;
    const AFF *p = (const AFF *)plan->term_base[k];
    XYZZ *b = &bk[code & 0x7fffu];
    if (code >> 15) GN(xyzz_sub_affine)(b, b, p);
    else GN(xyzz_add_affine)(b, b, p);
  }
  GN(msm_reduce_running)(out, bk, NULL, nb);
  free(bk);
  return true;
}

/* ---- scalars equal to 1 ------------------------------------------------- */

/* Lays out msm_sum_points' working arrays. */
static void GN(msm_sum_carve)(AFF **s, AFF ***acc, const AFF ***pt, GN(msm_batch_scratch) * sc,
                              size_t half, bool vec, msm_carve *c) {
  *s = msm_carve_take(c, (half + 1) * sizeof **s);
  *acc = msm_carve_take(c, half * sizeof **acc);
  *pt = msm_carve_take(c, half * sizeof **pt);
  GN(msm_scratch_carve)(sc, half, vec, c);
}

/* out = sum of the points, by pairwise batched affine additions (a tree per
 * block of MSM_ONES_BLOCK), the last few of each block added in XYZZ. */
static bool GN(msm_sum_points)(JAC *out, const AFF *const *pts, size_t n, bool vec) {
  enum { HALF = MSM_ONES_BLOCK / 2 };
  AFF *s, **acc;
  const AFF **pt;
  GN(msm_batch_scratch) sc;
  GN(msm_block) mem;
  MSM_BLOCK_INIT(&mem, GN(msm_sum_carve)(&s, &acc, &pt, &sc, HALF, vec, &c_));
  bool ok = mem.p != NULL;
  XYZZ total;
  GN(xyzz_set_identity)(&total);
  for (size_t b = 0; ok && b < n; b += MSM_ONES_BLOCK) {
    size_t m = n - b < MSM_ONES_BLOCK ? n - b : MSM_ONES_BLOCK;
    const AFF *const *p = pts + b;
    size_t h = m / 2, cnt;
    for (size_t i = 0; i < h; i++) {
      s[i] = *p[2 * i];
      acc[i] = &s[i];
      pt[i] = p[2 * i + 1];
    }
    GN(msm_batch_add)(acc, pt, NULL, h, &sc, false);
    cnt = h;
    if (m & 1) s[cnt++] = *p[m - 1];
    while (cnt > 32) {
      h = cnt / 2;
      for (size_t i = 0; i < h; i++) {
        acc[i] = &s[2 * i];
        pt[i] = &s[2 * i + 1];
      }
      GN(msm_batch_add)(acc, pt, NULL, h, &sc, false);
      for (size_t i = 1; i < h; i++) s[i] = s[2 * i];
      if (cnt & 1) s[h++] = s[cnt - 1];
      cnt = h;
    }
    for (size_t i = 0; i < cnt; i++) GN(xyzz_add_affine)(&total, &total, &s[i]);
  }
  GN(xyzz_to_jacobian)(out, &total);
  GN(msm_block_free)(&mem);
  return ok;
}

/* ---- equal scalars ------------------------------------------------------ */

/* Pairs per batched addition when summing the groups. */
#define MSM_GROUP_BATCH 1024

typedef struct {
  const msm_plan *plan;
  AFF *w; /* the members' points, group by group; each sum ends at its first */
  size_t parts;
  atomic_int failed;
} GN(msm_gsum_ctx);

static void GN(msm_gsum_carve)(AFF ***acc, const AFF ***pt, GN(msm_batch_scratch) * sc, bool vec,
                               msm_carve *c) {
  *acc = msm_carve_take(c, MSM_GROUP_BATCH * sizeof **acc);
  *pt = msm_carve_take(c, MSM_GROUP_BATCH * sizeof **pt);
  GN(msm_scratch_carve)(sc, MSM_GROUP_BATCH, vec, c);
}

/* The first multi group whose members start at or after member m. */
static size_t GN(msm_group_at)(const msm_plan *plan, size_t m) {
  size_t lo = 0, hi = plan->n_multi;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (plan->multi_off[mid] < m) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Sums part `task` of the multi groups (split by members) in place: round r
 * adds each element 2^r past a multiple of 2^(r+1) into that one, for all
 * the part's groups in shared batches. Sums may cancel to the identity and
 * bases may repeat, so the additions are not regular. */
static void GN(msm_gsum_task)(void *vctx, size_t task, unsigned worker) {
  (void)worker;
  GN(msm_gsum_ctx) *ctx = vctx;
  const msm_plan *plan = ctx->plan;
  const size_t *off = plan->multi_off;
  size_t g0 = GN(msm_group_at)(plan, plan->n_members * task / ctx->parts);
  size_t g1 = GN(msm_group_at)(plan, plan->n_members * (task + 1) / ctx->parts);
  if (g0 == g1) return;
  for (size_t i = off[g0]; i < off[g1]; i++) ctx->w[i] = *(const AFF *)plan->multi_base[i];
  AFF **acc;
  const AFF **pt;
  GN(msm_batch_scratch) sc;
  GN(msm_block) mem;
  MSM_BLOCK_INIT(&mem, GN(msm_gsum_carve)(&acc, &pt, &sc, plan->vec, &c_));
  if (!mem.p) {
    atomic_store(&ctx->failed, 1);
    return;
  }
  for (size_t step = 1, more = 1; more; step *= 2) {
    size_t m = 0;
    more = 0;
    for (size_t g = g0; g < g1; g++) {
      size_t o = off[g], len = off[g + 1] - o;
      for (size_t j = 0; j + step < len; j += 2 * step) {
        acc[m] = &ctx->w[o + j];
        pt[m] = &ctx->w[o + j + step];
        if (++m == MSM_GROUP_BATCH) {
          GN(msm_batch_add)(acc, pt, NULL, m, &sc, false);
          m = 0;
        }
      }
      more |= 2 * step < len;
    }
    if (m) GN(msm_batch_add)(acc, pt, NULL, m, &sc, false);
  }
  GN(msm_block_free)(&mem);
}

/* Replaces each multi group's base by the sum of its members (in *w, to be
 * given back with n_members points); a sum that is the identity gets zero
 * digits, as identity bases do. */
static bool GN(msm_group_sums)(msm_plan *plan, AFF **w) {
  *w = NULL;
  if (!plan->n_multi) return true;
  *w = cz_pool_take(plan->n_members * sizeof(AFF));
  if (!*w) return false;
  size_t parts = plan->n_members / 4096 + 1;
  if (parts > 4 * (size_t)plan->threads) parts = 4 * (size_t)plan->threads;
  GN(msm_gsum_ctx) ctx = {plan, *w, parts, 0};
  plan->extra_critical_ms += cz_msm_run_tasks(parts, plan->threads, GN(msm_gsum_task), &ctx);
  if (atomic_load(&ctx.failed)) return false;
  for (size_t g = 0; g < plan->n_multi; g++) {
    const AFF *sum = &(*w)[plan->multi_off[g]];
    size_t t = plan->multi_term[g];
    plan->term_base[t] = (const uint8_t *)sum;
    if (GN(msm_aff_is_id)(sum))
      for (unsigned k = 0; k < plan->n_windows; k++)
        plan->digits[(size_t)k * plan->n_terms + t] = MSM_DIGIT_ZERO;
  }
  return true;
}

/* ---- driver ------------------------------------------------------------- */

/* One worker's affine-bucket state, set up by its first affine window; a
 * cache line of its own, as its counters change with every point. */
typedef struct {
  _Alignas(64) GN(msm_acc) acc;
  bool ready;
} GN(msm_worker);

typedef struct {
  const msm_plan *plan;
  size_t window_tasks, ones_parts;
  JAC *partial; /* window_tasks window partials, then ones_parts sums */
  GN(msm_worker) * workers;
  AFF *buckets; /* bucket_stride buckets per worker */
  size_t bucket_stride;
  atomic_int failed;
} GN(msm_ctx);

/* Copies of a window's nb buckets for t terms (see msm_window_affine): up to
 * the worker's bucket room, and at most one bucket per 16 terms, so that
 * folding the copies stays cheap against the terms' own additions. */
static size_t GN(msm_copies)(size_t nb, size_t t, size_t room) {
  size_t rep = 1;
  while (nb * rep * 2 <= room && nb * rep * 2 * 16 <= t) rep *= 2;
  return rep;
}

static void GN(msm_task)(void *vctx, size_t task, unsigned worker) {
  GN(msm_ctx) *ctx = vctx;
  const msm_plan *plan = ctx->plan;
  bool ok;
  if (task < ctx->window_tasks) {
    unsigned w = (unsigned)(task / plan->chunks), j = (unsigned)(task % plan->chunks);
    size_t k0 = plan->n_terms * j / plan->chunks, k1 = plan->n_terms * (j + 1) / plan->chunks;
    /* The top window holds the bits above (n_windows - 1) c, so its digits
     * are at most 2^top_bits and it needs fewer buckets. */
    size_t nb = (size_t)1 << (plan->c - 1);
    if (w == plan->n_windows - 1) {
      unsigned top_bits = 255 - w * plan->c;
      if (((size_t)1 << top_bits) < nb) nb = (size_t)1 << top_bits;
    }
    const uint16_t *dig = plan->digits + (size_t)w * plan->n_terms;
    GN(msm_worker) *wk = &ctx->workers[worker];
    size_t rep = GN(msm_copies)(nb, k1 - k0, ctx->bucket_stride);
    if (plan->affine && nb * rep >= MSM_MIN_AFFINE_BUCKETS) {
      if (!wk->ready)
        wk->ready = GN(msm_acc_init)(&wk->acc, ctx->buckets + worker * ctx->bucket_stride,
                                     ctx->bucket_stride, plan->vec);
      ok = wk->ready;
      if (ok) GN(msm_window_affine)(&ctx->partial[task], plan, dig, k0, k1, nb, rep, &wk->acc);
    } else ok = GN(msm_window_xyzz)(&ctx->partial[task], plan, dig, k0, k1, nb);
  } else {
    size_t j = task - ctx->window_tasks, P = ctx->ones_parts;
    size_t a = plan->n_one * j / P, b = plan->n_one * (j + 1) / P;
    ok = GN(msm_sum_points)(&ctx->partial[task], (const AFF *const *)(plan->ones + a), b - a,
                            plan->vec);
  }
  if (!ok) atomic_store(&ctx->failed, 1);
}

static cz_err GN(msm_run)(JAC *out, const msm_seg *segs, size_t n_segs, unsigned n_threads,
                          cz_msm_opts *opts) {
  GN(set_identity)(out);
  double cpu0 = cz_msm_thread_cpu_ms();
  msm_plan plan;
  msm_costs costs = {MSM_INV_COST};
  cz_err err = cz_msm_plan_build(&plan, segs, n_segs, sizeof(AFF), n_threads, opts, &costs);
  if (err) return err;
  AFF *group_pts;
  if (!GN(msm_group_sums)(&plan, &group_pts)) {
    cz_pool_give(group_pts);
    cz_msm_plan_free(&plan);
    return CZ_ERR_NOMEM;
  }
  GN(msm_ctx) ctx = {&plan, 0, 0, NULL, NULL, NULL, 0, 0};
  if (plan.n_terms) ctx.window_tasks = (size_t)plan.n_windows * plan.chunks;
  /* Every worker reuses one bucket set, all of them in one scratch block:
   * fresh pages per window cost more in faults than the window's additions
   * on these VMs, and the faults do not run in parallel. */
  size_t nb_max = (size_t)1 << (plan.c - 1);
  if (plan.affine && ctx.window_tasks) {
    ctx.bucket_stride = nb_max;
    ctx.buckets = cz_pool_take((size_t)plan.threads * nb_max * sizeof(AFF));
  }
  ctx.workers = aligned_alloc(64, plan.threads * sizeof *ctx.workers);
  if (ctx.workers) memset(ctx.workers, 0, plan.threads * sizeof *ctx.workers);
  if (plan.n_one) {
    size_t parts = (plan.n_one + 4 * MSM_ONES_BLOCK - 1) / (4 * MSM_ONES_BLOCK);
    ctx.ones_parts = parts < 2 * plan.threads ? parts : 2 * plan.threads;
  }
  size_t tasks = ctx.window_tasks + ctx.ones_parts;
  ctx.partial = malloc((tasks ? tasks : 1) * sizeof *ctx.partial);
  double extra = 0;
  if (ctx.partial && ctx.workers && (ctx.buckets || !ctx.bucket_stride))
    extra = cz_msm_run_tasks(tasks, plan.threads, GN(msm_task), &ctx);
  else atomic_store(&ctx.failed, 1);
  if (ctx.workers)
    for (unsigned i = 0; i < plan.threads; i++) GN(msm_acc_free)(&ctx.workers[i].acc);
  free(ctx.workers);
  cz_pool_give(ctx.buckets);
  if (atomic_load(&ctx.failed)) {
    free(ctx.partial);
    cz_pool_give(group_pts);
    cz_msm_plan_free(&plan);
    return CZ_ERR_NOMEM;
  }
  /* Horner over the windows, top first: acc = 2^c acc + window_w. */
  JAC acc;
  GN(set_identity)(&acc);
  if (plan.n_terms) {
    for (unsigned w = plan.n_windows; w-- > 0;) {
      if (w != plan.n_windows - 1)
        for (unsigned i = 0; i < plan.c; i++) GN(dbl)(&acc, &acc);
      for (unsigned j = 0; j < plan.chunks; j++)
        GN(add)(&acc, &acc, &ctx.partial[(size_t)w * plan.chunks + j]);
    }
  }
  for (size_t j = 0; j < ctx.ones_parts; j++)
    GN(add)(&acc, &acc, &ctx.partial[ctx.window_tasks + j]);
  *out = acc;
  if (opts) {
    opts->used_window_bits = plan.n_terms ? plan.c : 0;
    opts->used_point_chunks = plan.n_terms ? plan.chunks : 0;
    opts->used_batch_affine = plan.n_terms && plan.affine;
    opts->used_ifma = plan.vec;
    opts->n_zero = plan.n_zero;
    opts->n_one = plan.n_one;
    opts->n_other = plan.n_other;
    opts->n_distinct = plan.n_terms;
    opts->n_multi = plan.n_multi;
    opts->cpu_critical_ms = cz_msm_thread_cpu_ms() - cpu0 + plan.extra_critical_ms + extra;
  }
  free(ctx.partial);
  cz_pool_give(group_pts);
  cz_msm_plan_free(&plan);
  return CZ_OK;
}

/* ---- public entry points ------------------------------------------------ */

cz_err MSM(_segments)(JAC *out, const SEG *segs, size_t n_segs, unsigned n_threads,
                      cz_msm_opts *opts) {
  if (!out) return CZ_ERR_INVALID_ARG;
  GN(set_identity)(out);
  if (n_segs && !segs) return CZ_ERR_INVALID_ARG;
  msm_seg *g = malloc((n_segs ? n_segs : 1) * sizeof *g);
  if (!g) return CZ_ERR_NOMEM;
  for (size_t i = 0; i < n_segs; i++)
    g[i] = (msm_seg){(const uint8_t *)segs[i].bases,
                     segs[i].n_bases,
                     segs[i].scalars,
                     segs[i].frs,
                     segs[i].n_scalars,
                     segs[i].density,
                     segs[i].packed};
  cz_err err = GN(msm_run)(out, g, n_segs, n_threads, opts);
  free(g);
  return err;
}

cz_err MSM()(JAC *out, const AFF *bases, const cz_scalar *scalars, size_t n, unsigned n_threads) {
  SEG s = {bases, n, scalars, NULL, n, NULL, NULL};
  return MSM(_segments)(out, &s, 1, n_threads, NULL);
}

cz_err MSM(_fr)(JAC *out, const AFF *bases, const cz_fr *scalars, size_t n, unsigned n_threads) {
  SEG s = {bases, n, NULL, scalars, n, NULL, NULL};
  return MSM(_segments)(out, &s, 1, n_threads, NULL);
}
