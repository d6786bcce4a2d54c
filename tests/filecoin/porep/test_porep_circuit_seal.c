/* The StackedDRG circuit on real 2 KiB sectors sealed by cz_porep_seal:
 *  - StackedDrg2KiBV1_1 with the deterministic default data: TEST is
 *    satisfied, the inputs it collected are cz_porep_c1_public_inputs',
 *    and a changed path element or parent label is caught by name;
 *  - the polka-storage sector (porep_id zero, API 1.1.0; see
 *    tests/data/README.md), whose real proof verifies under
 *    tests/vectors/porep-2kib-v1_1/public_inputs.json: the inputs our
 *    circuit allocates for it are exactly those, and its witness satisfies
 *    the same constraints.
 * The 2 KiB circuit's size is printed; no rust-fil-proofs test asserts it
 * (stacked_circuit.rs's shapes are in test_porep_circuit.c). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cuzk/porep.h"
#include "polka_sector.h"
#include "vectors.h"

#define PI_JSON "tests/vectors/porep-2kib-v1_1/public_inputs.json"

static void seal_input(cz_porep_seal_input *in) {
  memset(in, 0, sizeof *in);
  in->registered = cz_registered_porep_by_id(5);
  in->sector_id = 1001;
  for (int i = 0; i < 32; i++) {
    in->prover_id[i] = (uint8_t)(3 * i + 1);
    in->ticket[i] = (uint8_t)(0x5a ^ i);
    in->seed[i] = (uint8_t)(0xc0 + i);
  }
}

/* The first aux variable holding value (the allocation that introduced
 * it, for a value no earlier variable happens to share). */
static bool find_aux(const cz_cs *cs, const cz_fr *value, cz_var *out) {
  for (size_t i = 0; i < cz_cs_num_aux(cs); i++) {
    cz_fr v;
    if (cz_cs_value(cs, cz_var_aux((uint32_t)i), &v) && cz_fr_eq(&v, value)) {
      *out = cz_var_aux((uint32_t)i);
      return true;
    }
  }
  return false;
}

/* Set var to value + 1: the first unsatisfied constraint's name must start
 * with want; then restore. */
static void break_var(cz_cs *cs, cz_var var, const cz_fr *value, const char *want) {
  cz_fr bad;
  cz_fr_add(&bad, value, &CZ_FR_ONE);
  CHECK(cz_cs_set_value(cs, var, &bad));
  const char *name = cz_cs_which_is_unsatisfied(cs, NULL);
  bool ok = name && strncmp(name, want, strlen(want)) == 0;
  CHECK(ok);
  if (!ok) fprintf(stderr, "  first unsatisfied %s, expected %s\n", name ? name : "(none)", want);
  CHECK(cz_cs_set_value(cs, var, value));
}

/* TEST on the default 2 KiB sector; returns the system for the polka
 * witness, which has the same shape. */
static cz_cs *test_default_sector(void) {
  cz_porep_seal_input in;
  seal_input(&in);
  cz_porep_c1 c1;
  char msg[256] = "";
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_porep_vanilla_verify(&c1, msg, sizeof msg), CZ_OK);
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(cz_porep_circuit(cs, &c1.registered->shape, &c1, 0), CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
  if (bad) fprintf(stderr, "  unsatisfied: %s\n", bad);
  printf(
      "StackedDrg2KiBV1_1 circuit: %zu inputs (ONE included), %zu aux, %zu constraints "
      "(+%zu input constraints in a proving or keygen system)\n",
      cz_cs_num_inputs(cs), cz_cs_num_aux(cs), cz_cs_num_constraints(cs), cz_cs_num_inputs(cs));

  cz_fr want[64], got;
  size_t n = 64;
  CHECK_EQ_INT(cz_porep_c1_public_inputs(&c1, 0, want, &n), CZ_OK);
  CHECK_EQ_INT(n, 39);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), n + 1);
  for (size_t i = 0; i < n; i++) {
    CHECK(cz_cs_value(cs, cz_var_input((uint32_t)i + 1), &got));
    CHECK(cz_fr_eq(&got, &want[i]));
  }

  /* A path element of tree D (level 2 of challenge 0): the insert that
   * places it next to the running node breaks, "binary insert 1" when the
   * node is the left child, else "binary insert 0". */
  const cz_porep_challenge_proof *p = &c1.proofs[0];
  cz_var v;
  CHECK(find_aux(cs, &p->tree_d.siblings[2][0], &v));
  char want_name[160];
  snprintf(want_name, sizeof want_name,
           "challenge_0/comm_d_inclusion/base/merkle tree hash 2/binary insert %d/pick",
           p->tree_d.index[2] ? 0 : 1);
  break_var(cs, v, &p->tree_d.siblings[2][0], want_name);
  /* A DRG parent's layer-1 label: its column hash no longer holds. */
  CHECK(find_aux(cs, &p->drg[0].rows[0], &v));
  break_var(cs, v, &p->drg[0].rows[0], "challenge_0/drg_parent_0_constraint/");
  /* The challenged node's layer-2 label (no parent of its own): the
   * packing of the label's SHA-256 bits into that number. */
  CHECK(find_aux(cs, &p->c_x.rows[1], &v));
  break_var(cs, v, &p->c_x.rows[1], "challenge_0/labeling_2/create_label/result_num/");
  CHECK(cz_cs_is_satisfied(cs));
  cz_porep_c1_free(&c1);
  return cs;
}

