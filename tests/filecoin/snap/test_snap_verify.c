/* The native vanilla prover and verifier of update partitions
 * (snap_generate.c, snap_verify.c), and the circuit on their witness.
 *
 * Honest proofs of random updated sectors (1 KiB 8-4-0, 2 KiB, 16 KiB with
 * 2 partitions, 32 KiB 8-8-2) verify, round-trip through bincode, and make
 * a TEST circuit that is satisfied with cz_snap_public_inputs' inputs (2
 * KiB). Each tampering the issue lists is refused with one line: a wrong
 * comm_r_new, a tampered apex leaf, a changed leaf, the wrong partition,
 * the wrong sector size (registered proof), the wrong counts. The
 * satisfied circuit is the independent check here: the circuit follows
 * circuit.rs constraint for constraint (its counts are rust-fil-proofs'),
 * the verifier and prover do not share code with it. */
#include <string.h>

#include "check.h"
#include "cuzk/snap_circuit.h"
#include "snap_test_sector.h"

static void expect_bad(const snap_test_sector *t, uint32_t k, const cz_snap_partition_proof *p,
                       const uint8_t *r_old, const uint8_t *d_new, const uint8_t *r_new,
                       cz_err want, const char *needle) {
  char msg[256] = "";
  cz_err e = cz_snap_vanilla_verify(&t->shape, k, &(cz_snap_comms){r_old, d_new, r_new}, p, 0, msg,
                                    sizeof msg);
  CHECK_EQ_INT(e, want);
  CHECK(strstr(msg, needle) != NULL);
  if (!strstr(msg, needle)) fprintf(stderr, "message: %s (wanted %s)\n", msg, needle);
}

static void test_honest(uint64_t nodes) {
  snap_test_sector t;
  if (!snap_test_sector_make(&t, nodes)) return;
  for (uint32_t k = 0; k < t.shape.partitions; k++) {
    cz_snap_partition_proof p, q;
    char msg[256];
    CHECK(cz_snap_vanilla_prove(&t.shape, k, &t.trees, &p, msg, sizeof msg) == CZ_OK);
    cz_err e =
        cz_snap_vanilla_verify(&t.shape, k,
                               &(cz_snap_comms){t.b_comm_r_old, t.b_comm_d_new, t.b_comm_r_new}, &p,
                               k, msg, sizeof msg);
    CHECK_EQ_INT(e, CZ_OK);
    if (e) fprintf(stderr, "%llu nodes, k %u: %s\n", (unsigned long long)nodes, k, msg);
    size_t n = cz_snap_vanilla_write(NULL, &p);
    uint8_t *b = malloc(n);
    CHECK(b && cz_snap_vanilla_write(b, &p) == n);
    CHECK(b && cz_snap_vanilla_parse(&q, b, n, k, msg, sizeof msg) == CZ_OK);
    CHECK(cz_snap_vanilla_verify(&t.shape, k,
                                 &(cz_snap_comms){t.b_comm_r_old, t.b_comm_d_new, t.b_comm_r_new},
                                 &q, k, msg, sizeof msg) == CZ_OK);
    free(b);
    cz_snap_vanilla_free(&q);
    /* Another partition's index: its challenges differ. */
    if (t.shape.partitions > 1)
      expect_bad(&t, (k + 1) % t.shape.partitions, &p, t.b_comm_r_old, t.b_comm_d_new,
                 t.b_comm_r_new, CZ_ERR_PROOF_INVALID, "partition");
    cz_snap_vanilla_free(&p);
  }
  snap_test_sector_free(&t);
}

/* test_tampered, step 1: comm_r_new or comm_d_new off by one bit, or a
 * non-canonical comm_r_old, with an honest proof: refused. */
static void snap_refuses_wrong_comms(const snap_test_sector *t, const cz_snap_partition_proof *p) {
  uint8_t other[32];
  memcpy(other, t->b_comm_r_new, 32);
  other[0] ^= 1;
  expect_bad(t, 0, p, t->b_comm_r_old, t->b_comm_d_new, other, CZ_ERR_PROOF_INVALID,
             "comm_r_new is not Poseidon(comm_c, root_r_new)");
  memcpy(other, t->b_comm_d_new, 32);
  other[3] ^= 1;
  expect_bad(t, 0, p, t->b_comm_r_old, other, t->b_comm_r_new, CZ_ERR_PROOF_INVALID,
             "apex_leafs: they do not hash to comm_d_new");
  memset(other, 0xff, 32);
  expect_bad(t, 0, p, other, t->b_comm_d_new, t->b_comm_r_new, CZ_ERR_NONCANONICAL, "comm_r_old");
}

