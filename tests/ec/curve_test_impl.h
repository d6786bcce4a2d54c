/* One source for the G1 and G2 group tests. Include after check.h and after
 * defining F, FF(x), AFF, JAC, XYZZ, GN(x) as for src/ec/curve_impl.h, plus
 *   GEN             the generator (affine)
 *   rand_field(F *) a uniformly random field element
 *   curve_b(F *)    the curve constant b
 * Everything is checked against ref_mul, a bit-by-bit double-and-add built
 * only on the public add and dbl. */
#include <stdint.h>
#include <string.h>

static const uint64_t R_LIMBS[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

static void ref_mul(JAC *r, const JAC *p, const uint64_t k[4]) {
  JAC acc;
  GN(set_identity)(&acc);
  for (int bit = 255; bit >= 0; bit--) {
    GN(dbl)(&acc, &acc);
    if ((k[bit / 64] >> (bit % 64)) & 1) GN(add)(&acc, &acc, p);
  }
  *r = acc;
}

static void rand_scalar(cz_scalar *k) {
  for (int i = 0; i < 4; i++) k->l[i] = check_rand64();
}

static JAC gen_jac(void) {
  JAC g;
  GN(from_affine)(&g, &GEN);
  return g;
}

/* A random point of the subgroup, in Jacobian form with a random Z. */
static JAC rand_subgroup_point(void) {
  cz_scalar k;
  rand_scalar(&k);
  k.l[3] &= 0x3fffffffffffffffULL;
  JAC g = gen_jac(), p;
  ref_mul(&p, &g, k.l);
  return p;
}

/* A random point on the curve, almost surely outside the subgroup: lift a
 * random x without clearing the cofactor. */
static AFF rand_curve_point(void) {
  F b, rhs;
  curve_b(&b);
  for (;;) {
    AFF p;
    rand_field(&p.x);
    FF(sqr)(&rhs, &p.x);
    FF(mul)(&rhs, &rhs, &p.x);
    FF(add)(&rhs, &rhs, &b);
    if (FF(sqrt)(&p.y, &rhs)) return p;
  }
}

static AFF to_aff(const JAC *p) {
  AFF a;
  GN(to_affine)(&a, p);
  return a;
}

/* XYZZ from an affine point via the public API (identity + P). */
static XYZZ xyzz_of(const AFF *a) {
  XYZZ r;
  GN(xyzz_set_identity)(&r);
  GN(xyzz_add_affine)(&r, &r, a);
  return r;
}

static bool xyzz_is_identity(const XYZZ *a) {
  JAC t;
  GN(xyzz_to_jacobian)(&t, a);
  return GN(is_identity)(&t);
}

static bool xyzz_eq_jac(const XYZZ *a, const JAC *b) {
  JAC t;
  GN(xyzz_to_jacobian)(&t, a);
  return GN(eq)(&t, b);
}

/* Jacobian add, dbl and neg: associativity, commutativity, identity, inverse. */
static void group_laws_jacobian(JAC a, JAC b, JAC c, JAC o) {
  JAC t1, t2, t3;
  AFF aa = to_aff(&a);
  /* associativity and commutativity */
  GN(add)(&t1, &a, &b);
  GN(add)(&t1, &t1, &c);
  GN(add)(&t2, &b, &c);
  GN(add)(&t2, &a, &t2);
  CHECK(GN(eq)(&t1, &t2));
  GN(add)(&t1, &a, &b);
  GN(add)(&t2, &b, &a);
  CHECK(GN(eq)(&t1, &t2));
  /* identity and inverse */
  GN(add)(&t1, &a, &o);
  CHECK(GN(eq)(&t1, &a));
  GN(add)(&t1, &o, &a);
  CHECK(GN(eq)(&t1, &a));
  GN(neg)(&t2, &a);
  GN(add)(&t1, &a, &t2);
  CHECK(GN(is_identity)(&t1));
  CHECK(!GN(eq)(&a, &t2) && !GN(eq)(&a, &o) && !GN(eq)(&o, &a));
  /* dbl = add(P, P), also with a differently scaled copy of P */
  GN(dbl)(&t1, &a);
  GN(add)(&t2, &a, &a);
  CHECK(GN(eq)(&t1, &t2));
  JAC a1;
  GN(from_affine)(&a1, &aa);
  GN(add)(&t2, &a, &a1);
  CHECK(GN(eq)(&t1, &t2));
  GN(dbl)(&t3, &o);
  CHECK(GN(is_identity)(&t3));
  /* (a + b) - b = a */
  GN(add)(&t1, &a, &b);
  GN(neg)(&t2, &b);
  GN(add)(&t1, &t1, &t2);
  CHECK(GN(eq)(&t1, &a));
}

/* Mixed (Jacobian + affine) add with its special cases, aliasing, the affine round trip. */
static void group_laws_affine(JAC a, JAC b, JAC o) {
  JAC t1, t2;
  AFF aa = to_aff(&a), ba = to_aff(&b), na;
  /* mixed add = add, with its special cases */
  GN(add)(&t1, &a, &b);
  GN(add_affine)(&t2, &a, &ba);
  CHECK(GN(eq)(&t1, &t2));
  GN(dbl)(&t1, &a);
  GN(add_affine)(&t2, &a, &aa);
  CHECK(GN(eq)(&t1, &t2));
  GN(affine_neg)(&na, &aa);
  GN(add_affine)(&t2, &a, &na);
  CHECK(GN(is_identity)(&t2));
  AFF oa = to_aff(&o);
  CHECK(GN(affine_is_identity)(&oa));
  GN(add_affine)(&t2, &a, &oa);
  CHECK(GN(eq)(&t2, &a));
  GN(add_affine)(&t2, &o, &aa);
  CHECK(GN(eq)(&t2, &a));
  GN(affine_neg)(&na, &oa);
  CHECK(GN(affine_is_identity)(&na));
  /* aliasing: r = a and r = b */
  GN(add)(&t1, &a, &b);
  t2 = a;
  GN(add)(&t2, &t2, &b);
  CHECK(GN(eq)(&t1, &t2));
  t2 = b;
  GN(add)(&t2, &a, &t2);
  CHECK(GN(eq)(&t1, &t2));
  t2 = a;
  GN(add_affine)(&t2, &t2, &ba);
  CHECK(GN(eq)(&t1, &t2));
  /* affine round trip and equality */
  AFF ab = to_aff(&t1);
  JAC t4;
  GN(from_affine)(&t4, &ab);
  CHECK(GN(eq)(&t4, &t1));
  CHECK(GN(affine_is_on_curve)(&ab));
  CHECK(GN(affine_eq)(&ab, &ab) && !GN(affine_eq)(&ab, &aa));
}

/* XYZZ agrees with Jacobian, including P + P, P - P, P - (-P) and identity operands. */
static void group_laws_xyzz(JAC a, JAC b, JAC o) {
  JAC t1, t2;
  AFF aa = to_aff(&a), ba = to_aff(&b), na, oa = to_aff(&o);
  /* XYZZ agrees with Jacobian */
  XYZZ x = xyzz_of(&aa), y = xyzz_of(&ba), z;
  CHECK(xyzz_eq_jac(&x, &a));
  GN(xyzz_add_affine)(&z, &x, &ba);
  GN(add)(&t1, &a, &b);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_add)(&z, &z, &x);
  GN(add)(&t1, &t1, &a);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_sub_affine)(&z, &z, &ba);
  GN(neg)(&t2, &b);
  GN(add)(&t1, &t1, &t2);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_dbl)(&z, &z);
  GN(dbl)(&t1, &t1);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_add)(&z, &x, &y);
  GN(add)(&t1, &a, &b);
  CHECK(xyzz_eq_jac(&z, &t1));
  /* XYZZ special cases: P + P, P - P, P - (-P), identity operands */
  XYZZ x2;
  GN(xyzz_dbl)(&x2, &x);
  GN(dbl)(&t1, &a);
  GN(xyzz_add_affine)(&z, &x, &aa);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_add)(&z, &x, &x);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_sub_affine)(&z, &x, &aa);
  CHECK(xyzz_is_identity(&z));
  GN(affine_neg)(&na, &aa);
  GN(xyzz_sub_affine)(&z, &x, &na);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_add_affine)(&z, &x, &na);
  CHECK(xyzz_is_identity(&z));
  XYZZ nx = xyzz_of(&na);
  GN(xyzz_add)(&z, &x2, &nx);
  CHECK(xyzz_eq_jac(&z, &a)); /* 2a - a, distinct Z's */
  GN(xyzz_add)(&z, &x, &nx);
  CHECK(xyzz_is_identity(&z));
  XYZZ xo;
  GN(xyzz_set_identity)(&xo);
  GN(xyzz_add)(&z, &xo, &x);
  CHECK(xyzz_eq_jac(&z, &a));
  GN(xyzz_add)(&z, &x, &xo);
  CHECK(xyzz_eq_jac(&z, &a));
  GN(xyzz_add_affine)(&z, &x, &oa);
  CHECK(xyzz_eq_jac(&z, &a));
  GN(xyzz_sub_affine)(&z, &xo, &aa);
  GN(neg)(&t1, &a);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_dbl)(&z, &xo);
  CHECK(xyzz_is_identity(&z));
  GN(xyzz_to_jacobian)(&t1, &xo);
  CHECK(GN(is_identity)(&t1));
  /* a scaled XYZZ accumulator: 2a + a via xyzz_add_affine on a non-unit ZZ */
  GN(xyzz_add_affine)(&z, &x2, &aa);
  GN(dbl)(&t1, &a);
  GN(add)(&t1, &t1, &a);
  CHECK(xyzz_eq_jac(&z, &t1));
  GN(xyzz_add_affine)(&z, &x2, &na);
  CHECK(xyzz_eq_jac(&z, &a));
}