/* The polka-storage sector: the circuit's inputs are the real proof's. */
static void test_polka_sector(cz_cs *test) {
  uint8_t sector[2048];
  bool have = polka_sector_data(sector);
  CHECK(have);
  json_t *pi = vec_load(PI_JSON);
  json_t *inputs = pi ? vec_array(pi, "inputs") : NULL;
  if (!have || !inputs) {
    json_decref(pi);
    return;
  }
  cz_porep_seal_input in;
  memset(&in, 0, sizeof in);
  in.registered = cz_registered_porep_by_id(5);
  in.sector_id = 77;
  memset(in.ticket, 0x0c, 32);
  memset(in.seed, 0x0d, 32);
  in.data = sector;
  cz_porep_config cfg;
  cz_registered_porep_config(in.registered, &cfg);
  memset(cfg.porep_id, 0, 32);
  cfg.api = CZ_API_1_1_0;
  cz_porep_c1 c1;
  char msg[256] = "";
  CHECK_EQ_INT(cz_porep_seal_config(&in, &cfg, &c1, 0, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_porep_vanilla_verify_config(&c1, &cfg, msg, sizeof msg), CZ_OK);

  /* The witness (the circuit needs no configuration: parents enter as the
   * paths' index bits). */
  cz_cs *cs = cz_cs_new(CZ_CS_WITNESS, NULL);
  CHECK_EQ_INT(cz_porep_circuit(cs, &c1.registered->shape, &c1, 0), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_assignment w;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(w.n_inputs, json_array_size(inputs) + 1);
  CHECK_EQ_INT(w.n_inputs, cz_cs_num_inputs(test));
  CHECK_EQ_INT(w.n_aux, cz_cs_num_aux(test));
  for (size_t i = 0; i + 1 < w.n_inputs && i < json_array_size(inputs); i++) {
    uint8_t want[32], have_b[32];
    CHECK_EQ_INT(check_hex(want, 32, json_string_value(json_array_get(inputs, i))), 32);
    cz_fr_to_bytes_le(have_b, &w.inputs[i + 1]);
    if (memcmp(have_b, want, 32)) fprintf(stderr, "  circuit input %zu differs\n", i + 1);
    CHECK_MEM(have_b, want, 32);
  }
  cz_fr pub[64];
  size_t n = 64;
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &cfg, 0, pub, &n), CZ_OK);
  CHECK_EQ_INT(n + 1, w.n_inputs);
  CHECK(n + 1 == w.n_inputs && memcmp(pub, w.inputs + 1, n * sizeof(cz_fr)) == 0);

  /* Its witness satisfies the constraints of the TEST system above (the
   * same shape: only values differ between sectors). */
  bool set = true;
  for (size_t i = 0; i < w.n_inputs && set; i++)
    set = cz_cs_set_value(test, cz_var_input((uint32_t)i), &w.inputs[i]);
  for (size_t i = 0; i < w.n_aux && set; i++) {
    cz_fr x;
    cz_fr_packed_get(&w.aux, i, &x);
    set = cz_cs_set_value(test, cz_var_aux((uint32_t)i), &x);
  }
  CHECK(set);
  CHECK(cz_cs_is_satisfied(test));
  cz_assignment_free(&w);
  cz_porep_c1_free(&c1);
  json_decref(pi);
}

int main(void) {
  cz_cs *cs = test_default_sector();
  test_polka_sector(cs);
  cz_cs_free(cs);
  return check_report("test_porep_circuit_seal");
}
