/* Sparse test sectors (cz_porep_seal_sparse): the C1 of an all-zero sector
 * of the registered interactive sizes, 2 KiB to 32 GiB (64 GiB: see
 * test_sizes), passes the native vanilla check; its comm_d and replica_id
 * are those of a dense seal of zero data; its 2 KiB circuit is satisfied (TEST mode, naming the
 * first unsatisfied constraint otherwise); a changed label or Merkle path element is refused with
 * the field named; unsupported requests are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/porep.h"
#include "cuzk/registry.h"

static void sparse_input(cz_porep_seal_input *in, const cz_registered_porep *k) {
  memset(in, 0, sizeof *in);
  in->registered = k;
  in->sector_id = 42;
  in->prover_id[0] = 1;
  memset(in->ticket, 0x0c, 32);
  memset(in->seed, 0x0d, 32);
}

static bool verifies(const cz_porep_c1 *c1, char *why, size_t len) {
  return cz_porep_vanilla_verify(c1, why, len) == CZ_OK;
}

/* The registered interactive sizes up to 32 GiB (about 5 s of Poseidon
 * hashing: building and verifying; 64 GiB's 8-8-2 trees, as long again,
 * are compared with dense ones in test_merkle_sparse): the C1 verifies. */
static void test_sizes(void) {
  static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int v1_1 = 1; v1_1 >= (i == 0 ? 0 : 1); v1_1--) {
      const cz_registered_porep *k = cz_registered_porep_by_sector_size(sizes[i], v1_1);
      CHECK(k != NULL);
      if (!k) continue;
      cz_porep_seal_input in;
      sparse_input(&in, k);
      cz_porep_c1 c1;
      char why[256] = "";
      size_t touched = 0;
      CHECK_EQ_INT(cz_porep_seal_sparse(&in, NULL, &c1, &touched, why, sizeof why), CZ_OK);
      bool ok = verifies(&c1, why, sizeof why);
      CHECK(ok);
      if (!ok) fprintf(stderr, "  %s: %s\n", k->name, why);
      /* Challenges + 14 parents each, some shared. */
      size_t n = (size_t)k->partitions * k->shape.challenges;
      CHECK(touched > n && touched <= n * 15);
      printf("%s: %zu touched nodes, verified\n", k->name, touched);
      cz_porep_c1_free(&c1);
    }
}

/* comm_d and replica_id equal a dense seal's of all-zero data. */
static void test_matches_dense_zero_sector(void) {
  const cz_registered_porep *k = cz_registered_porep_by_sector_size(2048, true);
  cz_porep_seal_input in;
  sparse_input(&in, k);
  uint8_t *zero = calloc(1, 2048);
  CHECK(zero != NULL);
  cz_porep_c1 dense, sparse;
  char why[256] = "";
  in.data = zero;
  CHECK_EQ_INT(cz_porep_seal(&in, &dense, 1, why, sizeof why), CZ_OK);
  in.data = NULL;
  CHECK_EQ_INT(cz_porep_seal_sparse(&in, NULL, &sparse, NULL, why, sizeof why), CZ_OK);
  CHECK_MEM(dense.comm_d, sparse.comm_d, 32);
  CHECK_MEM(dense.replica_id, sparse.replica_id, 32);
  /* The same challenges, and every data leaf zero. */
  for (size_t i = 0; i < (size_t)sparse.n_partitions * sparse.n_challenges; i++) {
    CHECK_EQ_INT(dense.proofs[i].challenge, sparse.proofs[i].challenge);
    CHECK(cz_fr_is_zero(&sparse.proofs[i].tree_d.leaf));
  }
  cz_porep_c1_free(&dense);
  cz_porep_c1_free(&sparse);
  free(zero);
}

/* The 2 KiB circuit is satisfied, partition by partition. */
static void test_circuit_satisfied(void) {
  const cz_registered_porep *k = cz_registered_porep_by_sector_size(2048, true);
  cz_porep_seal_input in;
  sparse_input(&in, k);
  cz_porep_c1 c1;
  char why[256] = "";
  CHECK_EQ_INT(cz_porep_seal_sparse(&in, NULL, &c1, NULL, why, sizeof why), CZ_OK);
  for (uint32_t p = 0; p < c1.n_partitions; p++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    CHECK(cs != NULL);
    CHECK_EQ_INT(cz_porep_circuit(cs, &k->shape, &c1, p), CZ_OK);
    CHECK(cz_cs_is_satisfied(cs));
    const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
    if (bad) fprintf(stderr, "  partition %u: first unsatisfied constraint %s\n", p, bad);
    cz_cs_free(cs);
  }
  cz_porep_c1_free(&c1);
}

