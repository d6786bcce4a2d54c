/* Layer: hash */
/* ChaCha20 keystream, IETF layout (RFC 8439 section 2.3: 32-bit block
 * counter in word 12 starting at 0, 96-bit nonce in words 13..15), as the
 * RustCrypto chacha20 crate's ChaCha20 yields it (src/hash/chacha.c). The
 * synthetic PoRep challenges read it at byte offsets (StreamCipherSeek).
 * No allocation. Pure; any thread. */
#ifndef CUZK_CHACHA20_H
#define CUZK_CHACHA20_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* out[0..len) = keystream bytes [offset, offset + len) under key and
 * nonce. False (out untouched) when the range passes the 2^32 blocks the
 * 32-bit counter allows (256 GiB), as the crate refuses to seek there. */
bool cz_chacha20_keystream(uint8_t *out, size_t len, const uint8_t key[32], const uint8_t nonce[12],
                           uint64_t offset);

#endif
