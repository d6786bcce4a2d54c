/* Fr arithmetic: the shared Montgomery code plus Fr's square root
 * (Tonelli-Shanks, 2-adicity 32) and its roots of unity. */
#include "cuzk/fr.h"
#include "ec/mont.h"

const uint64_t CZ_FR_MODULUS[CZ_FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                             0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const cz_fr CZ_FR_ZERO = {{0}};
const cz_fr CZ_FR_ONE = {
    {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}};
static const uint64_t FR_R2[CZ_FR_LIMBS] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL,
                                            0x05d314967254398fULL, 0x0748d9d99f59ff11ULL};
/* 7^((r-1)/2^32) in Montgomery form: a primitive 2^32-th root of unity. */
static const cz_fr FR_ROOT_OF_UNITY = {
    {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};

#define F cz_fr
#define FN(x) cz_fr_##x
#define NL CZ_FR_LIMBS
#define MOD CZ_FR_MODULUS
#define MINV 0xfffffffeffffffffULL
#define R2 FR_R2
#define ONE_C CZ_FR_ONE
#include "ec/field_impl.h"

void cz_fr_root_of_unity(cz_fr *r, unsigned log_n) {
  cz_fr w = FR_ROOT_OF_UNITY;
  for (unsigned i = log_n; i < CZ_FR_TWO_ADICITY; i++) cz_fr_sqr(&w, &w);
  *r = w;
}

/* Tonelli-Shanks with r - 1 = 2^32 * t, t odd. */
bool cz_fr_sqrt(cz_fr *r, const cz_fr *a) {
  if (cz_fr_is_zero(a)) {
    *r = *a;
    return true;
  }
  /* (t - 1) / 2 where t = (r - 1) >> 32. */
  uint64_t t[NL] = {0};
  for (int i = 0; i < NL; i++) t[i] = (MOD[i] >> 32) | (i + 1 < NL ? MOD[i + 1] << 32 : 0);
  t[0] -= 1; /* t is odd */
  for (int i = 0; i < NL; i++) t[i] = (t[i] >> 1) | (i + 1 < NL ? t[i + 1] << 63 : 0);

  cz_fr w, x, b, z = FR_ROOT_OF_UNITY; /* z: a non-residue's t-th power */
  cz_fr_pow(&w, a, t, NL);             /* w = a^((t-1)/2) */
  cz_fr_mul(&x, a, &w);                /* x = a^((t+1)/2) */
  cz_fr_mul(&b, &x, &w);               /* b = a^t */
  unsigned v = CZ_FR_TWO_ADICITY;
  while (!cz_fr_is_one(&b)) {
    unsigned k = 0;
    cz_fr b2k = b;
    while (!cz_fr_is_one(&b2k)) {
      cz_fr_sqr(&b2k, &b2k);
      if (++k == v) return false; /* a is not a square */
    }
    cz_fr w2 = z;
    for (unsigned j = 0; j < v - k - 1; j++) cz_fr_sqr(&w2, &w2);
    cz_fr_sqr(&z, &w2);
    cz_fr_mul(&b, &b, &z);
    cz_fr_mul(&x, &x, &w2);
    v = k;
  }
  *r = x;
  return true;
}

void cz_fr_to_scalar(cz_scalar *s, const cz_fr *a) { cz_fr_to_canonical(s->l, a); }

/* in = lo + 2^256 hi; result = lo*R^-1*R^2... computed as lo + hi * 2^256 mod r,
 * using Montgomery products: mont(x, R^2) = x*R, mont(x, R^3) = x*R^2. */
void cz_fr_from_wide_le(cz_fr *r, const uint8_t in[64]) {
  uint64_t lo[NL], hi[NL];
  limbs_from_bytes_le(lo, in, NL);
  limbs_from_bytes_le(hi, in + 32, NL);
  cz_fr r2 = {{FR_R2[0], FR_R2[1], FR_R2[2], FR_R2[3]}}, r3, a, b;
  cz_fr_mul(&r3, &r2, &r2); /* R^3 */
  /* lo, hi may exceed r; mont_mul only needs inputs < 2^256 with r's spare bit. */
  mont_mul(a.l, lo, r2.l, MOD, MINV, NL); /* lo * R   (mod r, < 2r reduced) */
  mont_mul(b.l, hi, r3.l, MOD, MINV, NL); /* hi * R^2 = (hi * 2^256) * R */
  cz_fr_add(r, &a, &b);
}
