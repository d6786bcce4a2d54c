/* Decoding runs of uncompressed points (the vectors of a parameter file).
 *
 * Each point gets exactly cz_g1/g2_affine_deserialize_checking's answer.
 * Where the CPU has AVX-512 IFMA, groups of eight plain points (no flag
 * bits, both coordinates canonical) go through the 8-lane field code: the
 * words gathered and byte-swapped in the vector unit, the conversion to
 * Montgomery form (one product by R^2 per coordinate) and the curve
 * equation (more than half of the work; CZ_POINT_ENCODING skips it). Any
 * group with a flagged, non-canonical or off-curve point is decoded point by
 * point by the scalar function instead, so errors and infinity come out as
 * they always have. */
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "ec/ifma_field.h"

#ifdef CZ_IFMA
/* Lane j's offset, j * stride bytes, for gathers and scatters. */
CZ_IFMA_TARGET static __m512i lane_offsets(size_t stride) {
  const long long s = (long long)stride;
  return _mm512_setr_epi64(0, s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s);
}

/* The 8 big-endian 48-byte coordinates at in + j stride (lane j) as
 * Montgomery-form lanes: each 64-bit word gathered and byte-swapped in
 * the vector unit, then one product by R^2. Returns the lanes whose
 * coordinate is canonical (below p, which also rules out the zcash flag
 * bits: p < 2^381). */
CZ_IFMA_TARGET static __mmask8 load_coord(cz_fpv *r, const uint8_t *in, __m512i lanes,
                                          const cz_fpv *r2) {
  const __m512i bswap = _mm512_set4_epi32(0x08090a0b, 0x0c0d0e0f, 0x00010203, 0x04050607);
  __m512i w[CZ_FP_LIMBS];
  __mmask8 lt = 0, eq = 0xff;
  for (int i = CZ_FP_LIMBS; i-- > 0;) {
    /* little-endian word i is bytes [40 - 8 i, 48 - 8 i) */
    w[i] = _mm512_shuffle_epi8(_mm512_i64gather_epi64(lanes, in + 40 - 8 * i, 1), bswap);
    const __m512i p = _mm512_set1_epi64((long long)CZ_FP_MODULUS[i]);
    lt |= eq & _mm512_cmplt_epu64_mask(w[i], p);
    eq &= _mm512_cmpeq_epu64_mask(w[i], p);
  }
  cz_fpv_from_words_(r, w);
  cz_fpv_mul_prepared(r, r, r2);
  return lt;
}

/* Lane j of a to the cz_fp at out + j stride. */
CZ_IFMA_TARGET static void store_coord(uint8_t *out, __m512i lanes, const cz_fpv *a) {
  __m512i w[CZ_FP_LIMBS];
  cz_fpv_to_words_(w, a);
  for (int i = 0; i < CZ_FP_LIMBS; i++) _mm512_i64scatter_epi64(out + 8 * i, lanes, w[i], 1);
}

/* r = R^2 mod p as a cz_fp: the Montgomery form of the element 2^384. */
static void fp_r2(cz_fp *r) {
  cz_fp two;
  cz_fp_from_u64(&two, 2);
  cz_fp_pow(r, &two, (const uint64_t[]){384}, 1);
}

CZ_IFMA_TARGET static bool g1_eight(cz_g1_affine out[8], const uint8_t *in, const cz_fpv *r2,
                                    const cz_fpv *b, bool on_curve) {
  const __m512i src = lane_offsets(CZ_G1_UNCOMPRESSED_BYTES), dst = lane_offsets(sizeof *out);
  cz_fpv x, y, l, t;
  if ((load_coord(&x, in, src, r2) & load_coord(&y, in + CZ_FP_BYTES, src, r2)) != 0xff)
    return false;
  if (on_curve) {
    cz_fpv_sqr(&l, &y);
    cz_fpv_sqr(&t, &x);
    cz_fpv_mul(&t, &t, &x);
    cz_fpv_add(&t, &t, b);
    if (cz_fpv_eq(&l, &t) != 0xff) return false;
  }
  store_coord((uint8_t *)&out[0].x, dst, &x);
  store_coord((uint8_t *)&out[0].y, dst, &y);
  return true;
}

/* Fp2 in two cz_fpv: c0 + c1 u, u^2 = -1. */
typedef struct {
  cz_fpv c0, c1;
} fp2v;

CZ_IFMA_TARGET static void fp2v_mul(fp2v *r, const fp2v *a, const fp2v *b) {
  cz_fpv t0, t1, s0, s1;
  cz_fpv_mul(&t0, &a->c0, &b->c0);
  cz_fpv_mul(&t1, &a->c1, &b->c1);
  cz_fpv_add(&s0, &a->c0, &a->c1);
  cz_fpv_add(&s1, &b->c0, &b->c1);
  cz_fpv_mul(&s0, &s0, &s1); /* (a0 + a1)(b0 + b1) */
  cz_fpv_sub(&r->c0, &t0, &t1);
  cz_fpv_sub(&s0, &s0, &t0);
  cz_fpv_sub(&r->c1, &s0, &t1);
}