static void test_group_laws(int iters) {
  JAC o;
  GN(set_identity)(&o);
  CHECK(GN(is_identity)(&o));
  for (int it = 0; it < iters; it++) {
    JAC a = rand_subgroup_point(), b = rand_subgroup_point(), c = rand_subgroup_point();
    group_laws_jacobian(a, b, c, o);
    group_laws_affine(a, b, o);
    group_laws_xyzz(a, b, o);
  }
}

static void test_batch_to_affine(void) {
  enum { N = 9 };
  JAC in[N];
  AFF out[N];
  for (int i = 0; i < N; i++) {
    if (i % 3 == 1) GN(set_identity)(&in[i]);
    else {
      in[i] = rand_subgroup_point();
      GN(dbl)(&in[i], &in[i]); /* a Z far from 1 */
    }
  }
  GN(batch_to_affine)(out, in, N);
  for (int i = 0; i < N; i++) {
    AFF single = to_aff(&in[i]);
    CHECK(GN(affine_eq)(&out[i], &single));
    CHECK(GN(affine_is_on_curve)(&out[i]));
  }
  for (int i = 1; i < N; i += 3) CHECK(GN(affine_is_identity)(&out[i]));
  GN(batch_to_affine)(out, in, 0); /* n = 0 touches nothing */
  GN(batch_to_affine)(out, in + 1, 1);
  CHECK(GN(affine_is_identity)(&out[0]));
}

