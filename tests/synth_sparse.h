/* A small synthetic circuit for prover tests (cz_synthetic_sparse, seed 42):
 * its test parameters, and the PROVE assignment for a value x. */
#ifndef CUZK_TESTS_SYNTH_SPARSE_H
#define CUZK_TESTS_SYNTH_SPARSE_H
#include "check.h"
#include "setup_keygen.h"
#include "cuzk/synthetic.h"

/* The assignment of the n-constraint sparse circuit at x. */
static inline cz_assignment check_sparse_assignment(size_t n, uint64_t x) {
  cz_fr xv;
  cz_fr_from_u64(&xv, x);
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(cz_synthetic_sparse(cs, n, &xv, 42), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_assignment as;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_OK);
  cz_cs_free(cs);
  return as;
}

/* Test parameters of that circuit into *p; false (CHECKed) when setup fails. */
static inline bool check_sparse_setup(cz_groth16_params *p, size_t n) {
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  cz_fr x = CZ_FR_ONE;
  CHECK_EQ_INT(cz_synthetic_sparse(cs, n, &x, 42), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return check_setup_from(p, cs);
}

#endif
