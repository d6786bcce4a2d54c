/* libFuzzer: Groth16 proof decoding (192 bytes, compressed A|B|C).
 * Inputs of 192 bytes are decoded as they are; inputs of 193 bytes are a
 * flag byte plus a mask XORed onto the real WinningPoSt proof, so that
 * mutations of a valid proof (sign flips, near-valid coordinates) get
 * explored. A proof that decodes must re-encode to the same bytes. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"

/* The proof of tests/vectors/winningpost-2kib/vector.json
 * (filecoin-ffi v1.36.0). */
static const char REAL_PROOF_HEX[] =
    "936fc7fee3cba8ca4d001760f72323fb6346df5a8aa8afd268ceaea135aaa48fbe19683a55006702ee36158462fb1d"
    "28"
    "ac9fa9de18ee7e967a23dad2680cc21630762b857bf6fa03657549e2aba2fcee3b1629cf8df6ec18c035fb1904f304"
    "12"
    "0bf08c420147742b99f18a918b029083aa4221bd4c965b7620314723d810225f70a3c586b4905fdfedf821cfded473"
    "9f"
    "a981361831ac27cdb130e5cdfbeac37dc04caf00264d8d6c0c70fc78a1630041c086d00a1640bd7b2d38ef0591c8a7"
    "66";

static int hexv(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t in[CZ_GROTH16_PROOF_BYTES];
  if (size == CZ_GROTH16_PROOF_BYTES) {
    memcpy(in, data, sizeof in);
  } else if (size == CZ_GROTH16_PROOF_BYTES + 1) {
    for (int i = 0; i < CZ_GROTH16_PROOF_BYTES; i++)
      in[i] = (uint8_t)(hexv(REAL_PROOF_HEX[2 * i]) << 4 | hexv(REAL_PROOF_HEX[2 * i + 1])) ^
              data[i + 1];
  } else {
    return 0;
  }
  cz_groth16_proof p;
  if (cz_groth16_proof_read(&p, in) != CZ_OK) return 0;
  uint8_t out[CZ_GROTH16_PROOF_BYTES];
  cz_groth16_proof_write(out, &p);
  if (memcmp(out, in, sizeof out) != 0) abort();
  return 0;
}
