/* UInt32, MultiEq and multipack against bellpepper's uint32.rs and
 * multipack.rs tests: values, bit order, constant folding, satisfaction,
 * a flipped result bit caught, MultiEq's packing into 254-bit constraints,
 * and packed public inputs equal to compute_multipacking. */
#include <string.h>

#include "check.h"
#include "cuzk/gadgets.h"

static uint32_t rnd32(void) { return (uint32_t)check_rand64(); }

static uint32_t value_of(const cz_cs *cs, const cz_u32 *x) {
  uint32_t v = 0;
  for (int i = 0; i < 32; i++) {
    bool b = x->bits[i].value;
    if (x->bits[i].form != CZ_BOOL_CONST) {
      cz_fr f;
      cz_cs_value(cs, x->bits[i].var, &f);
      b = cz_fr_is_one(&f) ^ (x->bits[i].form == CZ_BOOL_NOT);
    }
    v |= (uint32_t)b << i;
  }
  return v;
}

/* test_uint32_from_bits_be / from_bits, rotr, shr: rewiring only. */
static void test_bits_rot(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  uint32_t v = rnd32();
  cz_u32 a, b, r;
  CHECK(cz_u32_alloc(cs, &a, v) == CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 32);
  CHECK(!strcmp(cz_cs_constraint_name(cs, 3), "allocated bit 3/boolean constraint"));
  cz_bool be[32], le[32];
  cz_u32_into_bits_be(&a, be);
  cz_u32_into_bits_le(&a, le);
  for (int i = 0; i < 32; i++)
    CHECK(be[i].value == ((v >> (31 - i)) & 1) && le[i].value == ((v >> i) & 1));
  cz_u32_from_bits_be(&b, be);
  CHECK(b.value == v && cz_var_eq(b.bits[0].var, a.bits[0].var));
  cz_u32_from_bits_le(&b, le);
  CHECK(b.value == v);
  for (unsigned k = 0; k < 40; k++) {
    cz_u32_rotr(&r, &a, k);
    uint32_t want = (v >> (k % 32)) | (k % 32 ? v << (32 - k % 32) : 0);
    CHECK(r.value == want && value_of(cs, &r) == want);
    cz_u32_shr(&r, &a, k);
    CHECK(r.value == v >> (k % 32) && value_of(cs, &r) == v >> (k % 32));
  }
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 32);
  cz_cs_free(cs);
}

/* test_uint32_xor: a allocated, b constant, c allocated: (a ^ b) ^ c. */
static void test_xor(void) {
  for (int t = 0; t < 20; t++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    uint32_t va = rnd32(), vb = rnd32(), vc = rnd32();
    cz_u32 a, b, c, r;
    CZ_PUSH_NS(cs, "a_bit");
    CHECK(cz_u32_alloc(cs, &a, va) == CZ_OK);
    CZ_POP_NS(cs);
    cz_u32_const(&b, vb);
    CZ_PUSH_NS(cs, "c_bit");
    CHECK(cz_u32_alloc(cs, &c, vc) == CZ_OK);
    CZ_POP_NS(cs);
    CZ_PUSH_NS(cs, "first xor");
    CHECK(cz_u32_xor(cs, &r, &a, &b) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 64); /* xor with a constant is free */
    CZ_PUSH_NS(cs, "second xor");
    CHECK(cz_u32_xor(cs, &r, &r, &c) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 96);
    CHECK(cz_cs_is_satisfied(cs));
    CHECK(r.value == (va ^ vb ^ vc) && value_of(cs, &r) == (va ^ vb ^ vc));
    cz_fr f;
    cz_cs_value(cs, r.bits[5].var, &f);
    cz_fr_sub(&f, &CZ_FR_ONE, &f);
    cz_cs_set_value(cs, r.bits[5].var, &f);
    const char *u = cz_cs_which_is_unsatisfied(cs, NULL);
    CHECK(u && !strcmp(u, "second xor/xor of bit 5/xor constraint"));
    cz_cs_free(cs);
  }
}

