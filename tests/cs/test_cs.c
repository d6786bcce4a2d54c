/* Constraint-system backends against each other on the same circuits:
 * PROVE a/b/c and densities = RECORD matrices * WITNESS values, bit for
 * bit (cz_r1cs and the compact cz_pce); KEYGEN columns times the witness = PROVE's a/b/c; TEST
 * satisfied by honest witnesses and naming the first broken constraint; every LC layout giving
 * identical results. */
#include "check.h"
#include "cuzk/cs.h"
#include "cs_eq.h"

static cz_fr fr(uint64_t v) {
  cz_fr r;
  cz_fr_from_u64(&r, v);
  return r;
}

/* ---- circuits ------------------------------------------------------- */

typedef struct {
  int which;    /* 0 cubic, 1 squaring chain, 2 sparse */
  size_t n;     /* chain length / sparse rounds */
  uint64_t x;   /* witness seed */
  int break_at; /* -1: honest; else constraint whose output is corrupted */
} circuit;

/* Value helper: pass the value only where the backend wants one. */
static const cz_fr *val(cz_cs *cs, const cz_fr *v) { return cz_cs_needs_values(cs) ? v : NULL; }

/* x^3 + x + 5 = out (the classic R1CS example), out public. */
static void cubic(cz_cs *cs, const circuit *c) {
  cz_fr x = fr(c->x), x2, x3, out, five = fr(5);
  cz_fr_sqr(&x2, &x);
  cz_fr_mul(&x3, &x2, &x);
  cz_fr_add(&out, &x3, &x);
  cz_fr_add(&out, &out, &five);
  if (c->break_at == 1) cz_fr_add(&x3, &x3, &CZ_FR_ONE);
  cz_var vout, vx, vx2, vx3;
  CHECK(cz_cs_alloc_input(cs, &vout, val(cs, &out)) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &vx, val(cs, &x)) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &vx2, val(cs, &x2)) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &vx3, val(cs, &x3)) == CZ_OK);
  cz_lc a, b, k;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_init(&k, cs);
  CZ_PUSH_NS(cs, "cubic");
  cz_lc_add(&a, vx);
  cz_lc_add(&b, vx);
  cz_lc_add(&k, vx2);
  CZ_ENFORCE(cs, &a, &b, &k, "x^2");
  cz_lc_clear(&a);
  cz_lc_clear(&b);
  cz_lc_clear(&k);
  cz_lc_add(&a, vx2);
  cz_lc_add(&b, vx);
  cz_lc_add(&k, vx3);
  CZ_ENFORCE(cs, &a, &b, &k, "x^%d", 3);
  cz_lc_clear(&a);
  cz_lc_clear(&b);
  cz_lc_clear(&k);
  cz_lc_add(&a, vx3);
  cz_lc_add(&a, vx);
  cz_lc_add_const(&a, &five);
  cz_lc_add(&b, CZ_VAR_ONE);
  cz_lc_add(&k, vout);
  CZ_ENFORCE(cs, &a, &b, &k, "out");
  CZ_POP_NS(cs);
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_lc_free(&k);
}

/* x_{i+1} = x_i^2 for n constraints; the last one is public. */
static void chain(cz_cs *cs, const circuit *c) {
  cz_fr x = fr(c->x), y;
  cz_var v, w;
  CHECK(cz_cs_alloc(cs, &v, val(cs, &x)) == CZ_OK);
  for (size_t i = 0; i < c->n; i++) {
    cz_fr_sqr(&y, &x);
    if ((int)i == c->break_at) cz_fr_add(&y, &y, &CZ_FR_ONE);
    if (i + 1 == c->n) CHECK(cz_cs_alloc_input(cs, &w, val(cs, &y)) == CZ_OK);
    else CHECK(cz_cs_alloc(cs, &w, val(cs, &y)) == CZ_OK);
    cz_lc a, b, k;
    cz_lc_init(&a, cs);
    cz_lc_init(&b, cs);
    cz_lc_init(&k, cs);
    cz_lc_add(&a, v);
    cz_lc_add(&b, v);
    cz_lc_add(&k, w);
    CZ_PUSH_NS(cs, "round %zu", i);
    CZ_ENFORCE(cs, &a, &b, &k, "square");
    CZ_POP_NS(cs);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&k);
    v = w;
    x = y;
  }
}

/* Wide, sparse constraints with repeated variables, zero and one
 * coefficients, constants, inputs in A, B and C, x - x cancellations (the
 * zero-coefficient case of bellperson PR #307) and LC arithmetic. Each
 * round: t = (sum_j c_j v_j + k) * (u + 0*ONE + 0*v0 + inp - inp + inp) with
 * a fresh aux t holding the product. */
