/* libFuzzer: Fp/Fr byte decoding accepts exactly the canonical values and
 * re-encodes them to the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/fp.h"
#include "cuzk/fr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= CZ_FP_BYTES) {
    cz_fp a;
    uint8_t out[CZ_FP_BYTES];
    if (cz_fp_from_bytes_be(&a, data) == CZ_OK) {
      cz_fp_to_bytes_be(out, &a);
      if (memcmp(out, data, CZ_FP_BYTES)) abort();
    }
  }
  if (size >= CZ_FR_BYTES) {
    cz_fr b;
    uint8_t out[CZ_FR_BYTES];
    if (cz_fr_from_bytes_le(&b, data) == CZ_OK) {
      cz_fr_to_bytes_le(out, &b);
      if (memcmp(out, data, CZ_FR_BYTES)) abort();
    }
  }
  return 0;
}
