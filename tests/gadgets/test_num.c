/* AllocatedNum and Num against bellpepper-core's num.rs tests: values,
 * satisfaction, a broken witness caught, the strict bit decomposition
 * refusing the characteristic (test_into_bits_strict), and the constraint
 * counts of to_bits_le / to_bits_le_strict. */
#include "rand_field.h"
#include "cs_eq.h"
#include "cuzk/gadgets.h"

static void corrupt(cz_cs *cs, cz_var v) {
  cz_fr x;
  cz_cs_value(cs, v, &x);
  cz_fr_add(&x, &x, &CZ_FR_ONE);
  cz_cs_set_value(cs, v, &x);
}

static bool val_is(const cz_cs *cs, cz_var v, const cz_fr *want) {
  cz_fr x;
  return cz_cs_value(cs, v, &x) && cz_fr_eq(&x, want);
}

/* test_num_addition, test_num_multiplication, test_num_squaring,
 * inputize. */
static void test_arith(void) {
  for (int op = 0; op < 4; op++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_fr x = check_rand_fr(), y = check_rand_fr(), want;
    cz_anum a, b, r;
    CHECK(cz_anum_alloc(cs, &a, &x) == CZ_OK);
    CHECK(cz_anum_alloc(cs, &b, &y) == CZ_OK);
    static const char *names[4] = {"addition constraint", "multiplication constraint",
                                   "squaring constraint", "enforce input is correct"};
    if (op == 0) {
      CHECK(cz_anum_add(cs, &r, &a, &b) == CZ_OK);
      cz_fr_add(&want, &x, &y);
    } else if (op == 1) {
      CHECK(cz_anum_mul(cs, &r, &a, &b) == CZ_OK);
      cz_fr_mul(&want, &x, &y);
    } else if (op == 2) {
      CHECK(cz_anum_square(cs, &r, &a) == CZ_OK);
      cz_fr_sqr(&want, &x);
    } else {
      CHECK(cz_anum_inputize(cs, &a) == CZ_OK);
      r.var = cz_var_input(1);
      want = x;
      CHECK_EQ_INT(cz_cs_num_inputs(cs), 2);
    }
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 1);
    CHECK(val_is(cs, r.var, &want));
    if (op < 3) CHECK(cz_fr_eq(&r.value, &want));
    CHECK(cz_cs_is_satisfied(cs));
    corrupt(cs, r.var);
    const char *u = cz_cs_which_is_unsatisfied(cs, NULL);
    CHECK(u && !strcmp(u, names[op]));
    cz_cs_free(cs);
  }
}

/* rust-fil-proofs constraint.rs add_constraint / sub_constraint (and the
 * SDR encode / decode built on them): values, satisfaction, 1 constraint. */
static void test_constraint_add_sub(void) {
  for (int op = 0; op < 2; op++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_fr x = check_rand_fr(), y = check_rand_fr(), want;
    cz_anum a, b, r;
    CHECK(cz_anum_alloc(cs, &a, &x) == CZ_OK);
    CHECK(cz_anum_alloc(cs, &b, &y) == CZ_OK);
    CZ_PUSH_NS(cs, "op");
    if (op) CHECK(cz_constraint_sub(cs, &r, &a, &b) == CZ_OK);
    else CHECK(cz_constraint_add(cs, &r, &a, &b) == CZ_OK);
    CZ_POP_NS(cs);
    if (op) cz_fr_sub(&want, &x, &y);
    else cz_fr_add(&want, &x, &y);
    CHECK(cz_fr_eq(&r.value, &want) && val_is(cs, r.var, &want));
    CHECK(cz_cs_is_satisfied(cs));
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 1);
    corrupt(cs, r.var);
    const char *u = cz_cs_which_is_unsatisfied(cs, NULL);
    CHECK(u && !strcmp(u, op ? "op/subtraction constraint" : "op/sum constraint"));
    cz_cs_free(cs);
  }
}

/* test_num_conditional_reversal. */
static void test_conditional_reversal(void) {
  for (int cond = 0; cond < 2; cond++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_fr x = check_rand_fr(), y = check_rand_fr();
    cz_anum a, b, c, d;
    CHECK(cz_anum_alloc(cs, &a, &x) == CZ_OK);
    CHECK(cz_anum_alloc(cs, &b, &y) == CZ_OK);
    cz_abit bit;
    CZ_PUSH_NS(cs, "cond");
    CHECK(cz_abit_alloc(cs, &bit, cond) == CZ_OK);
    CZ_POP_NS(cs);
    cz_bool cb = cz_bool_from_bit(bit);
    CHECK(cz_anum_conditionally_reverse(cs, &c, &d, &a, &b, &cb) == CZ_OK);
    CHECK(cz_cs_is_satisfied(cs));
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 3);
    CHECK(val_is(cs, c.var, cond ? &y : &x));
    CHECK(val_is(cs, d.var, cond ? &x : &y));
    corrupt(cs, d.var);
    CHECK(!strcmp(cz_cs_which_is_unsatisfied(cs, NULL), "second conditional reversal"));
    cz_cs_free(cs);
  }
}