static void sparse(cz_cs *cs, const circuit *c) {
  enum { W = 7 };
  cz_fr vals[W];
  cz_var vars[W], inp;
  unsigned long long st = c->x;
  cz_fr in_val = fr(c->x * 3 + 1);
  CHECK(cz_cs_alloc_input(cs, &inp, val(cs, &in_val)) == CZ_OK);
  for (int j = 0; j < W; j++) {
    vals[j] = fr(st = st * 6364136223846793005ULL + 1442695040888963407ULL);
    CHECK(cz_cs_alloc(cs, &vars[j], val(cs, &vals[j])) == CZ_OK);
  }
  cz_fr zero = CZ_FR_ZERO;
  for (size_t r = 0; r < c->n; r++) {
    cz_lc a, b, k, tmp;
    cz_lc_init(&a, cs);
    cz_lc_init(&b, cs);
    cz_lc_init(&k, cs);
    cz_lc_init(&tmp, cs);
    cz_fr av = CZ_FR_ZERO, bv, t;
    /* a: descending then repeated insertions exercise the sorted merge. */
    for (int j = W - 1; j >= 0; j--) {
      uint64_t coef = (r + (size_t)j) % 4; /* 0, 1, 2, 3 */
      cz_fr cf = fr(coef);
      cz_lc_add_term(&a, vars[j], &cf);
      cz_fr_mul(&t, &cf, &vals[j]);
      cz_fr_add(&av, &av, &t);
    }
    cz_lc_add(&a, vars[r % W]); /* repeated */
    cz_fr_add(&av, &av, &vals[r % W]);
    cz_fr kk = fr(r + 2);
    cz_lc_add_const(&a, &kk);
    cz_fr_add(&av, &av, &kk);
    /* tmp = 2*v1 - v1 - v1 (zero coeff kept), a += 3*tmp: still zero. */
    cz_fr two = fr(2), three = fr(3);
    cz_lc_add_term(&tmp, vars[1], &two);
    cz_lc_sub(&tmp, vars[1]);
    cz_lc_sub_term(&tmp, vars[1], &CZ_FR_ONE);
    cz_lc_add_scaled(&a, &three, &tmp);
    /* b = u + 0*ONE + 0*v0 + inp - inp + inp (+ v2 - v2 when r is odd). */
    size_t u = (r * 3 + 1) % W;
    cz_lc_add(&b, vars[u]);
    cz_lc_add_term(&b, CZ_VAR_ONE, &zero);
    cz_lc_add_term(&b, vars[0], &zero);
    cz_lc_add(&b, inp);
    cz_lc_sub(&b, inp);
    cz_lc_add(&b, inp);
    if (r & 1) {
      cz_lc_add(&b, vars[2]);
      cz_lc_sub(&b, vars[2]);
    }
    cz_fr_add(&bv, &vals[u], &in_val);
    if (u == 0) { /* 0*v0 merged into the existing v0 term: still u + inp */
    }
    cz_fr prod;
    cz_fr_mul(&prod, &av, &bv);
    if ((int)r == c->break_at) cz_fr_add(&prod, &prod, &CZ_FR_ONE);
    cz_var out;
    CHECK(cz_cs_alloc(cs, &out, val(cs, &prod)) == CZ_OK);
    /* c = out + inp - inp via an LC sum (k = out; k += tmp2 - tmp2). */
    cz_lc_add(&k, out);
    cz_lc_clear(&tmp);
    cz_lc_add(&tmp, inp);
    cz_lc_add_lc(&k, &tmp);
    cz_lc_sub_lc(&k, &tmp);
    CZ_PUSH_NS(cs, "sparse %zu", r);
    CZ_ENFORCE(cs, &a, &b, &k, "row %zu", r);
    CZ_POP_NS(cs);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&k);
    cz_lc_free(&tmp);
    /* Feed the product forward so later rows depend on it. */
    vals[r % W] = prod;
    vars[r % W] = out;
  }
}

static void synth(cz_cs *cs, const circuit *c) {
  if (c->which == 0) cubic(cs, c);
  else if (c->which == 1) chain(cs, c);
  else sparse(cs, c);
}

/* ---- helpers -------------------------------------------------------- */

