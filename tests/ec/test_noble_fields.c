/* Fp, Fr and Fp2 against vectors computed by @noble/curves, an independent
 * implementation (tests/data/noble-bls12-381.json, made by
 * tests/vectors-gen/gen.mjs). Runs once on the portable path and once on
 * the automatically chosen one (ADX where the CPU has it). */
#include "check.h"
#include "vectors.h"
#include "cuzk/cpu.h"
#include "cuzk/fp.h"
#include "cuzk/fp2.h"
#include "cuzk/fr.h"

/* ---- decoding helpers: a failed decode is a failed check ---- */
static bool get_fp(const json_t *v, const char *key, cz_fp *r) {
  uint8_t b[CZ_FP_BYTES];
  if (!vec_hex(v, key, b, sizeof b)) return false;
  cz_err e = cz_fp_from_bytes_be(r, b);
  CHECK_EQ_INT(e, CZ_OK);
  return e == CZ_OK;
}

static bool get_fr(const json_t *v, const char *key, cz_fr *r) {
  uint8_t b[CZ_FR_BYTES];
  if (!vec_hex(v, key, b, sizeof b)) return false;
  cz_err e = cz_fr_from_bytes_be(r, b);
  CHECK_EQ_INT(e, CZ_OK);
  return e == CZ_OK;
}

static bool get_fp2(const json_t *v, const char *key, cz_fp2 *r) {
  json_t *o = json_object_get(v, key);
  if (!json_is_object(o)) {
    check_failed++;
    fprintf(stderr, "vectors: field '%s' is not an Fp2 object\n", key);
    return false;
  }
  return get_fp(o, "c0", &r->c0) && get_fp(o, "c1", &r->c1);
}

/* Checks a computed Fp against the expected bytes, so failures print both. */
static void check_fp_bytes(const cz_fp *got, const json_t *v, const char *key) {
  uint8_t want[CZ_FP_BYTES], have[CZ_FP_BYTES];
  if (!vec_hex(v, key, want, sizeof want)) return;
  cz_fp_to_bytes_be(have, got);
  CHECK_MEM(have, want, sizeof want);
}

/* ---- Fp ---- */
static void test_fp(json_t *root) {
  json_t *a = vec_array(root, "fp.mul");
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fp x, y, r;
    if (get_fp(v, "a", &x) && get_fp(v, "b", &y)) {
      cz_fp_mul(&r, &x, &y);
      check_fp_bytes(&r, v, "r");
      cz_fp_mul_portable(&r, &x, &y);
      check_fp_bytes(&r, v, "r");
      if (cz_fp_eq(&x, &y)) {
        cz_fp_sqr(&r, &x);
        check_fp_bytes(&r, v, "r");
      }
    }
    VEC_NOTE_FAIL(before, "fp.mul", i);
  }
  a = vec_array(root, "fp.inv");
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fp x, r;
    if (!get_fp(v, "a", &x)) continue;
    bool ok = cz_fp_inv(&r, &x);
    if (vec_is_null(v, "r")) {
      CHECK(!ok && cz_fp_is_zero(&r));
    } else {
      CHECK(ok);
      check_fp_bytes(&r, v, "r");
    }
    VEC_NOTE_FAIL(before, "fp.inv", i);
  }
  a = vec_array(root, "fp.sqrt");
  size_t roots = 0, same_sign = 0;
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fp x, r = CZ_FP_ZERO, r2, want, neg;
    if (!get_fp(v, "a", &x)) continue;
    bool square = json_is_true(json_object_get(v, "is_square"));
    CHECK_EQ_INT(cz_fp_is_square(&x), square);
    CHECK_EQ_INT(cz_fp_sqrt(&r, &x), square);
    if (square && get_fp(v, "root", &want)) {
      cz_fp_sqr(&r2, &r);
      CHECK(cz_fp_eq(&r2, &x));
      cz_fp_neg(&neg, &want);
      CHECK(cz_fp_eq(&r, &want) || cz_fp_eq(&r, &neg));
      roots++;
      same_sign += cz_fp_eq(&r, &want);
    } else if (!square) {
      CHECK(vec_is_null(v, "root"));
    }
    VEC_NOTE_FAIL(before, "fp.sqrt", i);
  }
  printf("fp.sqrt: %zu of %zu roots equal noble's exactly (the rest its negation)\n", same_sign,
         roots);
}

/* ---- Fr ---- */
static void check_fr_bytes(const cz_fr *got, const json_t *v, const char *key) {
  uint8_t want[CZ_FR_BYTES], have[CZ_FR_BYTES];
  if (!vec_hex(v, key, want, sizeof want)) return;
  cz_fr_to_bytes_be(have, got);
  CHECK_MEM(have, want, sizeof want);
}

