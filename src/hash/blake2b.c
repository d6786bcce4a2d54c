/* BLAKE2b (RFC 7693): keyed, any digest length, and a one-block fast path. */
#include "cuzk/blake2b.h"

#include <stdbool.h>
#include <string.h>

static const uint64_t IV[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                               0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                               0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static const uint8_t SIGMA[12][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                      {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
                                      {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
                                      {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
                                      {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
                                      {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
                                      {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
                                      {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
                                      {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
                                      {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
                                      {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                      {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

#define G(a, b, c, d, x, y) \
  do { \
    a = a + b + (x); \
    d = rotr64(d ^ a, 32); \
    c = c + d; \
    b = rotr64(b ^ c, 24); \
    a = a + b + (y); \
    d = rotr64(d ^ a, 16); \
    c = c + d; \
    b = rotr64(b ^ c, 63); \
  } while (0)

/* The message word i of a block: little-endian, as BLAKE2b reads it. */
static inline uint64_t load64(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t w;
  memcpy(&w, p, 8); /* one load: the byte loop below cost 3x in throughput */
  return w;
#else
  uint64_t w = 0;
  for (int b = 7; b >= 0; b--) w = w << 8 | p[b];
  return w;
#endif
}

/* Round r with its SIGMA row as constants once the loop is unrolled (a
 * runtime row cost a third of the throughput of a file hash). */
#define ROUND(r) \
  do { \
    const uint8_t *s = SIGMA[r]; \
    G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]); \
    G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]); \
    G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]); \
    G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]); \
    G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]); \
    G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]); \
    G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]); \
    G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]); \
  } while (0)

/* One compression of block into h; t = bytes hashed so far (this block's
 * included), last = the final block. */
static inline void compress(uint64_t h[8], const uint8_t block[CZ_BLAKE2B_BLOCK], uint64_t t,
                            bool last) {
  uint64_t m[16], v[16];
  for (int i = 0; i < 16; i++) m[i] = load64(block + 8 * i);
  for (int i = 0; i < 8; i++) v[i] = h[i], v[8 + i] = IV[i];
  v[12] ^= t; /* byte counter (low word; messages stay below 2^64 bytes) */
  if (last) v[14] = ~v[14];
  ROUND(0);
  ROUND(1);
  ROUND(2);
  ROUND(3);
  ROUND(4);
  ROUND(5);
  ROUND(6);
  ROUND(7);
  ROUND(8);
  ROUND(9);
  ROUND(10);
  ROUND(11);
  for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[8 + i];
}

static void put_digest(uint8_t *out, size_t out_len, const uint64_t h[8]) {
  for (size_t i = 0; i < out_len; i++) out[i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
}

void cz_blake2b512_short(uint8_t out[64], const uint8_t *in, size_t len) {
  uint8_t block[CZ_BLAKE2B_BLOCK] = {0};
  if (len) memcpy(block, in, len);
  uint64_t h[8];
  for (int i = 0; i < 8; i++) h[i] = IV[i];
  h[0] ^= 0x01010000ULL ^ 64; /* depth 1, fanout 1, no key, 64-byte digest */
  compress(h, block, (uint64_t)len, true);
  put_digest(out, 64, h);
}

bool cz_blake2b(uint8_t *out, size_t out_len, const uint8_t *key, size_t key_len, const uint8_t *in,
                size_t len) {
  if (out_len < 1 || out_len > 64 || key_len > 64 || (key_len && !key) || (len && !in))
    return false;
  uint64_t h[8];
  for (int i = 0; i < 8; i++) h[i] = IV[i];
  h[0] ^= 0x01010000ULL ^ ((uint64_t)key_len << 8) ^ out_len;
  uint8_t block[CZ_BLAKE2B_BLOCK];
  uint64_t t = 0;
  /* A key is one zero-padded block ahead of the message. */
  if (key_len) {
    memset(block, 0, sizeof block);
    memcpy(block, key, key_len);
    t = CZ_BLAKE2B_BLOCK;
    compress(h, block, t, len == 0);
  }
  /* Every full block but the last; the last (1..128 bytes, or the empty
   * message without a key) is padded and flagged. */
  while (len > CZ_BLAKE2B_BLOCK) {
    t += CZ_BLAKE2B_BLOCK;
    compress(h, in, t, false);
    in += CZ_BLAKE2B_BLOCK;
    len -= CZ_BLAKE2B_BLOCK;
  }
  if (len || !key_len) {
    memset(block, 0, sizeof block);
    if (len) memcpy(block, in, len);
    t += len;
    compress(h, block, t, true);
  }
  put_digest(out, out_len, h);
  return true;
}

bool cz_blake2b_init(cz_blake2b_state *s, size_t out_len) {
  if (out_len < 1 || out_len > 64) return false;
  for (int i = 0; i < 8; i++) s->h[i] = IV[i];
  s->h[0] ^= 0x01010000ULL ^ out_len; /* depth 1, fanout 1, no key */
  s->t = 0;
  s->n = 0;
  s->out_len = out_len;
  return true;
}

void cz_blake2b_update(cz_blake2b_state *s, const uint8_t *in, size_t len) {
  if (!len) return;
  /* Fill the held block; compress it only once more bytes follow it. */
  if (s->n) {
    size_t take = CZ_BLAKE2B_BLOCK - s->n;
    if (take > len) take = len;
    memcpy(s->buf + s->n, in, take);
    s->n += take, in += take, len -= take;
    if (!len) return;
    s->t += CZ_BLAKE2B_BLOCK;
    compress(s->h, s->buf, s->t, false);
    s->n = 0;
  }
  while (len > CZ_BLAKE2B_BLOCK) { /* the last block stays for final */
    s->t += CZ_BLAKE2B_BLOCK;
    compress(s->h, in, s->t, false);
    in += CZ_BLAKE2B_BLOCK, len -= CZ_BLAKE2B_BLOCK;
  }
  memcpy(s->buf, in, len);
  s->n = len;
}

void cz_blake2b_final(cz_blake2b_state *s, uint8_t *out) {
  memset(s->buf + s->n, 0, CZ_BLAKE2B_BLOCK - s->n);
  s->t += s->n;
  compress(s->h, s->buf, s->t, true);
  put_digest(out, s->out_len, s->h);
}
