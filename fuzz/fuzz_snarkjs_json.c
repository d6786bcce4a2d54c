/* libFuzzer: snarkjs JSON (cuzk/circom.h). Byte 0 % 3 picks the reader:
 * proof.json, public.json or verification_key.json; the rest is the text.
 * A proof or public signals that parse must write back as text that parses
 * to the same values; a refusal says why in one line. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"

static void proof_roundtrip(const char *text, size_t len) {
  cz_groth16_proof p, q;
  char msg[256] = "";
  if (cz_snarkjs_proof_parse(&p, text, len, msg, sizeof msg) != CZ_OK) {
    if (!msg[0] || strchr(msg, '\n')) abort();
    return;
  }
  char out[4096];
  size_t n = cz_snarkjs_proof_json(out, sizeof out, &p);
  if (n >= sizeof out || cz_snarkjs_proof_parse(&q, out, n, NULL, 0) != CZ_OK ||
      memcmp(&p, &q, sizeof p))
    abort();
}

static void public_roundtrip(const char *text, size_t len) {
  cz_fr *v = NULL, *u = NULL;
  size_t n = 0, m = 0;
  char msg[256] = "";
  if (cz_snarkjs_public_parse(&v, &n, text, len, msg, sizeof msg) != CZ_OK) {
    if (v || !msg[0] || strchr(msg, '\n')) abort();
    return;
  }
  size_t k = cz_snarkjs_public_json(NULL, 0, v, n);
  char *out = malloc(k + 1);
  if (!out) abort();
  cz_snarkjs_public_json(out, k + 1, v, n);
  if (cz_snarkjs_public_parse(&u, &m, out, k, NULL, 0) != CZ_OK || m != n ||
      (n && memcmp(u, v, n * sizeof *v)))
    abort();
  free(out);
  free(u);
  free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  switch (data[0] % 3) {
    case 0: proof_roundtrip(text, len); break;
    case 1: public_roundtrip(text, len); break;
    default: {
      cz_groth16_vk vk;
      char msg[256] = "";
      if (cz_snarkjs_vkey_parse(&vk, text, len, msg, sizeof msg) == CZ_OK) {
        if (vk.n_ic < 1 || !vk.ic) abort();
        cz_groth16_vk_free(&vk);
      } else if (vk.ic || !msg[0] || strchr(msg, '\n')) {
        abort();
      }
    }
  }
  return 0;
}
