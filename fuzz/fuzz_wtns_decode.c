/* libFuzzer: circom witness (.wtns) decoding (cuzk/circom.h). A witness
 * that decodes must give back exactly the bytes of its values section
 * (each value canonical, little endian); a refused one owns nothing and
 * says why in one line. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"

static uint64_t le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n; i-- > 0;) v = v << 8 | p[i];
  return v;
}

/* The body of section 2 of a container the reader accepted. */
static const uint8_t *values_section(const uint8_t *d, size_t size) {
  size_t off = 12;
  for (uint64_t i = 0, n = le(d + 8, 4); i < n; i++) {
    if (le(d + off, 4) == 2) return d + off + 12;
    off += 12 + le(d + off + 4, 8);
  }
  (void)size;
  abort(); /* accepted without a values section */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cz_wtns w;
  char msg[256] = "";
  cz_err e = cz_wtns_read(&w, data, size, msg, sizeof msg);
  if (e != CZ_OK) {
    if (w.v || w.n || !msg[0] || strchr(msg, '\n')) abort();
    return 0;
  }
  const uint8_t *v = values_section(data, size);
  for (size_t i = 0; i < w.n; i++) {
    uint8_t b[32];
    cz_fr_to_bytes_le(b, &w.v[i]);
    if (memcmp(b, v + 32 * i, 32)) abort();
  }
  cz_wtns_free(&w);
  return 0;
}
