/* Reading the real PoSt vectors under tests/vectors: whole files, and
 * comm_r out of a sealed CID. A missing file is a failure, never a skip. */
#ifndef CUZK_TESTS_POST_VECTORS_H
#define CUZK_TESTS_POST_VECTORS_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define WINNING_DIR "tests/vectors/winningpost-2kib/"
#define WINDOW_DIR "tests/vectors/windowpost-32gib-vanilla/"

/* The whole file in an exactly-sized heap buffer (so that the sanitizer
 * sees a read past its end); NULL and a failed check when unreadable. */
static inline uint8_t *post_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    check_failed++;
    fprintf(stderr, "missing vector file %s\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (!b) {
    check_failed++;
    fprintf(stderr, "cannot read %s\n", path);
    return NULL;
  }
  *len = (size_t)n;
  return b;
}

/* RFC 4648 base32, lower case, no padding (multibase prefix 'b' already
 * stripped). Returns the byte count, or -1 for a character outside it. */
static inline long post_base32_decode(uint8_t *out, size_t cap, const char *s) {
  uint64_t acc = 0;
  int bits = 0;
  size_t n = 0;
  for (; *s; s++) {
    int v = *s >= 'a' && *s <= 'z' ? *s - 'a' : *s >= '2' && *s <= '7' ? *s - '2' + 26 : -1;
    if (v < 0) return -1;
    acc = acc << 5 | (uint64_t)v;
    bits += 5;
    if (bits >= 8) {
      if (n == cap) return -1;
      out[n++] = (uint8_t)(acc >> (bits - 8));
      bits -= 8;
    }
  }
  return (long)n;
}

/* comm_r of a sealed CID string ("bagboea4b..."): CIDv1, codec
 * fil-commitment-sealed (0xf102), multihash poseidon-bls12_381-a2-fc1
 * (0xb401) of 32 bytes: the digest is the CID's last 32 bytes. Also checks
 * that prefix, so a wrong decoding cannot pass. */
static inline bool post_cid_comm_r(uint8_t comm_r[32], const char *cid) {
  static const uint8_t prefix[] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
  uint8_t b[64];
  if (cid[0] != 'b') return false;
  long n = post_base32_decode(b, sizeof b, cid + 1);
  if (n != (long)sizeof prefix + 32 || memcmp(b, prefix, sizeof prefix)) return false;
  memcpy(comm_r, b + sizeof prefix, 32);
  return true;
}

#endif
