/* libFuzzer: Groth16 verifying-key decoding in both layouts. The first byte
 * picks the layout and whether trailing bytes are allowed; the rest is the
 * key. Any key that decodes must re-encode to exactly the bytes it came
 * from (each point has one valid encoding), and nothing may leak. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  bool compressed = data[0] & 1, with_used = data[0] & 2;
  data++;
  size--;
  cz_groth16_vk vk;
  size_t used = 0;
  cz_err e = cz_groth16_vk_read(&vk, data, size, compressed, with_used ? &used : NULL);
  if (e != CZ_OK) {
    if (vk.ic || vk.n_ic) abort();  /* a failed read owns nothing */
    return 0;
  }
  if (!with_used) used = size;
  if (used > size) abort();
  size_t n = cz_groth16_vk_write(NULL, &vk, compressed);
  if (n != used) abort();
  uint8_t *out = malloc(n);
  if (!out) abort();
  cz_groth16_vk_write(out, &vk, compressed);
  if (memcmp(out, data, n) != 0) abort();
  free(out);
  cz_groth16_vk_free(&vk);
  return 0;
}
