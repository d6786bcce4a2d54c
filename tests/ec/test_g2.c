/* G2: group laws, XYZZ, batch normalisation, psi (GLS) scalar
 * multiplication and the psi subgroup test, against plain double-and-add. */
#include "check.h"
#include "cuzk/g2.h"

static void rand_fp(cz_fp *r) {
  uint8_t b[48];
  do {
    check_rand_bytes(b, sizeof b);
    b[0] &= 0x1f;
  } while (cz_fp_from_bytes_be(r, b) != CZ_OK);
}
static void rand_field(cz_fp2 *r) {
  rand_fp(&r->c0);
  rand_fp(&r->c1);
}
static void curve_b(cz_fp2 *b) {
  cz_fp_from_u64(&b->c0, 4);
  cz_fp_from_u64(&b->c1, 4);
}

#define F cz_fp2
#define FF(x) cz_fp2_##x
#define AFF cz_g2_affine
#define JAC cz_g2
#define XYZZ cz_g2_xyzz
#define GN(x) cz_g2_##x
#define GEN CZ_G2_GENERATOR
#include "ec/curve_test_impl.h"

/* psi acts on G2 as [z] = [p mod r], z = -0xd201000000010000: [p] G
 * computed by plain multiplication equals [z] G (p mod r = z mod r). */
static void test_frobenius_eigenvalue(void) {
  cz_g2 g, a, b;
  cz_g2_from_affine(&g, &CZ_G2_GENERATOR);
  cz_scalar z = {{0xd201000000010000ULL}};
  cz_g2_mul_plain(&a, &g, &z);
  cz_g2_neg(&a, &a); /* [z] G */
  cz_scalar r_minus_zabs = {{0xffffffff00000001ULL - 0xd201000000010000ULL, 0x53bda402fffe5bfeULL,
                             0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}};
  cz_g2_mul(&b, &g, &r_minus_zabs); /* [r - |z|] G = [z] G */
  CHECK(cz_g2_eq(&a, &b));
}

int main(void) {
  test_group_laws(25);
  test_batch_to_affine();
  test_scalar_mul(25);
  test_subgroup_checks(15);
  test_frobenius_eigenvalue();
  return check_report("test_g2");
}
