/* Boolean gadgets against bellpepper-core's boolean.rs tests: every operand
 * kind (constant, allocated, negated allocated; true and false), values,
 * satisfaction, the constraint that breaks when a result is flipped, and
 * the constraint counts of the constant-folding rules. */
#include "check.h"
#include "cuzk/gadgets.h"

/* bellpepper's OperandType. */
enum { T_TRUE, T_FALSE, A_TRUE, A_FALSE, N_TRUE, N_FALSE, N_KINDS };
static bool kind_val(int k) { return k == T_TRUE || k == A_TRUE || k == N_FALSE; }
static bool kind_const(int k) { return k == T_TRUE || k == T_FALSE; }

static cz_bool make(cz_cs *cs, int k, const char *name) {
  if (kind_const(k)) return cz_bool_const(k == T_TRUE);
  cz_abit b;
  CZ_PUSH_NS(cs, "%s", name);
  CHECK(cz_abit_alloc(cs, &b, k == A_TRUE || k == N_TRUE) == CZ_OK);
  CZ_POP_NS(cs);
  cz_bool r = cz_bool_from_bit(b);
  return (k == N_TRUE || k == N_FALSE) ? cz_bool_not(r) : r;
}

static size_t n_alloc(int k) { return kind_const(k) ? 0 : 1; }

/* Flip a variable's 0/1 value. */
static void flip(cz_cs *cs, cz_var v) {
  cz_fr x;
  cz_cs_value(cs, v, &x);
  cz_fr_sub(&x, &CZ_FR_ONE, &x);
  cz_cs_set_value(cs, v, &x);
}

static bool fr_is_bit(const cz_cs *cs, cz_var v, bool b) {
  cz_fr x;
  return cz_cs_value(cs, v, &x) && cz_fr_eq(&x, b ? &CZ_FR_ONE : &CZ_FR_ZERO);
}

/* test_allocated_bit, test_xor, test_and, test_and_not, test_nor. */
static void test_allocated(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_abit b;
  CHECK(cz_abit_alloc(cs, &b, true) == CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 1);
  cz_fr two;
  cz_fr_from_u64(&two, 2);
  cz_cs_set_value(cs, b.var, &two);
  CHECK(!cz_cs_is_satisfied(cs));
  CHECK(!strcmp(cz_cs_which_is_unsatisfied(cs, NULL), "boolean constraint"));
  cz_cs_free(cs);

  static const char *names[4] = {"xor constraint", "and constraint", "and not constraint",
                                 "nor constraint"};
  for (int op = 0; op < 4; op++)
    for (int av = 0; av < 2; av++)
      for (int bv = 0; bv < 2; bv++) {
        cs = cz_cs_new(CZ_CS_TEST, NULL);
        cz_abit a, c, r;
        CZ_PUSH_NS(cs, "a");
        CHECK(cz_abit_alloc(cs, &a, av) == CZ_OK);
        CZ_POP_NS(cs);
        CZ_PUSH_NS(cs, "b");
        CHECK(cz_abit_alloc(cs, &c, bv) == CZ_OK);
        CZ_POP_NS(cs);
        bool want;
        switch (op) {
          case 0:
            CHECK(cz_abit_xor(cs, &r, &a, &c) == CZ_OK);
            want = av ^ bv;
            break;
          case 1:
            CHECK(cz_abit_and(cs, &r, &a, &c) == CZ_OK);
            want = av & bv;
            break;
          case 2:
            CHECK(cz_abit_and_not(cs, &r, &a, &c) == CZ_OK);
            want = av & !bv;
            break;
          default:
            CHECK(cz_abit_nor(cs, &r, &a, &c) == CZ_OK);
            want = !av & !bv;
            break;
        }
        CHECK(r.value == want);
        CHECK(fr_is_bit(cs, r.var, want));
        CHECK(cz_cs_is_satisfied(cs));
        CHECK_EQ_INT(cz_cs_num_constraints(cs), 3);
        flip(cs, r.var);
        const char *u = cz_cs_which_is_unsatisfied(cs, NULL);
        CHECK(u && !strcmp(u, names[op]));
        cz_cs_free(cs);
      }
}

