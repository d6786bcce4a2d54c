/* Layer: hash */
/* Native SHA-256 (one-shot through OpenSSL, streaming in portable C) and
 * Filecoin's "trim to 254 bits" rule (src/hash/sha256.c).
 *
 * Filecoin stores SHA-256 outputs (tree-D nodes, SDR labels, replica ids) as
 * BLS12-381 Fr elements in little-endian bytes; it makes any digest a valid
 * element by clearing the two top bits of the last byte (fr32's
 * bytes_into_fr_repr_safe). Since 2^254 < r, the result is always canonical.
 *
 * Nothing here fails or aborts: when OpenSSL cannot allocate, the one-shot
 * functions fall back to the portable code. They keep no state and may be
 * called from any thread. */
#ifndef CUZK_SHA256_H
#define CUZK_SHA256_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

#define CZ_SHA256_BYTES 32

/* One-shot SHA-256 of data[0..len). data may be NULL when len == 0. (Named
 * _digest: cz_sha256 is the SHA-256 gadget in gadgets.h.) */
void cz_sha256_digest(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len);

/* Streaming SHA-256, portable C, no allocation: init always returns CZ_OK
 * (the cz_err is kept for callers written against a fallible init); final
 * writes the digest, after which the context must be initialised again.
 * cz_sha256_free only clears the context. For hashing many short messages
 * cz_sha256_digest is faster (SHA-NI through OpenSSL). One thread per
 * context. */
typedef struct {
  uint32_t h[8];
  uint8_t buf[64];
  uint64_t total; /* bytes hashed so far */
} cz_sha256_ctx;
CZ_MUST_CHECK cz_err cz_sha256_init(cz_sha256_ctx *ctx);
void cz_sha256_update(cz_sha256_ctx *ctx, const void *data, size_t len);
void cz_sha256_final(cz_sha256_ctx *ctx, uint8_t out[CZ_SHA256_BYTES]);
void cz_sha256_free(cz_sha256_ctx *ctx); /* idempotent */

/* Clears the two most significant bits of byte 31 (little-endian Fr view). */
void cz_sha256_trim254(uint8_t digest[CZ_SHA256_BYTES]);

/* SHA-256 of data, then trimmed to 254 bits. */
void cz_sha256_trimmed(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len);

#endif
