/* The StackedDRG circuit with the witness of a small sealed sector
 * (porep_test_sector.h, stacked_circuit.rs's poseidon_base_8 shape):
 *  - TEST is satisfied, with rust-fil-proofs' counts, and the inputs it
 *    collected are cz_porep_c1_public_inputs' (as stacked_circuit.rs
 *    compares the TestConstraintSystem's inputs with
 *    generate_public_inputs);
 *  - broken witnesses (path elements, parents' labels, the challenge,
 *    comm_r) fail, first at the constraint that checks what was changed,
 *    by name. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cs_eq.h"
#include "porep_test_sector.h"

static bool unsat_is(const cz_cs *cs, const char *want) {
  const char *name = cz_cs_which_is_unsatisfied(cs, NULL);
  if (!name || strcmp(name, want)) {
    fprintf(stderr, "  first unsatisfied: %s, expected %s\n", name ? name : "(none)", want);
    return false;
  }
  return true;
}

/* TEST: satisfied, rust-fil-proofs' counts, the public inputs; a changed
 * input value breaks the constraint that binds it. Returns the system,
 * whose constraint names the later checks use. */
static cz_cs *test_satisfied(const cz_porep_c1 *c1) {
  cz_cs *cs = ts_synth(CZ_CS_TEST, c1);
  CHECK(cz_cs_is_satisfied(cs));
  const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
  if (bad) fprintf(stderr, "  unsatisfied: %s\n", bad);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), WANT_CONSTRAINTS);

  /* The inputs the circuit allocated, ONE first, are the public inputs. */
  cz_fr want[64], got;
  size_t n = 64;
  CHECK_EQ_INT(cz_porep_c1_public_inputs(c1, 0, want, &n), CZ_OK);
  CHECK_EQ_INT(n + 1, WANT_INPUTS);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), n + 1);
  CHECK(cz_cs_value(cs, CZ_VAR_ONE, &got) && cz_fr_is_one(&got));
  for (size_t i = 0; i < n; i++) {
    CHECK(cz_cs_value(cs, cz_var_input((uint32_t)i + 1), &got));
    CHECK(cz_fr_eq(&got, &want[i]));
  }
  /* A different replica_id input no longer matches its allocated number. */
  cz_fr other = want[0];
  cz_fr_add(&other, &other, &CZ_FR_ONE);
  CHECK(cz_cs_set_value(cs, cz_var_input(1), &other));
  CHECK(unsat_is(cs, "replica_id_input/enforce input is correct"));
  CHECK(cz_cs_set_value(cs, cz_var_input(1), &want[0]));
  /* Nor a different challenge (input 19: after replica_id, comm_d, comm_r,
   * the tree-D path and the 14 parents' paths) its UInt64's bits. */
  cz_fr_from_u64(&other, c1->proofs[0].challenge ^ 1);
  CHECK(cz_cs_set_value(cs, cz_var_input(19), &other));
  CHECK(unsat_is(cs, "challenge_0/challenge input/packing constraint 0"));
  CHECK(cz_cs_set_value(cs, cz_var_input(19), &want[18]));
  CHECK(cz_cs_is_satisfied(cs));
  return cs;
}

/* Which part of c1's first challenge a broken witness changes. */
typedef enum {
  BREAK_TREE_D_PATH,
  BREAK_DRG_LABEL,
  BREAK_EXP_LABEL,
  BREAK_CHALLENGE,
  BREAK_TREE_C_PATH,
  BREAK_COMM_R,
} breakage;

static const struct {
  breakage what;
  const char *first_unsatisfied;
} breakages[] = {
    {BREAK_TREE_D_PATH, "challenge_0/comm_d_inclusion/enforce root is correct"},
    {BREAK_DRG_LABEL, "challenge_0/drg_parent_2_inclusion/enforce root is correct"},
    {BREAK_EXP_LABEL, "challenge_0/exp_parent_5_inclusion/enforce root is correct"},
    /* Another node's labels, hence another encoding of the leaf: tree R
     * no longer holds it. */
    {BREAK_CHALLENGE, "challenge_0/comm_r_last_data_inclusion/enforce root is correct"},
    {BREAK_TREE_C_PATH, "challenge_0/c_x_inclusion/enforce root is correct"},
    {BREAK_COMM_R, "enforce comm_r = H(comm_c || comm_r_last)"},
};

static void add_one(cz_fr *x) { cz_fr_add(x, x, &CZ_FR_ONE); }

/* Each broken C1 still synthesizes, but its witness fails, first at the
 * constraint that checks what was changed. A WITNESS run completed by the
 * recording gives a/b/c; the TEST run of the same shape names the row. */
static void test_broken_witnesses(const cz_porep_c1 *good, const cz_r1cs *m, const cz_cs *names) {
  for (size_t i = 0; i < sizeof breakages / sizeof breakages[0]; i++) {
    cz_porep_c1 c1 = *good;
    cz_porep_challenge_proof p = good->proofs[0];
    c1.proofs = &p;
    switch (breakages[i].what) {
      case BREAK_TREE_D_PATH: add_one(&p.tree_d.siblings[1][0]); break;
      case BREAK_DRG_LABEL: add_one(&p.drg[2].rows[1]); break;
      case BREAK_EXP_LABEL: add_one(&p.exp[5].rows[0]); break;
      case BREAK_CHALLENGE: p.labeling[0].node ^= 1; break;
      case BREAK_TREE_C_PATH: add_one(&p.c_x.tree_c.siblings[0][6]); break;
      case BREAK_COMM_R: c1.comm_r[0] ^= 1; break;
    }
    cz_assignment w;
    cz_cs *cs = ts_synth(CZ_CS_WITNESS, &c1);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
    CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
    cz_cs_free(cs);
    CHECK_EQ_INT(cz_r1cs_eval(m, &w), CZ_OK);
    size_t at = first_unsatisfied(&w, WANT_CONSTRAINTS);
    const char *name = cz_cs_constraint_name(names, at);
    bool ok = name && strcmp(name, breakages[i].first_unsatisfied) == 0;
    CHECK(ok);
    if (!ok)
      fprintf(stderr, "  breakage %zu: first unsatisfied %s, expected %s\n", i,
              name ? name : "(none)", breakages[i].first_unsatisfied);
    cz_assignment_free(&w);
  }
}

int main(void) {
  cz_porep_c1 c1;
  ts_seal(&c1, ts_small_registered());
  /* The native path agrees that the proofs open the commitments. */
  const cz_porep_challenge_proof *p = &c1.proofs[0];
  CHECK(cz_merkle_verify(&p->tree_d) && cz_merkle_verify(&p->tree_r_last) &&
        cz_merkle_verify(&p->c_x.tree_c));
  cz_cs *names = test_satisfied(&c1);
  cz_r1cs m;
  cz_cs *cs = ts_synth(CZ_CS_RECORD, &c1);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
  cz_cs_free(cs);
  test_broken_witnesses(&c1, &m, names);
  cz_r1cs_free(&m);
  cz_cs_free(names);
  cz_porep_c1_free(&c1);
  return check_report("test_porep_circuit_witness");
}
