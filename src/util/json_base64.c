/* Base64 in a JSON string, as Go's encoding/json writes a []byte (Curio's
 * C1 wrapper); see json_scan.h for the rules. */
#include "util/json_scan.h"

/* The standard base64 alphabet's values (RFC 4648 table 1), -1 elsewhere. */
static const int8_t B64[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 62, -1, -1, -1, 63,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, -1, -1, -1, -1, -1, -1, -1, 0,  1,  2,  3,  4,  5,  6,
    7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, -1, -1, -1, -1, -1,
    -1, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
    49, 50, 51, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

bool cz_json_base64(cz_json *j, const char *s, size_t n, uint8_t *out, size_t *outlen) {
  uint32_t acc = 0;
  unsigned q = 0, pad = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    /* Fast path: four plain alphabet characters make three bytes. */
    while (q == 0 && i + 4 <= n) {
      int a = B64[(unsigned char)s[i]], b = B64[(unsigned char)s[i + 1]],
          c = B64[(unsigned char)s[i + 2]], d = B64[(unsigned char)s[i + 3]];
      if ((a | b | c | d) < 0) break;
      uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
      out[k] = (uint8_t)(v >> 16);
      out[k + 1] = (uint8_t)(v >> 8);
      out[k + 2] = (uint8_t)v;
      k += 3;
      i += 4;
    }
    if (i >= n) break;
    unsigned char c = (unsigned char)s[i];
    if (c == '\\') {
      char e = s[++i];
      if (e == 'n' || e == 'r') continue;
      if (e != '/')
        return cz_json_fail(j, CZ_ERR_PARSE, "bad base64: escape \\%c at character %zu", e, i);
      c = '/';
    }
    if (c == '\r' || c == '\n') continue;
    if (c == '=') {
      if (q < 2) return cz_json_fail(j, CZ_ERR_PARSE, "bad base64: '=' at character %zu", i);
      pad++;
      acc <<= 6;
      if (++q < 4) continue;
      out[k++] = (uint8_t)(acc >> 16);
      if (pad == 1) out[k++] = (uint8_t)(acc >> 8);
      q = 0;
      for (size_t r = i + 1; r < n; r++) /* padding ends the data */
        if (s[r] != '\r' && s[r] != '\n')
          return cz_json_fail(j, CZ_ERR_PARSE, "bad base64: data after padding at character %zu",
                              r);
      break;
    }
    if (pad) return cz_json_fail(j, CZ_ERR_PARSE, "bad base64: data after '=' at character %zu", i);
    int v = B64[c];
    if (v < 0) return cz_json_fail(j, CZ_ERR_PARSE, "bad base64: character %zu is not base64", i);
    acc = acc << 6 | (uint32_t)v;
    if (++q == 4) {
      out[k++] = (uint8_t)(acc >> 16);
      out[k++] = (uint8_t)(acc >> 8);
      out[k++] = (uint8_t)acc;
      acc = 0;
      q = 0;
    }
  }
  if (q != 0) return cz_json_fail(j, CZ_ERR_PARSE, "bad base64: length is not a multiple of 4");
  *outlen = k;
  return true;
}
