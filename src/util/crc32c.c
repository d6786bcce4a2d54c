/* CRC-32C: reflected polynomial 0x82F63B78, initial and final XOR
 * 0xFFFFFFFF. The hardware path runs three independent streams over
 * thirds of each block so the crc32 instruction's 3-cycle latency is
 * hidden, then joins them by shifting each partial CRC over the bytes that
 * follow it (multiplication by x^(8n) mod P, done here by a precomputed
 * table of zero-byte operators). */
#include "cuzk/crc32c.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#define POLY 0x82F63B78u
/* Bytes per stream in one block of the hardware path. */
#define STREAM 2048u

static uint32_t table[8][256];
/* shift[k][b]: the operator "append STREAM zero bytes" on byte b of the
 * CRC state, k = byte position (4 bytes). */
static uint32_t shift[4][256];
static bool have_sse42;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The CRC state after appending `bytes` zero bytes to state s (slow; only
 * used to build the shift tables). */
static uint32_t zeros_slow(uint32_t s, size_t bytes) {
  for (size_t i = 0; i < bytes; i++)
    for (int k = 0; k < 8; k++) s = s & 1 ? (s >> 1) ^ POLY : s >> 1;
  return s;
}

static void init(void) {
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t c = b;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
    table[0][b] = c;
  }
  for (uint32_t b = 0; b < 256; b++)
    for (int t = 1; t < 8; t++)
      table[t][b] = (table[t - 1][b] >> 8) ^ table[0][table[t - 1][b] & 0xff];
  /* Appending zeros is linear in the state: the operator is the XOR of
   * its action on each byte of the state. */
  for (int k = 0; k < 4; k++)
    for (uint32_t b = 0; b < 256; b++) shift[k][b] = zeros_slow(b << (8 * k), STREAM);
#if defined(__x86_64__)
  have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
}

static uint32_t shift_stream(uint32_t s) {
  return shift[0][s & 0xff] ^ shift[1][(s >> 8) & 0xff] ^ shift[2][(s >> 16) & 0xff] ^
         shift[3][s >> 24];
}

/* Slicing by 8 on the raw state (no pre/post inversion). */
static uint32_t sw(uint32_t s, const uint8_t *p, size_t n) {
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    w ^= s;
    s = table[7][w & 0xff] ^ table[6][(w >> 8) & 0xff] ^ table[5][(w >> 16) & 0xff] ^
        table[4][(w >> 24) & 0xff] ^ table[3][(w >> 32) & 0xff] ^ table[2][(w >> 40) & 0xff] ^
        table[1][(w >> 48) & 0xff] ^ table[0][w >> 56];
    p += 8;
    n -= 8;
  }
  while (n--) s = (s >> 8) ^ table[0][(s ^ *p++) & 0xff];
  return s;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t hw(uint32_t s, const uint8_t *p, size_t n) {
  uint64_t c0 = s;
  while (n >= 3 * STREAM) {
    uint64_t c1 = 0, c2 = 0;
    for (size_t i = 0; i < STREAM; i += 8) {
      uint64_t a, b, c;
      memcpy(&a, p + i, 8);
      memcpy(&b, p + STREAM + i, 8);
      memcpy(&c, p + 2 * STREAM + i, 8);
      c0 = __builtin_ia32_crc32di(c0, a);
      c1 = __builtin_ia32_crc32di(c1, b);
      c2 = __builtin_ia32_crc32di(c2, c);
    }
    /* state(A B C) = shift(shift(c0) ^ c1) ^ c2, with c1, c2 started at 0. */
    c0 = shift_stream(shift_stream((uint32_t)c0) ^ (uint32_t)c1) ^ (uint32_t)c2;
    p += 3 * STREAM;
    n -= 3 * STREAM;
  }
  while (n >= 8) {
    uint64_t a;
    memcpy(&a, p, 8);
    c0 = __builtin_ia32_crc32di(c0, a);
    p += 8;
    n -= 8;
  }
  uint32_t c = (uint32_t)c0;
  while (n--) c = __builtin_ia32_crc32qi(c, *p++);
  return c;
}
#endif

uint32_t cz_crc32c(uint32_t crc, const void *data, size_t len) {
  pthread_once(&once, init);
  uint32_t s = ~crc;
  const uint8_t *p = data;
  if (!len) return crc;
#if defined(__x86_64__)
  if (have_sse42) return ~hw(s, p, len);
#endif
  return ~sw(s, p, len);
}

uint32_t cz_crc32c_portable(uint32_t crc, const void *data, size_t len) {
  pthread_once(&once, init);
  return len ? ~sw(~crc, data, len) : crc;
}
