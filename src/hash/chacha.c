/* ChaCha: one core, two layouts. ChaCha8 in djb's layout (64-bit counter,
 * 64-bit stream id) for rand_chacha's ChaCha8Rng; ChaCha20 in the IETF
 * layout (RFC 8439: 32-bit counter, 96-bit nonce). */
#include <string.h>

#include "cuzk/chacha20.h"
#include "cuzk/chacha8.h"

static inline uint32_t rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

#define QR(a, b, c, d) \
  do { \
    a += b; \
    d ^= a; \
    d = rotl32(d, 16); \
    c += d; \
    b ^= c; \
    b = rotl32(b, 12); \
    a += b; \
    d ^= a; \
    d = rotl32(d, 8); \
    c += d; \
    b ^= c; \
    b = rotl32(b, 7); \
  } while (0)

static uint32_t load_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* out = in + the double_rounds double rounds of in. */
static void core(uint32_t out[16], const uint32_t in[16], int double_rounds) {
  uint32_t x[16];
  for (int i = 0; i < 16; i++) x[i] = in[i];
  for (int r = 0; r < double_rounds; r++) {
    QR(x[0], x[4], x[8], x[12]);
    QR(x[1], x[5], x[9], x[13]);
    QR(x[2], x[6], x[10], x[14]);
    QR(x[3], x[7], x[11], x[15]);
    QR(x[0], x[5], x[10], x[15]);
    QR(x[1], x[6], x[11], x[12]);
    QR(x[2], x[7], x[8], x[13]);
    QR(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

static const uint32_t SIGMA[4] = {0x61707865, 0x3320646e, 0x79622d32,
                                  0x6b206574}; /* "expand 32-byte k" */

void cz_chacha8_block(uint32_t out[16], const uint32_t key[8], uint64_t counter) {
  uint32_t in[16];
  memcpy(in, SIGMA, sizeof SIGMA);
  for (int i = 0; i < 8; i++) in[4 + i] = key[i];
  in[12] = (uint32_t)counter;
  in[13] = (uint32_t)(counter >> 32);
  in[14] = in[15] = 0; /* stream id */
  core(out, in, 4);
}

bool cz_chacha20_keystream(uint8_t *out, size_t len, const uint8_t key[32], const uint8_t nonce[12],
                           uint64_t offset) {
  if (len && (offset > UINT64_MAX - len || ((offset + len - 1) >> 6) >= ((uint64_t)1 << 32)))
    return false;
  uint32_t in[16], block[16];
  memcpy(in, SIGMA, sizeof SIGMA);
  for (int i = 0; i < 8; i++) in[4 + i] = load_le32(key + 4 * i);
  for (int i = 0; i < 3; i++) in[13 + i] = load_le32(nonce + 4 * i);
  uint64_t counter = offset >> 6;
  size_t skip = (size_t)(offset & 63);
  while (len) {
    in[12] = (uint32_t)counter++;
    core(block, in, 10);
    uint8_t bytes[64];
    for (int i = 0; i < 16; i++)
      for (int b = 0; b < 4; b++) bytes[4 * i + b] = (uint8_t)(block[i] >> (8 * b));
    size_t n = 64 - skip < len ? 64 - skip : len;
    memcpy(out, bytes + skip, n);
    out += n;
    len -= n;
    skip = 0;
  }
  return true;
}

void cz_chacha8_seed(cz_chacha8_rng *rng, const uint8_t seed[32]) {
  for (int i = 0; i < 8; i++) rng->key[i] = load_le32(seed + 4 * i);
  rng->counter = 0;
  rng->used = 16;
}

uint32_t cz_chacha8_next_u32(cz_chacha8_rng *rng) {
  if (rng->used == 16) {
    cz_chacha8_block(rng->block, rng->key, rng->counter++);
    rng->used = 0;
  }
  return rng->block[rng->used++];
}

uint64_t cz_chacha8_next_u64(cz_chacha8_rng *rng) {
  uint64_t lo = cz_chacha8_next_u32(rng);
  uint64_t hi = cz_chacha8_next_u32(rng);
  return hi << 32 | lo;
}
