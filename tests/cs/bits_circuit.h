/* A small circuit for the recorded-shape tests (test_pce, test_pce_file):
 * included by a test after check.h. */
#ifndef CUZK_TESTS_BITS_CIRCUIT_H
#define CUZK_TESTS_BITS_CIRCUIT_H
#include "cuzk/cs.h"

static cz_fr bits_fr(uint64_t v) {
  cz_fr r;
  cz_fr_from_u64(&r, v);
  return r;
}

enum { BITS_N = 200 };

/* What the steps of bits_circuit share: the run, its input, its bits (with
 * their values) and the three numbers packed from them. */
typedef struct {
  cz_cs *cs;
  bool vals; /* the run wants values */
  cz_var in;
  cz_fr inv;
  cz_var bit[BITS_N];
  bool bv[BITS_N];
  cz_var num[3];
  cz_fr numv[3];
} bits_ctx;

/* BITS_N bits drawn from an LCG seeded with seed, each with its boolean
 * check (1 - b) * b = 0. */
static void bits_booleans(bits_ctx *x, uint64_t seed) {
  uint64_t st = seed;
  for (int i = 0; i < BITS_N; i++) {
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    x->bv[i] = (st >> 33) & 1;
    cz_fr v = x->bv[i] ? CZ_FR_ONE : CZ_FR_ZERO;
    CHECK(cz_cs_alloc(x->cs, &x->bit[i], x->vals ? &v : NULL) == CZ_OK);
    cz_lc a, b2, c;
    cz_lc_init(&a, x->cs);
    cz_lc_init(&b2, x->cs);
    cz_lc_init(&c, x->cs);
    cz_lc_add(&a, CZ_VAR_ONE); /* (1 - b) * b = 0 */
    cz_lc_sub(&a, x->bit[i]);
    cz_lc_add(&b2, x->bit[i]);
    cz_cs_enforce(x->cs, &a, &b2, &c);
    cz_lc_free(&a);
    cz_lc_free(&b2);
    cz_lc_free(&c);
  }
}

/* The xor of each pair of bits: (2a) * b = a + b - x. */
static void bits_xors(bits_ctx *x) {
  for (int i = 0; i + 1 < BITS_N; i += 2) {
    bool xb = x->bv[i] ^ x->bv[i + 1];
    cz_fr xv = xb ? CZ_FR_ONE : CZ_FR_ZERO, two = bits_fr(2);
    cz_var xo;
    CHECK(cz_cs_alloc(x->cs, &xo, x->vals ? &xv : NULL) == CZ_OK);
    cz_lc a, b2, c;
    cz_lc_init(&a, x->cs);
    cz_lc_init(&b2, x->cs);
    cz_lc_init(&c, x->cs);
    cz_lc_add_term(&a, x->bit[i], &two);
    cz_lc_add(&b2, x->bit[i + 1]);
    cz_lc_add(&c, x->bit[i]);
    cz_lc_add(&c, x->bit[i + 1]);
    cz_lc_sub(&c, xo);
    cz_cs_enforce(x->cs, &a, &b2, &c);
    cz_lc_free(&a);
    cz_lc_free(&b2);
    cz_lc_free(&c);
  }
}

/* Bits 64k .. 64k + 63 packed into number k: num * ONE = sum 2^i b_i (big
 * power-of-two coefficients). */
static void bits_pack(bits_ctx *x, int k) {
  cz_fr acc = CZ_FR_ZERO, pw = CZ_FR_ONE, t;
  cz_lc packed, one, c;
  cz_lc_init(&packed, x->cs);
  cz_lc_init(&one, x->cs);
  cz_lc_init(&c, x->cs);
  for (int i = 0; i < 64; i++) {
    cz_lc_add_term(&packed, x->bit[k * 64 + i], &pw);
    if (x->bv[k * 64 + i]) cz_fr_add(&acc, &acc, &pw);
    cz_fr_add(&t, &pw, &pw);
    pw = t;
  }
  x->numv[k] = acc;
  CHECK(cz_cs_alloc(x->cs, &x->num[k], x->vals ? &acc : NULL) == CZ_OK);
  cz_lc_add(&one, CZ_VAR_ONE);
  cz_lc_add(&c, x->num[k]);
  cz_cs_enforce(x->cs, &packed, &one, &c);
  cz_lc_free(&packed);
  cz_lc_free(&one);
  cz_lc_free(&c);
}

/* The product num[0] * num[1] = p, then a sum with a constant and a
 * negation, the input in A and B: (num[2] + 7 - in) * in = s. */
static void bits_product_and_sum(bits_ctx *x) {
  cz_fr prod, k7 = bits_fr(7), sum;
  cz_fr_mul(&prod, &x->numv[0], &x->numv[1]);
  cz_var pv;
  CHECK(cz_cs_alloc(x->cs, &pv, x->vals ? &prod : NULL) == CZ_OK);
  cz_lc a, b2, c;
  cz_lc_init(&a, x->cs);
  cz_lc_init(&b2, x->cs);
  cz_lc_init(&c, x->cs);
  cz_lc_add(&a, x->num[0]);
  cz_lc_add(&b2, x->num[1]);
  cz_lc_add(&c, pv);
  cz_cs_enforce(x->cs, &a, &b2, &c);
  cz_lc_clear(&a);
  cz_lc_clear(&b2);
  cz_lc_clear(&c);
  cz_fr_add(&sum, &x->numv[2], &k7);
  cz_fr_sub(&sum, &sum, &x->inv);
  cz_fr_mul(&sum, &sum, &x->inv);
  cz_var sv;
  CHECK(cz_cs_alloc(x->cs, &sv, x->vals ? &sum : NULL) == CZ_OK);
  cz_lc_add(&a, x->num[2]);
  cz_lc_add_const(&a, &k7);
  cz_lc_sub(&a, x->in);
  cz_lc_add(&b2, x->in);
  cz_lc_add(&c, sv);
  cz_cs_enforce(x->cs, &a, &b2, &c);
  cz_lc_free(&a);
  cz_lc_free(&b2);
  cz_lc_free(&c);
}

/* A circuit of bits: boolean checks, xors, packings into numbers (big
 * power-of-two coefficients), sums with constants and negations, a
 * multiplication of two "other" numbers, inputs in A, B and C. */
static void bits_circuit(cz_cs *cs, uint64_t seed) {
  bits_ctx x = {.cs = cs, .vals = cz_cs_needs_values(cs), .inv = bits_fr(seed * 5 + 3)};
  CHECK(cz_cs_alloc_input(cs, &x.in, x.vals ? &x.inv : NULL) == CZ_OK);
  bits_booleans(&x, seed);
  bits_xors(&x);
  for (int k = 0; k < 3; k++) bits_pack(&x, k);
  bits_product_and_sum(&x);
}

static cz_cs *run_bits(cz_cs_mode mode, uint64_t seed) {
  cz_cs *cs = cz_cs_new(mode, NULL);
  bits_circuit(cs, seed);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return cs;
}

#endif