/* test_uint32_addmany_constants and test_uint32_addmany. */
static void test_addmany(void) {
  for (int t = 0; t < 50; t++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    uint32_t v[3] = {rnd32(), rnd32(), rnd32()};
    cz_u32 ops[3], r;
    for (int i = 0; i < 3; i++) cz_u32_const(&ops[i], v[i]);
    cz_multieq m;
    cz_multieq_init(&m, cs);
    CZ_PUSH_NS(cs, "addition");
    CHECK(cz_u32_addmany(&m, &r, ops, 3) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK(cz_multieq_finish(&m) == CZ_OK);
    CHECK(r.value == v[0] + v[1] + v[2]);
    for (int i = 0; i < 32; i++)
      CHECK(r.bits[i].form == CZ_BOOL_CONST &&
            r.bits[i].value == (((v[0] + v[1] + v[2]) >> i) & 1));
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 0);
    cz_cs_free(cs);
  }
  for (int t = 0; t < 50; t++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    uint32_t a = rnd32(), b = rnd32(), c = rnd32(), d = rnd32();
    uint32_t expected = (a ^ b) + c + d;
    cz_u32 ua, ub, ops[3], r;
    CZ_PUSH_NS(cs, "a_bit");
    CHECK(cz_u32_alloc(cs, &ua, a) == CZ_OK);
    CZ_POP_NS(cs);
    cz_u32_const(&ub, b);
    cz_u32_const(&ops[1], c);
    CZ_PUSH_NS(cs, "d_bit");
    CHECK(cz_u32_alloc(cs, &ops[2], d) == CZ_OK);
    CZ_POP_NS(cs);
    CZ_PUSH_NS(cs, "xor");
    CHECK(cz_u32_xor(cs, &ops[0], &ua, &ub) == CZ_OK);
    CZ_POP_NS(cs);
    size_t before = cz_cs_num_constraints(cs);
    cz_multieq m;
    cz_multieq_init(&m, cs);
    CZ_PUSH_NS(cs, "addition");
    CHECK(cz_u32_addmany(&m, &r, ops, 3) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK(cz_multieq_finish(&m) == CZ_OK);
    /* 3 operands: sums below 3 * (2^32 - 1) < 2^34, so 34 result bits and
     * one multieq constraint (derived from uint32.rs / multieq.rs). */
    CHECK_EQ_INT(cz_cs_num_constraints(cs) - before, 35);
    CHECK(cz_cs_is_satisfied(cs));
    CHECK(r.value == expected && value_of(cs, &r) == expected);
    cz_fr f;
    cz_cs_value(cs, r.bits[0].var, &f);
    cz_fr_sub(&f, &CZ_FR_ONE, &f);
    cz_cs_set_value(cs, r.bits[0].var, &f);
    const char *u = cz_cs_which_is_unsatisfied(cs, NULL);
    CHECK(u && !strcmp(u, "multieq 0"));
    cz_cs_free(cs);
  }
  cz_u32 x;
  cz_multieq m;
  cz_multieq_init(&m, NULL);
  CHECK_EQ_INT(cz_u32_addmany(&m, &x, &x, 1), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_u32_addmany(&m, &x, &x, 11), CZ_ERR_INVALID_ARG);
  cz_lc_free(&m.lhs);
  cz_lc_free(&m.rhs);
}

/* MultiEq packs equalities while bits_used + n < 254: seven 2-operand
 * additions (33 bits each, 231 bits) share "multieq 0"; the eighth opens
 * "multieq 1", emitted right after its result bits. */
static void test_multieq_packing(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_u32 x, y, r;
  CZ_PUSH_NS(cs, "x");
  CHECK(cz_u32_alloc(cs, &x, rnd32()) == CZ_OK);
  CZ_POP_NS(cs);
  cz_u32_const(&y, rnd32());
  cz_multieq m;
  cz_multieq_init(&m, cs);
  for (int i = 0; i < 8; i++) {
    cz_u32 ops[2] = {x, y};
    CZ_PUSH_NS(cs, "add %d", i);
    CHECK(cz_u32_addmany(&m, &r, ops, 2) == CZ_OK);
    CZ_POP_NS(cs);
    if (i == 7)
      CHECK(!strcmp(cz_cs_constraint_name(cs, cz_cs_num_constraints(cs) - 1), "add 7/multieq 0"));
    x = r;
  }
  CHECK(cz_multieq_finish(&m) == CZ_OK);
  CHECK(!strcmp(cz_cs_constraint_name(cs, cz_cs_num_constraints(cs) - 1), "multieq 1"));
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 32 + 8 * 33 + 2);
  CHECK(cz_cs_is_satisfied(cs));
  cz_cs_free(cs);
}

/* test_uint32_sha256_maj / _ch: a allocated, b constant, c allocated. */
static void test_maj_ch(void) {
  for (int t = 0; t < 20; t++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    uint32_t va = rnd32(), vb = rnd32(), vc = rnd32();
    cz_u32 a, b, c, r1, r2;
    CZ_PUSH_NS(cs, "a_bit");
    CHECK(cz_u32_alloc(cs, &a, va) == CZ_OK);
    CZ_POP_NS(cs);
    cz_u32_const(&b, vb);
    CZ_PUSH_NS(cs, "c_bit");
    CHECK(cz_u32_alloc(cs, &c, vc) == CZ_OK);
    CZ_POP_NS(cs);
    CZ_PUSH_NS(cs, "maj");
    CHECK(cz_u32_sha256_maj(cs, &r1, &a, &b, &c) == CZ_OK);
    CZ_POP_NS(cs);
    CZ_PUSH_NS(cs, "ch");
    CHECK(cz_u32_sha256_ch(cs, &r2, &a, &b, &c) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK(cz_cs_is_satisfied(cs));
    uint32_t maj = (va & vb) ^ (va & vc) ^ (vb & vc), ch = (va & vb) ^ (~va & vc);
    CHECK(r1.value == maj && value_of(cs, &r1) == maj);
    CHECK(r2.value == ch && value_of(cs, &r2) == ch);
    /* With b constant every bit costs exactly one AND. */
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 64 + 32 + 32);
    cz_cs_free(cs);
  }
}