/* Popcount of r - 1: the strict decomposition ANDs every one bit of r - 1
 * into the running "equal so far" flag except the first, so it costs 255
 * booleans + (popcount(r - 1) - 1) ANDs + 1 unpacking constraint. */
static size_t strict_cost(void) {
  uint64_t m[4];
  memcpy(m, CZ_FR_MODULUS, sizeof m);
  m[0] -= 1;
  size_t pc = 0;
  for (int i = 0; i < 4; i++) pc += (size_t)__builtin_popcountll(m[i]);
  return 255 + pc;
}

static void test_to_bits(void) {
  for (int strict = 0; strict < 2; strict++)
    for (int t = 0; t < 4; t++) {
      cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
      cz_fr x = check_rand_fr();
      if (t == 0) cz_fr_neg(&x, &CZ_FR_ONE);
      if (t == 1) x = CZ_FR_ZERO;
      cz_anum a;
      CHECK(cz_anum_alloc(cs, &a, &x) == CZ_OK);
      cz_bool bits[CZ_FR_NUM_BITS];
      if (strict) CHECK(cz_anum_to_bits_le_strict(cs, bits, &a) == CZ_OK);
      else CHECK(cz_anum_to_bits_le(cs, bits, &a) == CZ_OK);
      CHECK(cz_cs_is_satisfied(cs));
      CHECK_EQ_INT(cz_cs_num_constraints(cs), strict ? strict_cost() : 256);
      uint64_t c[4];
      cz_fr_to_canonical(c, &x);
      for (int i = 0; i < 255; i++) CHECK(bits[i].value == ((c[i / 64] >> (i % 64)) & 1));
      /* test_into_bits_strict: -1 with its lowest bit set reads r, which
       * the conditional boolean of that bit refuses. */
      if (strict && t == 0) {
        cz_cs_set_value(cs, bits[0].var, &CZ_FR_ONE);
        const char *u = cz_cs_which_is_unsatisfied(cs, NULL);
        CHECK(u && !strcmp(u, "bit 254/boolean constraint"));
      } else {
        cz_var v = bits[check_rand64() % 255].var;
        cz_fr old, nv;
        cz_cs_value(cs, v, &old);
        cz_fr_sub(&nv, &CZ_FR_ONE, &old);
        cz_cs_set_value(cs, v, &nv);
        CHECK(!cz_cs_is_satisfied(cs));
      }
      cz_cs_free(cs);
    }
  /* The non-canonical decomposition of 0 as the bits of r (r < 2^255)
   * satisfies to_bits_le but not to_bits_le_strict. */
  for (int strict = 0; strict < 2; strict++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_anum a;
    CHECK(cz_anum_alloc(cs, &a, &CZ_FR_ZERO) == CZ_OK);
    cz_bool bits[CZ_FR_NUM_BITS];
    if (strict) CHECK(cz_anum_to_bits_le_strict(cs, bits, &a) == CZ_OK);
    else CHECK(cz_anum_to_bits_le(cs, bits, &a) == CZ_OK);
    for (int i = 0; i < 255; i++)
      cz_cs_set_value(cs, bits[i].var,
                      ((CZ_FR_MODULUS[i / 64] >> (i % 64)) & 1) ? &CZ_FR_ONE : &CZ_FR_ZERO);
    CHECK(cz_cs_is_satisfied(cs) == !strict);
    cz_cs_free(cs);
  }
}

/* Num: add_bool_with_coeff, add, scale keep value = LC evaluated. */
static void test_num(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_num n, m;
  cz_num_init_zero(&n);
  cz_fr coeff = check_rand_fr();
  for (int i = 0; i < 8; i++) {
    cz_abit b;
    CZ_PUSH_NS(cs, "b%d", i);
    CHECK(cz_abit_alloc(cs, &b, i & 1) == CZ_OK);
    CZ_POP_NS(cs);
    cz_bool bb = i % 3 == 2 ? cz_bool_not(cz_bool_from_bit(b)) : cz_bool_from_bit(b);
    if (i == 7) bb = cz_bool_const(true);
    cz_num_add_bool_with_coeff(&n, &bb, &coeff);
    cz_fr_dbl(&coeff, &coeff);
  }
  cz_anum a;
  cz_fr x = check_rand_fr(), s = check_rand_fr();
  CHECK(cz_anum_alloc(cs, &a, &x) == CZ_OK);
  cz_num_from_anum(&m, &a);
  cz_num_add(&n, &m);
  cz_num_scale(&n, &s);
  /* Evaluate the LC with the system's values. */
  size_t na = cz_cs_num_aux(cs);
  cz_fr *aux = malloc(na * sizeof *aux), one = CZ_FR_ONE, got;
  for (size_t i = 0; i < na; i++) cz_cs_value(cs, cz_var_aux((uint32_t)i), &aux[i]);
  CHECK(cz_lc_eval(&got, &n.lc, &one, 1, aux, na));
  CHECK(cz_fr_eq(&got, &n.value));
  free(aux);
  cz_num_free(&n);
  cz_num_free(&m);
  cz_cs_free(cs);
}

