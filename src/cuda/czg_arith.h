/* The arithmetic of the CUDA kernels, written once for two compilers:
 * nvcc compiles it as __device__ code for the kernels (czg_cuda.cu), the C
 * compiler as static inline host code for the emulated device (czg_emu.c)
 * and the CPU tests, which compare every function here with the library's
 * own Fp/Fr/G1 code. A kernel is a thin loop around the bodies below, so
 * what the tests check on the CPU is what the GPU runs.
 *
 * Fields: Montgomery form on 32-bit limbs, little-endian, R = 2^(32 N):
 * the same bytes as cz_fp (12 limbs, R = 2^384) and cz_fr (8 limbs,
 * R = 2^256) on a little-endian host, so points and scalars cross the bus
 * unconverted. Products are plain 64-bit (correctness first; the carry
 * chains of mad.lo.cc/madc.hi are an optimisation for later, measured).
 * G1 points: affine (x, y) with (0, 0) the identity, as cz_g1_affine, and
 * XYZZ (x = X/ZZ, y = Y/ZZZ, identity ZZ = 0), as cz_g1_xyzz. */
#ifndef CUZK_CUDA_CZG_ARITH_H
#define CUZK_CUDA_CZG_ARITH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define CZG_FN static __device__ __forceinline__
#define CZG_HFN static __host__ __device__ __forceinline__ /* host planning too */
/* Field multiplications and point additions are calls on the device: fully
 * inlined, ptxas needs tens of minutes per architecture. */
#define CZG_CALL static __device__ __noinline__
#define CZG_CONST static __device__ __constant__ const
#else
#define CZG_FN static inline
#define CZG_HFN static inline
#define CZG_CALL static inline
#define CZG_CONST static const
#endif

#define CZG_FP_N 12
#define CZG_FR_N 8

typedef struct {
  uint32_t l[CZG_FP_N];
} czg_fp;
typedef struct {
  uint32_t l[CZG_FR_N];
} czg_fr;
typedef struct {
  czg_fp x, y;
} czg_affine;
typedef struct {
  czg_fp x, y, zz, zzz;
} czg_xyzz;

/* p and r, and -m^-1 mod 2^32 (the low words of the 64-bit constants of
 * src/ec/fp.c and fr.c; the tests compare both moduli with the library's). */
CZG_CONST uint32_t CZG_P[CZG_FP_N] = {0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe,
                                      0xf6b0f624, 0x6730d2a0, 0xf38512bf, 0x64774b84,
                                      0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea};
CZG_CONST uint32_t CZG_R[CZG_FR_N] = {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402,
                                      0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753};
/* 1 in Montgomery form (R mod p, CZ_FP_ONE). */
CZG_CONST uint32_t CZG_FP_ONE[CZG_FP_N] = {0x0002fffd, 0x76090000, 0xc40c0002, 0xebf4000b,
                                           0x53c758ba, 0x5f489857, 0x70525745, 0x77ce5853,
                                           0xa256ec6d, 0x5c071a97, 0xfa80e493, 0x15f65ec3};
#define CZG_P_INV 0xfffcfffdu
#define CZG_R_INV 0xffffffffu

/* ---- generic Montgomery arithmetic on n limbs (n <= 12) ----------------- */

/* a >= m */
CZG_FN bool czg_geq(const uint32_t *a, const uint32_t *m, int n) {
  for (int i = n - 1; i >= 0; i--) {
    if (a[i] != m[i]) return a[i] > m[i];
  }
  return true;
}

/* r = a - m, returns the borrow */
CZG_FN uint32_t czg_sub_raw(uint32_t *r, const uint32_t *a, const uint32_t *m, int n) {
  uint64_t borrow = 0;
  for (int i = 0; i < n; i++) {
    uint64_t d = (uint64_t)a[i] - m[i] - borrow;
    r[i] = (uint32_t)d;
    borrow = (d >> 32) & 1;
  }
  return (uint32_t)borrow;
}

CZG_FN uint32_t czg_add_raw(uint32_t *r, const uint32_t *a, const uint32_t *b, int n) {
  uint64_t carry = 0;
  for (int i = 0; i < n; i++) {
    uint64_t s = (uint64_t)a[i] + b[i] + carry;
    r[i] = (uint32_t)s;
    carry = s >> 32;
  }
  return (uint32_t)carry;
}

