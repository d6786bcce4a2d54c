/* Batched affine additions 8 at a time (AVX-512 IFMA), included by
 * msm_batch_impl.h when MSM_VEC is defined, with the group's 8-lane field:
 *   VF                       8 field elements, one per lane
 *   VF_SUB/MUL(r, a, b)      VF_SQR(r, a)   lane-wise, r may alias
 *   VF_ZERO(r), VF_ONE(r)    0 and Montgomery one in every lane
 *   VF_IS_ZERO(a)            __mmask8 of the lanes equal to 0
 *   VF_SELECT(r, m, a, b)    lane l = bit l of m ? a : b
 *   VF_GATHER(r, p)          lane l = *p[l] (const F *p[8], scalar form)
 *   VF_SCATTER(p, a)         *p[l] = lane l (F *p[8])
 *   VF_TARGET                the target attribute of code using them
 * The 8-lane field gives exactly the scalar field's results (fully reduced
 * Montgomery values), and the affine sum of two points is unique, so the
 * buckets end up the same bits as with msm_batch_add_scalar. */
#include <immintrin.h>

/* One group of 8 additions, gathered in the forward pass and kept for the
 * backward one: acc (x1, y1), the point (x2, y2), y2 already negated where
 * subtracting, and the product of the earlier groups' denominators. */
typedef struct {
  VF x1, y1, x2, y2, pre;
} GN(msm_vgroup);

typedef struct {
  GN(msm_vgroup) * grp; /* 64-byte aligned, cap / 8 rounded up */
  uint8_t *skip;        /* per group: lanes left to the scalar code or idle */
  uint32_t *idx;        /* the batch positions of the lanes left to scalar code */
  AFF **acc;            /* their operands, for msm_batch_add_scalar */
  const AFF **pt;
  uint8_t *neg;
  GN(msm_batch_scratch) fb;
  AFF sink; /* where skipped lanes' results go */
} GN(msm_vscratch);

/* Lays out a vscratch for batches of up to cap additions (see msm_carve):
 * the struct itself when carving for real, NULL when counting. */
static void *GN(msm_vscratch_carve)(size_t cap, msm_carve *c) {
  GN(msm_vscratch) counting, *real = msm_carve_take(c, sizeof *real);
  GN(msm_vscratch) *v = real ? real : &counting;
  size_t ng = (cap + 7) / 8 + 1;
  v->grp = msm_carve_take(c, ng * sizeof *v->grp); /* sizeof is a multiple of 64 */
  v->skip = msm_carve_take(c, ng);
  v->idx = msm_carve_take(c, cap * sizeof *v->idx);
  v->acc = msm_carve_take(c, cap * sizeof *v->acc);
  v->pt = msm_carve_take(c, cap * sizeof *v->pt);
  v->neg = msm_carve_take(c, cap);
  v->fb.den = msm_carve_take(c, cap * sizeof(F));
  v->fb.pre = msm_carve_take(c, cap * sizeof(F));
  v->fb.kind = msm_carve_take(c, cap);
  v->fb.vec = NULL;
  return real;
}

/* msm_batch_add_scalar's contract, the additions done 8 lanes at a time:
 * lane l of group g is addition 8 g + l, and each lane runs its own
 * Montgomery chain through the groups (one 8-lane product per group); the 8
 * chain products are inverted with one scalar inversion. Additions that are
 * not plain (equal x: doubling or P + (-P); the identity unless regular) are
 * kept out of the chains (denominator 1, result to the sink) and done
 * afterwards by the scalar code, which handles every case; they touch
 * other buckets, so the order does not matter. */
#define VF_INLINE VF_TARGET static inline __attribute__((always_inline))

/* Group g: its lanes gathered (the accumulators' x1, y1, the points' x2, y2,
 * y2 negated where neg says), the lanes left to the scalar code noted
 * (v->skip[g], v->idx from *n_skip), and its denominator x2 - x1 into *den
 * (one on those lanes). */
VF_INLINE void GN(msm_vec_load)(AFF *const *acc, const AFF *const *pt, const uint8_t *neg, size_t m,
                                size_t g, GN(msm_vscratch) * v, const VF *one, bool regular,
                                size_t *n_skip, VF *den) {
  GN(msm_vgroup) *G = &v->grp[g];
  const F *px1[8], *py1[8], *px2[8], *py2[8];
  unsigned live = 0, flip = 0;
  for (unsigned l = 0; l < 8; l++) {
    size_t i = 8 * g + l;
    size_t j = i < m ? i : 8 * g; /* idle lanes re-read the group's first addition */
    if (i < m) {
      live |= 1u << l;
      if (neg && neg[i]) flip |= 1u << l;
      if (i + 8 < m) {
        GN(msm_prefetch)(acc[i + 8], 1);
        GN(msm_prefetch)(pt[i + 8], 0);
      }
    }
    px1[l] = &acc[j]->x;
    py1[l] = &acc[j]->y;
    px2[l] = &pt[j]->x;
    py2[l] = &pt[j]->y;
  }
  VF_GATHER(&G->x1, px1);
  VF_GATHER(&G->y1, py1);
  VF_GATHER(&G->x2, px2);
  VF_GATHER(&G->y2, py2);
  if (flip) {
    VF t;
    VF_ZERO(&t);
    VF_SUB(&t, &t, &G->y2);
    VF_SELECT(&G->y2, (__mmask8)flip, &t, &G->y2);
  }
  VF_SUB(den, &G->x2, &G->x1);
  unsigned skip = (unsigned)VF_IS_ZERO(den) | (~live & 0xffu);
  if (!regular) /* the identity is (0, 0) */
    skip |= (unsigned)(VF_IS_ZERO(&G->x1) & VF_IS_ZERO(&G->y1)) |
            (unsigned)(VF_IS_ZERO(&G->x2) & VF_IS_ZERO(&G->y2));
  v->skip[g] = (uint8_t)skip;
  for (unsigned r = skip & live; r; r &= r - 1)
    v->idx[(*n_skip)++] = (uint32_t)(8 * g + (unsigned)__builtin_ctz(r));
  if (skip) VF_SELECT(den, (__mmask8)skip, one, den);
}

