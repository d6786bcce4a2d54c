/* Standard padded base64 for cuzk-bench's JSON files (vanilla.json and
 * Curio's C1 wrapper): the encoder, and the decoder of util/json_scan.h. */
#include "base64.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/json_scan.h"

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t cz_bench_base64_len(size_t n) { return 4 * ((n + 2) / 3); }

size_t cz_bench_base64_encode(char *out, const uint8_t *in, size_t n) {
  char *p = out;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                 (i + 2 < n ? in[i + 2] : 0);
    *p++ = ALPHABET[v >> 18 & 63];
    *p++ = ALPHABET[v >> 12 & 63];
    *p++ = i + 1 < n ? ALPHABET[v >> 6 & 63] : '=';
    *p++ = i + 2 < n ? ALPHABET[v & 63] : '=';
  }
  *p = 0;
  return (size_t)(p - out);
}

bool cz_bench_base64_decode(uint8_t *out, size_t *out_len, const char *text, size_t len, char *why,
                            size_t whylen) {
  /* One decoder for the project: the JSON scanner's (util/json_scan.h),
   * over the string as it stands (no JSON escapes in it). */
  cz_json j;
  cz_json_init(&j, text, len, why, whylen, NULL);
  return cz_json_base64(&j, text, len, out, out_len);
}

char *cz_bench_curio_wrap(const char *json, size_t len, uint64_t sector, uint64_t size,
                          size_t *out_len) {
  size_t cap = cz_bench_base64_len(len) + 128;
  char *out = malloc(cap);
  if (!out) return NULL;
  int h = snprintf(out, cap, "{\"SectorNum\":%llu,\"Phase1Out\":\"", (unsigned long long)sector);
  char *p = out + h;
  p += cz_bench_base64_encode(p, (const uint8_t *)json, len);
  p += snprintf(p, cap - (size_t)(p - out), "\",\"SectorSize\":%llu}", (unsigned long long)size);
  *out_len = (size_t)(p - out);
  return out;
}
