/* SHA-256. The one-shot digest goes through OpenSSL's EVP interface (SHA-NI
 * where the CPU has it; the low-level SHA256_* calls are deprecated in
 * OpenSSL 3); the streaming context is a small portable implementation
 * that needs no allocation, so nothing here can fail or abort. EVP_Digest
 * fails only when OpenSSL cannot allocate; the digest then falls back to
 * the portable code. */
#include "cuzk/sha256.h"

#include <openssl/evp.h>
#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t ror(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

static void compress(uint32_t h[8], const uint8_t blk[64]) {
  uint32_t w[64], s[8];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 |
           (uint32_t)blk[4 * i + 2] << 8 | blk[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
    uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  memcpy(s, h, sizeof s);
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = s[7] + (ror(s[4], 6) ^ ror(s[4], 11) ^ ror(s[4], 25)) +
                  ((s[4] & s[5]) ^ (~s[4] & s[6])) + K[i] + w[i];
    uint32_t t2 = (ror(s[0], 2) ^ ror(s[0], 13) ^ ror(s[0], 22)) +
                  ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
    memmove(s + 1, s, 7 * sizeof *s);
    s[4] += t1;
    s[0] = t1 + t2;
  }
  for (int i = 0; i < 8; i++) h[i] += s[i];
}

cz_err cz_sha256_init(cz_sha256_ctx *ctx) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(ctx->h, iv, sizeof iv);
  ctx->total = 0;
  return CZ_OK;
}

void cz_sha256_update(cz_sha256_ctx *ctx, const void *data, size_t len) {
  const uint8_t *p = data;
  size_t used = (size_t)(ctx->total % 64);
  ctx->total += len;
  if (used) {
    size_t take = len < 64 - used ? len : 64 - used;
    memcpy(ctx->buf + used, p, take);
    p += take, len -= take;
    if (used + take < 64) return;
    compress(ctx->h, ctx->buf);
  }
  for (; len >= 64; p += 64, len -= 64) compress(ctx->h, p);
  if (len) memcpy(ctx->buf, p, len);
}

void cz_sha256_final(cz_sha256_ctx *ctx, uint8_t out[CZ_SHA256_BYTES]) {
  uint64_t bits = ctx->total * 8;
  uint8_t pad[72] = {0x80};
  size_t used = (size_t)(ctx->total % 64);
  size_t n = (used < 56 ? 56 : 120) - used;
  for (int i = 0; i < 8; i++) pad[n + i] = (uint8_t)(bits >> (56 - 8 * i));
  cz_sha256_update(ctx, pad, n + 8);
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(ctx->h[i] >> (24 - 8 * j));
}

void cz_sha256_free(cz_sha256_ctx *ctx) { memset(ctx, 0, sizeof *ctx); }

void cz_sha256_digest(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len) {
  static const uint8_t empty = 0;
  unsigned int n = 0;
  if (EVP_Digest(data ? data : &empty, len, out, &n, EVP_sha256(), NULL) && n == 32) return;
  cz_sha256_ctx c;
  cz_err ok = cz_sha256_init(&c);
  (void)ok; /* init cannot fail: it only sets the initial state */
  cz_sha256_update(&c, data ? data : &empty, len);
  cz_sha256_final(&c, out);
}

void cz_sha256_trim254(uint8_t digest[CZ_SHA256_BYTES]) { digest[31] &= 0x3f; }

void cz_sha256_trimmed(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len) {
  cz_sha256_digest(out, data, len);
  cz_sha256_trim254(out);
}
