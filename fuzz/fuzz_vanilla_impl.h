/* One harness for the bincode vanilla-proof fuzz targets (PoSt sector
 * proofs, SnapDeals partition proofs). Inputs starting with '!' are an edit
 * script applied to a valid proof the target builds (make_base, which hands
 * it to set_base): each 3-byte group (pos_hi, pos_lo, byte) overwrites one
 * byte at (pos % len); any other input is parsed as it is. Invariants: an
 * error owns nothing and says why; whatever parses writes back to exactly
 * the input bytes (the format has one encoding per value). Include after
 * the format's header and after defining:
 *   VANILLA          the parsed type (cz_post_vanilla, ...)
 *   VANILLA_PARSE    its parse (out, bytes, len, flags, msg, msg_len)
 *   VANILLA_WRITE    its writer (out or NULL for the size, value)
 *   VANILLA_FREE     its free
 * then define static void make_base(void). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *base;
static size_t base_len;

static void make_base(void);

/* The valid proof the edit scripts start from, in its bincode bytes. */
static void set_base(const VANILLA *v) {
  base_len = VANILLA_WRITE(NULL, v);
  base = malloc(base_len);
  if (!base || VANILLA_WRITE(base, v) != base_len) abort();
}

static bool zero(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i]) return false;
  return true;
}

static void check(const uint8_t *in, size_t len) {
  VANILLA v;
  char msg[256];
  cz_err e = VANILLA_PARSE(&v, in, len, 0, msg, sizeof msg);
  if (e != CZ_OK) {
    if (!zero(&v, sizeof v) || !msg[0]) abort();
    return;
  }
  size_t n = VANILLA_WRITE(NULL, &v);
  if (n != len) abort();
  uint8_t *out = malloc(n ? n : 1);
  if (!out) abort();
  if (VANILLA_WRITE(out, &v) != n || memcmp(out, in, n)) abort();
  free(out);
  VANILLA_FREE(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 0 && data[0] == '!') {
    if (!base) make_base();
    uint8_t *t = malloc(base_len);
    if (!t) return 0;
    memcpy(t, base, base_len);
    for (size_t i = 1; i + 3 <= size; i += 3)
      t[((size_t)data[i] << 8 | data[i + 1]) % base_len] = data[i + 2];
    check(t, base_len);
    free(t);
    return 0;
  }
  check(data, size);
  return 0;
}
