/* The StackedDRG circuit on every backend, with the witness of a small
 * sealed sector (porep_test_sector.h, stacked_circuit.rs's poseidon_base_8
 * shape): PROVE has rust-fil-proofs' counts; KEYGEN's columns have
 * PROVE's counts and densities and, times the witness, give PROVE's a/b
 * and a * b for C (the witness satisfies the circuit); RECORD applied to a
 * WITNESS run equals PROVE bit for bit (values, a/b, densities), as
 * cz_r1cs (whose C rows are a * b) and as the compact cz_pce. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cs_eq.h"
#include "porep_test_sector.h"

static void test_backends_agree(const cz_porep_c1 *c1) {
  cz_assignment p, w;
  cz_cs *cs = ts_synth(CZ_CS_PROVE, c1);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), WANT_CONSTRAINTS);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &p), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(p.n_inputs, WANT_INPUTS);
  CHECK_EQ_INT(p.n_constraints, WANT_CONSTRAINTS + WANT_INPUTS);
  printf(
      "poseidon_base_8 PROVE: %zu inputs, %zu aux, %zu constraints; density a_aux %zu, "
      "b_input %zu, b_aux %zu\n",
      p.n_inputs, p.n_aux, p.n_constraints, p.a_aux.count, p.b_input.count, p.b_aux.count);

  cz_keygen_cols k;
  cs = ts_synth(CZ_CS_KEYGEN, c1);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_keygen(cs, &k), CZ_OK);
  cz_cs_free(cs);
  CHECK(keygen_eq(&k, &p)); /* counts, densities, columns x witness = a, b, a * b */
  cz_keygen_cols_free(&k);

  cz_r1cs m;
  cs = ts_synth(CZ_CS_RECORD, c1);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
  cz_cs_free(cs);
  cs = ts_synth(CZ_CS_WITNESS, c1);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_r1cs_eval(&m, &w), CZ_OK);
  CHECK(assign_eq(&p, &w)); /* recording x witness == proving, densities too */
  CHECK_EQ_INT(first_unsatisfied(&w, w.n_constraints), w.n_constraints);
  cz_assignment_free(&w);

  /* The compact form from the same recording, on two threads. */
  cz_pce *pce;
  CHECK_EQ_INT(cz_pce_from_r1cs(&m, &pce), CZ_OK);
  cs = ts_synth(CZ_CS_WITNESS, c1);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_pce_eval(pce, &w, 2), CZ_OK);
  CHECK(assign_eq(&p, &w));
  cz_pce_info info;
  cz_pce_get_info(pce, &info);
  printf("poseidon_base_8 PCE: nnz %zu + %zu + %zu, %zu coefficients, %zu bytes\n", info.nnz[0],
         info.nnz[1], info.nnz[2], info.n_coeffs, info.bytes);
  cz_pce_free(pce);
  cz_assignment_free(&w);
  cz_assignment_free(&p);
  cz_r1cs_free(&m);
}

int main(void) {
  cz_porep_c1 c1;
  ts_seal(&c1, ts_small_registered());
  test_backends_agree(&c1);
  cz_porep_c1_free(&c1);
  return check_report("test_porep_circuit_backends");
}
