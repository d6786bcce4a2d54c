/* One update partition up to its assignment (snap_prove.c), without
 * Groth16 (test_snap_roundtrip.sh proves and verifies): a 2 KiB CC sector
 * sealed and updated (cz_snap_sector_make), its partition proof written and
 * parsed as a request carries it, verified, synthesized PROVE (every
 * constraint holds, 1,705,039 of them as rust-fil-proofs counts, plus the
 * 5 input constraints PROVE appends), its challenges on 1, 2, 3 or all
 * threads bit for bit the serial run, and synthesized through a recorded
 * shape bit for bit the same. Bad requests get one error each: another
 * partition, a commitment >= r, truncated bytes, another circuit's shape,
 * proofs of the wrong length for cz_snap_verify_proofs. */
#include <string.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/snap.h"
#include "cuzk/snap_circuit.h"

/* Every constraint holds: the recorded matrices (C included) times a
 * WITNESS run, a * b = c row by row (PROVE leaves c to the prover). */
static bool satisfied(const cz_snap_partition *p, const cz_fr in[CZ_SNAP_PUBLIC_INPUTS]) {
  cz_snap_public pub = {in[0], in[1], in[2], in[3]};
  cz_r1cs m;
  cz_assignment w;
  cz_cs *rec = cz_cs_new(CZ_CS_RECORD, NULL), *wit = cz_cs_new(CZ_CS_WITNESS, NULL);
  bool ok = cz_snap_circuit(rec, &p->registered->shape, NULL, NULL) == CZ_OK &&
            cz_cs_finish(rec) == CZ_OK && cz_cs_take_r1cs(rec, &m) == CZ_OK;
  ok = ok && cz_snap_circuit(wit, &p->registered->shape, &pub, &p->proof) == CZ_OK &&
       cz_cs_finish(wit) == CZ_OK && cz_cs_take_assignment(wit, &w) == CZ_OK;
  ok = ok && cz_r1cs_eval(&m, &w) == CZ_OK &&
       first_unsatisfied(&w, w.n_constraints) == w.n_constraints;
  cz_cs_free(rec);
  cz_cs_free(wit);
  if (ok) {
    cz_r1cs_free(&m);
    cz_assignment_free(&w);
  }
  return ok;
}

/* The challenges synthesized on 1, 2, 3 and all threads give the serial
 * run's assignment bit for bit (cz_snap_circuit on one PROVE system). */
static void budgets_agree(const cz_snap_partition *p, const cz_fr in[CZ_SNAP_PUBLIC_INPUTS],
                          const cz_assignment *par2) {
  cz_snap_public pub = {in[0], in[1], in[2], in[3]};
  cz_assignment serial, par;
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK(cz_snap_circuit(cs, &p->registered->shape, &pub, &p->proof) == CZ_OK);
  CHECK(cz_cs_finish(cs) == CZ_OK && cz_cs_take_assignment(cs, &serial) == CZ_OK);
  cz_cs_free(cs);
  CHECK(assign_eq(&serial, par2));
  static const unsigned budgets[] = {1, 3, 0};
  char msg[256];
  for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
    CHECK(cz_snap_witness(CZ_CS_PROVE, &p->registered->shape, &pub, &p->proof, budgets[b], &par,
                          msg, sizeof msg) == CZ_OK);
    CHECK(assign_eq(&serial, &par));
    cz_assignment_free(&par);
  }
  cz_assignment_free(&serial);
}