/* multipack.rs test_multipacking (0..1500 bits there; a spread here). */
static void test_multipacking(void) {
  static const size_t lens[] = {0, 1, 253, 254, 255, 256, 508, 509, 1000, 1499};
  for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
    size_t n = lens[k];
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    bool *bits = malloc(n + 1);
    cz_bool *cb = malloc((n + 1) * sizeof *cb);
    for (size_t i = 0; i < n; i++) {
      bits[i] = check_rand64() & 1;
      cz_abit b;
      CZ_PUSH_NS(cs, "bit %zu", i);
      CHECK(cz_abit_alloc(cs, &b, bits[i]) == CZ_OK);
      CZ_POP_NS(cs);
      cb[i] = cz_bool_from_bit(b);
    }
    cz_fr expected[8];
    size_t ne = cz_compute_multipacking(expected, bits, n);
    CHECK_EQ_INT(ne, (n + 253) / 254);
    CZ_PUSH_NS(cs, "pack");
    CHECK(cz_pack_into_inputs(cs, cb, n) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK(cz_cs_is_satisfied(cs));
    CHECK_EQ_INT(cz_cs_num_inputs(cs), 1 + ne);
    for (size_t i = 0; i < ne; i++) {
      cz_fr v;
      CHECK(cz_cs_value(cs, cz_var_input((uint32_t)(i + 1)), &v) && cz_fr_eq(&v, &expected[i]));
    }
    if (ne) {
      cz_fr v;
      cz_cs_value(cs, cz_var_input(1), &v);
      cz_fr_add(&v, &v, &CZ_FR_ONE);
      cz_cs_set_value(cs, cz_var_input(1), &v);
      CHECK(!strcmp(cz_cs_which_is_unsatisfied(cs, NULL), "pack/packing constraint 0"));
    }
    /* pack_bits: the first 254 bits as one number. */
    if (n) {
      cz_anum a;
      CHECK(cz_pack_bits(cs, &a, cb, n) == CZ_OK);
      cz_fr v;
      CHECK(cz_cs_value(cs, a.var, &v) && cz_fr_eq(&v, &expected[0]) &&
            cz_fr_eq(&a.value, &expected[0]));
    }
    free(bits);
    free(cb);
    cz_cs_free(cs);
  }
  /* bytes_to_bits: MSB first per byte; _le: LSB first. */
  uint8_t by[2] = {0x80, 0x03};
  bool be[16], le[16];
  cz_bytes_to_bits(be, by, 2);
  cz_bytes_to_bits_le(le, by, 2);
  CHECK(be[0] && !be[1] && be[14] && be[15] && !be[8]);
  CHECK(le[7] && !le[0] && le[8] && le[9] && !le[15]);
}

/* storage-proofs-core uint64.rs: UInt64::alloc (64 allocated bits, LSB
 * first, "allocated bit i") and pack_into_input (one input, the value). */
static void test_u64_alloc_pack(void) {
  for (int round = 0; round < 20; round++) {
    uint64_t v = check_rand64() >> (round % 64);
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_bool bits[64];
    CZ_PUSH_NS(cs, "challenge");
    CHECK_EQ_INT(cz_u64_alloc(cs, bits, v), CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_cs_num_aux(cs), 64);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 64);
    bool ok = true;
    for (int i = 0; i < 64; i++) {
      cz_fr f;
      const cz_fr *want = (v >> i) & 1 ? &CZ_FR_ONE : &CZ_FR_ZERO;
      ok &= bits[i].form == CZ_BOOL_IS && bits[i].value == ((v >> i) & 1) &&
            cz_cs_value(cs, bits[i].var, &f) && cz_fr_eq(&f, want);
    }
    CHECK(ok);
    const char *n = cz_cs_constraint_name(cs, 63);
    CHECK(n && strcmp(n, "challenge/allocated bit 63/boolean constraint") == 0);
    CZ_PUSH_NS(cs, "challenge input");
    CHECK_EQ_INT(cz_pack_into_inputs(cs, bits, 64), CZ_OK);
    CZ_POP_NS(cs);
    cz_fr in, want;
    cz_fr_from_u64(&want, v);
    CHECK_EQ_INT(cz_cs_num_inputs(cs), 2);
    CHECK(cz_cs_value(cs, cz_var_input(1), &in) && cz_fr_eq(&in, &want));
    CHECK(cz_cs_is_satisfied(cs));
    cz_cs_free(cs);
  }
}

int main(void) {
  test_u64_alloc_pack();
  test_bits_rot();
  test_xor();
  test_addmany();
  test_multieq_packing();
  test_maj_ch();
  test_multipacking();
  return check_report("test_uint32");
}
