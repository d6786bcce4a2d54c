/* The StackedDRG circuit's shape against the counts rust-fil-proofs'
 * own tests assert, and the public inputs of a C1 against a real proof's.
 *
 * Counts: storage-proofs-porep/tests/stacked_circuit.rs (rust-fil-proofs
 * master, 87348a74; unchanged since "Synthetic PoRep" #1701) synthesizes
 * StackedCompound::circuit for one partition with nodes = 8 *
 * get_base_tree_count::<Tree>(), num_layers = 2, Challenges::new_interactive(1),
 * Sha256Hasher for tree D, and asserts on TestConstraintSystem and MetricCS
 * (neither counts bellperson's trailing input constraints):
 *   test_stacked_porep_circuit_poseidon_base_2   (U2, U0, U0): 22 inputs, 1_206_212 constraints
 *   test_stacked_input_circuit_poseidon_base_8   (U8, U0, U0): 22 inputs, 1_199_620
 *   test_stacked_input_circuit_poseidon_sub_8_4  (U8, U4, U0): 22 inputs, 1_296_576
 *   test_stacked_input_circuit_poseidon_top_8_4_2 (U8, U4, U2): 22 inputs, 1_346_982
 * Base tree counts 1, 1, 4, 8 give 8, 8, 32, 64 nodes. The shape alone
 * decides the circuit, so KEYGEN (no witness) reproduces them; after
 * cz_cs_finish it holds one more constraint per input, as bellperson's
 * KeypairAssembly does.
 *
 * Public inputs: tests/vectors/porep-2kib-v1_1 (polka-storage's real
 * 2 KiB proof; see its README): porep_id of registered proof 0 with API
 * 1.1.0, which no registered proof has, hence the explicit configuration. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cuzk/porep.h"
#include "vectors.h"

#define PR_DIR "tests/vectors/porep-2kib-v1_1/"

typedef struct {
  const char *test;
  cz_porep_shape shape;
  size_t inputs, constraints;
} rust_case;

#define P8(sub, top) \
  { CZ_MERKLE_POSEIDON, 8, (sub), (top) }
static const rust_case rust_cases[] = {
    {"poseidon_base_2", {8, 2, 1, {CZ_MERKLE_POSEIDON, 2, 0, 0}}, 22, 1206212},
    {"poseidon_base_8", {8, 2, 1, P8(0, 0)}, 22, 1199620},
    {"poseidon_sub_8_4", {32, 2, 1, P8(4, 0)}, 22, 1296576},
    {"poseidon_top_8_4_2", {64, 2, 1, P8(4, 2)}, 22, 1346982},
};

static void test_rust_counts(void) {
  for (size_t i = 0; i < sizeof rust_cases / sizeof rust_cases[0]; i++) {
    const rust_case *c = &rust_cases[i];
    cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
    CHECK_EQ_INT(cz_porep_circuit(cs, &c->shape, NULL, 0), CZ_OK);
    CHECK_EQ_INT(cz_cs_num_inputs(cs), c->inputs);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), c->constraints);
    printf("stacked_circuit %s: %zu inputs, %zu constraints, %zu aux (rust-fil-proofs: %zu, %zu)\n",
           c->test, cz_cs_num_inputs(cs), cz_cs_num_constraints(cs), cz_cs_num_aux(cs), c->inputs,
           c->constraints);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), c->constraints + c->inputs);
    cz_cs_free(cs);
  }
}

/* The vector's configuration: StackedDrg2KiBV1_1's sizes with porep_id
 * zero (registered proof 0) and API 1.1.0. */
static cz_porep_config polka_config(void) {
  cz_porep_config cfg;
  cz_registered_porep_config(cz_registered_porep_by_id(5), &cfg);
  memset(cfg.porep_id, 0, 32);
  cfg.api = CZ_API_1_1_0;
  return cfg;
}