static void check_mul(const JAC *p, const cz_scalar *k) {
  JAC want, got;
  ref_mul(&want, p, k->l);
  GN(mul)(&got, p, k);
  CHECK(GN(eq)(&got, &want));
  GN(mul_plain)(&got, p, k);
  CHECK(GN(eq)(&got, &want));
  got = *p;
  GN(mul)(&got, &got, k); /* aliased */
  CHECK(GN(eq)(&got, &want));
}

/* k = a - b (mod 2^256) on limbs, for edge scalars. */
static cz_scalar limbs_sub_small(const uint64_t a[4], uint64_t s, bool add) {
  cz_scalar k;
  uint64_t carry = s;
  for (int i = 0; i < 4; i++) {
    if (add) {
      k.l[i] = a[i] + carry;
      carry = k.l[i] < carry;
    } else {
      k.l[i] = a[i] - carry;
      carry = a[i] < carry;
    }
  }
  return k;
}

/* Edge scalars, and 2r - 1 and 2r + 1 (still < 2^256), against ref_mul. */
static void scalar_mul_edges(JAC g, JAC o) {
  JAC t;
  cz_scalar k;
  static const uint64_t z = 0xd201000000010000ULL;
  cz_scalar edges[] = {
      {{0}},
      {{1}},
      {{2}},
      {{3}},
      {{15}},
      {{16}},
      {{17}},
      {{R_LIMBS[0] - 1, R_LIMBS[1], R_LIMBS[2], R_LIMBS[3]}},
      {{R_LIMBS[0], R_LIMBS[1], R_LIMBS[2], R_LIMBS[3]}},
      {{R_LIMBS[0] + 1, R_LIMBS[1], R_LIMBS[2], R_LIMBS[3]}},
      {{~0ULL, ~0ULL, ~0ULL, ~0ULL >> 1}},              /* 2^255 - 1 */
      {{~0ULL, ~0ULL, ~0ULL, ~0ULL}},                   /* 2^256 - 1 */
      {{0, 0, 0, 1ULL << 63}},                          /* 2^255 */
      {{0x00000000ffffffffULL, 0xac45a4010001a402ULL}}, /* lambda = z^2 - 1 */
      {{0x0000000100000000ULL, 0xac45a4010001a402ULL}}, /* z^2 */
      {{0x00000000fffffffeULL, 0xac45a4010001a402ULL}}, /* lambda - 1 */
      {{z}},
      {{z - 1}},
      {{0, z}},
      {{0, 0, z}},
      {{0, 0, 0, z >> 2}},
      {{~0ULL, ~0ULL}},
      {{0, 0, 1}},
  };
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
    JAC p = rand_subgroup_point();
    check_mul(&p, &edges[i]);
    check_mul(&g, &edges[i]);
    GN(mul)(&t, &o, &edges[i]);
    CHECK(GN(is_identity)(&t));
  }
  /* 2r - 1 and 2r + 1 (still < 2^256) */
  uint64_t r2[4];
  uint64_t c = 0;
  for (int i = 0; i < 4; i++) {
    r2[i] = (R_LIMBS[i] << 1) | c;
    c = R_LIMBS[i] >> 63;
  }
  k = limbs_sub_small(r2, 1, false);
  check_mul(&g, &k);
  k = limbs_sub_small(r2, 1, true);
  check_mul(&g, &k);
}

