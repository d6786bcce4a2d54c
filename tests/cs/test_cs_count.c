/* The COUNT backend: the contract of cs.h (no values, no LCs, no input
 * constraints at finish, nothing to take), counts equal to rust-fil-proofs'
 * assertions on circuits whose other backends are tested elsewhere, and
 * memory that does not grow with the circuit. */
#include <sys/resource.h>

#include "check.h"
#include "cuzk/cs.h"
#include "cuzk/merkle.h"
#include "cuzk/por.h"

static long max_rss_kib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static void test_contract(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
  CHECK(cs != NULL);
  CHECK_EQ_INT(cz_cs_get_mode(cs), CZ_CS_COUNT);
  CHECK(!cz_cs_needs_values(cs));
  CHECK(!cz_cs_needs_constraints(cs));
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 1); /* ONE */
  cz_var x, y, in;
  CHECK_EQ_INT(cz_cs_alloc(cs, &x, NULL), CZ_OK);
  CHECK_EQ_INT(cz_cs_alloc(cs, &y, NULL), CZ_OK);
  CHECK_EQ_INT(cz_cs_alloc_input(cs, &in, NULL), CZ_OK);
  CHECK(x.role == CZ_VAR_AUX && x.index == 0 && y.index == 1);
  CHECK(in.role == CZ_VAR_INPUT && in.index == 1);
  /* An LC built anyway is accepted and dropped. */
  cz_lc a, b, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_init(&c, cs);
  cz_lc_add(&a, x);
  cz_lc_add(&b, y);
  cz_lc_add(&c, in);
  CZ_PUSH_NS(cs, "ns");
  CZ_ENFORCE(cs, &a, &b, &c, "x * y = in");
  cz_cs_enforce(cs, &a, &b, &c);
  CZ_POP_NS(cs);
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_lc_free(&c);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 2);
  CHECK_EQ_INT(cz_cs_num_aux(cs), 2);
  cz_fr v;
  CHECK(!cz_cs_value(cs, x, &v));
  CHECK(!cz_cs_set_value(cs, x, &CZ_FR_ONE));
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 2); /* no input constraints */
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 2);
  cz_assignment as;
  cz_r1cs m;
  cz_keygen_cols k;
  cz_pce *p = NULL;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_take_keygen(cs, &k), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_ERR_INVALID_ARG);
  CHECK(p == NULL);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_ERR_INVALID_ARG); /* twice */
  cz_cs_free(cs);

  /* Unbalanced namespaces are still caught. */
  cs = cz_cs_new(CZ_CS_COUNT, NULL);
  CZ_PUSH_NS(cs, "open");
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_ERR_INVALID_ARG);
  cz_cs_free(cs);
}

/* storage-proofs-core/tests/por_circuit.rs (TestConstraintSystem, root
 * public, leaves = 64 * base trees): poseidon_base_8 (3, 1_063),
 * poseidon_top_8_8_2 (3, 1_907), sha256_base_2 (3, 272_295); the private
 * root of base 8: (2, 1_062). The witness-less circuit must count as the
 * witnessed one; aux is compared with KEYGEN, which builds every LC. */
static void test_por_counts(void) {
  static const struct {
    cz_merkle_shape s;
    size_t leaves, constraints;
    bool priv;
  } cases[] = {
      {{CZ_MERKLE_POSEIDON, 8, 0, 0}, 64, 1063, false},
      {{CZ_MERKLE_POSEIDON, 8, 0, 0}, 64, 1062, true},
      {{CZ_MERKLE_POSEIDON, 8, 8, 2}, 1024, 1907, false},
      {{CZ_MERKLE_SHA256, 2, 0, 0}, 64, 272295, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL), *kg = cz_cs_new(CZ_CS_KEYGEN, NULL);
    CHECK_EQ_INT(cz_por_circuit(cs, &cases[i].s, cases[i].leaves, NULL, cases[i].priv), CZ_OK);
    CHECK_EQ_INT(cz_por_circuit(kg, &cases[i].s, cases[i].leaves, NULL, cases[i].priv), CZ_OK);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), cases[i].constraints);
    CHECK_EQ_INT(cz_cs_num_inputs(cs), cases[i].priv ? 2 : 3);
    CHECK_EQ_INT(cz_cs_num_aux(cs), cz_cs_num_aux(kg));
    CHECK_EQ_INT(cz_cs_num_constraints(cs), cz_cs_num_constraints(kg));
    cz_cs_free(cs);
    cz_cs_free(kg);
  }
}

/* 4 M constraints and 8 M variables in well under a megabyte per million:
 * nothing per variable or constraint is kept. */
static void test_memory(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
  long before = max_rss_kib();
  cz_lc e;
  cz_lc_init(&e, cs);
  for (size_t i = 0; i < 4000000; i++) {
    cz_var v;
    CHECK(cz_cs_alloc(cs, &v, NULL) == CZ_OK);
    CHECK(cz_cs_alloc_input(cs, &v, NULL) == CZ_OK);
    cz_cs_enforce(cs, &e, &e, &e);
  }
  cz_lc_free(&e);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 4000000);
  CHECK_EQ_INT(cz_cs_num_aux(cs), 4000000);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 4000001);
  long grew = max_rss_kib() - before;
  CHECK(grew < 1024); /* a WITNESS run would hold 256 MB of values */
  cz_cs_free(cs);
}

int main(void) {
  test_contract();
  test_por_counts();
  test_memory();
  return check_report("cs_count");
}
