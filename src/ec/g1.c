/* G1 = E(Fp): y^2 = x^3 + 4, instantiated from curve_impl.h, with the GLV
 * endomorphism for scalar multiplication and subgroup checks.
 * Constants: tests/vectors-gen/curve_consts.py derives and checks them. */
#include "cuzk/g1.h"
#include "ec/mont.h"
#include "ec/fp_inline.h"

const cz_g1_affine CZ_G1_GENERATOR = {
    {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL, 0xf0ae6acdf3d0e747ULL,
      0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
    {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL, 0x51ac582950405194ULL,
      0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}}};

static const cz_fp G1_B = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                            0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

#define F cz_fp
#define FF(x) fpi_##x
#define F_ZERO CZ_FP_ZERO
#define F_ONE CZ_FP_ONE
#define CURVE_B G1_B
#define AFF cz_g1_affine
#define JAC cz_g1
#define XYZZ cz_g1_xyzz
#define GN(x) cz_g1_##x
#include "ec/curve_impl.h"

/* phi(x, y) = (beta x, y) with beta a cube root of unity in Fp. With
 * BETA_LAMBDA, phi = [lambda] on G1 where lambda = z^2 - 1 and
 * lambda^2 + lambda + 1 = r exactly; with BETA_MINUS_Z2 = BETA_LAMBDA^2,
 * phi = [-z^2] = [lambda^2], the form Bowe's subgroup test is stated in. */
static const cz_fp BETA_LAMBDA = {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL,
                                   0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
                                   0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}};
static const cz_fp BETA_MINUS_Z2 = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL,
                                     0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
                                     0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};
static const cz_u128 GLV_LAMBDA = ((cz_u128)0xac45a4010001a402ULL << 64) | 0x00000000ffffffffULL;
#define Z_ABS 0xd201000000010000ULL /* the BLS parameter is z = -Z_ABS */

/* wNAF widths, measured (CPU time of cz_g1_mul over random 254-bit
 * scalars, w = 3..6): w = 5 was fastest for the two 128-bit GLV halves and
 * for the plain 256-bit loop. GLV is ~1.5x faster than plain. */
#ifndef G1_WNAF_W
#define G1_WNAF_W 5
#endif
#ifndef G1_PLAIN_WNAF_W
#define G1_PLAIN_WNAF_W 5
#endif
_Static_assert(G1_WNAF_W >= 2 && G1_WNAF_W <= WNAF_MAX_W && G1_PLAIN_WNAF_W >= 2 &&
                   G1_PLAIN_WNAF_W <= WNAF_MAX_W,
               "wNAF tables are sized for WNAF_MAX_W");

/* k = k0 + k1 lambda with 0 <= k0 < lambda and k1 = floor(k / lambda) <=
 * lambda + 1, so both halves fit in 128 bits (k < r = lambda^2 + lambda + 1).
 * Bitwise long division: a few hundred ns, negligible beside the point work. */
static void glv_split(uint64_t k0[2], uint64_t k1[2], const uint64_t k[4]) {
  cz_u128 rem = 0, q = 0;
  for (int bit = 255; bit >= 0; bit--) {
    bool top = (uint64_t)(rem >> 127) != 0; /* rem << 1 overflows 128 bits */
    rem = (rem << 1) | ((k[bit >> 6] >> (bit & 63)) & 1);
    q <<= 1;
    if (top || rem >= GLV_LAMBDA) {
      rem -= GLV_LAMBDA; /* exact modulo 2^128: the true value is < lambda */
      q |= 1;
    }
  }
  k0[0] = (uint64_t)rem;
  k0[1] = (uint64_t)(rem >> 64);
  k1[0] = (uint64_t)q;
  k1[1] = (uint64_t)(q >> 64);
}

void cz_g1_mul(cz_g1 *r, const cz_g1 *p, const cz_scalar *k) {
  uint64_t kr[4], halves[2][2];
  cz_g1_scalar_reduce(kr, k->l);
  glv_split(halves[0], halves[1], kr);
  cz_g1 tables[2][WNAF_TABLE_MAX];
  int8_t digits[2][257];
  int lens[2];
  for (int i = 0; i < 2; i++) lens[i] = cz_g1_wnaf_recode(digits[i], halves[i], 2, G1_WNAF_W);
  cz_g1_odd_multiples(tables[0], p, G1_WNAF_W);
  for (int j = 0; j < (1 << (G1_WNAF_W - 2)); j++) {
    cz_fp_mul(&tables[1][j].x, &tables[0][j].x, &BETA_LAMBDA);
    tables[1][j].y = tables[0][j].y;
    tables[1][j].z = tables[0][j].z;
  }
  cz_g1_wnaf_straus(r, tables, 2, digits, lens);
}

void cz_g1_mul_fr(cz_g1 *r, const cz_g1 *p, const cz_fr *k) {
  cz_scalar s;
  cz_fr_to_scalar(&s, k);
  cz_g1_mul(r, p, &s);
}

void cz_g1_mul_plain(cz_g1 *r, const cz_g1 *p, const cz_scalar *k) {
  cz_g1_mul_wnaf_plain(r, p, k->l, G1_PLAIN_WNAF_W);
}

/* Bowe, "Faster subgroup checks for BLS12-381" (ePrint 2019/814): a point
 * P of E(Fp) is in G1 iff phi(P) = [-z^2] P for the phi with that
 * eigenvalue. [z^2] P = [Z_ABS]([Z_ABS] P). */
bool cz_g1_affine_is_in_subgroup(const cz_g1_affine *p) {
  if (cz_g1_aff_is_id(p)) return true;
  cz_g1 pj, t, phi;
  cz_g1_from_affine(&pj, p);
  cz_g1_mul_u64(&t, &pj, Z_ABS);
  cz_g1_mul_u64(&t, &t, Z_ABS);
  cz_g1_neg(&t, &t);
  cz_fp_mul(&phi.x, &p->x, &BETA_MINUS_Z2);
  phi.y = p->y;
  phi.z = CZ_FP_ONE;
  return cz_g1_eq(&t, &phi);
}

#define F_BYTES CZ_FP_BYTES
#define F_TO_BYTES cz_fp_to_bytes_be
/* a square root of either sign: decoding picks the sign itself */
#define F_SQRT_ANY cz_fp_sqrt
#define F_FROM_BYTES cz_fp_from_bytes_be
#include "ec/curve_encoding_impl.h"
