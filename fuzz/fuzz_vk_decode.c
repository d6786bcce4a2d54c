/* libFuzzer: Groth16 verifying-key decoding in both layouts.
 * Byte 0 picks the layout (bit 0), whether trailing bytes are allowed
 * (bit 1) and whether the rest is the key itself (bit 2 clear) or a mask
 * XORed onto a valid key built from the generators (bit 2 set), so that
 * mutations near valid encodings get explored too. Any key that decodes
 * must re-encode to exactly its bytes (each point has one valid
 * encoding); a failed read must own nothing; nothing may leak. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"

static uint8_t *valid_key(bool compressed, size_t n_ic, size_t *len) {
  cz_groth16_vk vk = {CZ_G1_GENERATOR,
                      CZ_G1_GENERATOR,
                      CZ_G2_GENERATOR,
                      CZ_G2_GENERATOR,
                      CZ_G1_GENERATOR,
                      CZ_G2_GENERATOR,
                      n_ic,
                      NULL};
  cz_g1_affine ic[4] = {CZ_G1_GENERATOR, CZ_G1_GENERATOR, CZ_G1_GENERATOR, CZ_G1_GENERATOR};
  cz_g1_affine_neg(&ic[1], &ic[1]); /* both y signs */
  vk.ic = ic;
  *len = cz_groth16_vk_write(NULL, &vk, compressed);
  uint8_t *b = malloc(*len);
  if (!b) abort();
  cz_groth16_vk_write(b, &vk, compressed);
  return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  bool compressed = data[0] & 1, with_used = data[0] & 2, masked = data[0] & 4;
  size_t n_ic = 1 + (data[0] >> 6);
  data++;
  size--;
  uint8_t *buf = NULL;
  const uint8_t *key = data;
  if (masked) {
    size_t len;
    buf = valid_key(compressed, n_ic, &len);
    /* the mask may also shorten the key: its length is min(len, size) when
     * size is smaller, which exercises truncation of valid keys */
    size_t keep = size < len ? size : len;
    for (size_t i = 0; i < keep; i++) buf[i] ^= data[i];
    key = buf;
    size = size < len ? size : len;
  }
  cz_groth16_vk vk;
  size_t used = 0;
  cz_err e = cz_groth16_vk_read(&vk, key, size, compressed, with_used ? &used : NULL);
  if (e != CZ_OK) {
    if (vk.ic || vk.n_ic) abort();
  } else {
    if (!with_used) used = size;
    if (used > size) abort();
    size_t n = cz_groth16_vk_write(NULL, &vk, compressed);
    if (n != used) abort();
    uint8_t *out = malloc(n);
    if (!out) abort();
    cz_groth16_vk_write(out, &vk, compressed);
    if (memcmp(out, key, n) != 0) abort();
    free(out);
    cz_groth16_vk_free(&vk);
  }
  free(buf);
  return 0;
}