/* Every num gadget in one circuit, so that backends can be compared. */
static void num_circuit(cz_cs *cs, const cz_fr *xs) {
  cz_anum a, b, c, d, e, p, q;
  CHECK(cz_anum_alloc_input(cs, &a, &xs[0]) == CZ_OK);
  CHECK(cz_anum_alloc(cs, &b, &xs[1]) == CZ_OK);
  CHECK(cz_anum_mul(cs, &c, &a, &b) == CZ_OK);
  CHECK(cz_anum_square(cs, &d, &c) == CZ_OK);
  CHECK(cz_anum_add(cs, &e, &d, &a) == CZ_OK);
  CHECK(cz_anum_inputize(cs, &e) == CZ_OK);
  cz_bool bits[CZ_FR_NUM_BITS], bits2[CZ_FR_NUM_BITS];
  CZ_PUSH_NS(cs, "strict");
  CHECK(cz_anum_to_bits_le_strict(cs, bits, &e) == CZ_OK);
  CZ_POP_NS(cs);
  CZ_PUSH_NS(cs, "plain");
  CHECK(cz_anum_to_bits_le(cs, bits2, &c) == CZ_OK);
  CZ_POP_NS(cs);
  CZ_PUSH_NS(cs, "swap");
  CHECK(cz_anum_conditionally_reverse(cs, &p, &q, &a, &b, &bits[3]) == CZ_OK);
  CZ_POP_NS(cs);
  CHECK(cz_anum_enforce_equal(cs, &p, &p, "equal") == CZ_OK);
  CZ_PUSH_NS(cs, "encode");
  CHECK(cz_constraint_add(cs, &p, &p, &q) == CZ_OK);
  CHECK(cz_constraint_sub(cs, &q, &p, &c) == CZ_OK);
  CZ_POP_NS(cs);
  CZ_PUSH_NS(cs, "pack");
  CHECK(cz_pack_into_inputs(cs, bits2, 255) == CZ_OK);
  CZ_POP_NS(cs);
}

static cz_cs *run_num(cz_cs_mode mode, const cz_cs_config *cfg, const cz_fr *xs) {
  cz_cs *cs = cz_cs_new(mode, cfg);
  num_circuit(cs, xs);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return cs;
}

/* PROVE = RECORD * WITNESS (cz_r1cs_eval) for every LC layout. */
static void test_backends(void) {
  cz_fr xs[2] = {check_rand_fr(), check_rand_fr()};
  cz_cs *t = run_num(CZ_CS_TEST, NULL, xs);
  CHECK(cz_cs_is_satisfied(t));
  cz_cs_free(t);
  cz_cs_config cfgs[] = {{CZ_LC_VEC, 0, 0, 0}, {CZ_LC_INLINE, 2, 0, 0}, {CZ_LC_ARENA, 0, 0, 0}};
  for (size_t k = 0; k < 3; k++) {
    cz_assignment p = {0}, w = {0};
    cz_r1cs m = {0};
    cz_cs *cs = run_num(CZ_CS_PROVE, &cfgs[k], xs);
    CHECK_EQ_INT(cz_cs_take_assignment(cs, &p), CZ_OK);
    cz_cs_free(cs);
    cs = run_num(CZ_CS_RECORD, &cfgs[k], xs);
    CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
    cz_cs_free(cs);
    cs = run_num(CZ_CS_WITNESS, &cfgs[k], xs);
    CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
    cz_cs_free(cs);
    CHECK_EQ_INT(cz_r1cs_eval(&m, &w), CZ_OK);
    CHECK(p.n_constraints == w.n_constraints && p.n_aux == w.n_aux && p.n_inputs == w.n_inputs);
    CHECK(!memcmp(p.a, w.a, p.n_constraints * sizeof(cz_fr)));
    CHECK(!memcmp(p.b, w.b, p.n_constraints * sizeof(cz_fr)));
    CHECK(p.c == NULL); /* PROVE leaves c to the prover; r1cs_eval's C rows are a * b */
    CHECK_EQ_INT(first_unsatisfied(&w, w.n_constraints), w.n_constraints);
    CHECK(cz_fr_packed_eq(&p.aux, &w.aux));
    CHECK(p.a_aux.count == w.a_aux.count && p.b_aux.count == w.b_aux.count &&
          p.b_input.count == w.b_input.count);
    cz_assignment_free(&p);
    cz_assignment_free(&w);
    cz_r1cs_free(&m);
  }
}

int main(void) {
  test_backends();
  test_arith();
  test_conditional_reversal();
  test_constraint_add_sub();
  test_to_bits();
  test_num();
  return check_report("test_num");
}