/* test_tampered, step 2: an apex leaf, a leaf_r_new, the proofs of another
 * challenge or the challenge count changed in the proof: refused. Each
 * change is undone after its check. */
static void snap_refuses_tampered_proof(const snap_test_sector *t, cz_snap_partition_proof *p) {
  cz_fr keep = p->apex_leaves[5];
  cz_fr_add(&p->apex_leaves[5], &p->apex_leaves[5], &CZ_FR_ONE);
  expect_bad(t, 0, p, t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new, CZ_ERR_PROOF_INVALID,
             "apex_leafs");
  p->apex_leaves[5] = keep;
  /* leaf_r_new changed: its path no longer leads to root_r_new. */
  cz_fr_add(&p->challenges[4].proof_r_new.proof.leaf, &p->challenges[4].proof_r_new.proof.leaf,
            &CZ_FR_ONE);
  expect_bad(t, 0, p, t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new, CZ_ERR_PROOF_INVALID,
             "challenge_proofs[4].proof_r_new: the path does not lead to root_r_new");
  cz_fr_sub(&p->challenges[4].proof_r_new.proof.leaf, &p->challenges[4].proof_r_new.proof.leaf,
            &CZ_FR_ONE);
  /* Proofs of another challenge. */
  cz_snap_challenge_proof c = p->challenges[2];
  p->challenges[2] = p->challenges[3];
  expect_bad(t, 0, p, t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new, CZ_ERR_PROOF_INVALID,
             "challenge_proofs[2].proof_r_old: opens node");
  p->challenges[2] = c;
  /* Wrong counts. */
  p->n_challenges = 9;
  expect_bad(t, 0, p, t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new, CZ_ERR_PROOF_INVALID,
             "9 proofs, the sector size has 10");
  p->n_challenges = 10;
}

/* test_tampered, step 3: the restored proof under the 8 MiB registered
 * proof's constants (128 apex leaves expected) and for a partition the
 * shape does not have: refused; as it is: accepted. */
static void snap_refuses_wrong_shape(const snap_test_sector *t, const cz_snap_partition_proof *pp) {
  char m2[256];
  CHECK(cz_snap_vanilla_verify(&cz_registered_snap_by_id(1)->shape, 0,
                               &(cz_snap_comms){t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new},
                               pp, 0, m2, sizeof m2) == CZ_ERR_PROOF_INVALID);
  CHECK(strstr(m2, "8 leaves, the sector size has 128") != NULL);
  CHECK(cz_snap_vanilla_verify(&t->shape, 1,
                               &(cz_snap_comms){t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new},
                               pp, 0, m2, sizeof m2) == CZ_ERR_INVALID_ARG);
  CHECK(cz_snap_vanilla_verify(&t->shape, 0,
                               &(cz_snap_comms){t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new},
                               pp, 0, m2, sizeof m2) == CZ_OK);
}

/* test_tampered, step 4: the circuit on this witness is satisfied, with 5
 * inputs equal to the verifier's public inputs; a tampered leaf_d_new makes
 * it unsatisfied (not an error); a witness of the wrong shape is refused.
 * Leaves leaf_d_new of challenge 7 tampered. */
