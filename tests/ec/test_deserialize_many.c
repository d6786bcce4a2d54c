/* cz_g1/g2_affine_deserialize_many against the one-point decoder it must
 * equal: random runs of every length around the 8-point groups, each kind
 * of bad point (flags, infinity, non-canonical, off the curve, outside the
 * subgroup) at positions inside and across groups, at each check level
 * (cz_point_check), on the vector path (where the CPU has AVX-512 IFMA) and
 * the portable one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "ifma_skip.h"
#include "cuzk/cpu.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "rand_field.h"

enum { MAXN = 73 };
enum { BAD_NONE, BAD_FLAG, BAD_INFINITY, BAD_NONCANONICAL, BAD_OFF_CURVE, BAD_SUBGROUP, BAD_KINDS };

/* A point on y^2 = x^3 + 4 with a random x: outside the r-torsion but for a
 * chance of 1 in the cofactor (about 2^-126). */
static cz_g1_affine g1_off_subgroup(void) {
  cz_g1_affine a;
  cz_fp four;
  cz_fp_from_u64(&four, 4);
  for (;;) {
    cz_fp t;
    a.x = check_rand_fp();
    cz_fp_sqr(&t, &a.x);
    cz_fp_mul(&t, &t, &a.x);
    cz_fp_add(&t, &t, &four);
    if (cz_fp_sqrt(&a.y, &t)) return a;
  }
}

static cz_g2_affine g2_off_subgroup(void) {
  cz_g2_affine a;
  cz_fp2 b;
  cz_fp_from_u64(&b.c0, 4);
  b.c1 = b.c0;
  for (;;) {
    cz_fp2 t;
    a.x = check_rand_fp2();
    cz_fp2_sqr(&t, &a.x);
    cz_fp2_mul(&t, &t, &a.x);
    cz_fp2_add(&t, &t, &b);
    if (cz_fp2_sqrt(&a.y, &t)) return a;
  }
}

/* Spoils the encoded point at p (bytes len, coordinates of 48 bytes). */
static void spoil(uint8_t *p, size_t len, int kind) {
  static const uint8_t P_BE[48] = {0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b,
                                   0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84,
                                   0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0,
                                   0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff,
                                   0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};
  switch (kind) {
    case BAD_FLAG: p[0] |= 0x80; break;
    case BAD_INFINITY:
      memset(p, 0, len);
      p[0] = 0x40;
      break;
    case BAD_NONCANONICAL: memcpy(p + len - 48, P_BE, 48); break; /* last coordinate = p */
    case BAD_OFF_CURVE: p[len - 1] ^= 1; break;
    default: break;
  }
}

#define RUN_TEST(G, AFF, BYTES, RAND, OFF) \
  static void test_##G(void) { \
    static AFF pts[MAXN], want[MAXN], got[MAXN]; \
    static uint8_t enc[MAXN * BYTES]; \
    for (size_t i = 0; i < MAXN; i++) pts[i] = RAND(); \
    static const size_t lens[] = {0, 1, 7, 8, 9, 16, 17, MAXN}; \
    static const size_t at[] = {0, 3, 7, 8, 12, 15, 16, 40, MAXN - 1}; \
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) \
      for (int kind = 0; kind < BAD_KINDS; kind++) \
        for (size_t ai = 0; ai < sizeof at / sizeof *at; ai++) { \
          size_t n = lens[li], bad_at = at[ai]; \
          if (kind != BAD_NONE && bad_at >= n) continue; \
          if (kind == BAD_NONE && ai) continue; \
          for (size_t i = 0; i < n; i++) cz_##G##_affine_serialize(enc + i * BYTES, &pts[i]); \
          if (kind == BAD_SUBGROUP) { \
            AFF o = OFF(); \
            cz_##G##_affine_serialize(enc + bad_at * BYTES, &o); \
          } else if (kind != BAD_NONE) { \
            spoil(enc + bad_at * BYTES, BYTES, kind); \
          } \
          for (int c = CZ_POINT_ENCODING; c <= CZ_POINT_IN_SUBGROUP; c++) { \
            cz_err we = CZ_OK; \
            size_t wbad = SIZE_MAX, gbad = SIZE_MAX; \
            for (size_t i = 0; i < n && we == CZ_OK; i++) { \
              we = cz_##G##_affine_deserialize_checking(&want[i], enc + i * BYTES, c); \
              if (we != CZ_OK) wbad = i; \
            } \
            cz_err ge = cz_##G##_affine_deserialize_many(got, enc, n, c, &gbad); \
            CHECK_EQ_INT(ge, we); \
            /* the levels below the one that finds a bad point pass it */ \
            if (kind == BAD_OFF_CURVE || kind == BAD_SUBGROUP) \
              CHECK_EQ_INT(ge == CZ_OK, c < (kind == BAD_OFF_CURVE ? CZ_POINT_ON_CURVE \
                                                                   : CZ_POINT_IN_SUBGROUP)); \
            size_t ok = we == CZ_OK ? n : wbad; \
            if (we != CZ_OK) CHECK_EQ_INT(gbad, wbad); \
            CHECK(ok == 0 || memcmp(got, want, ok * sizeof *got) == 0); \
          } \
        } \
  }

RUN_TEST(g1, cz_g1_affine, CZ_G1_UNCOMPRESSED_BYTES, check_rand_g1_affine, g1_off_subgroup)
RUN_TEST(g2, cz_g2_affine, CZ_G2_UNCOMPRESSED_BYTES, check_rand_g2_affine, g2_off_subgroup)

int main(void) {
  /* The batch decoder's point is its 8-lane prefix; without IFMA its
   * scalar loop is still compared with one-at-a-time decoding. */
  const char *missing = ifma_missing();
  for (int portable = 0; portable < 2; portable++) {
    cz_cpu_force_portable(portable);
    test_g1();
    test_g2();
  }
  cz_cpu_force_portable(false);
  return check_report_unless("test_deserialize_many", missing);
}
