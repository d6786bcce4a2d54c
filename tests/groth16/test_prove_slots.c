/* Proofs of a circuit of slots (tests/cs/toy_slots.h) are the same bytes
 * whichever way its assignment was made, with the same r and s: serial
 * PROVE, cz_slots_synthesize on 1, 2 and 3 threads, a WITNESS run
 * completed by the tiled recorded shape, and the serial run given a stored
 * c (the C rows of cz_r1cs_eval) in place of the c the prover computes
 * from a and b. Every proof verifies; a changed input does not. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cs/toy_slots.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_prove.h"
#include "rand_field.h"
#include "setup_keygen.h"

#define SLOTS 11

static const cz_prove_timing QUIET = {NULL, NULL, true};
static toy T;
static const cz_slotted_circuit C = {SLOTS, toy_header, toy_slot, &T};

static cz_cs *serial_run(cz_cs_mode mode) {
  cz_cs *cs = cz_cs_new(mode, NULL);
  CHECK_EQ_INT(cz_slots_run(cs, &C, NULL, 0), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return cs;
}

/* Proof of *as (consumed) with r and s; its inputs (ONE dropped) kept. */
static cz_groth16_proof prove(const cz_groth16_params *p, cz_assignment *as, const cz_fr *r,
                              const cz_fr *s, cz_fr *inputs) {
  memcpy(inputs, as->inputs + 1, (as->n_inputs - 1) * sizeof(cz_fr));
  cz_groth16_proof pr;
  memset(&pr, 0, sizeof pr);
  cz_prove_opts o = {2, r, s, &QUIET, NULL, 0};
  CHECK_EQ_INT(cz_groth16_prove(NULL, p, as, 1, &pr, &o), CZ_OK);
  cz_assignment_free(as);
  return pr;
}

/* The serial PROVE assignment with c stored from the recorded C rows. */
static void with_stored_c(cz_assignment *as) {
  cz_cs *cs = serial_run(CZ_CS_PROVE);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, as), CZ_OK);
  cz_cs_free(cs);
  cz_r1cs m;
  cz_assignment w;
  cs = serial_run(CZ_CS_RECORD);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
  cz_cs_free(cs);
  cs = serial_run(CZ_CS_WITNESS);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_r1cs_eval(&m, &w), CZ_OK);
  CHECK(as->c == NULL && w.c != NULL);
  as->c = w.c; /* the room cz_r1cs_eval gave it is the H domain's, as a and b have */
  w.c = NULL;
  cz_assignment_free(&w);
  cz_r1cs_free(&m);
}

int main(void) {
  T = (toy){.n_slots = SLOTS, .odd_slot = -1, .thief = -1, .failing = -1};
  cz_groth16_params p;
  if (!check_setup_from(&p, serial_run(CZ_CS_KEYGEN))) return check_report("test_prove_slots");
  cz_fr r = check_rand_fr(), s = check_rand_fr(), in[SLOTS + 2], in2[SLOTS + 2];
  cz_assignment as;
  cz_cs *cs = serial_run(CZ_CS_PROVE);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_OK);
  cz_cs_free(cs);
  size_t n_in = as.n_inputs - 1;
  cz_groth16_proof want = prove(&p, &as, &r, &s, in), got;
  CHECK(cz_groth16_verify(&p.vk, in, n_in, &want) == CZ_OK);
  char msg[200];
  for (unsigned th = 1; th <= 3; th++) {
    CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_PROVE, NULL, &C, th, &as, msg, sizeof msg), CZ_OK);
    got = prove(&p, &as, &r, &s, in2);
    CHECK(!memcmp(&got, &want, sizeof got) && !memcmp(in, in2, n_in * sizeof(cz_fr)));
  }
  cz_pce *shape = NULL;
  CHECK_EQ_INT(cz_slots_record(&C, &shape, msg, sizeof msg), CZ_OK);
  cz_pce_info info;
  cz_pce_get_info(shape, &info);
  CHECK_EQ_INT(info.n_slots, SLOTS);
  CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_WITNESS, NULL, &C, 2, &as, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_pce_eval(shape, &as, 2), CZ_OK);
  got = prove(&p, &as, &r, &s, in2);
  CHECK(!memcmp(&got, &want, sizeof got));
  cz_pce_free(shape);
  with_stored_c(&as);
  got = prove(&p, &as, &r, &s, in2);
  CHECK(!memcmp(&got, &want, sizeof got));
  cz_fr_add(&in[0], &in[0], &CZ_FR_ONE);
  CHECK(cz_groth16_verify(&p.vk, in, n_in, &want) != CZ_OK);
  cz_groth16_params_free(&p);
  return check_report("test_prove_slots");
}