int main(void) {
  const cz_registered_snap *k = cz_registered_snap_by_id(0);
  cz_snap_sector sec;
  char msg[256];
  CHECK(cz_snap_sector_make(k, 7, NULL, 0, &sec, msg, sizeof msg) == CZ_OK);
  cz_snap_trees t;
  cz_snap_sector_trees(&sec, &t);
  cz_snap_partition_proof pp;
  CHECK(cz_snap_vanilla_prove(&k->shape, 0, &t, &pp, msg, sizeof msg) == CZ_OK);
  size_t n = cz_snap_vanilla_write(NULL, &pp);
  uint8_t *b = malloc(n);
  CHECK(b && cz_snap_vanilla_write(b, &pp) == n);
  cz_snap_vanilla_free(&pp);

  cz_snap_partition p;
  CHECK(cz_snap_partition_parse(&p, k, 0,
                                &(cz_snap_comms){sec.comm_r_old, sec.comm_d_new, sec.comm_r_new}, b,
                                n, msg, sizeof msg) == CZ_OK);
  CHECK(cz_snap_partition_verify(&p, msg, sizeof msg) == CZ_OK);
  cz_fr in[CZ_SNAP_PUBLIC_INPUTS], one;
  CHECK(cz_snap_partition_inputs(&p, in, msg, sizeof msg) == CZ_OK);
  cz_fr_from_u64(&one, 1); /* k = 0, h_select = 1 << 0 (hs = [1; 6]) */
  CHECK(cz_fr_eq(&in[0], &one));

  cz_assignment plain, viapce;
  CHECK(cz_snap_synthesize(&p, 2, &plain, msg, sizeof msg) == CZ_OK);
  CHECK_EQ_INT(plain.n_constraints, 1705039 + 5);
  CHECK_EQ_INT(plain.n_inputs, 5);
  CHECK(satisfied(&p, in));
  budgets_agree(&p, in, &plain);
  cz_pce *shape = NULL;
  CHECK(cz_snap_record_shape(&k->shape, &shape, msg, sizeof msg) == CZ_OK);
  CHECK(cz_snap_synthesize_pce(&p, shape, 0, &viapce, msg, sizeof msg) == CZ_OK);
  CHECK(assign_eq(&plain, &viapce));
  cz_assignment_free(&viapce);
  cz_assignment_free(&plain);
  cz_pce_free(shape);
  /* Another circuit's shape (1 KiB, 8-4-0). */
  cz_snap_shape small;
  cz_snap_shape_of(32, &small);
  CHECK(cz_snap_record_shape(&small, &shape, msg, sizeof msg) == CZ_OK);
  CHECK(cz_snap_synthesize_pce(&p, shape, 0, &viapce, msg, sizeof msg) != CZ_OK);
  cz_pce_free(shape);
  cz_snap_partition_free(&p);

  cz_snap_partition q;
  CHECK(cz_snap_partition_parse(&q, k, 1,
                                &(cz_snap_comms){sec.comm_r_old, sec.comm_d_new, sec.comm_r_new}, b,
                                n, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "partition 1: StackedDrg2KiBV1 has 1 partition") != NULL);
  uint8_t bad[32];
  memset(bad, 0xff, 32);
  CHECK(cz_snap_partition_parse(&q, k, 0, &(cz_snap_comms){sec.comm_r_old, sec.comm_d_new, bad}, b,
                                n, msg, sizeof msg) == CZ_ERR_NONCANONICAL);
  CHECK(strncmp(msg, "comm_r_new:", 11) == 0);
  CHECK(cz_snap_partition_parse(&q, k, 0,
                                &(cz_snap_comms){sec.comm_r_old, sec.comm_d_new, sec.comm_r_new}, b,
                                n - 1, msg, sizeof msg) == CZ_ERR_TRUNCATED);
  /* Proofs of the wrong length are refused before any key is read. */
  cz_groth16_vk vk;
  memset(&vk, 0, sizeof vk);
  uint8_t proofs[2 * CZ_GROTH16_PROOF_BYTES] = {0};
  CHECK(cz_snap_verify_proofs(&vk, k,
                              &(cz_snap_comms){sec.comm_r_old, sec.comm_d_new, sec.comm_r_new},
                              proofs, sizeof proofs, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "has 1 partitions") != NULL);
  free(b);
  cz_snap_sector_free(&sec);
  return check_report("test_snap_prove");
}
