/* CRC-32C against the published check values (RFC 3720 B.4, and the
 * "123456789" check value of the CRC catalogue), a bit-at-a-time
 * reference over random buffers (every length up to past two hardware
 * blocks, unaligned starts), the portable path, and chaining. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cuzk/crc32c.h"

static uint32_t bitwise(const uint8_t *p, size_t n) {
  uint32_t s = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    s ^= p[i];
    for (int k = 0; k < 8; k++) s = s & 1 ? (s >> 1) ^ 0x82F63B78u : s >> 1;
  }
  return ~s;
}

int main(void) {
  uint8_t v[32];
  memset(v, 0, 32);
  CHECK_EQ_INT(cz_crc32c(0, v, 32), 0x8A9136AAu);
  memset(v, 0xFF, 32);
  CHECK_EQ_INT(cz_crc32c(0, v, 32), 0x62A8AB43u);
  for (int i = 0; i < 32; i++) v[i] = (uint8_t)i;
  CHECK_EQ_INT(cz_crc32c(0, v, 32), 0x46DD794Eu);
  for (int i = 0; i < 32; i++) v[i] = (uint8_t)(31 - i);
  CHECK_EQ_INT(cz_crc32c(0, v, 32), 0x113FDB5Cu);
  CHECK_EQ_INT(cz_crc32c(0, "123456789", 9), 0xE3069283u);
  CHECK_EQ_INT(cz_crc32c_portable(0, "123456789", 9), 0xE3069283u);
  CHECK_EQ_INT(cz_crc32c(0, NULL, 0), 0);
  CHECK_EQ_INT(cz_crc32c(0x1234, NULL, 0), 0x1234);

  const size_t max = 3 * 2 * 2048 * 2 + 100;
  uint8_t *buf = malloc(max + 8);
  for (size_t i = 0; i < max + 8; i++) buf[i] = (uint8_t)check_rand64();
  size_t lens[] = {0, 1, 7, 8, 9, 63, 64, 6143, 6144, 6145, 12288, 12289, 20000, max};
  for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
    for (size_t off = 0; off < 3; off++) {
      size_t n = lens[li];
      uint32_t want = bitwise(buf + off, n);
      CHECK_EQ_INT(cz_crc32c(0, buf + off, n), want);
      CHECK_EQ_INT(cz_crc32c_portable(0, buf + off, n), want);
      /* Chained at an odd split, and at a block edge. */
      size_t cut = n / 3;
      CHECK_EQ_INT(cz_crc32c(cz_crc32c(0, buf + off, cut), buf + off + cut, n - cut), want);
      if (n > 6144)
        CHECK_EQ_INT(cz_crc32c_portable(cz_crc32c(0, buf + off, 6144), buf + off + 6144, n - 6144),
                     want);
    }
  /* Every single flipped bit of a 1 KiB buffer changes the CRC. */
  uint32_t base = cz_crc32c(0, buf, 1024);
  int missed = 0;
  for (size_t bit = 0; bit < 1024 * 8; bit++) {
    buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    missed += cz_crc32c(0, buf, 1024) == base;
    buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  CHECK_EQ_INT(missed, 0);
  free(buf);
  return check_report("test_crc32c");
}
