/* Fp and Fr: field axioms, inversion, square roots, byte encodings and
 * roots of unity on random elements, on the portable and ADX paths alike. */
#include "check.h"
#include "cuzk/cpu.h"
#include "cuzk/fp.h"
#include "cuzk/fr.h"

static cz_fp rand_fp(void) {
  uint8_t b[48];
  check_rand_bytes(b, sizeof b);
  b[0] &= 0x0f; /* below p */
  cz_fp r;
  cz_fp_from_bytes_be(&r, b);
  return r;
}

static cz_fr rand_fr(void) {
  uint8_t b[64];
  check_rand_bytes(b, sizeof b);
  cz_fr r;
  cz_fr_from_wide_le(&r, b);
  return r;
}

static void fp_axioms(void) {
  for (int i = 0; i < 200; i++) {
    cz_fp a = rand_fp(), b = rand_fp(), c = rand_fp(), t1, t2, t3;
    cz_fp_add(&t1, &a, &b); cz_fp_mul(&t1, &t1, &c);
    cz_fp_mul(&t2, &a, &c); cz_fp_mul(&t3, &b, &c); cz_fp_add(&t2, &t2, &t3);
    CHECK(cz_fp_eq(&t1, &t2));
    cz_fp_sub(&t1, &a, &b); cz_fp_add(&t1, &t1, &b);
    CHECK(cz_fp_eq(&t1, &a));
    cz_fp_neg(&t1, &a); cz_fp_add(&t1, &t1, &a);
    CHECK(cz_fp_is_zero(&t1));
    cz_fp_sqr(&t1, &a); cz_fp_mul(&t2, &a, &a);
    CHECK(cz_fp_eq(&t1, &t2));
    cz_fp_dbl(&t1, &a); cz_fp_add(&t2, &a, &a);
    CHECK(cz_fp_eq(&t1, &t2));
    CHECK(cz_fp_inv(&t1, &a)); cz_fp_mul(&t1, &t1, &a);
    CHECK(cz_fp_is_one(&t1));
    cz_fp_sqr(&t1, &a);
    CHECK(cz_fp_is_square(&t1));
    CHECK(cz_fp_sqrt(&t2, &t1)); cz_fp_sqr(&t2, &t2);
    CHECK(cz_fp_eq(&t1, &t2));
    /* -1 is a non-residue mod p (p = 3 mod 4), so -a^2 has no root. */
    cz_fp_neg(&t1, &t1);
    CHECK(!cz_fp_is_square(&t1) || cz_fp_is_zero(&a));
    CHECK(!cz_fp_sqrt(&t2, &t1) || cz_fp_is_zero(&a));
  }
  cz_fp z = CZ_FP_ZERO, t;
  CHECK(!cz_fp_inv(&t, &z));
}

static void fr_axioms(void) {
  for (int i = 0; i < 200; i++) {
    cz_fr a = rand_fr(), b = rand_fr(), c = rand_fr(), t1, t2, t3;
    cz_fr_add(&t1, &a, &b); cz_fr_mul(&t1, &t1, &c);
    cz_fr_mul(&t2, &a, &c); cz_fr_mul(&t3, &b, &c); cz_fr_add(&t2, &t2, &t3);
    CHECK(cz_fr_eq(&t1, &t2));
    CHECK(cz_fr_inv(&t1, &a)); cz_fr_mul(&t1, &t1, &a);
    CHECK(cz_fr_is_one(&t1));
    cz_fr_sqr(&t1, &a);
    CHECK(cz_fr_sqrt(&t2, &t1)); cz_fr_sqr(&t2, &t2);
    CHECK(cz_fr_eq(&t1, &t2));
    cz_fr seven;
    cz_fr_from_u64(&seven, 7); /* 7 generates Fr*, so 7 a^2 is a non-residue */
    cz_fr_mul(&t1, &t1, &seven);
    CHECK(!cz_fr_is_square(&t1) && !cz_fr_sqrt(&t2, &t1));
  }
}

static void batch_inverse(void) {
  cz_fp in[9], out[9];
  for (int i = 0; i < 9; i++) in[i] = rand_fp();
  in[4] = CZ_FP_ZERO;
  cz_fp_batch_inv(out, in, 9);
  for (int i = 0; i < 9; i++) {
    cz_fp t;
    cz_fp_inv(&t, &in[i]);
    CHECK(cz_fp_eq(&t, &out[i]));
  }
  cz_fr fin[5], fout[5];
  for (int i = 0; i < 5; i++) fin[i] = rand_fr();
  cz_fr_batch_inv(fout, fin, 5);
  for (int i = 0; i < 5; i++) { cz_fr t; cz_fr_mul(&t, &fout[i], &fin[i]); CHECK(cz_fr_is_one(&t)); }
}

