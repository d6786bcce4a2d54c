/* Groth16 test parameters for a circuit's keygen columns: random toxic
 * waste, set up on two threads (tests only; the proofs they make verify
 * against these parameters and nowhere else). */
#ifndef CUZK_TESTS_SETUP_KEYGEN_H
#define CUZK_TESTS_SETUP_KEYGEN_H
#include <stdio.h>

#include "check.h"
#include "cuzk/params.h"
#include "rand_field.h"

/* *p from the columns of the finished KEYGEN system cs (freed here). */
static inline bool check_setup_from(cz_groth16_params *p, cz_cs *cs) {
  cz_keygen_cols k;
  CHECK_EQ_INT(cz_cs_take_keygen(cs, &k), CZ_OK);
  cz_cs_free(cs);
  cz_groth16_toxic t = {check_rand_fr(), check_rand_fr(), check_rand_fr(), check_rand_fr(),
                        check_rand_fr()};
  char msg[256];
  cz_err e = cz_groth16_setup(p, &k, &t, 2, msg, sizeof msg);
  cz_keygen_cols_free(&k);
  if (e != CZ_OK) fprintf(stderr, "setup: %s\n", msg);
  CHECK_EQ_INT(e, CZ_OK);
  return e == CZ_OK;
}

#endif
