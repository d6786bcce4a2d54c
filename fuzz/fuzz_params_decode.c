/* libFuzzer: Groth16 parameter-file decoding (bellperson layout).
 * Byte 0: bit 0 picks checked/unchecked decoding, bit 1 whether the rest is
 * the file itself (clear) or a mask XORed onto a small valid file built
 * from the generators (set; the mask's length also truncates it), so that
 * mutations near valid encodings get explored. Parameters that decode must
 * re-encode to exactly the input bytes; a failed read must own nothing;
 * nothing may leak. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/params.h"

static uint8_t *valid_file(size_t *len) {
  static cz_g1_affine g1[3];
  static cz_g2_affine g2[2];
  for (int i = 0; i < 3; i++) g1[i] = CZ_G1_GENERATOR;
  cz_g1_affine_neg(&g1[1], &g1[1]); /* both y signs */
  g2[0] = g2[1] = CZ_G2_GENERATOR;
  cz_g2_affine_neg(&g2[1], &g2[1]);
  cz_groth16_params p = {
      .vk = {CZ_G1_GENERATOR, CZ_G1_GENERATOR, CZ_G2_GENERATOR, CZ_G2_GENERATOR, CZ_G1_GENERATOR,
             CZ_G2_GENERATOR, 2, g1},
      .n_h = 3,
      .n_l = 1,
      .n_a = 2,
      .n_b_g1 = 2,
      .n_b_g2 = 2,
      .h = g1,
      .l = g1 + 1,
      .a = g1,
      .b_g1 = g1 + 1,
      .b_g2 = g2,
  };
  *len = cz_groth16_params_write(NULL, &p);
  uint8_t *b = malloc(*len);
  if (!b) abort();
  cz_groth16_params_write(b, &p);
  return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  bool checked = data[0] & 1, masked = data[0] & 2;
  data++;
  size--;
  uint8_t *buf = NULL;
  const uint8_t *file = data;
  if (masked) {
    size_t len;
    buf = valid_file(&len);
    size_t keep = size < len ? size : len;
    for (size_t i = 0; i < keep; i++) buf[i] ^= data[i];
    file = buf;
    size = keep;
  }
  cz_groth16_params p;
  char msg[256];
  cz_err e = cz_groth16_params_read(&p, file, size, checked, 1, msg, sizeof msg);
  if (e != CZ_OK) {
    if (p.vk.ic || p.h || p.l || p.a || p.b_g1 || p.b_g2 || p.n_h || p.n_b_g2) abort();
    if (!msg[0]) abort(); /* every failure says where */
  } else {
    size_t n = cz_groth16_params_write(NULL, &p);
    if (n != size) abort();
    uint8_t *out = malloc(n);
    if (!out) abort();
    cz_groth16_params_write(out, &p);
    if (memcmp(out, file, n) != 0) abort();
    free(out);
    cz_groth16_params_free(&p);
  }
  free(buf);
  return 0;
}
