/* Layer: hash */
/* ChaCha8 keystream as rand_chacha's ChaCha8Rng yields it (src/hash/chacha8.c).
 * Used by the SDR expander graph.
 *
 * ChaCha8Rng::from_seed(seed) uses the 32-byte seed as key, a 64-bit block
 * counter in state words 12..13 starting at 0 and a 64-bit stream id (0) in
 * words 14..15. Its u32 outputs are the keystream words in order, and
 * gen::<u64>() on a fresh generator reads two consecutive words, low first.
 * (rand_core's BlockRng only straddles a refill for an odd word index, which
 * never happens when only u64s are drawn.)
 *
 * No allocation, no failure. cz_chacha8_block is pure; an rng is used by one
 * thread at a time. */
#ifndef CUZK_CHACHA8_H
#define CUZK_CHACHA8_H
#include <stdint.h>

typedef struct {
  uint32_t key[8];
  uint64_t counter; /* next block to generate */
  uint32_t block[16];
  unsigned used; /* words of block already consumed (16 = empty) */
} cz_chacha8_rng;

/* ChaCha8Rng::from_seed: the next output is block 0's first word. */
void cz_chacha8_seed(cz_chacha8_rng *rng, const uint8_t seed[32]);
/* One 64-byte keystream block for the given counter (stream id 0). */
void cz_chacha8_block(uint32_t out[16], const uint32_t key[8], uint64_t counter);
/* The next keystream word; next_u64 is two words, low first. */
uint32_t cz_chacha8_next_u32(cz_chacha8_rng *rng);
uint64_t cz_chacha8_next_u64(cz_chacha8_rng *rng);

#endif
