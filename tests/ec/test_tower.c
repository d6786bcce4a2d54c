/* Fp6 and Fp12: ring axioms on random elements, inversion, Frobenius maps
 * against exponentiation by p^k, the cyclotomic squaring, the sparse line
 * multiplication and the 576-byte encoding. */
#include <pthread.h>
#include "rand_field.h"
#include "cuzk/fp12.h"

static cz_fp6 rand_fp6(void) {
  return (cz_fp6){check_rand_fp2(), check_rand_fp2(), check_rand_fp2()};
}
static cz_fp12 rand_fp12(void) { return (cz_fp12){rand_fp6(), rand_fp6()}; }

/* p^k as little-endian limbs (schoolbook), returns the limb count. */
static size_t p_power(uint64_t *out, size_t cap, unsigned k) {
  size_t n = 1;
  memset(out, 0, cap * sizeof *out);
  out[0] = 1;
  for (unsigned e = 0; e < k; e++) {
    uint64_t t[80] = {0};
    for (size_t i = 0; i < n; i++) {
      unsigned __int128 carry = 0;
      for (size_t j = 0; j < CZ_FP_LIMBS; j++) {
        unsigned __int128 x = (unsigned __int128)out[i] * CZ_FP_MODULUS[j] + t[i + j] + carry;
        t[i + j] = (uint64_t)x;
        carry = x >> 64;
      }
      t[i + CZ_FP_LIMBS] = (uint64_t)carry;
    }
    n += CZ_FP_LIMBS;
    memcpy(out, t, n * sizeof *out);
  }
  return n;
}

static void fp6_axioms(void) {
  const cz_fp6 v = {CZ_FP2_ZERO, CZ_FP2_ONE, CZ_FP2_ZERO};
  const cz_fp2 xi = {CZ_FP_ONE, CZ_FP_ONE};
  for (int i = 0; i < 50; i++) {
    cz_fp6 a = rand_fp6(), b = rand_fp6(), c = rand_fp6(), t1, t2, t3;
    cz_fp6_mul(&t1, &a, &b);
    cz_fp6_mul(&t2, &b, &a);
    CHECK(cz_fp6_eq(&t1, &t2));
    cz_fp6_mul(&t1, &t1, &c);
    cz_fp6_mul(&t2, &b, &c);
    cz_fp6_mul(&t2, &a, &t2);
    CHECK(cz_fp6_eq(&t1, &t2));
    cz_fp6_add(&t1, &a, &b);
    cz_fp6_mul(&t1, &t1, &c);
    cz_fp6_mul(&t2, &a, &c);
    cz_fp6_mul(&t3, &b, &c);
    cz_fp6_add(&t2, &t2, &t3);
    CHECK(cz_fp6_eq(&t1, &t2));
    cz_fp6_sub(&t1, &a, &b);
    cz_fp6_add(&t1, &t1, &b);
    CHECK(cz_fp6_eq(&t1, &a));
    cz_fp6_neg(&t1, &a);
    cz_fp6_add(&t1, &t1, &a);
    CHECK(cz_fp6_is_zero(&t1));
    cz_fp6_sqr(&t1, &a);
    cz_fp6_mul(&t2, &a, &a);
    CHECK(cz_fp6_eq(&t1, &t2));
    cz_fp6_mul_by_nonresidue(&t1, &a);
    cz_fp6_mul(&t2, &a, &v);
    CHECK(cz_fp6_eq(&t1, &t2));
    CHECK(cz_fp6_inv(&t1, &a));
    cz_fp6_mul(&t1, &t1, &a);
    CHECK(cz_fp6_eq(&t1, &CZ_FP6_ONE));
    cz_fp6_mul(&t1, &a, &CZ_FP6_ONE);
    CHECK(cz_fp6_eq(&t1, &a));
  }
  /* v^3 = xi */
  cz_fp6 t;
  cz_fp6_sqr(&t, &v);
  cz_fp6_mul(&t, &t, &v);
  CHECK(cz_fp2_eq(&t.c0, &xi) && cz_fp2_is_zero(&t.c1) && cz_fp2_is_zero(&t.c2));
  CHECK(!cz_fp6_inv(&t, &CZ_FP6_ZERO) && cz_fp6_is_zero(&t));
}

