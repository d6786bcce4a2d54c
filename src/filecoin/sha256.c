/* SHA-256 through OpenSSL's EVP interface (the low-level SHA256_* calls are
 * deprecated in OpenSSL 3). */
#include "cuzk/sha256.h"

#include <openssl/evp.h>
#include <stdlib.h>

void cz_sha256_digest(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len) {
  static const uint8_t empty = 0;
  unsigned int n = 0;
  /* EVP_Digest only fails on allocation failure; treat that as fatal rather
   * than return an unchecked garbage digest. */
  if (!EVP_Digest(data ? data : &empty, len, out, &n, EVP_sha256(), NULL) || n != 32) abort();
}

cz_err cz_sha256_init(cz_sha256_ctx *ctx) {
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  ctx->evp = c;
  if (!c) return CZ_ERR_NOMEM;
  if (!EVP_DigestInit_ex(c, EVP_sha256(), NULL)) {
    cz_sha256_free(ctx);
    return CZ_ERR_NOMEM;
  }
  return CZ_OK;
}

void cz_sha256_update(cz_sha256_ctx *ctx, const void *data, size_t len) {
  if (len && !EVP_DigestUpdate((EVP_MD_CTX *)ctx->evp, data, len)) abort();
}

void cz_sha256_final(cz_sha256_ctx *ctx, uint8_t out[CZ_SHA256_BYTES]) {
  unsigned int n = 0;
  if (!EVP_DigestFinal_ex((EVP_MD_CTX *)ctx->evp, out, &n) || n != 32) abort();
  cz_sha256_free(ctx);
}

void cz_sha256_free(cz_sha256_ctx *ctx) {
  EVP_MD_CTX_free((EVP_MD_CTX *)ctx->evp);
  ctx->evp = NULL;
}

void cz_sha256_trim254(uint8_t digest[CZ_SHA256_BYTES]) { digest[31] &= 0x3f; }

void cz_sha256_trimmed(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len) {
  cz_sha256_digest(out, data, len);
  cz_sha256_trim254(out);
}
