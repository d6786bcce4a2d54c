/* One window of the fixed-base multiplication 8 lanes at a time on the
 * AVX-512 IFMA field (included by fixed_base.c for G1 and G2, after
 * fixed_base_impl.h's helpers, when CZ_IFMA is defined), with:
 *   VF, VFN(x)      the 8-lane field and its names (cz_fpv_##x)
 *   F, FF(x), AFF   the scalar field's inline names, the affine point
 *   FB(x)           the scalar instance's names (aff_is_id, add_slow)
 *   FBV_GROUP, FBV(x)  the group type and this instance's names
 *
 * The scalar window (fixed_base_impl.h) adds T[|d_i| - 1] into every
 * accumulator acc[i] with affine additions sharing one inversion. Here the
 * cases that are not a plain addition (d_i = 0: nothing; an identity
 * accumulator: a copy; equal x: the Jacobian side path) are done first, in
 * scalar code, and the plain ones (the rest: nearly all) are gathered 8 at
 * a time, lane l of group g being the (8 g + l)-th plain addition: each
 * lane runs its own chain of denominator products through the groups, the
 * 8 chain products are inverted with one scalar inversion, and the
 * backward pass makes lambda, x3 and y3 lane-wise and scatters them. The
 * IFMA field gives exactly the scalar field's values and the affine sum is
 * unique, so the points are the scalar path's, bit for bit. */
#define FBV_INLINE CZ_IFMA_TARGET static inline __attribute__((always_inline))

/* Group g of the plain additions idx[0..n): gathered, its y2 negated where
 * the digit is negative, idle lanes (past n) given denominator one. */
FBV_INLINE void FBV(_load)(FBV_GROUP *G, AFF *acc, const int32_t *d, const AFF *T,
                           const uint16_t *idx, size_t n, size_t g, const VF *one, VF *den,
                           unsigned *idle) {
  const F *px1[8], *py1[8], *px2[8], *py2[8];
  unsigned neg = 0, live = 0;
  for (unsigned l = 0; l < 8; l++) {
    size_t k = 8 * g + l < n ? 8 * g + l : 8 * g; /* idle lanes re-read lane 0 */
    size_t i = idx[k];
    const AFF *p = &T[abs(d[i]) - 1];
    if (8 * g + l < n) live |= 1u << l;
    if (d[i] < 0) neg |= 1u << l;
    px1[l] = &acc[i].x, py1[l] = &acc[i].y, px2[l] = &p->x, py2[l] = &p->y;
  }
  VFN(from_mont)(&G->x1, px1);
  VFN(from_mont)(&G->y1, py1);
  VFN(from_mont)(&G->x2, px2);
  VFN(from_mont)(&G->y2, py2);
  if (neg) {
    VF t;
    VFN(neg)(&t, &G->y2);
    VFN(select)(&G->y2, (__mmask8)neg, &t, &G->y2);
  }
  VFN(sub)(den, &G->x2, &G->x1);
  *idle = ~live & 0xffu;
  if (*idle) VFN(select)(den, (__mmask8)*idle, one, den);
}

/* *inv = 1 / *prod lane by lane (Montgomery's trick over the 8 lanes). */
FBV_INLINE void FBV(_invert)(VF *inv, const VF *prod) {
  F lane[8], part[8], linv;
  F *po[8];
  const F *pi[8];
  for (unsigned l = 0; l < 8; l++) po[l] = &lane[l], pi[l] = &lane[l];
  VFN(to_mont)(po, prod);
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
  VFN(from_mont)(inv, pi);
}

/* Group g's sums from the running inverse (stepped back past the group),
 * scattered to the accumulators (idle lanes to sink). */
FBV_INLINE void FBV(_store)(const FBV_GROUP *G, AFF *acc, const uint16_t *idx, size_t n, size_t g,
                            const VF *one, VF *inv, AFF *sink) {
  VF den, inv_g, lambda, x3, y3, t;
  VFN(sub)(&den, &G->x2, &G->x1);
  unsigned live = 0;
  for (unsigned l = 0; l < 8; l++) live |= (8 * g + l < n) << l;
  if (live != 0xffu) VFN(select)(&den, (__mmask8)~live, one, &den);
  VFN(mul)(&inv_g, inv, &G->pre);
  VFN(mul)(inv, inv, &den);
  VFN(sub)(&lambda, &G->y2, &G->y1);
  VFN(mul)(&lambda, &lambda, &inv_g);
  VFN(sqr)(&x3, &lambda);
  VFN(sub)(&x3, &x3, &G->x1);
  VFN(sub)(&x3, &x3, &G->x2);
  VFN(sub)(&t, &G->x1, &x3);
  VFN(mul)(&t, &t, &lambda);
  VFN(sub)(&y3, &t, &G->y1);
  F *ox[8], *oy[8];
  for (unsigned l = 0; l < 8; l++) {
    AFF *a = (live >> l) & 1 ? &acc[idx[8 * g + l]] : sink;
    ox[l] = &a->x, oy[l] = &a->y;
  }
  VFN(to_mont)(ox, &x3);
  VFN(to_mont)(oy, &y3);
}

/* acc[i] += sign(d[i]) T[|d[i]| - 1] for i < m (one window); grp holds
 * FB_CHUNK / 8 + 1 groups, idx FB_CHUNK entries. */
CZ_IFMA_TARGET __attribute__((noinline)) static void FBV(_window)(AFF *acc, const int32_t *d,
                                                                  const AFF *T, size_t m,
                                                                  FBV_GROUP *grp, uint16_t *idx) {
  size_t n = 0;
  for (size_t i = 0; i < m; i++) {
    int32_t di = d[i];
    if (!di) continue;
    const AFF *p = &T[abs(di) - 1];
    AFF *a = &acc[i];
    if (FB(_aff_is_id)(a)) {
      a->x = p->x;
      if (di < 0) FF(neg)(&a->y, &p->y);
      else a->y = p->y;
    } else if (FF(eq)(&a->x, &p->x)) {
      FB(_add_slow)(a, p, di < 0);
    } else {
      idx[n++] = (uint16_t)i;
    }
  }
  if (!n) return;
  const size_t ng = (n + 7) / 8;
  VF one, prod, inv;
  VFN(one)(&one);
  prod = one;
  for (size_t g = 0; g < ng; g++) {
    VF den;
    unsigned idle;
    FBV(_load)(&grp[g], acc, d, T, idx, n, g, &one, &den, &idle);
    grp[g].pre = prod;
    VFN(mul)(&prod, &prod, &den);
  }
  FBV(_invert)(&inv, &prod);
  AFF sink;
  for (size_t g = ng; g-- > 0;) FBV(_store)(&grp[g], acc, idx, n, g, &one, &inv, &sink);
}
#undef FBV_INLINE
