/* BLAKE2b-512 of a message of at most one block (128 bytes), unkeyed
 * (src/hash/blake2b.c). The SDR Feistel round function hashes 16 bytes per
 * call, millions of times per sector; OpenSSL's EVP path costs more in
 * context setup than the single compression does. */
#ifndef CUZK_BLAKE2B_H
#define CUZK_BLAKE2B_H
#include <stddef.h>
#include <stdint.h>

#define CZ_BLAKE2B_BLOCK 128

/* len <= CZ_BLAKE2B_BLOCK, not checked: a longer len overruns the stack
 * block. in may be NULL when len is 0. Pure; any thread. */
void cz_blake2b512_short(uint8_t out[64], const uint8_t *in, size_t len);

#endif
