/* The update's challenges, phi / rho and public inputs (snap_challenge.c).
 *
 * Challenges: storage-proofs-update challenges.rs
 * test_challenges_against_hardcoded (rust-fil-proofs 87348a74): comm_r_new
 * = TreeRDomain::random(XorShiftRng::from_seed(TEST_SEED)) and the first 5
 * challenges of partition k for every sector size. Matching them checks
 * Poseidon with the custom tag Arbitrary(1), the digest indices and the bit
 * extraction at once. The rng and Fr::random are rebuilt here from
 * rand_xorshift 0.3 (xorshift128, next_u64 = low u32 then high u32) and
 * blstrs 0.7 (Scalar::random: rejection sampling of 255-bit values).
 * k_and_h_select: a 32 GiB example (h = 10: k + 128) and
 * circuit.rs PublicInputs::new. */
#include <string.h>

#include "check.h"
#include "cuzk/snap.h"

typedef struct {
  uint32_t x, y, z, w;
} xorshift;

static uint32_t xs_next_u32(xorshift *r) {
  uint32_t t = r->x ^ (r->x << 11);
  r->x = r->y;
  r->y = r->z;
  r->z = r->w;
  r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
  return r->w;
}

static uint64_t xs_next_u64(xorshift *r) {
  uint64_t lo = xs_next_u32(r);
  return (uint64_t)xs_next_u32(r) << 32 | lo;
}

/* Scalar::random: rejection sampling of 4 next_u64 limbs (little-endian)
 * with the top bit masked off (REPR_SHAVE_BITS = 1), kept when below r. */
static void fr_random(cz_fr *out, xorshift *r) {
  for (;;) {
    uint8_t b[32];
    for (int i = 0; i < 4; i++) {
      uint64_t v = xs_next_u64(r);
      for (int j = 0; j < 8; j++) b[8 * i + j] = (uint8_t)(v >> (8 * j));
    }
    b[31] &= 0x7f;
    if (cz_fr_from_bytes_le(out, b) == CZ_OK) return;
  }
}

