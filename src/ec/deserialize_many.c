/* Decoding runs of uncompressed points (the vectors of a parameter file).
 *
 * Each point gets exactly cz_g1/g2_affine_deserialize's answer. Where the
 * CPU has AVX-512 IFMA, groups of eight plain points (no flag bits, both
 * coordinates canonical) go through the 8-lane field code: the conversion to
 * Montgomery form (one product by R^2 per coordinate) and the curve equation
 * are most of the work, and they vectorise. Any group with a flagged,
 * non-canonical or off-curve point is decoded point by point by the scalar
 * function instead, so errors and infinity come out as they always have. */
#include <string.h>
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "ec/ifma_field.h"

#ifdef CZ_IFMA
/* A big-endian 48-byte field element as little-endian limbs; true when it is
 * below p (the canonical form). */
static bool be48_canonical(uint64_t t[CZ_FP_LIMBS], const uint8_t in[CZ_FP_BYTES]) {
  for (int i = 0; i < CZ_FP_LIMBS; i++) {
    uint64_t w;
    memcpy(&w, in + CZ_FP_BYTES - 8 * (i + 1), 8);
    t[i] = __builtin_bswap64(w);
  }
  for (int i = CZ_FP_LIMBS; i-- > 0;)
    if (t[i] != CZ_FP_MODULUS[i]) return t[i] < CZ_FP_MODULUS[i];
  return false;
}

/* The top three bits of byte 0 are the zcash flags; plain points have none. */
#define ENC_FLAGS 0xe0

/* r = R^2 mod p as a cz_fp: the Montgomery form of the element 2^384. */
static void fp_r2(cz_fp *r) {
  cz_fp two;
  cz_fp_from_u64(&two, 2);
  cz_fp_pow(r, &two, (const uint64_t[]){384}, 1);
}

/* Loads coordinate k (of `coords` per point) of the 8 points at in as raw
 * integers; false when a point is flagged or a coordinate is not canonical. */
static bool load_raw(cz_fp raw[8], const uint8_t *in, size_t stride, size_t k) {
  for (int j = 0; j < 8; j++) {
    const uint8_t *p = in + (size_t)j * stride;
    if (p[0] & ENC_FLAGS) return false;
    if (!be48_canonical(raw[j].l, p + k * CZ_FP_BYTES)) return false;
  }
  return true;
}

/* The 8 lanes' raw coordinate k, in Montgomery form. */
CZ_IFMA_TARGET static bool load_coord(cz_fpv *r, const uint8_t *in, size_t stride, size_t k,
                                      const cz_fpv *r2) {
  cz_fp raw[8];
  if (!load_raw(raw, in, stride, k)) return false;
  cz_fpv_load(r, raw);
  cz_fpv_mul_prepared(r, r, r2);
  return true;
}

CZ_IFMA_TARGET static bool g1_eight(cz_g1_affine out[8], const uint8_t *in, const cz_fpv *r2,
                                    const cz_fpv *b) {
  cz_fpv x, y, l, t;
  if (!load_coord(&x, in, CZ_G1_UNCOMPRESSED_BYTES, 0, r2) ||
      !load_coord(&y, in, CZ_G1_UNCOMPRESSED_BYTES, 1, r2))
    return false;
  cz_fpv_sqr(&l, &y);
  cz_fpv_sqr(&t, &x);
  cz_fpv_mul(&t, &t, &x);
  cz_fpv_add(&t, &t, b);
  if (cz_fpv_eq(&l, &t) != 0xff) return false;
  cz_fp xs[8], ys[8];
  cz_fpv_store(xs, &x);
  cz_fpv_store(ys, &y);
  for (int j = 0; j < 8; j++) {
    out[j].x = xs[j];
    out[j].y = ys[j];
  }
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
                                    const fp2v *b) {
  const size_t st = CZ_G2_UNCOMPRESSED_BYTES;
  fp2v x, y, l, t;
  if (!load_coord(&x.c1, in, st, 0, r2) || !load_coord(&x.c0, in, st, 1, r2) ||
      !load_coord(&y.c1, in, st, 2, r2) || !load_coord(&y.c0, in, st, 3, r2))
    return false;
  fp2v_mul(&l, &y, &y);
  fp2v_mul(&t, &x, &x);
  fp2v_mul(&t, &t, &x);
  cz_fpv_add(&t.c0, &t.c0, &b->c0);
  cz_fpv_add(&t.c1, &t.c1, &b->c1);
  if ((cz_fpv_eq(&l.c0, &t.c0) & cz_fpv_eq(&l.c1, &t.c1)) != 0xff) return false;
  cz_fp v[4][8];
  cz_fpv_store(v[0], &x.c0);
  cz_fpv_store(v[1], &x.c1);
  cz_fpv_store(v[2], &y.c0);
  cz_fpv_store(v[3], &y.c1);
  for (int j = 0; j < 8; j++) {
    out[j].x.c0 = v[0][j];
    out[j].x.c1 = v[1][j];
    out[j].y.c0 = v[2][j];
    out[j].y.c1 = v[3][j];
  }
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
 * every group of 8 that is plain, canonical and on the curve). The caller
 * decodes a failing group and the tail point by point. */
CZ_IFMA_TARGET static size_t g1_vector_prefix(const vec_consts *k, cz_g1_affine *out,
                                              const uint8_t *in, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    if (!g1_eight(out + i, in + i * CZ_G1_UNCOMPRESSED_BYTES, &k->r2, &k->b4)) break;
  return i;
}

CZ_IFMA_TARGET static size_t g2_vector_prefix(const vec_consts *k, cz_g2_affine *out,
                                              const uint8_t *in, size_t n) {
  fp2v b = {k->b4, k->b4}; /* b = 4 (1 + u) */
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    if (!g2_eight(out + i, in + i * CZ_G2_UNCOMPRESSED_BYTES, &k->r2, &b)) break;
  return i;
}
#endif

/* The shared loop: vector groups while they pass, a failing group point by
 * point (it may hold only infinities, which are fine), then on again. */
#define DESERIALIZE_MANY(G, AFF, BYTES) \
  cz_err cz_##G##_affine_deserialize_many(AFF *out, const uint8_t *in, size_t n, \
                                          bool check_subgroup, size_t *bad) { \
    VECTOR_CONSTS(k); \
    size_t i = 0; \
    while (i < n) { \
      size_t done = 0; \
      VECTOR_PREFIX(G, out + i, in + i * BYTES, n - i, done); \
      for (size_t j = i; j < i + done && check_subgroup; j++) \
        if (!cz_##G##_affine_is_in_subgroup(&out[j])) { \
          if (bad) *bad = j; \
          return CZ_ERR_NOT_IN_SUBGROUP; \
        } \
      i += done; \
      size_t end = i + 8 < n ? i + 8 : n; \
      for (; i < end; i++) { \
        cz_err e = cz_##G##_affine_deserialize(&out[i], in + i * BYTES, check_subgroup); \
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
#define VECTOR_PREFIX(G, o, p, cnt, done) \
  if (cz_ifma_use && (cnt) >= 8) done = G##_vector_prefix(&k, o, p, cnt)
#else
#define VECTOR_CONSTS(k) (void)0
#define VECTOR_PREFIX(G, o, p, cnt, done) (void)0
#endif

DESERIALIZE_MANY(g1, cz_g1_affine, CZ_G1_UNCOMPRESSED_BYTES)
DESERIALIZE_MANY(g2, cz_g2_affine, CZ_G2_UNCOMPRESSED_BYTES)
