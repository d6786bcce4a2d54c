/* Layer: hash */
/* BLAKE2b (RFC 7693, src/hash/blake2b.c). The SDR Feistel round function
 * hashes 16 bytes per call, millions of times per sector, so the one-block
 * unkeyed BLAKE2b-512 has its own entry; OpenSSL's EVP path costs more in
 * context setup than the single compression does. The general form is
 * keyed BLAKE2b with any digest length (blake2b_simd's Params with
 * hash_length and key), which the synthetic PoRep challenges use. A
 * message that arrives in pieces (a parameter file read in chunks) goes
 * through the streaming form: init, update any number of times, final. */
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
bool cz_blake2b(uint8_t *out, size_t out_len, const uint8_t *key, size_t key_len, const uint8_t *in,
                size_t len);

/* A BLAKE2b computation in progress (unkeyed). The last block is held back
 * until final, which alone may compress a block flagged as the last. */
typedef struct {
  uint64_t h[8];
  uint64_t t;                    /* bytes compressed so far */
  uint8_t buf[CZ_BLAKE2B_BLOCK]; /* bytes not yet compressed */
  size_t n;                      /* how many of buf hold them (0..128) */
  size_t out_len;
} cz_blake2b_state;

/* Start an unkeyed BLAKE2b with digest length out_len (1..64); false (s
 * untouched) when out of range. */
bool cz_blake2b_init(cz_blake2b_state *s, size_t out_len);
/* Append in[0..len) (in may be NULL when len is 0). Whole blocks are
 * compressed straight from in, without a copy. */
void cz_blake2b_update(cz_blake2b_state *s, const uint8_t *in, size_t len);
/* Write the s->out_len digest bytes of everything appended; s is spent
 * (init it again to reuse it). The digest equals cz_blake2b's over the
 * concatenated pieces, however the message was split. */
void cz_blake2b_final(cz_blake2b_state *s, uint8_t *out);

#endif
