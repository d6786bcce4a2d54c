/* The 8-lane IFMA field arithmetic (src/ec/ifma_field.h) against the scalar
 * cz_fr_* / cz_fp_* functions, lane by lane and bit for bit: thousands of
 * random elements mixed with edge values (0, 1, p - 1, values around the
 * 2^52 limb and 2^64 word boundaries), every aliasing pattern, the radix
 * conversions and gathers, the constants, and the dispatch switch. */
#include "rand_field.h"
#include "ifma_skip.h"
#include "cuzk/cpu.h"
#include "cuzk/fp.h"
#include "cuzk/fr.h"
#include "ec/ifma_field.h"

/* Scalar integer helpers on n 64-bit words (values, not field operations). */
static void words_sub_small(uint64_t *r, const uint64_t *a, uint64_t v, int n) {
  uint64_t borrow = v;
  for (int i = 0; i < n; i++) {
    uint64_t x = a[i];
    r[i] = x - borrow;
    borrow = x < borrow;
  }
}
static int words_lt(const uint64_t *a, const uint64_t *b, int n) {
  for (int i = n - 1; i >= 0; i--)
    if (a[i] != b[i]) return a[i] < b[i];
  return 0;
}

/* Edge integers < p for n words: 0, 1, 2, p-1, p-2, (p-1)/2, and 2^k - 1,
 * 2^k, 2^k + 1 for k at multiples of 52 and 64 (and 1..3 beyond) below p's
 * size, plus all-ones below those. Returns how many were written. */
static int edge_values(uint64_t (*out)[6], const uint64_t *mod, int n, int bits) {
  int c = 0;
  memset(out, 0, 64 * sizeof *out);
  c++; /* 0 */
  out[c++][0] = 1;
  out[c++][0] = 2;
  words_sub_small(out[c++], mod, 1, n);
  words_sub_small(out[c++], mod, 2, n);
  words_sub_small(out[c], mod, 1, n); /* (p - 1) / 2 */
  for (int i = 0; i < n; i++) out[c][i] = (out[c][i] >> 1) | (i + 1 < n ? out[c][i + 1] << 63 : 0);
  c++;
  static const int ks[] = {52,  53,  64,  65,  104, 128, 156, 192,
                           208, 255, 256, 260, 312, 320, 364, 380};
  for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
    int k = ks[t];
    if (k >= bits) continue;
    for (int d = -1; d <= 1; d++) {
      uint64_t v[6] = {0};
      v[k / 64] = 1ULL << (k % 64);
      if (d == -1) words_sub_small(v, v, 1, n);
      if (d == 1) v[0] |= 1; /* k >= 52, so bit 0 is free */
      memcpy(out[c++], v, sizeof v);
    }
  }
  return c;
}

#ifdef CZ_IFMA

#define CZ_FRV_(x) cz_frv_##x
#define CZ_FPV_(x) cz_fpv_##x

/* One test body per field, stamped out for Fr and Fp. */
#define FIELD_TESTS(S, V, SN, VN, NW, NL, MODULUS, ONE, BITS, RAND) \
  static S SN##pick(const S *edges, int n_edges) { \
    uint64_t r = check_rand64(); \
    if (r % 3 == 0) return edges[(r >> 8) % (uint64_t)n_edges]; \
    return RAND(); \
  } \
\
  /* Each lane of x equals op applied to the same lane of a (and b). */ \
  static CZ_IFMA_TARGET void SN##same_lanes2(const V *x, void (*op)(S *, const S *, const S *), \
                                             const S a[8], const S b[8]) { \
    S out[8], want; \
    VN(store)(out, x); \
    for (int j = 0; j < 8; j++) { \
      op(&want, &a[j], &b[j]); \
      CHECK_MEM(&out[j], &want, sizeof want); \
    } \
  } \
  static CZ_IFMA_TARGET void SN##same_lanes1(const V *x, void (*op)(S *, const S *), \
                                             const S a[8]) { \
    S out[8], want; \
    VN(store)(out, x); \
    for (int j = 0; j < 8; j++) { \
      op(&want, &a[j]); \
      CHECK_MEM(&out[j], &want, sizeof want); \
    } \
  } \