/* Inputs < m; the moduli leave a spare top bit so a + b never carries out. */
CZG_FN void czg_mod_add(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                        int n) {
  czg_add_raw(r, a, b, n);
  if (czg_geq(r, m, n)) czg_sub_raw(r, r, m, n);
}

CZG_FN void czg_mod_sub(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                        int n) {
  if (czg_sub_raw(r, a, b, n)) czg_add_raw(r, r, m, n);
}

/* r = a b R^-1 mod m (CIOS). r may alias a or b. */
CZG_FN void czg_mont_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
                         uint32_t inv, int n) {
  uint32_t t[CZG_FP_N + 2];
  for (int i = 0; i < n + 2; i++) t[i] = 0;
  for (int i = 0; i < n; i++) {
    uint64_t c = 0;
    for (int j = 0; j < n; j++) {
      uint64_t uv = (uint64_t)t[j] + (uint64_t)a[j] * b[i] + c;
      t[j] = (uint32_t)uv;
      c = uv >> 32;
    }
    uint64_t s = (uint64_t)t[n] + c;
    t[n] = (uint32_t)s;
    t[n + 1] = (uint32_t)(s >> 32);
    uint32_t q = t[0] * inv;
    uint64_t uv = (uint64_t)t[0] + (uint64_t)q * m[0];
    c = uv >> 32;
    for (int j = 1; j < n; j++) {
      uv = (uint64_t)t[j] + (uint64_t)q * m[j] + c;
      t[j - 1] = (uint32_t)uv;
      c = uv >> 32;
    }
    s = (uint64_t)t[n] + c;
    t[n - 1] = (uint32_t)s;
    t[n] = t[n + 1] + (uint32_t)(s >> 32);
  }
  if (t[n] || czg_geq(t, m, n)) czg_sub_raw(t, t, m, n);
  for (int i = 0; i < n; i++) r[i] = t[i];
}

CZG_FN bool czg_is_zero(const uint32_t *a, int n) {
  uint32_t acc = 0;
  for (int i = 0; i < n; i++) acc |= a[i];
  return acc == 0;
}

