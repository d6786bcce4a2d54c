/* G2 = E'(Fp2): y^2 = x^3 + 4(1 + u), instantiated from curve_impl.h, with
 * the psi endomorphism (untwist-Frobenius-twist) for scalar multiplication
 * and subgroup checks.
 * Constants: tests/vectors-gen/curve_consts.py derives and checks them. */
#include "cuzk/g2.h"
#include "ec/mont.h"
#include "ec/fp_inline.h"

const cz_g2_affine CZ_G2_GENERATOR = {
    {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL, 0x9894999d1a3caee9ULL,
       0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
     {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL, 0x1b1ab6cc8541b367ULL,
       0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}},
    {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL, 0xbbefb5e96e0d495fULL,
       0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
     {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL, 0x79495c4ec93da33aULL,
       0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}}};

/* b = 4 + 4u */
static const cz_fp2 G2_B = {{{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                              0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}},
                            {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                              0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL,
                              0x09d645513d83de7eULL}}};

#define F cz_fp2
#define FF(x) fp2i_##x
#define F_ZERO CZ_FP2_ZERO
#define F_ONE CZ_FP2_ONE
#define CURVE_B G2_B
#define AFF cz_g2_affine
#define JAC cz_g2
#define XYZZ cz_g2_xyzz
#define GN(x) cz_g2_##x
#include "ec/curve_impl.h"

/* psi(x, y) = (cx conj(x), cy conj(y)), cx = 1/(1+u)^((p-1)/3),
 * cy = 1/(1+u)^((p-1)/2). psi acts as [z] = [p mod r] on G2. cx is purely
 * imaginary, cx = PSI_CX1 u, so cx conj(a0 + a1 u) = PSI_CX1 (a1 + a0 u). */
static const cz_fp PSI_CX1 = {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                               0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL,
                               0x14e56d3f1564853aULL}};
static const cz_fp2 PSI_CY = {
    {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
      0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
    {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
      0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}};
#define Z_ABS 0xd201000000010000ULL /* the BLS parameter is z = -Z_ABS */

/* Frobenius commutes with the projective scaling, so on Jacobian
 * coordinates psi is (cx conj(X), cy conj(Y), conj(Z)). */
static void psi(cz_g2 *r, const cz_g2 *p) {
  cz_fp x0 = p->x.c0;
  cz_fp_mul(&r->x.c0, &p->x.c1, &PSI_CX1);
  cz_fp_mul(&r->x.c1, &x0, &PSI_CX1);
  cz_fp2_conj(&r->y, &p->y);
  cz_fp2_mul(&r->y, &r->y, &PSI_CY);
  cz_fp2_conj(&r->z, &p->z);
}

/* wNAF widths, measured like G1's (w = 3..6): w = 5 was fastest both for
 * the four 64-bit psi components and for the plain loop; the psi split is
 * ~1.9x faster than plain wNAF. */
#ifndef G2_WNAF_W
#define G2_WNAF_W 5
#endif
#ifndef G2_PLAIN_WNAF_W
#define G2_PLAIN_WNAF_W 5
#endif
_Static_assert(G2_WNAF_W >= 2 && G2_WNAF_W <= WNAF_MAX_W && G2_PLAIN_WNAF_W >= 2 &&
                   G2_PLAIN_WNAF_W <= WNAF_MAX_W,
               "wNAF tables are sized for WNAF_MAX_W");

/* k = a0 + a1 |z| + a2 |z|^2 + a3 |z|^3 with 0 <= ai < |z| < 2^64 (k < r
 * < |z|^4). Since -psi = [|z|] on G2, k P = sum ai (-psi)^i P. */
static void gls_split(uint64_t a[4], const uint64_t k[4]) {
  uint64_t t[4] = {k[0], k[1], k[2], k[3]};
  for (int i = 0; i < 4; i++) {
    cz_u128 rem = 0;
    for (int l = 3; l >= 0; l--) {
      cz_u128 cur = (rem << 64) | t[l];
      t[l] = (uint64_t)(cur / Z_ABS);
      rem = cur % Z_ABS;
    }
    a[i] = (uint64_t)rem;
  }
}

void cz_g2_mul(cz_g2 *r, const cz_g2 *p, const cz_scalar *k) {
  uint64_t kr[4], a[4];
  cz_g2_scalar_reduce(kr, k->l);
  gls_split(a, kr);
  cz_g2 tables[4][WNAF_TABLE_MAX];
  int8_t digits[4][257];
  int lens[4];
  for (int i = 0; i < 4; i++) lens[i] = cz_g2_wnaf_recode(digits[i], &a[i], 1, G2_WNAF_W);
  cz_g2_odd_multiples(tables[0], p, G2_WNAF_W);
  for (int i = 1; i < 4; i++)
    for (int j = 0; j < (1 << (G2_WNAF_W - 2)); j++) {
      psi(&tables[i][j], &tables[i - 1][j]);
      cz_g2_neg(&tables[i][j], &tables[i][j]);
    }
  cz_g2_wnaf_straus(r, tables, 4, digits, lens);
}

void cz_g2_mul_fr(cz_g2 *r, const cz_g2 *p, const cz_fr *k) {
  cz_scalar s;
  cz_fr_to_scalar(&s, k);
  cz_g2_mul(r, p, &s);
}

void cz_g2_mul_plain(cz_g2 *r, const cz_g2 *p, const cz_scalar *k) {
  cz_g2_mul_wnaf_plain(r, p, k->l, G2_PLAIN_WNAF_W);
}

/* Scott, "A note on group membership tests for G1, G2 and GT on BLS
 * pairing-friendly curves" (ePrint 2021/1130): P in E'(Fp2) is in G2 iff
 * psi(P) = [z] P. */
bool cz_g2_affine_is_in_subgroup(const cz_g2_affine *p) {
  if (cz_g2_aff_is_id(p)) return true;
  cz_g2 pj, t, ps;
  cz_g2_from_affine(&pj, p);
  cz_g2_mul_u64(&t, &pj, Z_ABS);
  cz_g2_neg(&t, &t);
  psi(&ps, &pj);
  return cz_g2_eq(&t, &ps);
}

/* zcash writes an Fp2 coordinate as c1 then c0, each 48 bytes big-endian. */
static void fp2_to_bytes(uint8_t out[2 * CZ_FP_BYTES], const cz_fp2 *a) {
  cz_fp_to_bytes_be(out, &a->c1);
  cz_fp_to_bytes_be(out + CZ_FP_BYTES, &a->c0);
}
static cz_err fp2_from_bytes(cz_fp2 *a, const uint8_t in[2 * CZ_FP_BYTES]) {
  cz_err e = cz_fp_from_bytes_be(&a->c1, in);
  if (e == CZ_OK) e = cz_fp_from_bytes_be(&a->c0, in + CZ_FP_BYTES);
  return e;
}

#define F_BYTES (2 * CZ_FP_BYTES)
#define F_TO_BYTES fp2_to_bytes
/* a square root of either sign: decoding picks the sign itself */
#define F_SQRT_ANY cz_fp2_sqrt_any
#define F_FROM_BYTES fp2_from_bytes
#include "ec/curve_encoding_impl.h"
