/* libFuzzer: the JSON scanner (util/json_scan.h) on its own. The input is
 * a program and a text: data[0] % 32 is the program's length, the program
 * bytes follow, the rest is the text. The program says which value to
 * expect next (a string, an integer, null, a [u8; 32], an object of known
 * fields, an array of a given length, base64 in a string), so that every
 * primitive runs at every kind of position, nested up to 40 deep (past the
 * error path's 24 printed frames). Invariants: a success records nothing,
 * leaves the path as it found it and stays inside the text; a failure
 * records an error and a one-line message; a scanned string decodes to a
 * NUL-terminated result of the length the body implies; base64 fits in the
 * 3 * (n / 4) bytes the contract promises (ASan checks the exact size) and
 * its output, encoded again, decodes to itself. */
#include <stdlib.h>
#include <string.h>
#include "util/json_scan.h"

typedef struct {
  const uint8_t *prog;
  size_t n, at;
} program;

static unsigned next_op(program *pr) { return pr->at < pr->n ? pr->prog[pr->at++] : 0; }

static void check_string(const char *s, size_t n, bool esc) {
  char out[8];
  size_t len = 0;
  if (cz_json_decode_string(s, n, out, sizeof out, &len)) {
    if (strnlen(out, sizeof out) >= sizeof out) abort(); /* NUL-terminated */
    if (!esc && (len != n || memcmp(out, s, n < 7 ? n : 7))) abort();
    if (len > n) abort(); /* an escape is never shorter than its UTF-8 */
  }
}

static const char A64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Standard padded base64 of b[0, n) into o (4 * ceil(n / 3) characters). */
static size_t encode64(const uint8_t *b, size_t n, char *o) {
  size_t k = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) |
                 (i + 2 < n ? b[i + 2] : 0);
    o[k++] = A64[v >> 18];
    o[k++] = A64[v >> 12 & 63];
    o[k++] = i + 1 < n ? A64[v >> 6 & 63] : '=';
    o[k++] = i + 2 < n ? A64[v & 63] : '=';
  }
  return k;
}

static bool base64_value(cz_json *j) {
  const char *s;
  size_t n, len;
  bool esc;
  if (!cz_json_scan_string(j, &s, &n, &esc)) return false;
  uint8_t *out = malloc(n / 4 * 3);
  if (!out) return true;
  bool ok = cz_json_base64(j, s, n, out, &len);
  if (ok) {
    if (len > n / 4 * 3) abort();
    char *again = malloc(len / 3 * 4 + 4);
    uint8_t *back = malloc(len + 3);
    cz_json k;
    cz_json_init(&k, "", 0, NULL, 0, NULL);
    size_t m = encode64(out, len, again), len2 = 0;
    if (!cz_json_base64(&k, again, m, back, &len2) || len2 != len || memcmp(back, out, len))
      abort();
    free(again);
    free(back);
  }
  free(out);
  return ok;
}

static const char *const NAMES[] = {"a", "b", "c", "d"};

static bool value(cz_json *j, program *pr, int depth);

static bool object_value(cz_json *j, program *pr, int depth, unsigned nf) {
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, NAMES, nf)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) value(j, pr, depth + 1);
  return f == CZ_JSON_END;
}

static bool array_value(cz_json *j, program *pr, int depth, uint64_t n) {
  cz_json_arr a;
  if (!cz_json_arr_begin(j, &a, n, "elements")) return false;
  while (cz_json_arr_next(j, &a)) value(j, pr, depth + 1);
  return j->ep.err == CZ_OK;
}

/* One value of the kind the next program byte names. */
static bool value(cz_json *j, program *pr, int depth) {
  unsigned op = next_op(pr);
  if (depth >= 40) op = 1;
  const char *s;
  size_t n;
  bool esc;
  uint64_t v;
  uint8_t b[32];
  char out[8];
  switch (op % 8) {
    case 0:
      if (!cz_json_scan_string(j, &s, &n, &esc)) return false;
      check_string(s, n, esc);
      return true;
    case 1: return cz_json_uint(j, op & 8 ? 255 : UINT64_MAX, &v);
    case 2: return cz_json_null(j);
    case 3: return cz_json_bytes32(j, b);
    case 4: return object_value(j, pr, depth, 1 + (op >> 3) % 4);
    case 5: return array_value(j, pr, depth, (op >> 3) % 4);
    case 6: return base64_value(j);
    default: return cz_json_short_string(j, out, sizeof out, &n);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  program pr = {data + 1, data[0] % 32, 0};
  if (pr.n > size - 1) pr.n = size - 1;
  const char *text = (const char *)data + 1 + pr.n;
  size_t len = size - 1 - pr.n;
  char msg[96];
  msg[0] = 0;
  cz_json j;
  cz_json_init(&j, text, len, msg, sizeof msg, "fuzz: ");
  bool ok = value(&j, &pr, 0) && cz_json_end(&j);
  if (j.p < j.start || j.p > j.end) abort();
  if (ok) {
    if (j.ep.err != CZ_OK || j.ep.depth != 0 || msg[0]) abort();
  } else {
    if (j.ep.err == CZ_OK || strncmp(msg, "fuzz: ", 6) != 0) abort();
    for (const char *c = msg; *c; c++)
      if ((unsigned char)*c < 0x20) abort();
  }
  return 0;
}
