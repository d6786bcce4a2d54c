/* The setup's fixed-base multiplication (src/groth16/fixed_base.c) against
 * cz_g1_mul_fr / cz_g2_mul_fr, byte for byte, at every signed window width,
 * across batch chunks and thread splits, on edge scalars. */
#include "check.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "groth16/g16_internal.h"
#include "rand_field.h"

/* Scalars the recoding must get right: 0, 1, 2, r - 1, r - 2, the powers
 * 2^b and 2^b - 1 around window edges, and r - 2 (r mod 2^252), whose
 * partial sum before the top window equals the top table point for
 * w in {4, 6, 7, 9, 12, 14} (checked with a Python model of the recoding):
 * the batched addition then meets x1 = x2 and must double instead. */
static size_t edge_scalars(cz_fr *k) {
  size_t n = 0;
  k[n++] = CZ_FR_ZERO;
  k[n++] = CZ_FR_ONE;
  cz_fr_from_u64(&k[n++], 2);
  cz_fr_neg(&k[n++], &CZ_FR_ONE);
  cz_fr_neg(&k[n], &k[2]);
  n++;
  for (unsigned b = 1; b < 255; b += 7) {
    uint64_t p[4] = {0, 0, 0, 0};
    p[b / 64] = (uint64_t)1 << (b % 64);
    cz_fr_from_canonical(&k[n++], p);
    cz_fr one_less;
    cz_fr_sub(&one_less, &k[n - 1], &CZ_FR_ONE);
    k[n++] = one_less;
  }
  /* r mod 2^252 = r with the top 4 bits cleared; k = -2 (r mod 2^252). */
  uint64_t low[4];
  memcpy(low, CZ_FR_MODULUS, sizeof low);
  low[3] &= ((uint64_t)1 << 60) - 1;
  cz_fr t;
  cz_fr_from_canonical(&t, low);
  cz_fr_add(&t, &t, &t);
  cz_fr_neg(&k[n++], &t);
  return n;
}

static void check_g1(const cz_g1_affine *base, const cz_fr *k, size_t n, unsigned w,
                     unsigned threads) {
  cz_g1_affine *out = malloc(n * sizeof *out);
  CHECK_EQ_INT(cz_g16_fixed_base_g1_window(out, base, k, n, w, threads), CZ_OK);
  cz_g1 b;
  cz_g1_from_affine(&b, base);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    cz_g1 e;
    cz_g1_affine ea;
    cz_g1_mul_fr(&e, &b, &k[i]);
    cz_g1_to_affine(&ea, &e);
    if (memcmp(&ea, &out[i], sizeof ea)) bad++;
  }
  if (bad) fprintf(stderr, "g1 w=%u threads=%u: %zu of %zu wrong\n", w, threads, bad, n);
  CHECK_EQ_INT(bad, 0);
  free(out);
}

static void check_g2(const cz_g2_affine *base, const cz_fr *k, size_t n, unsigned w,
                     unsigned threads) {
  cz_g2_affine *out = malloc(n * sizeof *out);
  CHECK_EQ_INT(cz_g16_fixed_base_g2_window(out, base, k, n, w, threads), CZ_OK);
  cz_g2 b;
  cz_g2_from_affine(&b, base);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    cz_g2 e;
    cz_g2_affine ea;
    cz_g2_mul_fr(&e, &b, &k[i]);
    cz_g2_to_affine(&ea, &e);
    if (memcmp(&ea, &out[i], sizeof ea)) bad++;
  }
  if (bad) fprintf(stderr, "g2 w=%u threads=%u: %zu of %zu wrong\n", w, threads, bad, n);
  CHECK_EQ_INT(bad, 0);
  free(out);
}

int main(void) {
  enum { N_BIG = 1024 + 77, N_SMALL = 160 }; /* past one batch chunk (1024) */
  cz_fr *k = malloc(N_BIG * sizeof *k);
  size_t ne = edge_scalars(k);
  for (size_t i = ne; i < N_BIG; i++) k[i] = check_rand_fr();
  /* Bases: the generators and a multiple of them (any point must work). */
  cz_g1_affine g1[2] = {CZ_G1_GENERATOR};
  cz_g2_affine g2[2] = {CZ_G2_GENERATOR};
  {
    cz_fr s = check_rand_fr();
    cz_g1 j1;
    cz_g2 j2;
    cz_g1_from_affine(&j1, &g1[0]);
    cz_g1_mul_fr(&j1, &j1, &s);
    cz_g1_to_affine(&g1[1], &j1);
    cz_g2_from_affine(&j2, &g2[0]);
    cz_g2_mul_fr(&j2, &j2, &s);
    cz_g2_to_affine(&g2[1], &j2);
  }
  for (unsigned w = 1; w <= 14; w++) check_g1(&g1[w & 1], k, N_SMALL, w, 1 + (w & 1));
  check_g1(&g1[0], k, N_BIG, 13, 2);
  check_g1(&g1[1], k, N_BIG, 4, 1);
  const unsigned g2_w[] = {1, 3, 4, 6, 7, 8, 9, 12};
  for (size_t i = 0; i < sizeof g2_w / sizeof *g2_w; i++)
    check_g2(&g2[i & 1], k, N_SMALL, g2_w[i], 1 + (unsigned)(i & 1));
  check_g2(&g2[1], k, N_BIG, 9, 2);

  /* The automatic choice, as the setup calls it, and the refused widths. */
  {
    cz_g1_affine *o1 = malloc(N_BIG * sizeof *o1);
    cz_g1_affine *o2 = malloc(N_BIG * sizeof *o2);
    CHECK_EQ_INT(cz_g16_fixed_base_g1(o1, &g1[0], k, N_BIG, 2), CZ_OK);
    CHECK_EQ_INT(cz_g16_fixed_base_g1_window(o2, &g1[0], k, N_BIG, 6, 1), CZ_OK);
    CHECK_MEM(o1, o2, N_BIG * sizeof *o1);
    CHECK_EQ_INT(cz_g16_fixed_base_g1_window(o2, &g1[0], k, 4, 0, 1), CZ_ERR_INVALID_ARG);
    CHECK_EQ_INT(cz_g16_fixed_base_g1_window(o2, &g1[0], k, 4, 17, 1), CZ_ERR_INVALID_ARG);
    CHECK_EQ_INT(cz_g16_fixed_base_g1(o2, &g1[0], k, 0, 1), CZ_OK);
    free(o1);
    free(o2);
  }
  free(k);
  return check_report("test_fixed_base");
}
