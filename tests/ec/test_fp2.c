/* Fp2: field axioms, inversion, square roots and the sign rule. */
#include "check.h"
#include "cuzk/fp2.h"

static cz_fp2 rand_fp2(void) {
  uint8_t b[48];
  cz_fp2 r;
  check_rand_bytes(b, 48); b[0] &= 0x0f; cz_fp_from_bytes_be(&r.c0, b);
  check_rand_bytes(b, 48); b[0] &= 0x0f; cz_fp_from_bytes_be(&r.c1, b);
  return r;
}

int main(void) {
  for (int i = 0; i < 100; i++) {
    cz_fp2 a = rand_fp2(), b = rand_fp2(), c = rand_fp2(), t1, t2, t3;
    cz_fp2_add(&t1, &a, &b); cz_fp2_mul(&t1, &t1, &c);
    cz_fp2_mul(&t2, &a, &c); cz_fp2_mul(&t3, &b, &c); cz_fp2_add(&t2, &t2, &t3);
    CHECK(cz_fp2_eq(&t1, &t2));
    cz_fp2_sqr(&t1, &a); cz_fp2_mul(&t2, &a, &a);
    CHECK(cz_fp2_eq(&t1, &t2));
    CHECK(cz_fp2_inv(&t1, &a)); cz_fp2_mul(&t1, &t1, &a);
    CHECK(cz_fp2_is_one(&t1));
    /* u^2 = -1 */
    cz_fp2 u = {CZ_FP_ZERO, CZ_FP_ONE}, m1;
    cz_fp2_sqr(&t1, &u); cz_fp2_neg(&m1, &CZ_FP2_ONE);
    CHECK(cz_fp2_eq(&t1, &m1));
    /* mul_by_nonresidue = mul by (1 + u) */
    cz_fp2 nr = {CZ_FP_ONE, CZ_FP_ONE};
    cz_fp2_mul(&t1, &a, &nr); cz_fp2_mul_by_nonresidue(&t2, &a);
    CHECK(cz_fp2_eq(&t1, &t2));
    /* conj = Frobenius: a^p */
    cz_fp2_pow(&t1, &a, CZ_FP_MODULUS, CZ_FP_LIMBS); cz_fp2_conj(&t2, &a);
    CHECK(cz_fp2_eq(&t1, &t2));
    cz_fp2_sqr(&t1, &a);
    CHECK(cz_fp2_is_square(&t1));
    CHECK(cz_fp2_sqrt(&t2, &t1)); cz_fp2_sqr(&t3, &t2);
    CHECK(cz_fp2_eq(&t3, &t1));
    /* a square times a non-residue is not a square; (1+u) is a non-residue. */
    cz_fp2_mul(&t1, &t1, &nr);
    CHECK(!cz_fp2_is_square(&t1) && !cz_fp2_sqrt(&t2, &t1));
    /* exactly one of a, -a is lexicographically largest (a != 0) */
    cz_fp2_neg(&t1, &a);
    CHECK(cz_fp2_is_lexicographically_largest(&a) != cz_fp2_is_lexicographically_largest(&t1));
  }
  /* sqrt of pure-imaginary and real non-square-in-Fp elements */
  cz_fp2 a = {CZ_FP_ZERO, CZ_FP_ONE}, s, t;
  CHECK(cz_fp2_sqrt(&s, &a)); cz_fp2_sqr(&t, &s); CHECK(cz_fp2_eq(&t, &a));
  cz_fp2 m1; cz_fp2_neg(&m1, &CZ_FP2_ONE);
  CHECK(cz_fp2_sqrt(&s, &m1)); cz_fp2_sqr(&t, &s); CHECK(cz_fp2_eq(&t, &m1));
  return check_report("test_fp2");
}