/* test_alloc_conditionally: must_be_false = 1 forces the bit to 0. */
static void test_alloc_conditionally(void) {
  for (int mbf = 0; mbf < 2; mbf++)
    for (int v = 0; v < 2; v++) {
      cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
      cz_abit m, b;
      CZ_PUSH_NS(cs, "m");
      CHECK(cz_abit_alloc(cs, &m, mbf) == CZ_OK);
      CZ_POP_NS(cs);
      CZ_PUSH_NS(cs, "b");
      CHECK(cz_abit_alloc_conditionally(cs, &b, v, &m) == CZ_OK);
      CZ_POP_NS(cs);
      CHECK(cz_cs_is_satisfied(cs) == !(mbf && v));
      if (mbf && v) CHECK(!strcmp(cz_cs_which_is_unsatisfied(cs, NULL), "b/boolean constraint"));
      cz_cs_free(cs);
    }
}

/* Expected constraints of Boolean::and / xor on two operands: bellpepper
 * folds every case with a constant, otherwise one AllocatedBit op. */
static size_t two_op_cost(int x, int y) { return kind_const(x) || kind_const(y) ? 0 : 1; }

/* test_boolean_xor, test_boolean_and, test_boolean_or, test_boolean_negation. */
static void test_two_operand(void) {
  for (int op = 0; op < 3; op++)
    for (int x = 0; x < N_KINDS; x++)
      for (int y = 0; y < N_KINDS; y++) {
        cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
        cz_bool a = make(cs, x, "a"), b = make(cs, y, "b"), r;
        bool va = kind_val(x), vb = kind_val(y), want;
        if (op == 0) {
          CHECK(cz_bool_xor(cs, &r, &a, &b) == CZ_OK);
          want = va ^ vb;
        } else if (op == 1) {
          CHECK(cz_bool_and(cs, &r, &a, &b) == CZ_OK);
          want = va & vb;
        } else {
          CHECK(cz_bool_or(cs, &r, &a, &b) == CZ_OK);
          want = va | vb;
        }
        CHECK(r.value == want);
        CHECK(cz_cs_is_satisfied(cs));
        CHECK_EQ_INT(cz_cs_num_constraints(cs), n_alloc(x) + n_alloc(y) + two_op_cost(x, y));
        /* The value on the circuit side agrees with .value. */
        if (r.form != CZ_BOOL_CONST)
          CHECK(fr_is_bit(cs, r.var, r.form == CZ_BOOL_IS ? want : !want));
        else CHECK(kind_const(x) || kind_const(y));
        /* A flipped result breaks the circuit when one was allocated. */
        if (two_op_cost(x, y)) {
          flip(cs, r.var);
          CHECK(!cz_cs_is_satisfied(cs));
        }
        cz_cs_free(cs);
        /* Negation: a constraint-free view of the same bit. */
        cz_bool n = cz_bool_not(a);
        CHECK(n.value == !va);
        CHECK(cz_bool_not(n).form == a.form);
      }
}

/* test_boolean_sha256_ch / _maj: values over all 216 operand triples, 0
 * constraints when all three are constants (bellpepper's assertion), and
 * "ch computation" / "maj computation" broken by a flipped result when
 * none is constant. */
