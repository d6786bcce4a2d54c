/* G1: group laws, XYZZ, batch normalisation, GLV scalar multiplication and
 * the endomorphism subgroup test, against plain double-and-add. */
#include "check.h"
#include "cuzk/g1.h"

static void rand_field(cz_fp *r) {
  uint8_t b[48];
  do {
    check_rand_bytes(b, sizeof b);
    b[0] &= 0x1f;
  } while (cz_fp_from_bytes_be(r, b) != CZ_OK);
}
static void curve_b(cz_fp *b) { cz_fp_from_u64(b, 4); }

#define F cz_fp
#define FF(x) cz_fp_##x
#define AFF cz_g1_affine
#define JAC cz_g1
#define XYZZ cz_g1_xyzz
#define GN(x) cz_g1_##x
#define GEN CZ_G1_GENERATOR
#include "ec/curve_test_impl.h"

/* Points outside G1 of known order: (0, 2) has order 3 (its tangent meets
 * the curve only there: y^2 = x^3 + 4 has a flex at x = 0), and the
 * cofactor h = 0x396c8c005555e1568c00aaab0000aaab maps E(Fp) into G1. */
static void test_small_order(void) {
  cz_g1_affine t;
  t.x = CZ_FP_ZERO;
  cz_fp_from_u64(&t.y, 2);
  CHECK(cz_g1_affine_is_on_curve(&t));
  CHECK(!cz_g1_affine_is_in_subgroup(&t));
  cz_g1 tj, u;
  cz_g1_from_affine(&tj, &t);
  cz_scalar three = {{3}};
  cz_g1_mul_plain(&u, &tj, &three);
  CHECK(cz_g1_is_identity(&u));
  cz_g1_dbl(&u, &tj);
  cz_g1_add(&u, &u, &tj);
  CHECK(cz_g1_is_identity(&u));

  cz_scalar h = {{0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL}};
  for (int i = 0; i < 4; i++) {
    cz_g1_affine q = rand_curve_point(), qa;
    cz_g1 qj;
    cz_g1_from_affine(&qj, &q);
    cz_g1_mul_plain(&qj, &qj, &h);
    cz_g1_to_affine(&qa, &qj);
    CHECK(cz_g1_affine_is_in_subgroup(&qa));
    CHECK(naive_in_subgroup(&qa));
  }
}

int main(void) {
  test_group_laws(40);
  test_batch_to_affine();
  test_scalar_mul(40);
  test_subgroup_checks(20);
  test_small_order();
  return check_report("test_g1");
}
