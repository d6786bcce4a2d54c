/* libFuzzer: circom constraint system (.r1cs) decoding (cuzk/circom.h). A
 * system that decodes has consistent offsets and wires below nWires, so
 * checking a witness of ones against it (small systems) must stay in
 * bounds and give OK or one line naming a constraint; a refused file owns
 * nothing and says why in one line. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cz_circom_r1cs r;
  char msg[256] = "";
  cz_err e = cz_circom_r1cs_read(&r, data, size, msg, sizeof msg);
  if (e != CZ_OK) {
    if (r.lc || r.wire || r.coef || !msg[0] || strchr(msg, '\n')) abort();
    return 0;
  }
  if (r.lc[3 * r.n_constraints] != r.n_terms) abort();
  for (size_t t = 0; t < r.n_terms; t++)
    if (r.wire[t] >= r.n_wires) abort();
  if (r.n_wires <= 4096) {
    cz_fr *w = malloc(r.n_wires * sizeof *w);
    if (!w) abort();
    for (size_t i = 0; i < r.n_wires; i++) w[i] = CZ_FR_ONE;
    size_t bad = SIZE_MAX;
    msg[0] = 0;
    e = cz_circom_r1cs_check(&r, w, r.n_wires, 1, &bad, msg, sizeof msg);
    if (e != CZ_OK && (e != CZ_ERR_INVALID_ARG || bad >= r.n_constraints || !msg[0])) abort();
    free(w);
  }
  cz_circom_r1cs_free(&r);
  return 0;
}