static void test_public_inputs_vector(void) {
  json_t *v = vec_load(PR_DIR "vector.json"), *pi = vec_load(PR_DIR "public_inputs.json");
  json_t *der = v ? vec_path(v, "derived") : NULL, *inputs = pi ? vec_array(pi, "inputs") : NULL;
  const cz_porep_config cfg = polka_config();
  cz_porep_c1 c1;
  CHECK_EQ_INT(cz_porep_c1_alloc(&c1, cz_registered_porep_by_id(5)), CZ_OK);
  if (!der || !inputs) goto out;
  bool ok = vec_hex(der, "replica_id_hex", c1.replica_id, 32) &&
            vec_hex(v, "seed_hex", c1.seed, 32) && vec_hex(v, "comm_d_hex", c1.comm_d, 32) &&
            vec_hex(v, "comm_r_hex", c1.comm_r, 32) && vec_hex(v, "ticket_hex", c1.ticket, 32);
  CHECK(ok);
  if (!ok) goto out;

  cz_fr got[64];
  size_t n = 2; /* too small: the count needed comes back */
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &cfg, 0, got, &n), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(n, 39);
  n = 64;
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &cfg, 0, got, &n), CZ_OK);
  CHECK_EQ_INT(n, json_array_size(inputs));
  for (size_t i = 0; i < n && i < json_array_size(inputs); i++) {
    uint8_t want[32], have[32];
    CHECK_EQ_INT(check_hex(want, 32, json_string_value(json_array_get(inputs, i))), 32);
    cz_fr_to_bytes_le(have, &got[i]);
    if (memcmp(have, want, 32)) fprintf(stderr, "public input %zu differs\n", i);
    CHECK_MEM(have, want, 32);
  }
  /* Partition 1 does not exist for 2 KiB; a changed seed moves the
   * challenges (inputs 3.. change, replica_id / comm_d / comm_r do not). */
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &cfg, 1, got, &n), CZ_ERR_INVALID_ARG);
  cz_fr again[64];
  size_t m = 64;
  c1.seed[0] ^= 1;
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &cfg, 0, again, &m), CZ_OK);
  CHECK_MEM(again, got, 3 * sizeof(cz_fr));
  CHECK(memcmp(again + 3, got + 3, (n - 3) * sizeof(cz_fr)) != 0);
  c1.seed[0] ^= 1;
  /* The registered proof's own configuration (porep_id 5) has other parents, so other
   * inputs; so has API 1.0.0 (the predecessor moves among the DRG parents). */
  m = 64;
  CHECK_EQ_INT(cz_porep_c1_public_inputs(&c1, 0, again, &m), CZ_OK);
  CHECK(memcmp(again + 3, got + 3, (n - 3) * sizeof(cz_fr)) != 0);
  cz_porep_config v100 = cfg;
  v100.api = CZ_API_1_0_0;
  m = 64;
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &v100, 0, again, &m), CZ_OK);
  CHECK(memcmp(again + 3, got + 3, (n - 3) * sizeof(cz_fr)) != 0);
  /* A configuration of another size or challenge count is refused. */
  cz_porep_config other = cfg;
  other.sector_size *= 2;
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &other, 0, again, &m), CZ_ERR_INVALID_ARG);
  other = cfg;
  other.challenges = 3;
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &other, 0, again, &m), CZ_ERR_INVALID_ARG);
  /* A comm_r >= r is refused. */
  memset(c1.comm_r, 0xff, 32);
  m = 64;
  CHECK_EQ_INT(cz_porep_c1_public_inputs_config(&c1, &cfg, 0, again, &m), CZ_ERR_NONCANONICAL);
out:
  cz_porep_c1_free(&c1);
  json_decref(v);
  json_decref(pi);
}

static void test_bad_arguments(void) {
  const cz_registered_porep *k = cz_registered_porep_by_id(5);
  cz_porep_shape s = k->shape;
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  /* A system that needs values needs the C1. */
  CHECK_EQ_INT(cz_porep_circuit(cs, &s, NULL, 0), CZ_ERR_INVALID_ARG);
  cz_porep_c1 c1;
  CHECK_EQ_INT(cz_porep_c1_alloc(&c1, k), CZ_OK);
  CHECK_EQ_INT(cz_porep_circuit(cs, &s, &c1, 1), CZ_ERR_INVALID_ARG); /* no partition 1 */
  cz_porep_shape other = s;
  other.challenges = 3;
  CHECK_EQ_INT(cz_porep_circuit(cs, &other, &c1, 0), CZ_ERR_INVALID_ARG); /* not c1's shape */
  /* Column hashes exist for 2 and 11 layers only; trees must fit the nodes. */
  other = s;
  other.layers = 3;
  CHECK_EQ_INT(cz_porep_circuit(cs, &other, NULL, 0), CZ_ERR_INVALID_ARG);
  other = s;
  other.nodes = 48;
  CHECK_EQ_INT(cz_porep_circuit(cs, &other, NULL, 0), CZ_ERR_INVALID_ARG);
  /* Nothing was synthesized by any refused call. */
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 0);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 1);
  cz_porep_c1_free(&c1);
  cz_cs_free(cs);
}

int main(void) {
  test_bad_arguments();
  test_public_inputs_vector();
  test_rust_counts();
  return check_report("test_porep_circuit");
}
