/* The pairing against vectors computed by @noble/curves, an independent
 * implementation (tests/data/noble-bls12-381.json, made by
 * tests/vectors-gen/gen.mjs): e([a]G1, [b]G2) as 576 bytes in the Fp12 order
 * of fp12.h. Points are read from their uncompressed encodings with the Fp
 * decoder alone, so this test depends on the tower and pairing, not on the
 * G1/G2 codecs (test_noble_curves covers those). */
#include "check.h"
#include "cuzk/cpu.h"
#include "vectors.h"
#include "cuzk/pairing.h"

#define GT_BYTES 576

/* Strips and checks the zcash flags of an uncompressed, non-identity point
 * (all three flag bits clear) and decodes n consecutive Fp values. */
static bool decode_coords(cz_fp *out, size_t n, const uint8_t *in) {
  uint8_t b[CZ_FP_BYTES];
  CHECK_EQ_INT(in[0] >> 5, 0);
  for (size_t i = 0; i < n; i++) {
    memcpy(b, in + i * CZ_FP_BYTES, CZ_FP_BYTES);
    if (i == 0) b[0] &= 0x1f;
    cz_err e = cz_fp_from_bytes_be(&out[i], b);
    CHECK_EQ_INT(e, CZ_OK);
    if (e != CZ_OK) return false;
  }
  return true;
}

static bool get_g1(const json_t *v, const char *key, cz_g1_affine *p) {
  uint8_t b[2 * CZ_FP_BYTES];
  cz_fp c[2];
  if (!vec_hex(json_object_get(v, key), "uncompressed", b, sizeof b)) return false;
  if (!decode_coords(c, 2, b)) return false;
  p->x = c[0];
  p->y = c[1];
  return true;
}

/* G2 coordinates are encoded c1 then c0: x.c1, x.c0, y.c1, y.c0. */
static bool get_g2(const json_t *v, const char *key, cz_g2_affine *q) {
  uint8_t b[4 * CZ_FP_BYTES];
  cz_fp c[4];
  if (!vec_hex(json_object_get(v, key), "uncompressed", b, sizeof b)) return false;
  if (!decode_coords(c, 4, b)) return false;
  q->x.c1 = c[0];
  q->x.c0 = c[1];
  q->y.c1 = c[2];
  q->y.c0 = c[3];
  return true;
}

/* The fixed byte order, written out here rather than trusted to
 * cz_fp12_from_bytes: coefficient i of c0.c0.c0, c0.c0.c1, c0.c1.c0, ...,
 * c1.c2.c1 is bytes [48 i, 48 i + 48). */
static bool fp12_from_bytes_by_hand(cz_fp12 *r, const uint8_t in[GT_BYTES]) {
  cz_fp6 *halves[2] = {&r->c0, &r->c1};
  size_t i = 0;
  for (int h = 0; h < 2; h++) {
    cz_fp2 *c2[3] = {&halves[h]->c0, &halves[h]->c1, &halves[h]->c2};
    for (int j = 0; j < 3; j++) {
      if (cz_fp_from_bytes_be(&c2[j]->c0, in + CZ_FP_BYTES * i++) != CZ_OK) return false;
      if (cz_fp_from_bytes_be(&c2[j]->c1, in + CZ_FP_BYTES * i++) != CZ_OK) return false;
    }
  }
  return true;
}

int main(void) {
  json_t *root = vec_load(VEC_NOBLE_PATH);
  if (!root) return check_report("test_noble_pairing");
  json_t *a = vec_array(root, "pairing");
  for (size_t i = 0; a && i < json_array_size(a); i++) {
    int before = check_failed;
    json_t *v = json_array_get(a, i);
    cz_g1_affine p;
    cz_g2_affine q;
    uint8_t want[GT_BYTES], have[GT_BYTES];
    if (!get_g1(v, "p", &p) || !get_g2(v, "q", &q) || !vec_hex(v, "e", want, sizeof want)) continue;

    cz_fp12 e, f, expect, decoded;
    cz_pairing(&e, &p, &q);
    cz_fp12_to_bytes(have, &e);
    CHECK_MEM(have, want, GT_BYTES);

    /* the portable field path gives the same bits */
    cz_fp12 e_portable;
    cz_cpu_force_portable(true);
    cz_pairing(&e_portable, &p, &q);
    cz_cpu_force_portable(false);
    CHECK(cz_fp12_eq(&e_portable, &e));

    /* the byte order, both ways */
    CHECK(fp12_from_bytes_by_hand(&expect, want));
    CHECK(cz_fp12_eq(&e, &expect));
    CHECK_EQ_INT(cz_fp12_from_bytes(&decoded, want), CZ_OK);
    CHECK(cz_fp12_eq(&decoded, &expect));

    /* the same value through the split and prepared entry points */
    cz_miller_loop(&f, &p, &q, 1);
    cz_final_exponentiation(&f, &f);
    CHECK(cz_fp12_eq(&f, &expect));
    cz_g2_prepared *pq = cz_g2_prepare(&q);
    CHECK(pq != NULL);
    if (pq) {
      const cz_g2_prepared *pqs[1] = {pq};
      cz_miller_loop_prepared(&f, &p, pqs, 1);
      cz_final_exponentiation(&f, &f);
      CHECK(cz_fp12_eq(&f, &expect));
      cz_g2_prepared_free(pq);
    }

    /* e(p, q) e(-p, q) = 1, and e(p, q) alone is not 1 (p, q are not the identity) */
    cz_g1_affine pp[2] = {p, p};
    cz_g2_affine qq[2] = {q, q};
    cz_fp_neg(&pp[1].y, &p.y);
    CHECK(cz_pairing_product_is_one(pp, qq, 2));
    CHECK(!cz_pairing_product_is_one(pp, qq, 1));
    CHECK(!cz_fp12_is_one(&expect));
    VEC_NOTE_FAIL(before, "pairing", i);
  }
  json_decref(root);
  return check_report("test_noble_pairing");
}
