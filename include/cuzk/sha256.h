/* Native SHA-256 (through OpenSSL) and Filecoin's "trim to 254 bits" rule.
 *
 * Filecoin stores SHA-256 outputs (tree-D nodes, SDR labels, replica ids) as
 * BLS12-381 Fr elements in little-endian bytes; it makes any digest a valid
 * element by clearing the two top bits of the last byte (fr32's
 * bytes_into_fr_repr_safe). Since 2^254 < r, the result is always canonical. */
#ifndef CUZK_SHA256_H
#define CUZK_SHA256_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

#define CZ_SHA256_BYTES 32

/* One-shot SHA-256 of data[0..len). data may be NULL when len == 0. (Named
 * _digest: cz_sha256 is the SHA-256 gadget in gadgets.h.) */
void cz_sha256_digest(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len);

/* Streaming SHA-256. init must succeed before update/final; final releases the
 * context (also call cz_sha256_free on a context abandoned before final).
 * init returns CZ_ERR_NOMEM when OpenSSL cannot allocate its context. */
typedef struct { void *evp; } cz_sha256_ctx;
cz_err cz_sha256_init(cz_sha256_ctx *ctx);
void cz_sha256_update(cz_sha256_ctx *ctx, const void *data, size_t len);
void cz_sha256_final(cz_sha256_ctx *ctx, uint8_t out[CZ_SHA256_BYTES]);
void cz_sha256_free(cz_sha256_ctx *ctx); /* idempotent; ctx->evp may be NULL */

/* Clears the two most significant bits of byte 31 (little-endian Fr view). */
void cz_sha256_trim254(uint8_t digest[CZ_SHA256_BYTES]);

/* SHA-256 of data, then trimmed to 254 bits. */
void cz_sha256_trimmed(uint8_t out[CZ_SHA256_BYTES], const void *data, size_t len);

#endif