/* *inv = 1 / *prod lane by lane: Montgomery's trick over the 8 lanes. */
VF_INLINE void GN(msm_vec_invert)(VF *inv, VF *prod) {
  F lane[8], part[8], linv;
  F *po[8];
  const F *pi[8];
  for (unsigned l = 0; l < 8; l++) {
    po[l] = &lane[l];
    pi[l] = &lane[l];
  }
  VF_SCATTER(po, prod);
  part[0] = lane[0];
  for (unsigned l = 1; l < 8; l++) FF(mul)(&part[l], &part[l - 1], &lane[l]);
  FF(inv)(&linv, &part[7]); /* every lane's product is non-zero */
  for (unsigned l = 8; l-- > 1;) {
    F t;
    FF(mul)(&t, &linv, &part[l - 1]);
    FF(mul)(&linv, &linv, &lane[l]);
    lane[l] = t;
  }
  lane[0] = linv;
  VF_GATHER(inv, pi);
}

/* Group g's additions from the running inverse *inv (which it steps back
 * past the group), written to the accumulators (skipped lanes to the
 * sink). */
VF_INLINE void GN(msm_vec_store)(AFF *const *acc, GN(msm_vscratch) * v, size_t g, const VF *one,
                                 VF *inv) {
  const GN(msm_vgroup) *G = &v->grp[g];
  const unsigned skip = v->skip[g];
  VF den, inv_g, lambda, x3, y3, t;
  VF_SUB(&den, &G->x2, &G->x1);
  if (skip) VF_SELECT(&den, (__mmask8)skip, one, &den);
  VF_MUL(&inv_g, inv, &G->pre);
  VF_MUL(inv, inv, &den);
  VF_SUB(&lambda, &G->y2, &G->y1);
  VF_MUL(&lambda, &lambda, &inv_g); /* (y2 - y1) / (x2 - x1) */
  VF_SQR(&x3, &lambda);
  VF_SUB(&x3, &x3, &G->x1);
  VF_SUB(&x3, &x3, &G->x2); /* x3 = lambda^2 - x1 - x2 */
  VF_SUB(&t, &G->x1, &x3);
  VF_MUL(&t, &t, &lambda);
  VF_SUB(&y3, &t, &G->y1); /* y3 = lambda (x1 - x3) - y1 */
  F *ox[8], *oy[8];
  for (unsigned l = 0; l < 8; l++) {
    AFF *a = (skip >> l) & 1 ? &v->sink : acc[8 * g + l];
    ox[l] = &a->x;
    oy[l] = &a->y;
  }
  VF_SCATTER(ox, &x3);
  VF_SCATTER(oy, &y3);
}

VF_TARGET static void GN(msm_batch_add_vec)(AFF *const *acc, const AFF *const *pt,
                                            const uint8_t *neg, size_t m,
                                            const GN(msm_batch_scratch) * s, bool regular) {
  GN(msm_vscratch) *v = s->vec;
  const size_t ng = (m + 7) / 8;
  VF one, prod, inv;
  VF_ONE(&one);
  prod = one;
  size_t n_skip = 0;
  for (size_t g = 0; g < ng; g++) {
    VF den;
    GN(msm_vec_load)(acc, pt, neg, m, g, v, &one, regular, &n_skip, &den);
    v->grp[g].pre = prod;
    VF_MUL(&prod, &prod, &den);
  }
  GN(msm_vec_invert)(&inv, &prod);
  for (size_t g = ng; g-- > 0;) GN(msm_vec_store)(acc, v, g, &one, &inv);

  memset(s->kind, BA_ADD, m);
  if (n_skip) {
    for (size_t k = 0; k < n_skip; k++) {
      uint32_t i = v->idx[k];
      v->acc[k] = acc[i];
      v->pt[k] = pt[i];
      v->neg[k] = neg ? neg[i] : 0;
    }
    GN(msm_batch_add_scalar)(v->acc, v->pt, v->neg, n_skip, &v->fb, regular);
    for (size_t k = 0; k < n_skip; k++) s->kind[v->idx[k]] = v->fb.kind[k];
  }
}

#undef VF_INLINE
