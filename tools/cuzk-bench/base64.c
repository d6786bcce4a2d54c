/* Standard padded base64 for cuzk-bench's JSON files (vanilla.json). The
 * C1 reader has its own decoder tied to its scanner (porep_c1_json.c);
 * this one serves the tools. */
#include "base64.h"

#include <stdio.h>

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

static int value_of(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool cz_bench_base64_decode(uint8_t *out, size_t *out_len, const char *text, size_t len,
                            char *why, size_t whylen) {
  uint32_t acc = 0;
  unsigned q = 0, pad = 0;
  size_t k = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '\r' || c == '\n') continue;
    if (c == '=') {
      if (q < 2) {
        snprintf(why, whylen, "bad base64: '=' at character %zu", i);
        return false;
      }
      pad++;
      acc <<= 6;
      if (++q < 4) continue;
      out[k++] = (uint8_t)(acc >> 16);
      if (pad == 1) out[k++] = (uint8_t)(acc >> 8);
      q = 0;
      for (size_t r = i + 1; r < len; r++)
        if (text[r] != '\r' && text[r] != '\n') {
          snprintf(why, whylen, "bad base64: data after the padding at character %zu", r);
          return false;
        }
      break;
    }
    int v = value_of(c);
    if (pad || v < 0) {
      snprintf(why, whylen, "bad base64: character %zu (0x%02x) is not %s", i, c,
               pad ? "'=' (data after '=')" : "in the standard alphabet");
      return false;
    }
    acc = acc << 6 | (uint32_t)v;
    if (++q == 4) {
      out[k++] = (uint8_t)(acc >> 16);
      out[k++] = (uint8_t)(acc >> 8);
      out[k++] = (uint8_t)acc;
      acc = 0;
      q = 0;
    }
  }
  if (q != 0) {
    snprintf(why, whylen, "bad base64: the length is not a multiple of 4 (unpadded?)");
    return false;
  }
  *out_len = k;
  return true;
}
