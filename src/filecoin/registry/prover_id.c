/* The prover id Filecoin derives from a miner's actor id. */
#include <string.h>

#include "cuzk/registry.h"

void cz_prover_id_of_miner(uint8_t out[32], uint64_t miner_id) {
  /* A u64 takes at most 10 LEB128 bytes. */
  memset(out, 0, 32);
  int i = 0;
  do {
    uint8_t b = miner_id & 0x7f;
    miner_id >>= 7;
    out[i++] = b | (miner_id ? 0x80 : 0);
  } while (miner_id);
}
