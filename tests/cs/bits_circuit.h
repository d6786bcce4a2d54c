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

/* A circuit of bits: boolean checks, xors, packings into numbers (big
 * power-of-two coefficients), sums with constants and negations, a
 * multiplication of two "other" numbers, inputs in A, B and C. */
static void bits_circuit(cz_cs *cs, uint64_t seed) {
  bool vals_ = cz_cs_needs_values(cs);
  cz_var in;
  cz_fr inv = bits_fr(seed * 5 + 3);
  cz_cs_alloc_input(cs, &in, vals_ ? &inv : NULL);
  enum { N = 200 };
  cz_var bit[N];
  uint64_t st = seed;
  bool bv[N];
  for (int i = 0; i < N; i++) {
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    bv[i] = (st >> 33) & 1;
    cz_fr v = bv[i] ? CZ_FR_ONE : CZ_FR_ZERO;
    cz_cs_alloc(cs, &bit[i], vals_ ? &v : NULL);
    cz_lc a, b2, c;
    cz_lc_init(&a, cs);
    cz_lc_init(&b2, cs);
    cz_lc_init(&c, cs);
    cz_lc_add(&a, CZ_VAR_ONE); /* (1 - b) * b = 0 */
    cz_lc_sub(&a, bit[i]);
    cz_lc_add(&b2, bit[i]);
    cz_cs_enforce(cs, &a, &b2, &c);
    cz_lc_free(&a);
    cz_lc_free(&b2);
    cz_lc_free(&c);
  }
  /* xor: (2a) * b = a + b - x */
  for (int i = 0; i + 1 < N; i += 2) {
    bool x = bv[i] ^ bv[i + 1];
    cz_fr xv = x ? CZ_FR_ONE : CZ_FR_ZERO, two = bits_fr(2);
    cz_var xo;
    cz_cs_alloc(cs, &xo, vals_ ? &xv : NULL);
    cz_lc a, b2, c;
    cz_lc_init(&a, cs);
    cz_lc_init(&b2, cs);
    cz_lc_init(&c, cs);
    cz_lc_add_term(&a, bit[i], &two);
    cz_lc_add(&b2, bit[i + 1]);
    cz_lc_add(&c, bit[i]);
    cz_lc_add(&c, bit[i + 1]);
    cz_lc_sub(&c, xo);
    cz_cs_enforce(cs, &a, &b2, &c);
    cz_lc_free(&a);
    cz_lc_free(&b2);
    cz_lc_free(&c);
  }
  /* pack 64 bits at a time: num * ONE = sum 2^i b_i; then num1 * num2 = p. */
  cz_var num[3];
  cz_fr numv[3];
  for (int k = 0; k < 3; k++) {
    cz_fr acc = CZ_FR_ZERO, pw = CZ_FR_ONE, t;
    cz_lc packed, one, c;
    cz_lc_init(&packed, cs);
    cz_lc_init(&one, cs);
    cz_lc_init(&c, cs);
    for (int i = 0; i < 64; i++) {
      cz_lc_add_term(&packed, bit[k * 64 + i], &pw);
      if (bv[k * 64 + i]) cz_fr_add(&acc, &acc, &pw);
      cz_fr_add(&t, &pw, &pw);
      pw = t;
    }
    numv[k] = acc;
    cz_cs_alloc(cs, &num[k], vals_ ? &acc : NULL);
    cz_lc_add(&one, CZ_VAR_ONE);
    cz_lc_add(&c, num[k]);
    cz_cs_enforce(cs, &packed, &one, &c);
    cz_lc_free(&packed);
    cz_lc_free(&one);
    cz_lc_free(&c);
  }
  cz_fr prod, k7 = bits_fr(7), sum;
  cz_fr_mul(&prod, &numv[0], &numv[1]);
  cz_var pv;
  cz_cs_alloc(cs, &pv, vals_ ? &prod : NULL);
  cz_lc a, b2, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&b2, cs);
  cz_lc_init(&c, cs);
  cz_lc_add(&a, num[0]);
  cz_lc_add(&b2, num[1]);
  cz_lc_add(&c, pv);
  cz_cs_enforce(cs, &a, &b2, &c);
  /* (num2 + 7 - in) * in = s */
  cz_lc_clear(&a);
  cz_lc_clear(&b2);
  cz_lc_clear(&c);
  cz_fr_add(&sum, &numv[2], &k7);
  cz_fr_sub(&sum, &sum, &inv);
  cz_fr_mul(&sum, &sum, &inv);
  cz_var sv;
  cz_cs_alloc(cs, &sv, vals_ ? &sum : NULL);
  cz_lc_add(&a, num[2]);
  cz_lc_add_const(&a, &k7);
  cz_lc_sub(&a, in);
  cz_lc_add(&b2, in);
  cz_lc_add(&c, sv);
  cz_cs_enforce(cs, &a, &b2, &c);
  cz_lc_free(&a);
  cz_lc_free(&b2);
  cz_lc_free(&c);
}

static cz_cs *run_bits(cz_cs_kind kind, uint64_t seed) {
  cz_cs *cs = cz_cs_new(kind, NULL);
  bits_circuit(cs, seed);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return cs;
}

#endif