static void fp12_axioms(void) {
  const cz_fp12 w = {CZ_FP6_ZERO, CZ_FP6_ONE};
  for (int i = 0; i < 30; i++) {
    cz_fp12 a = rand_fp12(), b = rand_fp12(), c = rand_fp12(), t1, t2, t3;
    cz_fp12_mul(&t1, &a, &b);
    cz_fp12_mul(&t2, &b, &a);
    CHECK(cz_fp12_eq(&t1, &t2));
    cz_fp12_mul(&t1, &t1, &c);
    cz_fp12_mul(&t2, &b, &c);
    cz_fp12_mul(&t2, &a, &t2);
    CHECK(cz_fp12_eq(&t1, &t2));
    /* distributivity through the Fp6 halves */
    cz_fp6_add(&t1.c0, &a.c0, &b.c0);
    cz_fp6_add(&t1.c1, &a.c1, &b.c1);
    cz_fp12_mul(&t1, &t1, &c);
    cz_fp12_mul(&t2, &a, &c);
    cz_fp12_mul(&t3, &b, &c);
    cz_fp6_add(&t2.c0, &t2.c0, &t3.c0);
    cz_fp6_add(&t2.c1, &t2.c1, &t3.c1);
    CHECK(cz_fp12_eq(&t1, &t2));
    cz_fp12_sqr(&t1, &a);
    cz_fp12_mul(&t2, &a, &a);
    CHECK(cz_fp12_eq(&t1, &t2));
    CHECK(cz_fp12_inv(&t1, &a));
    cz_fp12_mul(&t1, &t1, &a);
    CHECK(cz_fp12_is_one(&t1));
    cz_fp12_mul(&t1, &a, &CZ_FP12_ONE);
    CHECK(cz_fp12_eq(&t1, &a));
    /* pow by 5 against repeated multiplication; pow by 0 is one */
    uint64_t five = 5, zero = 0;
    cz_fp12_pow(&t1, &a, &five, 1);
    t2 = a;
    for (int k = 0; k < 4; k++) cz_fp12_mul(&t2, &t2, &a);
    CHECK(cz_fp12_eq(&t1, &t2));
    cz_fp12_pow(&t1, &a, &zero, 1);
    CHECK(cz_fp12_is_one(&t1));
    /* mul_by_014 against a full multiplication by the sparse element */
    cz_fp2 c0 = check_rand_fp2(), c1 = check_rand_fp2(), c4 = check_rand_fp2();
    cz_fp12 sparse = {{c0, c1, CZ_FP2_ZERO}, {CZ_FP2_ZERO, c4, CZ_FP2_ZERO}};
    cz_fp12_mul(&t1, &a, &sparse);
    cz_fp12_mul_by_014(&t2, &a, &c0, &c1, &c4);
    CHECK(cz_fp12_eq(&t1, &t2));
    t2 = a; /* aliased output */
    cz_fp12_mul_by_014(&t2, &t2, &c0, &c1, &c4);
    CHECK(cz_fp12_eq(&t1, &t2));
    /* conj is a^(p^6) */
    cz_fp12_conj(&t1, &a);
    cz_fp12_frobenius(&t2, &a, 6);
    CHECK(cz_fp12_eq(&t1, &t2));
  }
  /* w^2 = v */
  cz_fp12 t;
  cz_fp12_sqr(&t, &w);
  const cz_fp6 v = {CZ_FP2_ZERO, CZ_FP2_ONE, CZ_FP2_ZERO};
  CHECK(cz_fp6_eq(&t.c0, &v) && cz_fp6_is_zero(&t.c1));
  cz_fp12 zero = {CZ_FP6_ZERO, CZ_FP6_ZERO};
  CHECK(!cz_fp12_inv(&t, &zero));
}

/* frobenius(k) = pow(p^k), the Frobenius coefficients' definition. */
static void frobenius(void) {
  uint64_t e[80];
  for (unsigned k = 0; k <= 12; k++) {
    size_t n = p_power(e, 80, k);
    cz_fp12 a = rand_fp12(), t1, t2;
    cz_fp12_pow(&t1, &a, e, n);
    cz_fp12_frobenius(&t2, &a, k);
    CHECK(cz_fp12_eq(&t1, &t2));
    /* Fp6 alone, embedded as c0 */
    cz_fp12 b = {rand_fp6(), CZ_FP6_ZERO};
    cz_fp6 f6;
    cz_fp12_pow(&t1, &b, e, n);
    cz_fp6_frobenius(&f6, &b.c0, k);
    CHECK(cz_fp6_eq(&t1.c0, &f6) && cz_fp6_is_zero(&t1.c1));
  }
  /* composition: frob(1) applied k times = frob(k) */
  cz_fp12 a = rand_fp12(), t1 = a, t2;
  for (unsigned k = 1; k < 12; k++) {
    cz_fp12_frobenius(&t1, &t1, 1);
    cz_fp12_frobenius(&t2, &a, k);
    CHECK(cz_fp12_eq(&t1, &t2));
  }
}