static void test_scalar_mul(int iters) {
  JAC g = gen_jac(), o, t;
  GN(set_identity)(&o);
  cz_scalar k;
  /* [r] G = O, [r - 1] G = -G, [r + 1] G = G */
  memcpy(k.l, R_LIMBS, sizeof k.l);
  GN(mul)(&t, &g, &k);
  CHECK(GN(is_identity)(&t));
  GN(mul_plain)(&t, &g, &k);
  CHECK(GN(is_identity)(&t));
  k = limbs_sub_small(R_LIMBS, 1, false);
  GN(mul)(&t, &g, &k);
  GN(neg)(&t, &t);
  CHECK(GN(eq)(&t, &g));
  k = limbs_sub_small(R_LIMBS, 1, true);
  GN(mul)(&t, &g, &k);
  CHECK(GN(eq)(&t, &g));

  scalar_mul_edges(g, o);

  for (int it = 0; it < iters; it++) {
    JAC p = rand_subgroup_point();
    rand_scalar(&k);
    check_mul(&p, &k);
    /* mul_fr agrees with mul of the canonical value */
    cz_fr f;
    uint8_t bytes[64];
    check_rand_bytes(bytes, sizeof bytes);
    cz_fr_from_wide_le(&f, bytes);
    cz_scalar s;
    cz_fr_to_scalar(&s, &f);
    JAC t1, t2;
    GN(mul_fr)(&t1, &p, &f);
    ref_mul(&t2, &p, s.l);
    CHECK(GN(eq)(&t1, &t2));
    /* mul_plain is exact on points outside the subgroup as well */
    AFF qa = rand_curve_point();
    JAC q, want;
    GN(from_affine)(&q, &qa);
    GN(mul_plain)(&t1, &q, &k);
    ref_mul(&want, &q, k.l);
    CHECK(GN(eq)(&t1, &want));
  }
}

static bool naive_in_subgroup(const AFF *p) {
  JAC q, t;
  cz_scalar r;
  memcpy(r.l, R_LIMBS, sizeof r.l);
  GN(from_affine)(&q, p);
  GN(mul_plain)(&t, &q, &r);
  return GN(is_identity)(&t);
}

static void test_subgroup_checks(int iters) {
  AFF o = {0};
  CHECK(GN(affine_is_on_curve)(&o) && GN(affine_is_in_subgroup)(&o));
  CHECK(GN(affine_is_on_curve)(&GEN) && GN(affine_is_in_subgroup)(&GEN));
  int outside = 0;
  for (int it = 0; it < iters; it++) {
    JAC a = rand_subgroup_point();
    AFF aa = to_aff(&a);
    CHECK(GN(affine_is_on_curve)(&aa));
    CHECK(GN(affine_is_in_subgroup)(&aa));
    CHECK(naive_in_subgroup(&aa));
    AFF q = rand_curve_point();
    CHECK(GN(affine_is_on_curve)(&q));
    bool naive = naive_in_subgroup(&q);
    CHECK_EQ_INT(GN(affine_is_in_subgroup)(&q), naive);
    outside += !naive;
    /* subgroup point + outside point is outside */
    JAC s;
    GN(add_affine)(&s, &a, &q);
    AFF sa = to_aff(&s);
    CHECK_EQ_INT(GN(affine_is_in_subgroup)(&sa), naive_in_subgroup(&sa));
    /* off the curve */
    FF(add)(&aa.y, &aa.y, &aa.x);
    CHECK(!GN(affine_is_on_curve)(&aa));
  }
  CHECK(outside > iters / 2); /* the lifted points really exercise the test */
}
