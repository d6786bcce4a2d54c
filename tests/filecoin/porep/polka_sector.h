/* The polka-storage 2 KiB sector (see tests/data/README.md): the piece
 * behind tests/vectors/porep-2kib-v1_1, fr32-padded into the sector
 * data that cz_porep_seal_config seals, for the tests that need the real
 * sector. */
#ifndef CUZK_TESTS_POLKA_SECTOR_H
#define CUZK_TESTS_POLKA_SECTOR_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PR_VECTOR "tests/vectors/porep-2kib-v1_1/vector.json"
#define POLKA_CAR "tests/data/polka-storage-test-data-big.car"
#define POLKA_CAR_BYTES 2032

/* fr32 padding (filecoin-proofs fr32::write_padded): the bit stream of each
 * 127-byte quantum, LSB first, cut into four 254-bit runs, each followed by
 * two zero bits. */
static inline void fr32_pad(uint8_t *out, const uint8_t *in, size_t in_len) {
  memset(out, 0, in_len / 127 * 128);
  size_t o = 0;
  for (size_t i = 0; i < in_len * 8; i++) {
    if (i % 254 == 0 && i) o += 2;
    if (in[i / 8] >> (i % 8) & 1) out[o / 8] |= (uint8_t)(1u << (o % 8));
    o++;
  }
}

/* The 2048-byte sector: the car file, padded. False when the file is
 * missing or not its 2032 bytes. */
static inline bool polka_sector_data(uint8_t sector[2048]) {
  uint8_t car[POLKA_CAR_BYTES + 1];
  FILE *f = fopen(POLKA_CAR, "rb");
  if (!f) return false;
  size_t n = fread(car, 1, sizeof car, f);
  fclose(f);
  if (n != POLKA_CAR_BYTES) return false;
  fr32_pad(sector, car, n);
  return true;
}

#endif