static void snap_circuit_on_witness(const snap_test_sector *t, cz_snap_partition_proof *p) {
  char msg[256];
  cz_fr pub[CZ_SNAP_PUBLIC_INPUTS];
  CHECK(cz_snap_public_inputs(&t->shape, 0, t->shape.h,
                              &(cz_snap_comms){t->b_comm_r_old, t->b_comm_d_new, t->b_comm_r_new},
                              pub, msg, sizeof msg) == CZ_OK);
  cz_snap_public sp = {pub[0], pub[1], pub[2], pub[3]};
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK(cz_snap_circuit(cs, &t->shape, &sp, p) == CZ_OK);
  CHECK(cz_cs_finish(cs) == CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  size_t at = 0;
  const char *which = cz_cs_which_is_unsatisfied(cs, &at);
  if (which) fprintf(stderr, "unsatisfied: %s\n", which);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 1705039);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 5);
  for (int i = 0; i < CZ_SNAP_PUBLIC_INPUTS; i++) {
    cz_fr v;
    CHECK(cz_cs_value(cs, cz_var_input((uint32_t)i + 1), &v) && cz_fr_eq(&v, &pub[i]));
  }
  cz_cs_free(cs);
  /* A tampered leaf_d_new makes an unsatisfied circuit, not an error. */
  cz_fr_add(&p->challenges[7].proof_d_new.proof.leaf, &p->challenges[7].proof_d_new.proof.leaf,
            &CZ_FR_ONE);
  cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK(cz_snap_circuit(cs, &t->shape, &sp, p) == CZ_OK);
  CHECK(cz_cs_finish(cs) == CZ_OK);
  CHECK(!cz_cs_is_satisfied(cs));
  cz_cs_free(cs);
  /* A witness of the wrong shape is refused. */
  cs = cz_cs_new(CZ_CS_TEST, NULL);
  p->n_apex = 4;
  CHECK(cz_snap_circuit(cs, &t->shape, &sp, p) == CZ_ERR_INVALID_ARG);
  p->n_apex = 8;
  cz_cs_free(cs);
}

/* One honest proof of a 64-node sector, tampered step by step (see the
 * functions above). */
static void test_tampered(void) {
  snap_test_sector t;
  if (!snap_test_sector_make(&t, 64)) return;
  cz_snap_partition_proof p;
  char msg[256];
  CHECK(cz_snap_vanilla_prove(&t.shape, 0, &t.trees, &p, msg, sizeof msg) == CZ_OK);
  snap_refuses_wrong_comms(&t, &p);
  snap_refuses_tampered_proof(&t, &p);
  snap_refuses_wrong_shape(&t, &p);
  snap_circuit_on_witness(&t, &p);
  cz_snap_vanilla_free(&p);
  snap_test_sector_free(&t);
}

/* cz_snap_sector_make: a sealed CC sector, updated with the default data:
 * comm_r_old is the sealed sector's (Poseidon-2(comm_c, root R old)), and
 * its partition proof verifies; data that is not fr32 is refused. */
static void test_sector_make(void) {
  const cz_registered_snap *k = cz_registered_snap_by_id(0);
  cz_snap_sector sec;
  char msg[256];
  CHECK(cz_snap_sector_make(k, 1, NULL, 0, &sec, msg, sizeof msg) == CZ_OK);
  cz_fr pair[2] = {sec.comm_c, sec.tree_r_old.root}, h;
  CHECK(cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, pair, &h) == CZ_OK);
  uint8_t b[32];
  cz_fr_to_bytes_le(b, &h);
  CHECK_MEM(b, sec.comm_r_old, 32);
  cz_fr_to_bytes_le(b, &sec.tree_d_new.root);
  CHECK_MEM(b, sec.comm_d_new, 32);
  cz_snap_trees t;
  cz_snap_sector_trees(&sec, &t);
  cz_snap_partition_proof p;
  CHECK(cz_snap_vanilla_prove(&k->shape, 0, &t, &p, msg, sizeof msg) == CZ_OK);
  CHECK(cz_snap_vanilla_verify(&k->shape, 0,
                               &(cz_snap_comms){sec.comm_r_old, sec.comm_d_new, sec.comm_r_new}, &p,
                               0, msg, sizeof msg) == CZ_OK);
  cz_snap_vanilla_free(&p);
  cz_snap_sector_free(&sec);
  uint8_t *bad = malloc(k->sector_size);
  memset(bad, 0xff, k->sector_size);
  CHECK(cz_snap_sector_make(k, 1, bad, 0, &sec, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "not fr32-padded") != NULL);
  free(bad);
}

int main(void) {
  test_sector_make();
  test_honest(1 << 5);
  test_honest(1 << 6);
  test_honest(1 << 9);
  test_honest(1 << 10);
  test_tampered();
  return check_report("test_snap_verify");
}
