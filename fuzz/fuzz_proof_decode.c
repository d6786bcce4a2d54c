/* libFuzzer: Groth16 proof decoding (192 bytes, compressed A|B|C). A proof
 * that decodes must re-encode to the same bytes. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size != CZ_GROTH16_PROOF_BYTES) return 0;
  cz_groth16_proof p;
  if (cz_groth16_proof_read(&p, data) != CZ_OK) return 0;
  uint8_t out[CZ_GROTH16_PROOF_BYTES];
  cz_groth16_proof_write(out, &p);
  if (memcmp(out, data, sizeof out) != 0) abort();
  return 0;
}
