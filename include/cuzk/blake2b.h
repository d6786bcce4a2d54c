/* BLAKE2b (RFC 7693, src/hash/blake2b.c). The SDR Feistel round function
 * hashes 16 bytes per call, millions of times per sector, so the one-block
 * unkeyed BLAKE2b-512 has its own entry; OpenSSL's EVP path costs more in
 * context setup than the single compression does. The general form is
 * keyed BLAKE2b with any digest length (blake2b_simd's Params with
 * hash_length and key), which the synthetic PoRep challenges use. */
#ifndef CUZK_BLAKE2B_H
#define CUZK_BLAKE2B_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CZ_BLAKE2B_BLOCK 128

/* len <= CZ_BLAKE2B_BLOCK, not checked: a longer len overruns the stack
 * block. in may be NULL when len is 0. Pure; any thread. */
void cz_blake2b512_short(uint8_t out[64], const uint8_t *in, size_t len);

/* out[0..out_len) = BLAKE2b with digest length out_len (1..64) and key
 * key[0..key_len) (0..64 bytes; none when 0) of in[0..len). False (out
 * untouched) when a length is out of range or a pointer NULL where bytes
 * are needed. Pure; any thread. */
bool cz_blake2b(uint8_t *out, size_t out_len, const uint8_t *key, size_t key_len,
                const uint8_t *in, size_t len);

#endif