static void cyclotomic(void) {
  for (int i = 0; i < 20; i++) {
    cz_fp12 f = rand_fp12(), m, t, s1, s2;
    /* the easy part of the final exponentiation: m = f^((p^6 - 1)(p^2 + 1)) */
    CHECK(cz_fp12_inv(&t, &f));
    cz_fp12_conj(&m, &f);
    cz_fp12_mul(&m, &m, &t);
    cz_fp12_frobenius(&t, &m, 2);
    cz_fp12_mul(&m, &t, &m);
    cz_fp12_sqr(&s1, &m);
    cz_fp12_cyclotomic_sqr(&s2, &m);
    CHECK(cz_fp12_eq(&s1, &s2));
    /* in the cyclotomic subgroup conj is the inverse */
    cz_fp12_conj(&t, &m);
    cz_fp12_mul(&t, &t, &m);
    CHECK(cz_fp12_is_one(&t));
    /* a chain of squarings stays right */
    for (int k = 0; k < 5; k++) {
      cz_fp12_sqr(&s1, &s1);
      cz_fp12_cyclotomic_sqr(&s2, &s2);
    }
    CHECK(cz_fp12_eq(&s1, &s2));
  }
}

static void encoding(void) {
  static const uint8_t p_be[48] = {0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b,
                                   0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84,
                                   0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0,
                                   0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff,
                                   0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};
  uint8_t buf[576], buf2[576];
  for (int i = 0; i < 20; i++) {
    cz_fp12 a = rand_fp12(), b;
    cz_fp12_to_bytes(buf, &a);
    CHECK_EQ_INT(cz_fp12_from_bytes(&b, buf), CZ_OK);
    CHECK(cz_fp12_eq(&a, &b));
    cz_fp12_to_bytes(buf2, &b);
    CHECK_MEM(buf, buf2, sizeof buf);
  }
  /* the order: coefficient k (c0.c0.c0, c0.c0.c1, c0.c1.c0, ...) at 48 k */
  for (int k = 0; k < 12; k++) {
    cz_fp12 a = {CZ_FP6_ZERO, CZ_FP6_ZERO};
    cz_fp *coef[12] = {&a.c0.c0.c0, &a.c0.c0.c1, &a.c0.c1.c0, &a.c0.c1.c1,
                       &a.c0.c2.c0, &a.c0.c2.c1, &a.c1.c0.c0, &a.c1.c0.c1,
                       &a.c1.c1.c0, &a.c1.c1.c1, &a.c1.c2.c0, &a.c1.c2.c1};
    cz_fp_from_u64(coef[k], 0x0102 + (uint64_t)k);
    cz_fp12_to_bytes(buf, &a);
    memset(buf2, 0, sizeof buf2);
    buf2[48 * k + 46] = 0x01;
    buf2[48 * k + 47] = (uint8_t)(0x02 + k);
    CHECK_MEM(buf, buf2, sizeof buf);
  }
  /* non-canonical coefficients (= p, or all ones) are rejected anywhere */
  cz_fp12 a = rand_fp12(), b = a;
  cz_fp12_to_bytes(buf, &a);
  for (int k = 0; k < 12; k++) {
    memcpy(buf2, buf, sizeof buf);
    memcpy(buf2 + 48 * k, p_be, 48);
    CHECK_EQ_INT(cz_fp12_from_bytes(&b, buf2), CZ_ERR_NONCANONICAL);
    memset(buf2 + 48 * k, 0xff, 48);
    CHECK_EQ_INT(cz_fp12_from_bytes(&b, buf2), CZ_ERR_NONCANONICAL);
  }
  /* p - 1 is accepted */
  memcpy(buf2, buf, sizeof buf);
  memcpy(buf2 + 48 * 11, p_be, 48);
  buf2[48 * 11 + 47] -= 1;
  CHECK_EQ_INT(cz_fp12_from_bytes(&b, buf2), CZ_OK);
}

