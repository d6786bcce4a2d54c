/* Buffers past the huge-page threshold: a PROVE system whose a/b and aux
 * grow beyond 4 MiB (where cz_grow moves them to advised 2 MiB-aligned
 * blocks) keeps every value, with no size hint, an exact hint and a hint
 * too small; a WITNESS system likewise with pce evaluation. Values are
 * checked against the circuit itself (a squaring chain: row i is
 * x_i * x_i = x_{i+1}), not only against each other. */
#include "check.h"
#include "cs_eq.h"
#include "cuzk/cs.h"

/* 2^17 rows of 32 bytes is 4 MiB: past it, with room for a few doublings. */
#define ROWS 300000

static void chain(cz_cs *cs, uint64_t seed) {
  cz_fr x, y;
  cz_fr_from_u64(&x, seed);
  cz_var v, w;
  CHECK(cz_cs_alloc(cs, &v, &x) == CZ_OK);
  cz_lc a, k;
  cz_lc_init(&a, cs);
  cz_lc_init(&k, cs);
  for (size_t i = 0; i < ROWS; i++) {
    cz_fr_sqr(&y, &x);
    CHECK(cz_cs_alloc(cs, &w, &y) == CZ_OK);
    cz_lc_clear(&a);
    cz_lc_clear(&k);
    cz_lc_add(&a, v);
    cz_lc_add(&k, w);
    cz_cs_enforce(cs, &a, &a, &k);
    v = w;
    x = y;
  }
  cz_lc_free(&a);
  cz_lc_free(&k);
}

static cz_assignment prove(size_t hint_constraints, size_t hint_aux) {
  cz_cs_config cfg = {CZ_LC_INLINE, 4, hint_constraints, hint_aux};
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, &cfg);
  CHECK(cs != NULL);
  chain(cs, 7);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_assignment as;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_OK);
  cz_cs_free(cs);
  return as;
}

int main(void) {
  cz_assignment cold = prove(0, 0);
  CHECK_EQ_INT(cold.n_aux, ROWS + 1);
  CHECK_EQ_INT(cold.n_constraints, ROWS + 1); /* + ONE * 0 = 0 */
  /* Every row from the values: a = b = x_i, and x_i^2 = x_{i+1} = aux[i + 1]
   * (c, which the prover computes as a * b). */
  bool rows_ok = cold.c == NULL;
  cz_fr sq, x, next;
  for (size_t i = 0; i < ROWS && rows_ok; i++) {
    cz_fr_packed_get(&cold.aux, i, &x);
    cz_fr_packed_get(&cold.aux, i + 1, &next);
    cz_fr_sqr(&sq, &x);
    rows_ok = cz_fr_eq(&cold.a[i], &x) && cz_fr_eq(&cold.b[i], &x) && cz_fr_eq(&sq, &next);
  }
  CHECK(rows_ok);
  CHECK_EQ_INT(cold.a_aux.count, ROWS); /* aux 0 .. ROWS - 1 appear in A */
  CHECK_EQ_INT(cold.b_input.count, 0);

  cz_assignment exact = prove(cold.n_constraints, cold.n_aux);
  CHECK(assign_eq(&cold, &exact));
  cz_assignment_free(&exact);
  cz_assignment small = prove(1000, 1000); /* reserves, then grows */
  CHECK(assign_eq(&cold, &small));
  cz_assignment_free(&small);

  /* The pre-compiled path over the same big buffers. */
  cz_cs *cs = cz_cs_new(CZ_CS_RECORD, NULL);
  chain(cs, 0);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_pce *shape = NULL;
  CHECK_EQ_INT(cz_cs_take_pce(cs, &shape), CZ_OK);
  cz_cs_free(cs);
  cs = cz_cs_new(CZ_CS_WITNESS, NULL);
  chain(cs, 7);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_assignment w;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_pce_eval(shape, &w, 2), CZ_OK);
  CHECK(assign_eq(&cold, &w));
  cz_assignment_free(&w);
  cz_pce_free(shape);
  cz_assignment_free(&cold);
  return check_report("test_cs_grow");
}
