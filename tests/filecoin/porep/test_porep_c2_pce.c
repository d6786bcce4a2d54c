/* Pre-compiled PoRep synthesis on a real 2 KiB sector (cz_porep_seal's
 * default data): cz_porep_synthesize_pce through the shape of
 * cz_porep_record_shape gives the plain cz_porep_synthesize assignment
 * bit for bit (values, a/b/c, densities) on 1 and 2 threads, and a shape
 * of another circuit is refused. The shape's size is printed. The plain
 * path, its challenges synthesized on 1, 2, 3 or all threads, equals the
 * serial run of the circuit on one PROVE system. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/porep.h"

int main(void) {
  cz_porep_seal_input in;
  memset(&in, 0, sizeof in);
  in.registered = cz_registered_porep_by_id(5); /* StackedDrg2KiBV1_1 */
  in.sector_id = 7;
  memset(in.ticket, 0x21, 32);
  memset(in.seed, 0x43, 32);
  cz_porep_c1 c1;
  char msg[256] = "";
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_OK);

  cz_pce *shape;
  CHECK_EQ_INT(cz_porep_record_shape(c1.registered, &shape, msg, sizeof msg), CZ_OK);
  cz_pce_info info;
  cz_pce_get_info(shape, &info);
  printf(
      "StackedDrg2KiBV1_1 shape: %zu constraints, nnz %zu + %zu + %zu, %zu coefficients, "
      "%u-byte codes, %zu bytes\n",
      info.n_constraints, info.nnz[0], info.nnz[1], info.nnz[2], info.n_coeffs, info.code_bytes,
      info.bytes);

  /* The serial reference: the whole circuit on one PROVE system. */
  cz_assignment plain, pce;
  cz_cs *serial = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(cz_porep_circuit(serial, &c1.registered->shape, &c1, 0), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(serial), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(serial, &plain), CZ_OK);
  cz_cs_free(serial);
  CHECK_EQ_INT(info.n_constraints, plain.n_constraints);
  for (unsigned threads = 1; threads <= 2; threads++) {
    CHECK_EQ_INT(cz_porep_synthesize_pce(&c1, 0, shape, threads, &pce, msg, sizeof msg), CZ_OK);
    CHECK(assign_eq(&plain, &pce));
    cz_assignment_free(&pce);
  }
  /* NULL shape: the plain path, its challenges on every budget. */
  static const unsigned budgets[] = {1, 2, 3, 0};
  for (size_t t = 0; t < sizeof budgets / sizeof *budgets; t++) {
    CHECK_EQ_INT(cz_porep_synthesize(&c1, 0, budgets[t], &pce, msg, sizeof msg), CZ_OK);
    CHECK(assign_eq(&plain, &pce));
    cz_assignment_free(&pce);
  }
  cz_assignment_free(&plain);
  cz_pce_free(shape);

  /* The shape of another circuit (ONE alone): refused with a message. */
  cz_cs *cs = cz_cs_new(CZ_CS_RECORD, NULL);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &shape), CZ_OK);
  cz_cs_free(cs);
  msg[0] = 0;
  CHECK_EQ_INT(cz_porep_synthesize_pce(&c1, 0, shape, 1, &pce, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "shape") != NULL);
  cz_pce_free(shape);
  cz_porep_c1_free(&c1);
  return check_report("test_porep_c2_pce");
}
