/* Deterministic random field elements for tests, drawn from check.h's
 * generator so that failures reproduce. */
#ifndef CUZK_TESTS_RAND_FIELD_H
#define CUZK_TESTS_RAND_FIELD_H
#include "check.h"
#include "cuzk/fp2.h"
#include "cuzk/fr.h"

/* Uniform enough for tests: 380 random bits are always below p. */
static inline cz_fp check_rand_fp(void) {
  uint8_t b[48];
  check_rand_bytes(b, sizeof b);
  b[0] &= 0x0f;
  cz_fp r;
  CHECK(cz_fp_from_bytes_be(&r, b) == CZ_OK);
  return r;
}

static inline cz_fp2 check_rand_fp2(void) {
  cz_fp2 r;
  r.c0 = check_rand_fp(); /* sequenced: initializer order is unspecified */
  r.c1 = check_rand_fp();
  return r;
}

/* 512 random bits reduced mod r. */
static inline cz_fr check_rand_fr(void) {
  uint8_t b[64];
  check_rand_bytes(b, sizeof b);
  cz_fr r;
  cz_fr_from_wide_le(&r, b);
  return r;
}

/* [k]G for a random k: a random point of the G1 subgroup (needs cuzk/g1.h). */
#ifdef CUZK_G1_H
static inline cz_g1_affine check_rand_g1_affine(void) {
  cz_fr k = check_rand_fr();
  cz_g1 g, p;
  cz_g1_affine a;
  cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
  cz_g1_mul_fr(&p, &g, &k);
  cz_g1_to_affine(&a, &p);
  return a;
}
#endif

/* The same in G2 (needs cuzk/g2.h). */
#ifdef CUZK_G2_H
static inline cz_g2_affine check_rand_g2_affine(void) {
  cz_fr k = check_rand_fr();
  cz_g2 g, p;
  cz_g2_affine a;
  cz_g2_from_affine(&g, &CZ_G2_GENERATOR);
  cz_g2_mul_fr(&p, &g, &k);
  cz_g2_to_affine(&a, &p);
  return a;
}
#endif

#endif