static cz_cs *run(cz_cs_mode mode, const cz_cs_config *cfg, const circuit *c) {
  cz_cs *cs = cz_cs_new(mode, cfg);
  CHECK(cs != NULL);
  synth(cs, c);
  cz_err e = cz_cs_finish(cs);
  CHECK_EQ_INT(e, CZ_OK);
  if (e) fprintf(stderr, "  %s\n", cz_cs_errmsg(cs));
  return cs;
}

/* Every backend on one circuit with one layout; returns the PROVE result
 * (caller frees) for cross-layout comparison. */
static cz_assignment check_circuit(const circuit *c, const cz_cs_config *cfg) {
  cz_assignment p, w;
  cz_cs *cs = run(CZ_CS_PROVE, cfg, c);
  size_t n_user = cz_cs_num_constraints(cs) - cz_cs_num_inputs(cs);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &p), CZ_OK);
  cz_cs_free(cs);
  /* Input constraints input_i * 0 = 0 close the a/b vectors; c is left
   * to the prover (a * b). */
  bool tail_ok = p.c == NULL;
  for (size_t i = 0; i < p.n_inputs; i++) {
    size_t r = n_user + i;
    tail_ok &= cz_fr_eq(&p.a[r], &p.inputs[i]) && cz_fr_is_zero(&p.b[r]);
  }
  CHECK(tail_ok);

  cs = run(CZ_CS_WITNESS, cfg, c);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), n_user);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK(w.a == NULL);
  CHECK_EQ_INT(w.n_inputs, p.n_inputs);
  CHECK_EQ_INT(w.n_aux, p.n_aux);
  CHECK_MEM(w.inputs, p.inputs, p.n_inputs * sizeof(cz_fr));
  CHECK(cz_fr_packed_eq(&w.aux, &p.aux));

  cz_r1cs m;
  cs = run(CZ_CS_RECORD, cfg, c);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_r1cs_eval(&m, &w), CZ_OK);
  CHECK(assign_eq(&p, &w)); /* recording * witness == proving, bit for bit */
  /* ... and its C rows are a * b: what the prover computes in their place. */
  CHECK_EQ_INT(first_unsatisfied(&w, w.n_constraints), w.n_constraints);
  cz_r1cs_free(&m);
  cz_assignment_free(&w);

  /* The compact form (cz_pce) on two threads: the same. */
  cz_pce *pce;
  cs = run(CZ_CS_RECORD, cfg, c);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &pce), CZ_OK);
  cz_cs_free(cs);
  cs = run(CZ_CS_WITNESS, cfg, c);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_pce_eval(pce, &w, 2), CZ_OK);
  CHECK(assign_eq(&p, &w));
  cz_pce_free(pce);
  cz_assignment_free(&w);

  cz_keygen_cols k;
  cs = run(CZ_CS_KEYGEN, cfg, c);
  CHECK_EQ_INT(cz_cs_take_keygen(cs, &k), CZ_OK);
  cz_cs_free(cs);
  CHECK(keygen_eq(&k, &p));
  cz_keygen_cols_free(&k);

  cs = run(CZ_CS_TEST, cfg, c);
  CHECK(cz_cs_is_satisfied(cs));
  CHECK_EQ_INT(cz_cs_num_constraints(cs), n_user);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), p.n_inputs);
  cz_cs_free(cs);
  return p;
}

static const char *broken_name(circuit c, int at, size_t *idx) {
  static char buf[128];
  c.break_at = at;
  cz_cs *cs = run(CZ_CS_TEST, NULL, &c);
  const char *n = cz_cs_which_is_unsatisfied(cs, idx);
  snprintf(buf, sizeof buf, "%s", n ? n : "(none)");
  cz_cs_free(cs);
  return buf;
}

/* ---- tests ---------------------------------------------------------- */

static const cz_cs_config layouts[] = {
    {CZ_LC_VEC, 0, 0, 0},    {CZ_LC_INLINE, 1, 0, 0}, {CZ_LC_INLINE, 2, 0, 0},
    {CZ_LC_INLINE, 4, 0, 0}, {CZ_LC_ARENA, 0, 0, 0},  {CZ_LC_VEC, 0, 1000, 1000},
};

static void test_backends_agree(void) {
  const circuit circuits[] = {
      {0, 0, 3, -1}, {1, 1, 5, -1}, {1, 300, 7, -1}, {2, 1, 11, -1}, {2, 200, 13, -1},
  };
  for (size_t ci = 0; ci < sizeof circuits / sizeof *circuits; ci++) {
    cz_assignment ref = check_circuit(&circuits[ci], &layouts[0]);
    for (size_t li = 1; li < sizeof layouts / sizeof *layouts; li++) {
      cz_assignment p = check_circuit(&circuits[ci], &layouts[li]);
      CHECK(assign_eq(&ref, &p));
      cz_assignment_free(&p);
    }
    cz_assignment_free(&ref);
  }
}