\
  static CZ_IFMA_TARGET void SN##check_ops(const S a[8], const S b[8]) { \
    V va, vb, vr, vbs; \
    S out[8]; \
    VN(load)(&va, a); \
    VN(load)(&vb, b); \
    VN(store)(out, &va); \
    CHECK_MEM(out, a, sizeof out); \
    VN(add)(&vr, &va, &vb); \
    SN##same_lanes2(&vr, SN##add, a, b); \
    VN(sub)(&vr, &va, &vb); \
    SN##same_lanes2(&vr, SN##sub, a, b); \
    VN(mul)(&vr, &va, &vb); \
    SN##same_lanes2(&vr, SN##mul, a, b); \
    VN(mul_prepare)(&vbs, &vb); \
    VN(mul_prepared)(&vr, &va, &vbs); \
    SN##same_lanes2(&vr, SN##mul, a, b); \
    VN(sqr)(&vr, &va); \
    SN##same_lanes1(&vr, SN##sqr, a); \
    VN(neg)(&vr, &va); \
    SN##same_lanes1(&vr, SN##neg, a); \
    VN(dbl)(&vr, &va); \
    SN##same_lanes1(&vr, SN##dbl, a); \
    __mmask8 z = VN(is_zero)(&va), e = VN(eq)(&va, &vb), wz = 0, we = 0; \
    for (int j = 0; j < 8; j++) { \
      if (SN##is_zero(&a[j])) wz |= (__mmask8)(1u << j); \
      if (SN##eq(&a[j], &b[j])) we |= (__mmask8)(1u << j); \
    } \
    CHECK_EQ_INT(z, wz); \
    CHECK_EQ_INT(e, we); \
    __mmask8 m = (__mmask8)check_rand64(); \
    VN(select)(&vr, m, &va, &vb); \
    VN(store)(out, &vr); \
    for (int j = 0; j < 8; j++) CHECK_MEM(&out[j], (m >> j) & 1 ? &a[j] : &b[j], sizeof(S)); \
  } \
\
  /* r aliasing a, b, or both. */ \
  static CZ_IFMA_TARGET void SN##check_alias(const S a[8], const S b[8]) { \
    V va, vb, x, vr; \
    S out[8]; \
    VN(load)(&va, a); \
    VN(load)(&vb, b); \
    x = va; \
    VN(mul)(&x, &x, &vb); \
    SN##same_lanes2(&x, SN##mul, a, b); \
    x = vb; \
    VN(mul)(&x, &va, &x); \
    SN##same_lanes2(&x, SN##mul, a, b); \
    x = va; \
    VN(mul)(&x, &x, &x); \
    SN##same_lanes1(&x, SN##sqr, a); \
    x = va; \
    VN(sqr)(&x, &x); \
    SN##same_lanes1(&x, SN##sqr, a); \
    x = va; \
    VN(add)(&x, &x, &vb); \
    SN##same_lanes2(&x, SN##add, a, b); \
    x = vb; \
    VN(add)(&x, &va, &x); \
    SN##same_lanes2(&x, SN##add, a, b); \
    x = va; \
    VN(add)(&x, &x, &x); \
    SN##same_lanes1(&x, SN##dbl, a); \
    x = va; \
    VN(sub)(&x, &x, &vb); \
    SN##same_lanes2(&x, SN##sub, a, b); \
    x = vb; \
    VN(sub)(&x, &va, &x); \
    SN##same_lanes2(&x, SN##sub, a, b); \
    x = va; \
    VN(sub)(&x, &x, &x); \
    CHECK_EQ_INT(VN(is_zero)(&x), 0xff); \
    x = va; \
    VN(neg)(&x, &x); \
    SN##same_lanes1(&x, SN##neg, a); \
    x = vb; \
    VN(mul_prepare)(&x, &x); \
    VN(mul_prepared)(&x, &va, &x); \
    SN##same_lanes2(&x, SN##mul, a, b); \
    x = va; \
    VN(select)(&x, 0x0f, &x, &vb); \
    VN(store)(out, &x); \
    for (int j = 0; j < 8; j++) CHECK_MEM(&out[j], j < 4 ? &a[j] : &b[j], sizeof(S)); \
    (void)vr; \
  } \