/* Every operation accepts its output aliased to an input. */
static void aliasing(void) {
  cz_fp6 a6 = rand_fp6(), b6 = rand_fp6(), w6, t6;
  cz_fp6_mul(&w6, &a6, &b6);
  t6 = a6;
  cz_fp6_mul(&t6, &t6, &b6);
  CHECK(cz_fp6_eq(&t6, &w6));
  t6 = b6;
  cz_fp6_mul(&t6, &a6, &t6);
  CHECK(cz_fp6_eq(&t6, &w6));
  cz_fp6_sqr(&w6, &a6);
  t6 = a6;
  cz_fp6_sqr(&t6, &t6);
  CHECK(cz_fp6_eq(&t6, &w6));
  cz_fp6_inv(&w6, &a6);
  t6 = a6;
  cz_fp6_inv(&t6, &t6);
  CHECK(cz_fp6_eq(&t6, &w6));
  cz_fp6_mul_by_nonresidue(&w6, &a6);
  t6 = a6;
  cz_fp6_mul_by_nonresidue(&t6, &t6);
  CHECK(cz_fp6_eq(&t6, &w6));
  cz_fp6_frobenius(&w6, &a6, 1);
  t6 = a6;
  cz_fp6_frobenius(&t6, &t6, 1);
  CHECK(cz_fp6_eq(&t6, &w6));

  cz_fp12 a = rand_fp12(), b = rand_fp12(), want, t;
  cz_fp12_mul(&want, &a, &b);
  t = a;
  cz_fp12_mul(&t, &t, &b);
  CHECK(cz_fp12_eq(&t, &want));
  t = b;
  cz_fp12_mul(&t, &a, &t);
  CHECK(cz_fp12_eq(&t, &want));
  cz_fp12_mul(&want, &a, &a);
  t = a;
  cz_fp12_mul(&t, &t, &t);
  CHECK(cz_fp12_eq(&t, &want));
  t = a;
  cz_fp12_sqr(&t, &t);
  CHECK(cz_fp12_eq(&t, &want));
  cz_fp12_inv(&want, &a);
  t = a;
  cz_fp12_inv(&t, &t);
  CHECK(cz_fp12_eq(&t, &want));
  cz_fp12_conj(&want, &a);
  t = a;
  cz_fp12_conj(&t, &t);
  CHECK(cz_fp12_eq(&t, &want));
  cz_fp12_frobenius(&want, &a, 3);
  t = a;
  cz_fp12_frobenius(&t, &t, 3);
  CHECK(cz_fp12_eq(&t, &want));
  uint64_t e[2] = {0x123456789abcdefULL, 0x77};
  cz_fp12_pow(&want, &a, e, 2);
  t = a;
  cz_fp12_pow(&t, &t, e, 2);
  CHECK(cz_fp12_eq(&t, &want));
  cz_fp12_cyclotomic_sqr(&want, &a); /* formula applied outside the subgroup: still alias-safe */
  t = a;
  cz_fp12_cyclotomic_sqr(&t, &t);
  CHECK(cz_fp12_eq(&t, &want));
}

/* The Frobenius coefficients are computed on first use: several threads
 * racing to that first use must all see the finished table. */
enum { RACE_THREADS = 4 };
static cz_fp12 race_in, race_out[RACE_THREADS];
static void *race_frobenius(void *arg) {
  cz_fp12 *out = arg;
  cz_fp12_frobenius(out, &race_in, 1);
  return NULL;
}
static void first_use_race(void) {
  pthread_t th[RACE_THREADS];
  race_in = rand_fp12();
  for (int i = 0; i < RACE_THREADS; i++)
    CHECK(pthread_create(&th[i], NULL, race_frobenius, &race_out[i]) == 0);
  for (int i = 0; i < RACE_THREADS; i++) pthread_join(th[i], NULL);
  cz_fp12 want;
  cz_fp12_pow(&want, &race_in, CZ_FP_MODULUS, CZ_FP_LIMBS);
  for (int i = 0; i < RACE_THREADS; i++) CHECK(cz_fp12_eq(&race_out[i], &want));
}

int main(void) {
  first_use_race(); /* must run before any other Frobenius call */
  aliasing();
  fp6_axioms();
  fp12_axioms();
  frobenius();
  cyclotomic();
  encoding();
  return check_report("test_tower");
}