/* Known answer for x^3 + x + 5 = 35 at x = 3, worked by hand: rows
 * 3*3=9, 9*3=27, (27+3+5)*1=35, then ONE*0=0 and out*0=0 (c, left to the
 * prover, is a * b: the hand-worked c column). */
static void test_cubic_known_answer(void) {
  circuit c = {0, 0, 3, -1};
  cz_cs *cs = run(CZ_CS_PROVE, NULL, &c);
  cz_assignment p;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &p), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(p.n_inputs, 2);
  CHECK_EQ_INT(p.n_aux, 3);
  CHECK_EQ_INT(p.n_constraints, 5);
  const uint64_t a[5] = {3, 9, 35, 1, 35}, b[5] = {3, 3, 1, 0, 0}, cc[5] = {9, 27, 35, 0, 0};
  for (int i = 0; i < 5; i++) {
    cz_fr x = fr(a[i]), y = fr(b[i]), z = fr(cc[i]);
    CHECK(cz_fr_eq(&p.a[i], &x));
    CHECK(cz_fr_eq(&p.b[i], &y));
    cz_fr ab;
    cz_fr_mul(&ab, &p.a[i], &p.b[i]);
    CHECK(cz_fr_eq(&ab, &z));
  }
  CHECK(p.c == NULL);
  /* A over aux: x, x^2, x^3 all appear; B: x (aux) and ONE (input); not out. */
  CHECK_EQ_INT(p.a_aux.count, 3);
  CHECK_EQ_INT(p.b_aux.count, 1);
  CHECK(cz_density_get(&p.b_aux, 0));
  CHECK_EQ_INT(p.b_input.count, 1);
  CHECK(cz_density_get(&p.b_input, 0));
  CHECK(!cz_density_get(&p.b_input, 1));
  cz_assignment_free(&p);
}

static void test_names(void) {
  size_t idx = 99;
  CHECK(!strcmp(broken_name((circuit){0, 0, 3, -1}, 1, &idx), "cubic/x^3"));
  CHECK_EQ_INT(idx, 1);
  CHECK(!strcmp(broken_name((circuit){1, 10, 3, -1}, 6, &idx), "round 6/square"));
  CHECK_EQ_INT(idx, 6);
  CHECK(!strcmp(broken_name((circuit){2, 20, 3, -1}, 13, &idx), "sparse 13/row 13"));
  CHECK_EQ_INT(idx, 13);

  /* Nested namespaces, unnamed constraints, set_value breaking a witness. */
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_fr v3 = fr(3), v9 = fr(9), v4 = fr(4);
  cz_var x, y;
  CHECK(cz_cs_alloc(cs, &x, &v3) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &y, &v9) == CZ_OK);
  cz_lc a, b;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_add(&a, x);
  cz_lc_add(&b, y);
  cz_cs_push_ns(cs, "outer");
  cz_cs_push_ns(cs, "inner %d", 2);
  cz_cs_enforce(cs, &a, &a, &b);
  cz_cs_enforce_named(cs, &a, &a, &b, "sq");
  cz_cs_pop_ns(cs);
  cz_cs_pop_ns(cs);
  cz_cs_enforce(cs, &a, &a, &b);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK(!strcmp(cz_cs_constraint_name(cs, 0), "outer/inner 2/#0"));
  CHECK(!strcmp(cz_cs_constraint_name(cs, 1), "outer/inner 2/sq"));
  CHECK(!strcmp(cz_cs_constraint_name(cs, 2), "#2"));
  CHECK(cz_cs_is_satisfied(cs));
  CHECK(cz_cs_set_value(cs, y, &v4));
  size_t i = 9;
  const char *n = cz_cs_which_is_unsatisfied(cs, &i);
  CHECK(n && !strcmp(n, "outer/inner 2/#0"));
  CHECK_EQ_INT(i, 0);
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_cs_free(cs);

  /* Paths are unique, as in bellpepper: the same constraint name twice in
   * one namespace, or the same namespace twice, is an error; the same name
   * under different namespaces is fine. */
  for (int dup = 0; dup < 3; dup++) {
    cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_lc z;
    cz_lc_init(&z, cs);
    cz_cs_push_ns(cs, "g");
    cz_cs_enforce_named(cs, &z, &z, &z, "c");
    cz_cs_pop_ns(cs);
    cz_cs_push_ns(cs, dup == 1 ? "g" : "h");
    cz_cs_enforce_named(cs, &z, &z, &z, "c");
    if (dup == 2) cz_cs_enforce_named(cs, &z, &z, &z, "c");
    cz_cs_pop_ns(cs);
    CHECK_EQ_INT(cz_cs_finish(cs), dup ? CZ_ERR_INVALID_ARG : CZ_OK);
    if (dup)
      CHECK(strstr(cz_cs_errmsg(cs), dup == 1 ? "name already used: g" : "name already used: h/c"));
    cz_lc_free(&z);
    cz_cs_free(cs);
  }

  /* Non-test backends ignore names (and don't store them). */
  cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK(cz_cs_constraint_name(cs, 0) == NULL);
  cz_cs_free(cs);
}