static void test_hardcoded(void) {
  static const uint8_t seed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                   0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};
  uint32_t s32[4];
  for (int i = 0; i < 4; i++)
    s32[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
             (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
  xorshift rng = {s32[0], s32[1], s32[2], s32[3]};
  cz_fr comm_r_new;
  fr_random(&comm_r_new, &rng);
  static const struct {
    uint64_t nodes;
    uint32_t k, c[5];
  } v[] = {
      {1 << 5, 0, {21, 7, 3, 31, 0}},
      {1 << 6, 0, {53, 51, 56, 3, 0}},
      {1 << 7, 0, {117, 25, 62, 0, 72}},
      {1 << 8, 0, {245, 140, 15, 128, 28}},
      {1 << 9, 0, {245, 140, 15, 128, 28}},
      {1 << 9, 1, {286, 308, 493, 510, 508}},
      {1 << 10, 0, {245, 454, 3, 400, 193}},
      {1 << 10, 1, {542, 666, 955, 927, 911}},
      {1 << 18, 0, {36085, 32783, 44060, 10950, 3731}},
      {1 << 18, 1, {78878, 130797, 112892, 93994, 78379}},
      {1 << 19, 0, {101621, 16391, 109319, 25944, 41193}},
      {1 << 19, 1, {209950, 163702, 175679, 224741, 197410}},
      {1 << 24, 0, {1019125, 116736, 706220, 59698, 799498}},
      {1 << 24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {1 << 24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {1 << 24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {1ull << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {1ull << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {1ull << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {1ull << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {1ull << 31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {1ull << 31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {1ull << 31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {1ull << 31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    cz_snap_shape s;
    CHECK(cz_snap_shape_of(v[i].nodes, &s));
    uint32_t got[86];
    CHECK(cz_snap_challenges(&s, &comm_r_new, v[i].k, got) == CZ_OK);
    bool same = memcmp(got, v[i].c, sizeof v[i].c) == 0;
    CHECK(same);
    if (!same)
      fprintf(stderr, "nodes %llu k %u: got %u %u %u %u %u\n", (unsigned long long)v[i].nodes,
              v[i].k, got[0], got[1], got[2], got[3], got[4]);
    /* challenges.rs test_challenge_bucketing: all within partition k. */
    uint64_t per = v[i].nodes / s.partitions;
    for (uint32_t n = 0; n < s.challenges; n++) CHECK(got[n] / per == v[i].k);
  }
  cz_snap_shape s;
  cz_snap_shape_of(1 << 6, &s);
  uint32_t got[10];
  CHECK(cz_snap_challenges(&s, &comm_r_new, 1, got) == CZ_ERR_INVALID_ARG);
}

static void test_k_and_h_select(void) {
  const cz_registered_snap *k32 = cz_registered_snap_by_id(3);
  uint64_t kh;
  for (uint32_t k = 0; k < 16; k++) {
    CHECK(cz_snap_k_and_h_select(&k32->shape, k, 10, &kh) == CZ_OK);
    CHECK_EQ_INT(kh, k + 128);
  }
  /* h = 7 is hs[0]: h_select 1 above the 4 partition bits. */
  CHECK(cz_snap_k_and_h_select(&k32->shape, 3, 7, &kh) == CZ_OK);
  CHECK_EQ_INT(kh, 3 + 16);
  CHECK(cz_snap_k_and_h_select(&k32->shape, 16, 10, &kh) == CZ_ERR_INVALID_ARG);
  CHECK(cz_snap_k_and_h_select(&k32->shape, 0, 13, &kh) == CZ_ERR_INVALID_ARG);
  /* 2 KiB: one partition (no partition bits), hs = [1; 6], h = 1 -> 1. */
  const cz_registered_snap *k2 = cz_registered_snap_by_id(0);
  CHECK(cz_snap_k_and_h_select(&k2->shape, 0, 1, &kh) == CZ_OK);
  CHECK_EQ_INT(kh, 1);
  /* 8 MiB: 4 partitions, h = 10 = hs[3]: k + (8 << 2). */
  CHECK(cz_snap_k_and_h_select(&cz_registered_snap_by_id(1)->shape, 2, 10, &kh) == CZ_OK);
  CHECK_EQ_INT(kh, 2 + 32);
}

static void test_public_inputs(void) {
  const cz_registered_snap *k = cz_registered_snap_by_id(1);
  uint8_t a[32] = {1}, b[32] = {2}, c[32] = {3}, bad[32];
  memset(bad, 0xff, 32);
  cz_fr out[CZ_SNAP_PUBLIC_INPUTS], want;
  char msg[160];
  CHECK(cz_snap_public_inputs(&k->shape, 3, 10, &(cz_snap_comms){a, b, c}, out, msg, sizeof msg) ==
        CZ_OK);
  cz_fr_from_u64(&want, 3 + 32);
  CHECK(cz_fr_eq(&out[0], &want));
  cz_fr_from_u64(&want, 1);
  CHECK(cz_fr_eq(&out[1], &want));
  cz_fr_from_u64(&want, 3);
  CHECK(cz_fr_eq(&out[3], &want));
  CHECK(cz_snap_public_inputs(&k->shape, 3, 10, &(cz_snap_comms){a, bad, c}, out, msg,
                              sizeof msg) == CZ_ERR_NONCANONICAL);
  CHECK(strncmp(msg, "comm_d_new:", 11) == 0);
  CHECK(cz_snap_public_inputs(&k->shape, 4, 10, &(cz_snap_comms){a, b, c}, out, msg, sizeof msg) ==
        CZ_ERR_INVALID_ARG);
}

int main(void) {
  test_hardcoded();
  test_k_and_h_select();
  test_public_inputs();
  return check_report("test_snap_challenge");
}