static void test_ch_maj(void) {
  for (int op = 0; op < 2; op++)
    for (int x = 0; x < N_KINDS; x++)
      for (int y = 0; y < N_KINDS; y++)
        for (int z = 0; z < N_KINDS; z++) {
          cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
          cz_bool a = make(cs, x, "a"), b = make(cs, y, "b"), c = make(cs, z, "c"), r;
          bool va = kind_val(x), vb = kind_val(y), vc = kind_val(z), want;
          size_t before = cz_cs_num_constraints(cs);
          if (op == 0) {
            CHECK(cz_bool_sha256_ch(cs, &r, &a, &b, &c) == CZ_OK);
            want = (va & vb) ^ (!va & vc);
          } else {
            CHECK(cz_bool_sha256_maj(cs, &r, &a, &b, &c) == CZ_OK);
            want = (va & vb) ^ (va & vc) ^ (vb & vc);
          }
          size_t cost = cz_cs_num_constraints(cs) - before;
          CHECK(r.value == want);
          CHECK(cz_cs_is_satisfied(cs));
          if (r.form != CZ_BOOL_CONST)
            CHECK(fr_is_bit(cs, r.var, r.form == CZ_BOOL_IS ? want : !want));
          bool all_const = kind_const(x) && kind_const(y) && kind_const(z);
          bool none_const = !kind_const(x) && !kind_const(y) && !kind_const(z);
          if (all_const) CHECK_EQ_INT(cz_cs_num_constraints(cs), 0);
          /* ch: one constraint in the generic path; maj: two (b AND c and
           * the maj computation). Constant cases cost at most one AND. */
          if (none_const) CHECK_EQ_INT(cost, op == 0 ? 1 : 2);
          else CHECK(cost <= 1);
          if (none_const) {
            flip(cs, r.var);
            const char *u = cz_cs_which_is_unsatisfied(cs, NULL);
            CHECK(u && !strcmp(u, op == 0 ? "ch computation" : "maj computation"));
          }
          cz_cs_free(cs);
        }
}

/* test_enforce_equal: satisfied exactly when the values are equal; two
 * unequal constants are refused up front. */
static void test_enforce_equal(void) {
  for (int x = 0; x < N_KINDS; x++)
    for (int y = 0; y < N_KINDS; y++) {
      cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
      cz_bool a = make(cs, x, "a"), b = make(cs, y, "b");
      cz_err e = cz_bool_enforce_equal(cs, &a, &b);
      bool eq = kind_val(x) == kind_val(y);
      if (kind_const(x) && kind_const(y)) {
        CHECK_EQ_INT(e, eq ? CZ_OK : CZ_ERR_INVALID_ARG);
        CHECK_EQ_INT(cz_cs_num_constraints(cs), 0);
      } else {
        CHECK_EQ_INT(e, CZ_OK);
        CHECK(cz_cs_is_satisfied(cs) == eq);
        CHECK_EQ_INT(cz_cs_num_constraints(cs), n_alloc(x) + n_alloc(y) + 1);
      }
      cz_cs_free(cs);
    }
}

/* test_u64_into_boolean_vec_le and test_field_into_allocated_bits_le. */
static void test_into_bits(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  uint64_t v = check_rand64();
  cz_bool bits[64];
  CHECK(cz_u64_into_bits_le(cs, bits, v) == CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 64);
  for (int i = 0; i < 64; i++)
    CHECK(bits[i].value == ((v >> i) & 1) && fr_is_bit(cs, bits[i].var, (v >> i) & 1));
  cz_cs_free(cs);

  /* r - 1: its canonical bits, LSB first, 255 of them. */
  cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_fr m1;
  cz_fr_neg(&m1, &CZ_FR_ONE);
  cz_abit fb[CZ_FR_NUM_BITS];
  CHECK(cz_field_into_allocated_bits_le(cs, fb, &m1) == CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 255);
  uint64_t want[4];
  memcpy(want, CZ_FR_MODULUS, sizeof want);
  want[0] -= 1;
  for (int i = 0; i < 255; i++) CHECK(fb[i].value == ((want[i / 64] >> (i % 64)) & 1));
  CHECK(!strcmp(cz_cs_constraint_name(cs, 7), "bit 7/boolean constraint"));
  cz_cs_free(cs);
}

int main(void) {
  test_allocated();
  test_alloc_conditionally();
  test_two_operand();
  test_ch_maj();
  test_enforce_equal();
  test_into_bits();
  return check_report("test_boolean");
}