/* One change to a fresh 2 KiB sparse C1: the check fails naming `want`. */
typedef void (*tamper_fn)(cz_porep_c1 *c1);
static void expect_refused(tamper_fn f, const char *want) {
  const cz_registered_porep *k = cz_registered_porep_by_sector_size(2048, true);
  cz_porep_seal_input in;
  sparse_input(&in, k);
  cz_porep_c1 c1;
  char why[256] = "";
  CHECK_EQ_INT(cz_porep_seal_sparse(&in, NULL, &c1, NULL, why, sizeof why), CZ_OK);
  f(&c1);
  CHECK_EQ_INT(cz_porep_vanilla_verify(&c1, why, sizeof why), CZ_ERR_PROOF_INVALID);
  bool named = strstr(why, want) != NULL;
  CHECK(named);
  if (!named) fprintf(stderr, "  expected \"%s\" in: %s\n", want, why);
  cz_porep_c1_free(&c1);
}

static const cz_fr ONE = {{1, 0, 0, 0}};

static void bump(cz_fr *x) { cz_fr_add(x, x, &ONE); }
static void t_challenge_label(cz_porep_c1 *c) { bump(&c->proofs[1].c_x.rows[1]); }
static void t_parent_label(cz_porep_c1 *c) { bump(&c->proofs[0].drg[2].rows[0]); }
static void t_labeling_parent(cz_porep_c1 *c) { bump(&c->proofs[0].labeling[1].parents[7]); }
static void t_tree_c_path(cz_porep_c1 *c) { bump(&c->proofs[0].exp[3].tree_c.siblings[1][4]); }
static void t_tree_r_path(cz_porep_c1 *c) { bump(&c->proofs[0].tree_r_last.siblings[0][2]); }
static void t_tree_d_path(cz_porep_c1 *c) { bump(&c->proofs[1].tree_d.siblings[4][0]); }
static void t_replica_leaf(cz_porep_c1 *c) { bump(&c->proofs[0].tree_r_last.leaf); }

static void test_refusals(void) {
  const cz_registered_porep *k = cz_registered_porep_by_sector_size(2048, true);
  cz_porep_seal_input in;
  sparse_input(&in, k);
  cz_porep_c1 c1;
  char why[256] = "";
  uint8_t zero[2048] = {0};
  in.data = zero;
  CHECK_EQ_INT(cz_porep_seal_sparse(&in, NULL, &c1, NULL, why, sizeof why), CZ_ERR_INVALID_ARG);
  CHECK(strstr(why, "all zero") != NULL);
  in.data = NULL;
  in.registered =
      cz_registered_porep_by_id(k->id + 10); /* the NI-PoRep registered proof of 2 KiB */
  CHECK(in.registered != NULL);
  CHECK_EQ_INT(cz_porep_seal_sparse(&in, NULL, &c1, NULL, why, sizeof why), CZ_ERR_INVALID_ARG);
  CHECK(strstr(why, "interactive") != NULL);
  in.registered = NULL;
  CHECK_EQ_INT(cz_porep_seal_sparse(&in, NULL, &c1, NULL, why, sizeof why), CZ_ERR_INVALID_ARG);
}

int main(void) {
  test_sizes();
  test_matches_dense_zero_sector();
  test_circuit_satisfied();
  expect_refused(t_challenge_label, "challenge column (node");
  expect_refused(t_challenge_label, "a row is wrong");
  expect_refused(t_parent_label, "DRG parent 2 column");
  expect_refused(t_labeling_parent, "labeling proof (layer 2): parent 7 differs");
  expect_refused(t_tree_c_path, "expander parent 3 column");
  expect_refused(t_tree_c_path, "tree C inclusion proof does not verify");
  expect_refused(t_tree_r_path, "tree R-last inclusion proof does not verify");
  expect_refused(t_tree_d_path, "tree D inclusion proof does not verify");
  expect_refused(t_replica_leaf, "tree R-last inclusion proof");
  test_refusals();
  return check_report("porep_sparse");
}