\
  /* Gather/scatter through pointers (a permutation with one repeat), set1, constants. */ \
  static CZ_IFMA_TARGET void SN##check_moves(const S a[8]) { \
    V v, w; \
    S out[8], buf[8], one; \
    const S *src[8]; \
    S *dst[8]; \
    for (int j = 0; j < 8; j++) src[j] = &a[(j * 5 + 3) % 8]; \
    src[6] = &a[1]; \
    VN(from_mont)(&v, src); \
    VN(store)(out, &v); \
    for (int j = 0; j < 8; j++) CHECK_MEM(&out[j], src[j], sizeof(S)); \
    memset(buf, 0xa5, sizeof buf); \
    for (int j = 0; j < 8; j++) dst[j] = &buf[7 - j]; \
    VN(load)(&v, a); \
    VN(to_mont)(dst, &v); \
    for (int j = 0; j < 8; j++) CHECK_MEM(&buf[7 - j], &a[j], sizeof(S)); \
    VN(set1)(&w, &a[3]); \
    VN(store)(out, &w); \
    for (int j = 0; j < 8; j++) CHECK_MEM(&out[j], &a[3], sizeof(S)); \
    VN(one)(&w); \
    VN(store)(out, &w); \
    one = ONE; \
    for (int j = 0; j < 8; j++) CHECK_MEM(&out[j], &one, sizeof(S)); \
    VN(zero)(&w); \
    VN(store)(out, &w); \
    for (int j = 0; j < 8; j++) CHECK(SN##is_zero(&out[j])); \
    CHECK_EQ_INT(VN(is_zero)(&w), 0xff); \
    /* The modulus limbs the vector code uses are the scalar modulus. */ \
    V pv; \
    __m512i words[NW]; \
    for (int k = 0; k < NL; k++) pv.l[k] = VN(p_)(k); \
    VN(to_words_)(words, &pv); \
    for (int i = 0; i < NW; i++) { \
      uint64_t lanes[8]; \
      _mm512_storeu_si512((void *)lanes, words[i]); \
      for (int j = 0; j < 8; j++) CHECK(lanes[j] == MODULUS[i]); \
    } \
  } \
\
  static void SN##run(int rounds) { \
    uint64_t ev[64][6]; \
    int ne = edge_values(ev, MODULUS, NW, BITS); \
    S edges[64]; \
    for (int i = 0; i < ne; i++) { \
      CHECK(words_lt(ev[i], MODULUS, NW)); \
      memcpy(edges[i].l, ev[i], sizeof edges[i].l); \
    } \
    edges[ne++] = ONE; \
    /* Every edge against every edge, 8 pairs per vector. */ \
    S a[8], b[8]; \
    int q = 0; \
    for (int i = 0; i < ne; i++) \
      for (int k = 0; k < ne; k++) { \
        a[q] = edges[i]; \
        b[q] = edges[k]; \
        if (++q == 8) { \
          SN##check_ops(a, b); \
          q = 0; \
        } \
      } \
    for (int r = 0; r < rounds; r++) { \
      for (int j = 0; j < 8; j++) { \
        a[j] = SN##pick(edges, ne); \
        b[j] = SN##pick(edges, ne); \
      } \
      if (r % 7 == 0) b[r % 8] = a[r % 8]; /* eq lanes */ \
      SN##check_ops(a, b); \
      if (r % 16 == 0) { \
        SN##check_alias(a, b); \
        SN##check_moves(a); \
      } \
    } \
  }

FIELD_TESTS(cz_fr, cz_frv, cz_fr_, CZ_FRV_, 4, 5, CZ_FR_MODULUS, CZ_FR_ONE, 255, check_rand_fr)
FIELD_TESTS(cz_fp, cz_fpv, cz_fp_, CZ_FPV_, 6, 8, CZ_FP_MODULUS, CZ_FP_ONE, 381, check_rand_fp)

#endif /* CZ_IFMA */

int main(void) {
  /* The dispatch switch: forcing the portable path turns IFMA off too. A
   * build without the vector code (CZ_NO_IFMA) never selects it. */
  const char *missing = ifma_missing();
  /* CUZK_CPU=portable rules out ADX and IFMA for the process, no-avx512 IFMA. */
  const char *env = getenv("CUZK_CPU");
  bool env_portable = env && !strcmp(env, "portable");
  bool env_no_ifma = env_portable || (env && !strcmp(env, "no-avx512"));
#ifdef CZ_IFMA
  bool has = cz_cpu_has_ifma() && !env_no_ifma;
#else
  bool has = false;
  (void)env_no_ifma;
#endif
  CHECK(cz_cpu_use_ifma() == has);
  cz_cpu_force_portable(true);
  CHECK(!cz_cpu_use_ifma());
  cz_cpu_force_portable(false);
  CHECK(cz_cpu_use_ifma() == has);
  cz_cpu_disable_ifma(true);
  CHECK(!cz_cpu_use_ifma() && cz_cpu_use_adx() == (cz_cpu_has_adx() && !env_portable));
  cz_cpu_disable_ifma(false);
  CHECK(cz_cpu_use_ifma() == has);

  /* The edge generator itself (used by both paths' reference values). */
  uint64_t ev[64][6];
  int ne = edge_values(ev, CZ_FR_MODULUS, 4, 255);
  CHECK(ne > 20);
  for (int i = 0; i < ne; i++) CHECK(words_lt(ev[i], CZ_FR_MODULUS, 4));

#ifdef CZ_IFMA
  if (has) {
    cz_fr_run(4000);
    cz_fp_run(3000);
  }
#else
  missing = "the vector code is not in this build (not x86-64 GCC/clang, or CZ_NO_IFMA)";
#endif
  return check_report_unless("test_ifma_field", missing);
}