static void encodings(void) {
  uint8_t p_be[48], buf[48], le[48];
  for (int i = 0; i < 6; i++)
    for (int k = 0; k < 8; k++) p_be[47 - 8 * i - k] = (uint8_t)(CZ_FP_MODULUS[i] >> (8 * k));
  cz_fp a;
  CHECK(cz_fp_from_bytes_be(&a, p_be) == CZ_ERR_NONCANONICAL);
  p_be[47] -= 1; /* p - 1 is fine and equals -1 */
  CHECK(cz_fp_from_bytes_be(&a, p_be) == CZ_OK);
  cz_fp m1; cz_fp_neg(&m1, &CZ_FP_ONE);
  CHECK(cz_fp_eq(&a, &m1));
  cz_fp_to_bytes_be(buf, &a);
  CHECK_MEM(buf, p_be, 48);
  cz_fp_to_bytes_le(le, &a);
  for (int i = 0; i < 48; i++) CHECK(le[i] == p_be[47 - i]);
  cz_fp b; CHECK(cz_fp_from_bytes_le(&b, le) == CZ_OK && cz_fp_eq(&a, &b));
  CHECK(cz_fp_is_lexicographically_largest(&a));
  CHECK(!cz_fp_is_lexicographically_largest(&CZ_FP_ONE));

  uint8_t r_le[32];
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 8; k++) r_le[8 * i + k] = (uint8_t)(CZ_FR_MODULUS[i] >> (8 * k));
  cz_fr f;
  CHECK(cz_fr_from_bytes_le(&f, r_le) == CZ_ERR_NONCANONICAL);
  cz_fr_from_u64(&f, 0x1234);
  uint8_t fb[32] = {0};
  cz_fr_to_bytes_le(fb, &f);
  CHECK(fb[0] == 0x34 && fb[1] == 0x12 && fb[2] == 0);
  /* 2^512 - 1 reduced: (2^256-1)(2^256+1) = wide value; check via arithmetic. */
  uint8_t wide[64];
  memset(wide, 0xff, sizeof wide);
  cz_fr w, expect, two256m1;
  cz_fr_from_wide_le(&w, wide);
  uint8_t ones[32];
  memset(ones, 0xff, 32);
  memset(wide, 0, 64); memcpy(wide, ones, 32);
  cz_fr_from_wide_le(&two256m1, wide);           /* 2^256 - 1 mod r */
  cz_fr one = CZ_FR_ONE, t;
  cz_fr_add(&t, &two256m1, &one);                /* 2^256 */
  cz_fr_mul(&expect, &two256m1, &t);             /* (2^256-1) 2^256 */
  cz_fr_add(&expect, &expect, &two256m1);        /* + 2^256 - 1 = 2^512 - 1 */
  CHECK(cz_fr_eq(&w, &expect));
}

static void roots_of_unity(void) {
  for (unsigned k = 0; k <= 32; k += 4) {
    cz_fr w, t;
    cz_fr_root_of_unity(&w, k);
    t = w;
    for (unsigned i = 0; i < k; i++) cz_fr_sqr(&t, &t);
    CHECK(cz_fr_is_one(&t));
    if (k > 0) {
      t = w;
      for (unsigned i = 0; i + 1 < k; i++) cz_fr_sqr(&t, &t);
      CHECK(!cz_fr_is_one(&t)); /* primitive */
    }
  }
  /* The 2^32 root is 7^((r-1)/2^32). */
  uint64_t e[4];
  for (int i = 0; i < 4; i++) e[i] = (CZ_FR_MODULUS[i] >> 32) | (i < 3 ? CZ_FR_MODULUS[i + 1] << 32 : 0);
  cz_fr seven, w, x;
  cz_fr_from_u64(&seven, 7);
  cz_fr_pow(&x, &seven, e, 4);
  cz_fr_root_of_unity(&w, 32);
  CHECK(cz_fr_eq(&w, &x));
}

/* Both multiplication paths give the same bits. */
static void paths_agree(void) {
  if (!cz_cpu_has_adx()) return;
  for (int i = 0; i < 2000; i++) {
    cz_fp a = rand_fp(), b = rand_fp(), x, y;
    if (i == 0) { memset(&a, 0, sizeof a); a = CZ_FP_ZERO; }
    if (i == 1) cz_fp_neg(&a, &CZ_FP_ONE), cz_fp_neg(&b, &CZ_FP_ONE);
    cz_fp_mul_portable(&x, &a, &b);
    cz_fp_mul(&y, &a, &b);
    CHECK(cz_fp_eq(&x, &y));
    cz_fp_sqr_portable(&x, &a);
    cz_fp_sqr(&y, &a);
    CHECK(cz_fp_eq(&x, &y));
    cz_fr c = rand_fr(), d = rand_fr(), u, v;
    if (i == 1) cz_fr_neg(&c, &CZ_FR_ONE), cz_fr_neg(&d, &CZ_FR_ONE);
    cz_fr_mul_portable(&u, &c, &d);
    cz_fr_mul(&v, &c, &d);
    CHECK(cz_fr_eq(&u, &v));
    cz_fr_sqr_portable(&u, &c);
    cz_fr_sqr(&v, &c);
    CHECK(cz_fr_eq(&u, &v));
  }
}

int main(void) {
  for (int pass = 0; pass < 2; pass++) {
    cz_cpu_force_portable(pass == 1);
    fp_axioms();
    fr_axioms();
    batch_inverse();
    encodings();
    roots_of_unity();
  }
  cz_cpu_force_portable(false);
  paths_agree();
  return check_report("test_field");
}