static void test_fr(json_t *root) {
  json_t *a = vec_array(root, "fr.mul");
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fr x, y, r;
    if (get_fr(v, "a", &x) && get_fr(v, "b", &y)) {
      cz_fr_mul(&r, &x, &y);
      check_fr_bytes(&r, v, "r");
      cz_fr_mul_portable(&r, &x, &y);
      check_fr_bytes(&r, v, "r");
      if (cz_fr_eq(&x, &y)) {
        cz_fr_sqr(&r, &x);
        check_fr_bytes(&r, v, "r");
      }
    }
    VEC_NOTE_FAIL(before, "fr.mul", i);
  }
  a = vec_array(root, "fr.inv");
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fr x, r;
    if (!get_fr(v, "a", &x)) continue;
    bool ok = cz_fr_inv(&r, &x);
    if (vec_is_null(v, "r")) {
      CHECK(!ok);
    } else {
      CHECK(ok);
      check_fr_bytes(&r, v, "r");
    }
    VEC_NOTE_FAIL(before, "fr.inv", i);
  }
  a = vec_array(root, "fr.sqrt");
  size_t roots = 0, same_sign = 0;
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fr x, r = CZ_FR_ZERO, r2, want, neg;
    if (!get_fr(v, "a", &x)) continue;
    bool square = json_is_true(json_object_get(v, "is_square"));
    CHECK_EQ_INT(cz_fr_is_square(&x), square);
    CHECK_EQ_INT(cz_fr_sqrt(&r, &x), square);
    if (square && get_fr(v, "root", &want)) {
      cz_fr_sqr(&r2, &r);
      CHECK(cz_fr_eq(&r2, &x));
      cz_fr_neg(&neg, &want);
      CHECK(cz_fr_eq(&r, &want) || cz_fr_eq(&r, &neg));
      roots++;
      same_sign += cz_fr_eq(&r, &want);
    } else if (!square) {
      CHECK(vec_is_null(v, "root"));
    }
    VEC_NOTE_FAIL(before, "fr.sqrt", i);
  }
  printf("fr.sqrt: %zu of %zu roots equal noble's exactly (the rest its negation)\n", same_sign,
         roots);
}

/* ---- Fp2 ---- */
static void check_fp2_json(const cz_fp2 *got, const json_t *v, const char *key) {
  json_t *o = json_object_get(v, key);
  if (!json_is_object(o)) {
    check_failed++;
    fprintf(stderr, "vectors: field '%s' is not an Fp2 object\n", key);
    return;
  }
  check_fp_bytes(&got->c0, o, "c0");
  check_fp_bytes(&got->c1, o, "c1");
}

static void test_fp2(json_t *root) {
  json_t *a = vec_array(root, "fp2.mul");
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fp2 x, y, r;
    if (get_fp2(v, "a", &x) && get_fp2(v, "b", &y)) {
      cz_fp2_mul(&r, &x, &y);
      check_fp2_json(&r, v, "r");
      if (cz_fp2_eq(&x, &y)) {
        cz_fp2_sqr(&r, &x);
        check_fp2_json(&r, v, "r");
      }
    }
    VEC_NOTE_FAIL(before, "fp2.mul", i);
  }
  a = vec_array(root, "fp2.inv");
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fp2 x, r;
    if (!get_fp2(v, "a", &x)) continue;
    bool ok = cz_fp2_inv(&r, &x);
    if (vec_is_null(v, "r")) {
      CHECK(!ok && cz_fp2_is_zero(&r));
    } else {
      CHECK(ok);
      check_fp2_json(&r, v, "r");
    }
    VEC_NOTE_FAIL(before, "fp2.inv", i);
  }
  a = vec_array(root, "fp2.sqrt");
  size_t roots = 0, same_sign = 0;
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_fp2 x, r = CZ_FP2_ZERO, r2, want, neg;
    if (!get_fp2(v, "a", &x)) continue;
    bool square = json_is_true(json_object_get(v, "is_square"));
    CHECK_EQ_INT(cz_fp2_is_square(&x), square);
    CHECK_EQ_INT(cz_fp2_sqrt(&r, &x), square);
    if (square && get_fp2(v, "root", &want)) {
      cz_fp2_sqr(&r2, &r);
      CHECK(cz_fp2_eq(&r2, &x));
      cz_fp2_neg(&neg, &want);
      CHECK(cz_fp2_eq(&r, &want) || cz_fp2_eq(&r, &neg));
      roots++;
      same_sign += cz_fp2_eq(&r, &want);
    } else if (!square) {
      CHECK(vec_is_null(v, "root"));
    }
    VEC_NOTE_FAIL(before, "fp2.sqrt", i);
  }
  printf("fp2.sqrt: %zu of %zu roots equal noble's exactly (the rest its negation)\n", same_sign,
         roots);
}

int main(void) {
  json_t *root = vec_load(VEC_NOBLE_PATH);
  if (!root) return check_report("test_noble_fields");
  /* Portable first, then the automatic choice (ADX when available). */
  for (int pass = 0; pass < 2; pass++) {
    cz_cpu_force_portable(pass == 0);
    printf("pass %d: %s field path\n", pass, cz_cpu_use_adx() ? "ADX" : "portable");
    test_fp(root);
    test_fr(root);
    test_fp2(root);
  }
  cz_cpu_force_portable(false);
  json_decref(root);
  return check_report("test_noble_fields");
}
