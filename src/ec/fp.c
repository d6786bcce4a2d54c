/* Fp arithmetic: the shared Montgomery code plus Fp's own square root. */
#include "cuzk/fp.h"
#include "ec/mont.h"

const uint64_t CZ_FP_MODULUS[CZ_FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                             0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                             0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
const cz_fp CZ_FP_ZERO = {{0}};
const cz_fp CZ_FP_ONE = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                          0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};
static const uint64_t FP_R2[CZ_FP_LIMBS] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL,
                                            0x8de5476c4c95b6d5ULL, 0x67eb88a9939d83c0ULL,
                                            0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};

#define F cz_fp
#define FN(x) cz_fp_##x
#define NL CZ_FP_LIMBS
#define MOD CZ_FP_MODULUS
#define MINV 0x89f3fffcfffcfffdULL
#define R2 FP_R2
#define ONE_C CZ_FP_ONE
#include "ec/field_impl.h"

/* p = 3 mod 4, so sqrt(a) = a^((p+1)/4) when a is a square. */
bool cz_fp_sqrt(cz_fp *r, const cz_fp *a) {
  uint64_t e[NL];
  uint64_t carry = 1;
  for (int i = 0; i < NL; i++) {
    e[i] = MOD[i] + carry;
    carry = e[i] < carry;
  }
  for (int i = 0; i < NL; i++) e[i] = (e[i] >> 2) | (i + 1 < NL ? e[i + 1] << 62 : 0);
  cz_fp s, check;
  cz_fp_pow(&s, a, e, NL);
  cz_fp_sqr(&check, &s);
  if (!cz_fp_eq(&check, a)) return false;
  *r = s;
  return true;
}

bool cz_fp_is_lexicographically_largest(const cz_fp *a) {
  /* (p-1)/2 as canonical limbs. */
  static const uint64_t half[NL] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                    0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                    0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
  uint64_t c[NL];
  cz_fp_to_canonical(c, a);
  return limbs_lt(half, c, NL);
}
