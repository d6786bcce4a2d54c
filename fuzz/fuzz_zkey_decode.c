/* libFuzzer: snarkjs .zkey decoding (cuzk/zkey.h). Byte 0: bit 0 asks for
 * the subgroup test of every point; the rest is the file. A key that loads
 * is proved with a witness of ones (small keys only): the terms' rows and
 * signals come from the file, so this holds the reader to its bounds
 * checks; the proof need not verify. A refused file must say why in one
 * line; nothing may leak. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/zkey.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  unsigned flags = (data[0] & 1) ? CZ_ZKEY_CHECK_SUBGROUP : 0;
  data++;
  size--;
  /* a private copy: the key borrows the buffer, libFuzzer's is read-only */
  uint8_t *buf = malloc(size ? size : 1);
  if (!buf) abort();
  memcpy(buf, data, size);
  cz_zkey *z = NULL;
  char msg[256] = "";
  cz_err e = cz_zkey_read(&z, buf, size, flags, 1, msg, sizeof msg);
  if (e != CZ_OK) {
    if (z || !msg[0] || strchr(msg, '\n')) abort();
  } else {
    cz_zkey_info info;
    cz_zkey_get_info(z, &info);
    if (info.n_vars <= 4096 && info.domain_size <= 4096) {
      cz_fr *w = malloc(info.n_vars * sizeof *w), r = CZ_FR_ONE;
      if (!w) abort();
      for (size_t i = 0; i < info.n_vars; i++) w[i] = CZ_FR_ONE;
      cz_prove_timing quiet = {NULL, NULL, true};
      cz_zkey_prove_opts o = {1, &r, &r, &quiet, true, NULL, 0};
      cz_groth16_proof p;
      if (cz_zkey_prove(z, w, info.n_vars, &p, &o) != CZ_OK) abort();
      free(w);
    }
    cz_zkey_free(z);
  }
  free(buf);
  return 0;
}