CZG_FN bool czg_eq(const uint32_t *a, const uint32_t *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

/* ---- Fp ------------------------------------------------------------------ */

CZG_FN void czg_fp_add(czg_fp *r, const czg_fp *a, const czg_fp *b) {
  czg_mod_add(r->l, a->l, b->l, CZG_P, CZG_FP_N);
}
CZG_FN void czg_fp_sub(czg_fp *r, const czg_fp *a, const czg_fp *b) {
  czg_mod_sub(r->l, a->l, b->l, CZG_P, CZG_FP_N);
}
CZG_CALL void czg_fp_mul(czg_fp *r, const czg_fp *a, const czg_fp *b) {
  czg_mont_mul(r->l, a->l, b->l, CZG_P, CZG_P_INV, CZG_FP_N);
}
CZG_FN void czg_fp_sqr(czg_fp *r, const czg_fp *a) { czg_fp_mul(r, a, a); }
CZG_FN void czg_fp_dbl(czg_fp *r, const czg_fp *a) { czg_fp_add(r, a, a); }
CZG_FN bool czg_fp_is_zero(const czg_fp *a) { return czg_is_zero(a->l, CZG_FP_N); }
CZG_FN void czg_fp_neg(czg_fp *r, const czg_fp *a) {
  if (czg_fp_is_zero(a)) *r = *a;
  else czg_sub_raw(r->l, CZG_P, a->l, CZG_FP_N);
}

/* ---- Fr ------------------------------------------------------------------ */

CZG_FN void czg_fr_add(czg_fr *r, const czg_fr *a, const czg_fr *b) {
  czg_mod_add(r->l, a->l, b->l, CZG_R, CZG_FR_N);
}
CZG_FN void czg_fr_sub(czg_fr *r, const czg_fr *a, const czg_fr *b) {
  czg_mod_sub(r->l, a->l, b->l, CZG_R, CZG_FR_N);
}
CZG_CALL void czg_fr_mul(czg_fr *r, const czg_fr *a, const czg_fr *b) {
  czg_mont_mul(r->l, a->l, b->l, CZG_R, CZG_R_INV, CZG_FR_N);
}
/* Montgomery form -> the canonical integer (multiply by 1). */
CZG_FN void czg_fr_from_mont(czg_fr *r, const czg_fr *a) {
  czg_fr one = {{1, 0, 0, 0, 0, 0, 0, 0}};
  czg_fr_mul(r, a, &one);
}

/* ---- G1, XYZZ (formulas of the EFD's "xyzz" for a = 0) ------------------- */

CZG_FN void czg_xyzz_set_identity(czg_xyzz *r) {
  for (int i = 0; i < CZG_FP_N; i++) r->x.l[i] = r->y.l[i] = r->zz.l[i] = r->zzz.l[i] = 0;
}
CZG_FN bool czg_xyzz_is_identity(const czg_xyzz *p) { return czg_fp_is_zero(&p->zz); }
CZG_FN bool czg_affine_is_identity(const czg_affine *p) {
  return czg_fp_is_zero(&p->x) && czg_fp_is_zero(&p->y);
}

/* r = 2 (x, y), affine input not the identity (y != 0 on G1). */
CZG_CALL void czg_xyzz_dbl_affine(czg_xyzz *r, const czg_affine *a) {
  czg_fp u, v, w, s, m, t;
  czg_fp_dbl(&u, &a->y);
  czg_fp_sqr(&v, &u);
  czg_fp_mul(&w, &u, &v);
  czg_fp_mul(&s, &a->x, &v);
  czg_fp_sqr(&m, &a->x);
  czg_fp_dbl(&t, &m);
  czg_fp_add(&m, &m, &t); /* 3 x^2 */
  czg_fp_sqr(&r->x, &m);
  czg_fp_dbl(&t, &s);
  czg_fp_sub(&r->x, &r->x, &t);
  czg_fp_sub(&t, &s, &r->x);
  czg_fp_mul(&t, &m, &t);
  czg_fp_mul(&r->y, &w, &a->y);
  czg_fp_sub(&r->y, &t, &r->y);
  r->zz = v;
  r->zzz = w;
}

CZG_CALL void czg_xyzz_dbl(czg_xyzz *r, const czg_xyzz *a) {
  if (czg_xyzz_is_identity(a)) {
    *r = *a;
    return;
  }
  czg_fp u, v, w, s, m, t, y1 = a->y;
  czg_fp_dbl(&u, &a->y);
  czg_fp_sqr(&v, &u);
  czg_fp_mul(&w, &u, &v);
  czg_fp_mul(&s, &a->x, &v);
  czg_fp_sqr(&m, &a->x);
  czg_fp_dbl(&t, &m);
  czg_fp_add(&m, &m, &t);
  czg_fp_mul(&r->zz, &v, &a->zz);
  czg_fp_mul(&r->zzz, &w, &a->zzz);
  czg_fp_sqr(&r->x, &m);
  czg_fp_dbl(&t, &s);
  czg_fp_sub(&r->x, &r->x, &t);
  czg_fp_sub(&t, &s, &r->x);
  czg_fp_mul(&t, &m, &t);
  czg_fp_mul(&w, &w, &y1);
  czg_fp_sub(&r->y, &t, &w);
}

/* acc += b (b negated when neg). Handles every identity and doubling case. */
CZG_CALL void czg_xyzz_add_affine(czg_xyzz *acc, const czg_affine *b, bool neg) {
  if (czg_affine_is_identity(b)) return;
  czg_affine q = *b;
  if (neg) czg_fp_neg(&q.y, &q.y);
  if (czg_xyzz_is_identity(acc)) {
    acc->x = q.x;
    acc->y = q.y;
    for (int i = 0; i < CZG_FP_N; i++) acc->zz.l[i] = acc->zzz.l[i] = CZG_FP_ONE[i];
    return;
  }
  czg_fp u2, s2, p, r, pp, ppp, qq, t;
  czg_fp_mul(&u2, &q.x, &acc->zz);
  czg_fp_mul(&s2, &q.y, &acc->zzz);
  czg_fp_sub(&p, &u2, &acc->x);
  czg_fp_sub(&r, &s2, &acc->y);
  if (czg_fp_is_zero(&p)) {
    if (czg_fp_is_zero(&r)) czg_xyzz_dbl_affine(acc, &q);
    else czg_xyzz_set_identity(acc);
    return;
  }
  czg_fp_sqr(&pp, &p);
  czg_fp_mul(&ppp, &p, &pp);
  czg_fp_mul(&qq, &acc->x, &pp);
  czg_fp_sqr(&acc->x, &r);
  czg_fp_sub(&acc->x, &acc->x, &ppp);
  czg_fp_dbl(&t, &qq);
  czg_fp_sub(&acc->x, &acc->x, &t);
  czg_fp_sub(&t, &qq, &acc->x);
  czg_fp_mul(&t, &r, &t);
  czg_fp_mul(&acc->y, &acc->y, &ppp);
  czg_fp_sub(&acc->y, &t, &acc->y);
  czg_fp_mul(&acc->zz, &acc->zz, &pp);
  czg_fp_mul(&acc->zzz, &acc->zzz, &ppp);
}

/* acc += b, both XYZZ. */
CZG_CALL void czg_xyzz_add(czg_xyzz *acc, const czg_xyzz *b) {
  if (czg_xyzz_is_identity(b)) return;
  if (czg_xyzz_is_identity(acc)) {
    *acc = *b;
    return;
  }
  czg_fp u1, u2, s1, s2, p, r, pp, ppp, qq, t;
  czg_fp_mul(&u1, &acc->x, &b->zz);
  czg_fp_mul(&u2, &b->x, &acc->zz);
  czg_fp_mul(&s1, &acc->y, &b->zzz);
  czg_fp_mul(&s2, &b->y, &acc->zzz);
  czg_fp_sub(&p, &u2, &u1);
  czg_fp_sub(&r, &s2, &s1);
  if (czg_fp_is_zero(&p)) {
    if (czg_fp_is_zero(&r)) czg_xyzz_dbl(acc, acc);
    else czg_xyzz_set_identity(acc);
    return;
  }
  czg_fp_sqr(&pp, &p);
  czg_fp_mul(&ppp, &p, &pp);
  czg_fp_mul(&qq, &u1, &pp);
  czg_fp_sqr(&acc->x, &r);
  czg_fp_sub(&acc->x, &acc->x, &ppp);
  czg_fp_dbl(&t, &qq);
  czg_fp_sub(&acc->x, &acc->x, &t);
  czg_fp_sub(&t, &qq, &acc->x);
  czg_fp_mul(&t, &r, &t);
  czg_fp_mul(&s1, &s1, &ppp);
  czg_fp_sub(&acc->y, &t, &s1);
  czg_fp_mul(&acc->zz, &acc->zz, &b->zz);
  czg_fp_mul(&acc->zz, &acc->zz, &pp);
  czg_fp_mul(&acc->zzz, &acc->zzz, &b->zzz);
  czg_fp_mul(&acc->zzz, &acc->zzz, &ppp);
}

/* r = k p for a small k (double and add). */
CZG_FN void czg_xyzz_mul_small(czg_xyzz *r, const czg_xyzz *p, uint32_t k) {
  czg_xyzz acc, base = *p;
  czg_xyzz_set_identity(&acc);
  while (k) {
    if (k & 1) czg_xyzz_add(&acc, &base);
    k >>= 1;
    if (k) czg_xyzz_dbl(&base, &base);
  }
  *r = acc;
}

/* ---- MSM: signed digits, bucket keys, bucket sums, window sums ----------- */

/* Windows of c bits for 255-bit scalars: the top window holds at most c - 1
 * bits, so the signed recoding never carries out of it. */
CZG_HFN unsigned czg_msm_windows(unsigned c) { return 255 / c + 1; }

#define CZG_KEY_NONE 0xffffffffu /* a zero digit: sorted last, never summed */
#define CZG_NEG_BIT 0x80000000u  /* in a value: the point is subtracted */

/* Bits [pos, pos + c) of the 256-bit k (c <= 16). */
CZG_FN uint32_t czg_scalar_bits(const czg_fr *k, unsigned pos, unsigned c) {
  unsigned w = pos / 32, s = pos % 32;
  uint64_t v = k->l[w];
  if (w + 1 < CZG_FR_N) v |= (uint64_t)k->l[w + 1] << 32;
  return (uint32_t)(v >> s) & ((1u << c) - 1);
}

/* The signed c-bit digits of k (canonical, < 2^255) as sort keys: for
 * window w a digit d != 0 becomes key w 2^(c-1) + |d| - 1 with value
 * point | (d < 0 ? CZG_NEG_BIT : 0); d = 0 becomes CZG_KEY_NONE. keys and
 * vals have stride `stride` between windows (key of window w at w*stride). */
CZG_FN void czg_msm_digits(const czg_fr *k, uint32_t point, unsigned c, uint32_t *keys,
                           uint32_t *vals, size_t stride) {
  unsigned nw = czg_msm_windows(c);
  uint32_t half = 1u << (c - 1), carry = 0;
  for (unsigned w = 0; w < nw; w++) {
    uint32_t raw = czg_scalar_bits(k, w * c, c) + carry;
    uint32_t key = CZG_KEY_NONE, val = point;
    if (raw > half) { /* d = raw - 2^c, carrying 1 (raw = 2^c gives d = 0) */
      carry = 1;
      uint32_t mag = (1u << c) - raw;
      if (mag) {
        key = w * half + mag - 1;
        val |= CZG_NEG_BIT;
      }
    } else {
      carry = 0;
      if (raw) key = w * half + raw - 1;
    }
    keys[w * stride] = key;
    vals[w * stride] = val;
  }
}

/* The sum of the points of one bucket: sorted values [start, end). */
CZG_FN void czg_bucket_sum(czg_xyzz *out, const czg_affine *bases, const uint32_t *vals,
                           uint32_t start, uint32_t end) {
  czg_xyzz acc;
  czg_xyzz_set_identity(&acc);
  for (uint32_t i = start; i < end; i++) {
    uint32_t v = vals[i];
    czg_xyzz_add_affine(&acc, &bases[v & ~CZG_NEG_BIT], (v & CZG_NEG_BIT) != 0);
  }
  *out = acc;
}

/* sum_{j in [lo, hi)} (j + 1) B_j over the buckets of one window: a running
 * sum from the top gives sum (j + 1 - lo) B_j, and lo times the plain sum
 * makes up the rest. Windows are split into segments so that many threads
 * share one window; the segment results are summed afterwards. */
CZG_FN void czg_window_segment(czg_xyzz *out, const czg_xyzz *buckets, uint32_t lo, uint32_t hi) {
  czg_xyzz run, acc, t;
  czg_xyzz_set_identity(&run);
  czg_xyzz_set_identity(&acc);
  for (uint32_t j = hi; j-- > lo;) {
    czg_xyzz_add(&run, &buckets[j]);
    czg_xyzz_add(&acc, &run);
  }
  czg_xyzz_mul_small(&t, &run, lo);
  czg_xyzz_add(&acc, &t);
  *out = acc;
}

/* ---- NTT ----------------------------------------------------------------- */

CZG_FN uint32_t czg_rev(uint32_t x, unsigned log_n) {
  if (!log_n) return 0;
#ifdef __CUDA_ARCH__
  return __brev(x) >> (32 - log_n);
#else
  uint32_t r = 0;
  for (unsigned i = 0; i < log_n; i++) r |= ((x >> i) & 1u) << (log_n - 1 - i);
  return r;
#endif
}

/* w^e from two tables of 2^16 entries: lo[i] = w^i, hi[i] = w^(i 2^16). */
#define CZG_TW_BITS 16
CZG_FN void czg_pow_table(czg_fr *r, const czg_fr *lo, const czg_fr *hi, uint32_t e) {
  uint32_t h = e >> CZG_TW_BITS, l = e & ((1u << CZG_TW_BITS) - 1);
  if (!h) *r = lo[l];
  else if (!l) *r = hi[h];
  else czg_fr_mul(r, &hi[h], &lo[l]);
}

/* One pass of a radix-2^k transform of size 2^L: it works on groups of 2^k
 * elements that the k radix-2 levels it does only mix among themselves.
 *   DIF (Gentleman-Sande, natural in, bit-reversed out): a pass covers the
 *     index bits [L - s0 - k, L - s0), half-sizes falling.
 *   DIT (Cooley-Tukey, bit-reversed in, natural out): a pass covers bits
 *     [s0, s0 + k), half-sizes rising.
 * So three passes of k = 9 do 2^27, and no permutation pass is needed. */
typedef struct {
  unsigned log_n, k; /* transform size 2^log_n, pass radix 2^k */
  unsigned low_bit;  /* first index bit of the pass (the group stride is 2^low_bit) */
  bool dif;
} czg_ntt_pass;

/* Global index of local element j of group g. */
CZG_FN size_t czg_ntt_index(const czg_ntt_pass *ps, size_t g, uint32_t j) {
  size_t stride = (size_t)1 << ps->low_bit;
  size_t low = g & (stride - 1), high = g >> ps->low_bit;
  return (high << (ps->low_bit + ps->k)) | ((size_t)j << ps->low_bit) | low;
}

/* Butterfly t (0 <= t < 2^(k-1)) of level `level` (0-based within the pass)
 * on the group's elements sh[0 .. 2^k), twiddles from the w tables (w the
 * root of unity of order 2^log_n, or its inverse). */
CZG_FN void czg_ntt_butterfly(const czg_ntt_pass *ps, czg_fr *sh, size_t g, unsigned level,
                              uint32_t t, const czg_fr *tw_lo, const czg_fr *tw_hi) {
  unsigned lb = ps->dif ? ps->k - 1 - level : level; /* local half-size 2^lb */
  uint32_t mh = 1u << lb;
  uint32_t j = ((t >> lb) << (lb + 1)) | (t & (mh - 1));
  /* i mod m with m = mh * stride: (j mod mh) stride + low */
  size_t stride = (size_t)1 << ps->low_bit;
  size_t i_mod_m = ((size_t)(j & (mh - 1)) << ps->low_bit) | (g & (stride - 1));
  unsigned log_m = lb + ps->low_bit;
  uint32_t e = (uint32_t)(i_mod_m << (ps->log_n - 1 - log_m)); /* (i mod m) n / (2m) */
  czg_fr w, u = sh[j], v = sh[j + mh];
  czg_pow_table(&w, tw_lo, tw_hi, e);
  if (ps->dif) {
    czg_fr_add(&sh[j], &u, &v);
    czg_fr_sub(&v, &u, &v);
    czg_fr_mul(&sh[j + mh], &v, &w);
  } else {
    czg_fr_mul(&v, &v, &w);
    czg_fr_add(&sh[j], &u, &v);
    czg_fr_sub(&sh[j + mh], &u, &v);
  }
}

/* The passes of a transform of 2^log_n with radix at most 2^max_k:
 * fills passes[] in execution order, returns how many (<= 32). */
CZG_HFN unsigned czg_ntt_plan(czg_ntt_pass *passes, unsigned log_n, unsigned max_k, bool dif) {
  if (!log_n) return 0;
  unsigned np = (log_n + max_k - 1) / max_k;
  unsigned done = 0;
  for (unsigned p = 0; p < np; p++) {
    unsigned k = (log_n - done) / (np - p); /* spread evenly: 27 = 9 + 9 + 9 */
    czg_ntt_pass ps;
    ps.log_n = log_n;
    ps.k = k;
    ps.dif = dif;
    ps.low_bit = dif ? log_n - done - k : done;
    passes[p] = ps;
    done += k;
  }
  return np;
}

/* Element-wise steps of the H computation (see czg_emu.c for the order).
 * Position pos of a bit-reversed vector holds coefficient rev(pos):
 * multiply it by scale * g^rev(pos) (g^e from tables, as twiddles). */
CZG_FN void czg_coset_scale(czg_fr *x, uint32_t pos, unsigned log_n, const czg_fr *scale,
                            const czg_fr *g_lo, const czg_fr *g_hi) {
  czg_fr gp;
  czg_pow_table(&gp, g_lo, g_hi, czg_rev(pos, log_n));
  czg_fr_mul(&gp, &gp, scale);
  czg_fr_mul(x, x, &gp);
}

/* a = a b */
CZG_FN void czg_h_product(czg_fr *a, const czg_fr *b) { czg_fr_mul(a, a, b); }

/* a = a - c k: C's coefficients leave H without a transform of their own
 * (H = (icoset(A B on the coset) - C) / Z(g), see src/ntt/hpoly.c). */
CZG_FN void czg_h_subtract(czg_fr *a, const czg_fr *c, const czg_fr *k) {
  czg_fr t;
  czg_fr_mul(&t, c, k);
  czg_fr_sub(a, a, &t);
}

#endif