/* zcash G2 coordinates are c1 then c0. */
CZ_IFMA_TARGET static bool g2_eight(cz_g2_affine out[8], const uint8_t *in, const cz_fpv *r2,
                                    const fp2v *b, bool on_curve) {
  const __m512i src = lane_offsets(CZ_G2_UNCOMPRESSED_BYTES), dst = lane_offsets(sizeof *out);
  fp2v x, y, l, t;
  __mmask8 ok = load_coord(&x.c1, in, src, r2) & load_coord(&x.c0, in + CZ_FP_BYTES, src, r2) &
                load_coord(&y.c1, in + 2 * CZ_FP_BYTES, src, r2) &
                load_coord(&y.c0, in + 3 * CZ_FP_BYTES, src, r2);
  if (ok != 0xff) return false;
  if (on_curve) {
    fp2v_mul(&l, &y, &y);
    fp2v_mul(&t, &x, &x);
    fp2v_mul(&t, &t, &x);
    cz_fpv_add(&t.c0, &t.c0, &b->c0);
    cz_fpv_add(&t.c1, &t.c1, &b->c1);
    if ((cz_fpv_eq(&l.c0, &t.c0) & cz_fpv_eq(&l.c1, &t.c1)) != 0xff) return false;
  }
  store_coord((uint8_t *)&out[0].x.c0, dst, &x.c0);
  store_coord((uint8_t *)&out[0].x.c1, dst, &x.c1);
  store_coord((uint8_t *)&out[0].y.c0, dst, &y.c0);
  store_coord((uint8_t *)&out[0].y.c1, dst, &y.c1);
  return true;
}

/* The constants of a run: R^2 (prepared as a multiplier) and b = 4. */
typedef struct {
  cz_fpv r2, b4;
} vec_consts;

CZ_IFMA_TARGET static void consts_init(vec_consts *k) {
  cz_fp r2, b4;
  fp_r2(&r2);
  cz_fp_from_u64(&b4, 4);
  cz_fpv_set1(&k->r2, &r2);
  cz_fpv_mul_prepare(&k->r2, &k->r2);
  cz_fpv_set1(&k->b4, &b4);
}

/* How many leading points went through the vector path (a multiple of 8:
 * every group of 8 that is plain, canonical and, unless check is
 * CZ_POINT_ENCODING, on the curve). The caller decodes a failing group and
 * the tail point by point. */
CZ_IFMA_TARGET static size_t g1_vector_prefix(const vec_consts *k, cz_g1_affine *out,
                                              const uint8_t *in, size_t n, cz_point_check check) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    if (!g1_eight(out + i, in + i * CZ_G1_UNCOMPRESSED_BYTES, &k->r2, &k->b4,
                  check >= CZ_POINT_ON_CURVE))
      break;
  return i;
}

CZ_IFMA_TARGET static size_t g2_vector_prefix(const vec_consts *k, cz_g2_affine *out,
                                              const uint8_t *in, size_t n, cz_point_check check) {
  fp2v b = {k->b4, k->b4}; /* b = 4 (1 + u) */
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    if (!g2_eight(out + i, in + i * CZ_G2_UNCOMPRESSED_BYTES, &k->r2, &b,
                  check >= CZ_POINT_ON_CURVE))
      break;
  return i;
}
#endif

/* The shared loop: vector groups while they pass, a failing group point by
 * point (it may hold only infinities, which are fine), then on again. */
#define DESERIALIZE_MANY(G, AFF, BYTES) \
  cz_err cz_##G##_affine_deserialize_many(AFF *out, const uint8_t *in, size_t n, \
                                          cz_point_check check, size_t *bad) { \
    VECTOR_CONSTS(k); \
    size_t i = 0; \
    while (i < n) { \
      size_t done = 0; \
      VECTOR_PREFIX(G, out + i, in + i * BYTES, n - i, check, done); \
      for (size_t j = i; j < i + done && check == CZ_POINT_IN_SUBGROUP; j++) \
        if (!cz_##G##_affine_is_in_subgroup(&out[j])) { \
          if (bad) *bad = j; \
          return CZ_ERR_NOT_IN_SUBGROUP; \
        } \
      i += done; \
      size_t end = i + 8 < n ? i + 8 : n; \
      for (; i < end; i++) { \
        cz_err e = cz_##G##_affine_deserialize_checking(&out[i], in + i * BYTES, check); \
        if (e != CZ_OK) { \
          if (bad) *bad = i; \
          return e; \
        } \
      } \
    } \
    return CZ_OK; \
  }

#ifdef CZ_IFMA
#define VECTOR_CONSTS(k) \
  vec_consts k = {0}; \
  if (cz_ifma_use && n >= 8) consts_init(&k)
#define VECTOR_PREFIX(G, o, p, cnt, check, done) \
  if (cz_ifma_use && (cnt) >= 8) done = G##_vector_prefix(&k, o, p, cnt, check)
#else
#define VECTOR_CONSTS(k) (void)0
#define VECTOR_PREFIX(G, o, p, cnt, check, done) (void)0
#endif

DESERIALIZE_MANY(g1, cz_g1_affine, CZ_G1_UNCOMPRESSED_BYTES)
DESERIALIZE_MANY(g2, cz_g2_affine, CZ_G2_UNCOMPRESSED_BYTES)
