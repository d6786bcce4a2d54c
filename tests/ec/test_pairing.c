/* The optimal ate pairing: a known answer from noble-curves, the final
 * exponentiation against plain exponentiation, bilinearity, non-degeneracy,
 * prepared and multi-pair Miller loops, identities and product checks.
 * Scalar multiples are made with a small affine double-and-add here, so the
 * test depends only on the field code and the pairing. */
#include "check.h"
#include "cuzk/cpu.h"
#include "cuzk/pairing.h"

/* ------------------------------------------------------- big integers */

/* Little-endian limb helpers for exponents: out = a * b. */
static size_t big_mul(uint64_t *out, const uint64_t *a, size_t na, const uint64_t *b, size_t nb) {
  uint64_t t[128] = {0};
  for (size_t i = 0; i < na; i++) {
    unsigned __int128 carry = 0;
    for (size_t j = 0; j < nb; j++) {
      unsigned __int128 x = (unsigned __int128)a[i] * b[j] + t[i + j] + carry;
      t[i + j] = (uint64_t)x;
      carry = x >> 64;
    }
    t[i + nb] = (uint64_t)carry;
  }
  memcpy(out, t, (na + nb) * sizeof *out);
  return na + nb;
}

/* Parse big-endian hex into n little-endian limbs. */
static void big_from_hex(uint64_t *out, size_t n, const char *hex) {
  memset(out, 0, n * sizeof *out);
  size_t len = strlen(hex);
  for (size_t i = 0; i < len; i++) {
    char c = hex[len - 1 - i];
    uint64_t v = (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    out[i / 16] |= v << (4 * (i % 16));
  }
}

static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

/* ------------------------------------------------ affine curve helpers */

/* The standard generators (zcash BLS12-381 spec, IETF draft-irtf-cfrg-
 * pairing-friendly-curves; also printed by tests/vectors-gen/pairing_kat.mjs). */
static const char *G1X =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6"
    "bb";
static const char *G1Y =
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7"
    "e1";
static const char *G2X0 =
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bd"
    "b8";
static const char *G2X1 =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b"
    "7e";
static const char *G2Y0 =
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b828"
    "01";
static const char *G2Y1 =
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79"
    "be";

static cz_fp fp_hex(const char *hex) {
  uint8_t b[48];
  cz_fp r;
  CHECK_EQ_INT(check_hex(b, sizeof b, hex), 48);
  CHECK_EQ_INT(cz_fp_from_bytes_be(&r, b), CZ_OK);
  return r;
}

static cz_g1_affine g1_gen(void) { return (cz_g1_affine){fp_hex(G1X), fp_hex(G1Y)}; }
static cz_g2_affine g2_gen(void) {
  return (cz_g2_affine){{fp_hex(G2X0), fp_hex(G2X1)}, {fp_hex(G2Y0), fp_hex(G2Y1)}};
}

static bool g1_is_inf(const cz_g1_affine *p) {
  return cz_fp_is_zero(&p->x) && cz_fp_is_zero(&p->y);
}
static bool g2_is_inf(const cz_g2_affine *p) {
  return cz_fp2_is_zero(&p->x) && cz_fp2_is_zero(&p->y);
}

/* r = a + b in affine coordinates, all cases. */
static void g1_add(cz_g1_affine *r, const cz_g1_affine *a, const cz_g1_affine *b) {
  if (g1_is_inf(a)) {
    *r = *b;
    return;
  }
  if (g1_is_inf(b)) {
    *r = *a;
    return;
  }
  cz_fp num, den, lam, t;
  if (cz_fp_eq(&a->x, &b->x)) {
    cz_fp_add(&t, &a->y, &b->y);
    if (cz_fp_is_zero(&t)) {
      *r = (cz_g1_affine){CZ_FP_ZERO, CZ_FP_ZERO};
      return;
    }
    cz_fp_sqr(&num, &a->x); /* tangent: 3 x^2 / 2 y */
    cz_fp_add(&t, &num, &num);
    cz_fp_add(&num, &t, &num);
    cz_fp_dbl(&den, &a->y);
  } else {
    cz_fp_sub(&num, &b->y, &a->y);
    cz_fp_sub(&den, &b->x, &a->x);
  }
  cz_fp_inv(&den, &den);
  cz_fp_mul(&lam, &num, &den);
  cz_fp x3, y3;
  cz_fp_sqr(&x3, &lam);
  cz_fp_sub(&x3, &x3, &a->x);
  cz_fp_sub(&x3, &x3, &b->x);
  cz_fp_sub(&t, &a->x, &x3);
  cz_fp_mul(&y3, &lam, &t);
  cz_fp_sub(&y3, &y3, &a->y);
  r->x = x3;
  r->y = y3;
}

static void g2_add(cz_g2_affine *r, const cz_g2_affine *a, const cz_g2_affine *b) {
  if (g2_is_inf(a)) {
    *r = *b;
    return;
  }
  if (g2_is_inf(b)) {
    *r = *a;
    return;
  }
  cz_fp2 num, den, lam, t;
  if (cz_fp2_eq(&a->x, &b->x)) {
    cz_fp2_add(&t, &a->y, &b->y);
    if (cz_fp2_is_zero(&t)) {
      *r = (cz_g2_affine){CZ_FP2_ZERO, CZ_FP2_ZERO};
      return;
    }
    cz_fp2_sqr(&num, &a->x);
    cz_fp2_add(&t, &num, &num);
    cz_fp2_add(&num, &t, &num);
    cz_fp2_dbl(&den, &a->y);
  } else {
    cz_fp2_sub(&num, &b->y, &a->y);
    cz_fp2_sub(&den, &b->x, &a->x);
  }
  cz_fp2_inv(&den, &den);
  cz_fp2_mul(&lam, &num, &den);
  cz_fp2 x3, y3;
  cz_fp2_sqr(&x3, &lam);
  cz_fp2_sub(&x3, &x3, &a->x);
  cz_fp2_sub(&x3, &x3, &b->x);
  cz_fp2_sub(&t, &a->x, &x3);
  cz_fp2_mul(&y3, &lam, &t);
  cz_fp2_sub(&y3, &y3, &a->y);
  r->x = x3;
  r->y = y3;
}

/* r = k p, k given as n little-endian limbs (double-and-add from the top). */
static void g1_mul(cz_g1_affine *r, const cz_g1_affine *p, const uint64_t *k, size_t n) {
  cz_g1_affine acc = {CZ_FP_ZERO, CZ_FP_ZERO};
  for (size_t i = n; i-- > 0;)
    for (int b = 63; b >= 0; b--) {
      g1_add(&acc, &acc, &acc);
      if ((k[i] >> b) & 1) g1_add(&acc, &acc, p);
    }
  *r = acc;
}
static void g2_mul(cz_g2_affine *r, const cz_g2_affine *p, const uint64_t *k, size_t n) {
  cz_g2_affine acc = {CZ_FP2_ZERO, CZ_FP2_ZERO};
  for (size_t i = n; i-- > 0;)
    for (int b = 63; b >= 0; b--) {
      g2_add(&acc, &acc, &acc);
      if ((k[i] >> b) & 1) g2_add(&acc, &acc, p);
    }
  *r = acc;
}

/* A random scalar below 2^250 < r, nonzero. */
static void rand_scalar(uint64_t k[4]) {
  for (int i = 0; i < 4; i++) k[i] = check_rand64();
  k[3] &= 0x03ffffffffffffffULL;
  k[0] |= 1;
}

/* ------------------------------------------------------------- tests */

/* e(G1, G2) computed by @noble/curves 2.4.0 with
 * tests/vectors-gen/pairing_kat.mjs (bls12_381.pairing(G1.BASE, G2.BASE)),
 * serialized as c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1, 48-byte
 * big-endian each. The first coefficient also matches zkcrypto's test value. */
static const char *KAT_E_G1_G2 =
    "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789"
    "b6"
    "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa017"
    "0f"
    "1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e"
    "87"
    "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c1993"
    "4f"
    "01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aa"
    "a5"
    "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4"
    "b6"
    "19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee8"
    "9d"
    "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab"
    "1a"
    "11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba"
    "57"
    "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99"
    "a2"
    "04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3"
    "ef"
    "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b6766"
    "31";

/* (p^4 - p^2 + 1) / r, printed by the same script; the test checks d r. */
static const char *HARD_EXPONENT =
    "f686b3d807d01c0bd38c3195c899ed3cde88eeb996ca394506632528d6a9a2f230063cf081517f68f7764c28b6f8ae"
    "5a"
    "72bce8d63cb9f827eca0ba621315b2076995003fc77a17988f8761bdc51dc2378b9039096d1b767f17fcbde7837659"
    "15"
    "c97f36c6f18212ed0b283ed237db421d160aeb6a1e79983774940996754c8c71a2629b0dea236905ce937335d5b68f"
    "a9"
    "912aae208ccf1e516c3f438e3ba79";

static void known_answer(void) {
  cz_g1_affine p = g1_gen();
  cz_g2_affine q = g2_gen();
  uint8_t want[576], got[576];
  CHECK_EQ_INT(check_hex(want, sizeof want, KAT_E_G1_G2), 576);
  cz_fp12 e, d;
  cz_pairing(&e, &p, &q);
  cz_fp12_to_bytes(got, &e);
  CHECK_MEM(got, want, 576);
  CHECK_EQ_INT(cz_fp12_from_bytes(&d, want), CZ_OK);
  CHECK(cz_fp12_eq(&d, &e));
  /* non-degenerate, and of order r */
  CHECK(!cz_fp12_is_one(&e));
  cz_fp12_pow(&d, &e, R_LIMBS, 4);
  CHECK(cz_fp12_is_one(&d));
}

/* The fast final exponentiation is the cube of the textbook
 * f^((p^12 - 1) / r) (see pairing.c), checked by plain exponentiation. */
static void final_exponentiation(void) {
  uint64_t d[24], p2[12], p4[24], dr[28];
  big_from_hex(d, 24, HARD_EXPONENT);
  /* d r = p^4 - p^2 + 1 */
  big_mul(p2, CZ_FP_MODULUS, 6, CZ_FP_MODULUS, 6);
  big_mul(p4, p2, 12, p2, 12);
  uint64_t borrow = 0, carry = 1;
  for (int i = 0; i < 24; i++) { /* p4 = p4 - p2 + 1 */
    uint64_t s = i < 12 ? p2[i] : 0;
    unsigned __int128 x = (unsigned __int128)p4[i] - s - borrow;
    p4[i] = (uint64_t)x;
    borrow = (uint64_t)(x >> 64) & 1;
    x = (unsigned __int128)p4[i] + carry;
    p4[i] = (uint64_t)x;
    carry = (uint64_t)(x >> 64);
  }
  big_mul(dr, d, 24, R_LIMBS, 4);
  CHECK_MEM(dr, p4, sizeof p4);
  for (int i = 24; i < 28; i++) CHECK(dr[i] == 0);

  cz_g1_affine p = g1_gen();
  cz_g2_affine q = g2_gen();
  cz_fp12 f, m, t, slow, fast;
  cz_miller_loop(&f, &p, &q, 1);
  CHECK(cz_fp12_inv(&t, &f));
  cz_fp12_conj(&m, &f);
  cz_fp12_mul(&m, &m, &t);
  cz_fp12_frobenius(&t, &m, 2);
  cz_fp12_mul(&m, &t, &m);
  cz_fp12_pow(&slow, &m, d, 24);
  cz_fp12_sqr(&t, &slow);
  cz_fp12_mul(&t, &t, &slow);
  cz_final_exponentiation(&fast, &f);
  CHECK(cz_fp12_eq(&fast, &t));
  CHECK(!cz_fp12_eq(&fast, &slow));

  /* 1 and -1 have no compressed form to decompress (g3 = 0): the hard
   * part's uncompressed fallback; both map to 1. So does the (p^6 - 1)
   * power of any f, times either. */
  cz_fp12 one = CZ_FP12_ONE, minus_one;
  cz_fp12_conj(&minus_one, &one);
  cz_fp6_neg(&minus_one.c0, &one.c0);
  cz_final_exponentiation(&t, &one);
  CHECK(cz_fp12_is_one(&t));
  cz_final_exponentiation(&t, &minus_one);
  CHECK(cz_fp12_is_one(&t));
  cz_fp12_mul(&t, &f, &minus_one); /* e(f) = e(-f) */
  cz_final_exponentiation(&t, &t);
  CHECK(cz_fp12_eq(&t, &fast));
}

static void bilinearity(void) {
  cz_g1_affine g1 = g1_gen();
  cz_g2_affine g2 = g2_gen();
  cz_fp12 e11;
  cz_pairing(&e11, &g1, &g2);
  for (int i = 0; i < 2; i++) {
    uint64_t a[4], b[4], ab[8];
    rand_scalar(a);
    rand_scalar(b);
    big_mul(ab, a, 4, b, 4);
    cz_g1_affine ap, abp;
    cz_g2_affine bq;
    g1_mul(&ap, &g1, a, 4);
    g2_mul(&bq, &g2, b, 4);
    g1_mul(&abp, &g1, ab, 8);
    cz_fp12 e1, e2, e3;
    cz_pairing(&e1, &ap, &bq);
    cz_fp12_pow(&e2, &e11, ab, 8);
    cz_pairing(&e3, &abp, &g2);
    CHECK(cz_fp12_eq(&e1, &e2));
    CHECK(cz_fp12_eq(&e1, &e3));
    /* e(aP, Q) e(P, Q) = e((a+1)P, Q): linearity in the first argument */
    cz_g1_affine a1p;
    g1_add(&a1p, &ap, &g1);
    cz_pairing(&e1, &ap, &g2);
    cz_fp12_mul(&e1, &e1, &e11);
    cz_pairing(&e2, &a1p, &g2);
    CHECK(cz_fp12_eq(&e1, &e2));
  }
  /* e(2P, Q) = e(P, 2Q) = e(P, Q)^2 */
  cz_g1_affine p2;
  cz_g2_affine q2;
  g1_add(&p2, &g1, &g1);
  g2_add(&q2, &g2, &g2);
  cz_fp12 e1, e2, e3;
  cz_pairing(&e1, &p2, &g2);
  cz_pairing(&e2, &g1, &q2);
  cz_fp12_sqr(&e3, &e11);
  CHECK(cz_fp12_eq(&e1, &e2) && cz_fp12_eq(&e1, &e3));
}

static void miller_loops(void) {
  enum { N = 19 }; /* more than one chunk of pairs */
  cz_g1_affine g1 = g1_gen(), p[N];
  cz_g2_affine g2 = g2_gen(), q[N];
  uint64_t k[4];
  /* a few random points, then cheap distinct multiples of them */
  for (int i = 0; i < 3; i++) {
    rand_scalar(k);
    g1_mul(&p[i], &g1, k, 4);
    rand_scalar(k);
    g2_mul(&q[i], &g2, k, 4);
  }
  for (int i = 3; i < N; i++) {
    g1_add(&p[i], &p[i - 1], &p[i - 3]);
    g2_add(&q[i], &q[i - 2], &q[i - 3]);
  }
  const cz_g1_affine inf1 = {CZ_FP_ZERO, CZ_FP_ZERO};
  const cz_g2_affine inf2 = {CZ_FP2_ZERO, CZ_FP2_ZERO};
  p[5] = inf1; /* identities contribute 1 */
  q[9] = inf2;

  cz_fp12 multi, prod = CZ_FP12_ONE, single, prep_multi;
  cz_g2_prepared *pq[N];
  for (int i = 0; i < N; i++) {
    pq[i] = cz_g2_prepare(&q[i]);
    CHECK(pq[i] != NULL);
  }
  cz_miller_loop(&multi, p, q, N);
  for (int i = 0; i < N; i++) {
    cz_fp12 pre;
    cz_miller_loop(&single, &p[i], &q[i], 1);
    cz_miller_loop_prepared(&pre, &p[i], (const cz_g2_prepared *const *)&pq[i], 1);
    CHECK(cz_fp12_eq(&single, &pre));
    if (i == 5 || i == 9) CHECK(cz_fp12_is_one(&single));
    cz_fp12_mul(&prod, &prod, &single);
  }
  CHECK(cz_fp12_eq(&multi, &prod));
  cz_miller_loop_prepared(&prep_multi, p, (const cz_g2_prepared *const *)pq, N);
  CHECK(cz_fp12_eq(&prep_multi, &prod));
  for (int i = 0; i < N; i++) cz_g2_prepared_free(pq[i]);
  cz_miller_loop(&multi, p, q, 0);
  CHECK(cz_fp12_is_one(&multi));
}

static void products_and_identities(void) {
  cz_g1_affine g1 = g1_gen(), p[3];
  cz_g2_affine g2 = g2_gen(), q[3];
  const cz_g1_affine inf1 = {CZ_FP_ZERO, CZ_FP_ZERO};
  const cz_g2_affine inf2 = {CZ_FP2_ZERO, CZ_FP2_ZERO};
  uint64_t k[4];
  rand_scalar(k);
  g1_mul(&p[0], &g1, k, 4);
  rand_scalar(k);
  g2_mul(&q[0], &g2, k, 4);
  /* e(P, Q) e(-P, Q) = 1 */
  p[1] = p[0];
  cz_fp_neg(&p[1].y, &p[1].y);
  q[1] = q[0];
  CHECK(cz_pairing_product_is_one(p, q, 2));
  /* e(P, Q) e(P, -Q) = 1, and an identity pair changes nothing */
  p[1] = p[0];
  cz_fp2_neg(&q[1].y, &q[0].y);
  p[2] = inf1;
  q[2] = g2;
  CHECK(cz_pairing_product_is_one(p, q, 3));
  /* e(P, Q)^2 != 1 */
  q[1] = q[0];
  CHECK(!cz_pairing_product_is_one(p, q, 2));
  /* e(2P, Q) e(P, -2Q) = 1 */
  g1_add(&p[0], &g1, &g1);
  q[0] = g2;
  p[1] = g1;
  g2_add(&q[1], &g2, &g2);
  cz_fp2_neg(&q[1].y, &q[1].y);
  CHECK(cz_pairing_product_is_one(p, q, 2));
  CHECK(cz_pairing_product_is_one(p, q, 0));
  /* identities pair to one; a prepared identity too */
  cz_fp12 e;
  cz_pairing(&e, &inf1, &g2);
  CHECK(cz_fp12_is_one(&e));
  cz_pairing(&e, &g1, &inf2);
  CHECK(cz_fp12_is_one(&e));
  cz_g2_prepared *pi = cz_g2_prepare(&inf2);
  CHECK(pi != NULL);
  cz_miller_loop_prepared(&e, &g1, (const cz_g2_prepared *const *)&pi, 1);
  CHECK(cz_fp12_is_one(&e));
  cz_g2_prepared_free(pi);
}

int main(void) {
  /* The known answer on the portable field path too (the ADX path's Fp2
   * arithmetic reduces lazily; both must give these bits). */
  cz_cpu_force_portable(true);
  known_answer();
  cz_cpu_force_portable(false);
  known_answer();
  final_exponentiation();
  bilinearity();
  miller_loops();
  products_and_identities();
  return check_report("test_pairing");
}