static void test_errors(void) {
  cz_fr one = CZ_FR_ONE;
  cz_var v;
  /* Missing witness on a backend that needs it. */
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(cz_cs_alloc(cs, &v, NULL), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(v.role, CZ_VAR_AUX);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_ERR_INVALID_ARG);
  CHECK(strstr(cz_cs_errmsg(cs), "missing") != NULL);
  cz_cs_free(cs);
  /* ...but KEYGEN and RECORD take no values. */
  cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  CHECK_EQ_INT(cz_cs_alloc(cs, &v, NULL), CZ_OK);
  cz_cs_free(cs);
  /* Unallocated variables, on every backend that looks at LCs. */
  for (int k = 0; k < CZ_CS_MODE_COUNT; k++) {
    cs = cz_cs_new((cz_cs_mode)k, NULL);
    CHECK(cz_cs_alloc(cs, &v, &one) == CZ_OK);
    cz_lc a, z;
    cz_lc_init(&a, cs);
    cz_lc_init(&z, cs);
    cz_lc_add(&a, cz_var_aux(1));
    cz_cs_enforce(cs, &a, &z, &z);
    cz_lc_clear(&a);
    cz_lc_add(&a, cz_var_input(1));
    cz_cs_enforce(cs, &z, &a, &z);
    /* WITNESS and COUNT do not read LCs (cs.h). */
    CHECK_EQ_INT(cz_cs_error(cs),
                 k == CZ_CS_WITNESS || k == CZ_CS_COUNT ? CZ_OK : CZ_ERR_INVALID_ARG);
    cz_lc_free(&a);
    cz_lc_free(&z);
    cz_cs_free(cs);
  }
  /* Namespace misuse. */
  cs = cz_cs_new(CZ_CS_WITNESS, NULL);
  cz_cs_pop_ns(cs);
  CHECK_EQ_INT(cz_cs_error(cs), CZ_ERR_INVALID_ARG);
  cz_cs_free(cs);
  cs = cz_cs_new(CZ_CS_PROVE, NULL);
  cz_cs_push_ns(cs, "open");
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_ERR_INVALID_ARG);
  cz_cs_free(cs);
  cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_cs_push_ns(cs, "a/b");
  CHECK_EQ_INT(cz_cs_error(cs), CZ_ERR_INVALID_ARG);
  cz_cs_free(cs);
  /* finish twice, take before finish / of the wrong mode. */
  cs = cz_cs_new(CZ_CS_RECORD, NULL);
  cz_r1cs m;
  cz_assignment as;
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_ERR_INVALID_ARG);
  cz_cs_free(cs);
  /* Bad configs. */
  cz_cs_config bad = {CZ_LC_INLINE, 5, 0, 0};
  CHECK(cz_cs_new(CZ_CS_PROVE, &bad) == NULL);
  CHECK(cz_cs_new(CZ_CS_MODE_COUNT, NULL) == NULL);
  /* r1cs_eval with a witness of another shape. */
  circuit c1 = {1, 4, 3, -1}, c2 = {1, 5, 3, -1};
  cs = run(CZ_CS_RECORD, NULL, &c1);
  CHECK(cz_cs_take_r1cs(cs, &m) == CZ_OK);
  cz_cs_free(cs);
  cs = run(CZ_CS_WITNESS, NULL, &c2);
  CHECK(cz_cs_take_assignment(cs, &as) == CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_r1cs_eval(&m, &as), CZ_ERR_INVALID_ARG);
  cz_assignment_free(&as);
  cz_r1cs_free(&m);
}

int main(void) {
  test_cubic_known_answer();
  test_backends_agree();
  test_names();
  test_errors();
  return check_report("test_cs");
}
