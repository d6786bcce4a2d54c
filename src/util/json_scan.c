/* The JSON scanner (see json_scan.h); the base64 decoder is json_base64.c. */
#include "util/json_scan.h"
#include <stdarg.h>
#include <string.h>

bool cz_json_fail(cz_json *j, cz_err e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cz_errpath_failv(&j->ep, e, fmt, ap);
  va_end(ap);
  return false;
}

bool cz_json_syntax(cz_json *j, const char *expected) {
  if (j->p >= j->end)
    return cz_json_fail(j, CZ_ERR_PARSE, "unexpected end of input (expected %s)", expected);
  return cz_json_fail(j, CZ_ERR_PARSE, "expected %s at byte %zu", expected, cz_json_offset(j));
}

bool cz_json_end(cz_json *j) {
  cz_json_ws(j);
  if (j->p != j->end)
    return cz_json_fail(j, CZ_ERR_PARSE, "trailing characters at byte %zu", cz_json_offset(j));
  return true;
}

/* ---- Strings ---------------------------------------------------------------- */

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool hex4(const char *s, unsigned *v) {
  *v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(s[i]);
    if (h < 0) return false;
    *v = *v << 4 | (unsigned)h;
  }
  return true;
}

bool cz_json_scan_string(cz_json *j, const char **s, size_t *n, bool *esc) {
  cz_json_ws(j);
  if (j->p >= j->end || *j->p != '"') return cz_json_syntax(j, "a string");
  const char *q = ++j->p;
  *esc = false;
  for (;;) {
    const char *m = memchr(q, '"', (size_t)(j->end - q));
    if (!m) {
      j->p = j->end;
      return cz_json_syntax(j, "'\"'");
    }
    /* A quote preceded by an odd run of backslashes is escaped. */
    const char *b = m;
    while (b > q && b[-1] == '\\') b--;
    if ((m - b) % 2 == 0) {
      for (const char *c = j->p; c < m; c++) {
        unsigned char ch = (unsigned char)*c;
        if (ch < 0x20) {
          j->p = c;
          return cz_json_syntax(j, "no control character in a string");
        }
        if (ch == '\\') {
          *esc = true;
          c++;
          unsigned v;
          if (*c == 'u') {
            if (m - c < 5 || !hex4(c + 1, &v)) {
              j->p = c;
              return cz_json_syntax(j, "a \\u escape with 4 hex digits");
            }
            c += 4;
          } else if (!strchr("\"\\/bfnrt", *c) || *c == 0) {
            j->p = c;
            return cz_json_syntax(j, "a valid escape");
          }
        }
      }
      *s = j->p;
      *n = (size_t)(m - j->p);
      j->p = m + 1;
      return true;
    }
    q = m + 1;
  }
}

/* Append cp's UTF-8 to out[cap] at *k, counting what does not fit. */
static void put_utf8(char *out, size_t cap, size_t *k, unsigned cp) {
  char t[4];
  size_t n;
  if (cp < 0x80) t[0] = (char)cp, n = 1;
  else if (cp < 0x800) t[0] = (char)(0xc0 | cp >> 6), t[1] = (char)(0x80 | (cp & 63)), n = 2;
  else if (cp < 0x10000)
    t[0] = (char)(0xe0 | cp >> 12), t[1] = (char)(0x80 | (cp >> 6 & 63)),
    t[2] = (char)(0x80 | (cp & 63)), n = 3;
  else
    t[0] = (char)(0xf0 | cp >> 18), t[1] = (char)(0x80 | (cp >> 12 & 63)),
    t[2] = (char)(0x80 | (cp >> 6 & 63)), t[3] = (char)(0x80 | (cp & 63)), n = 4;
  for (size_t i = 0; i < n; i++, (*k)++)
    if (*k < cap) out[*k] = t[i];
}

bool cz_json_decode_string(const char *s, size_t n, char *out, size_t cap, size_t *len) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\') {
      if (k < cap) out[k] = s[i];
      k++;
      continue;
    }
    char e = s[++i];
    unsigned cp;
    switch (e) {
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'n': cp = '\n'; break;
      case 'r': cp = '\r'; break;
      case 't': cp = '\t'; break;
      case 'u':
        hex4(s + i + 1, &cp);
        i += 4;
        if (cp >= 0xdc00 && cp < 0xe000) return false;
        if (cp >= 0xd800 && cp < 0xdc00) {
          unsigned lo;
          if (i + 6 >= n || s[i + 1] != '\\' || s[i + 2] != 'u' || !hex4(s + i + 3, &lo) ||
              lo < 0xdc00 || lo >= 0xe000)
            return false;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          i += 6;
        }
        break;
      default: cp = (unsigned char)e; break; /* \" \\ \/ */
    }
    put_utf8(out, cap, &k, cp);
  }
  *len = k;
  out[k < cap ? k : cap - 1] = 0;
  return true;
}

bool cz_json_short_string(cz_json *j, char *out, size_t cap, size_t *len) {
  const char *s;
  size_t n;
  bool esc;
  if (!cz_json_scan_string(j, &s, &n, &esc)) return false;
  if (!esc) {
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(out, s, k);
    out[k] = 0;
    *len = n;
    return true;
  }
  if (!cz_json_decode_string(s, n, out, cap, len))
    return cz_json_syntax(j, "no lone UTF-16 surrogate");
  return true;
}

/* ---- Numbers and null ---------------------------------------------------------- */

/* After a number: a fraction or exponent makes it a float, which serde
 * refuses for an integer field. */
static bool integer_end(cz_json *j) {
  if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
    return cz_json_fail(j, CZ_ERR_PARSE, "expected an integer, found a float at byte %zu",
                        cz_json_offset(j));
  return true;
}

bool cz_json_uint(cz_json *j, uint64_t max, uint64_t *out) {
  cz_json_ws(j);
  if (j->p < j->end && *j->p == '-')
    return cz_json_fail(j, CZ_ERR_PARSE, "expected a non-negative integer at byte %zu",
                        cz_json_offset(j));
  if (j->p >= j->end || (unsigned)(*j->p - '0') > 9) return cz_json_syntax(j, "an integer");
  uint64_t v = 0;
  const char *d = j->p;
  while (j->p < j->end && (unsigned)(*j->p - '0') <= 9) {
    unsigned c = (unsigned)(*j->p - '0');
    if (v > (UINT64_MAX - c) / 10) return cz_json_fail(j, CZ_ERR_PARSE, "integer out of range");
    v = v * 10 + c;
    j->p++;
  }
  if (*d == '0' && j->p - d > 1) {
    j->p = d;
    return cz_json_syntax(j, "a number without leading zeros");
  }
  if (!integer_end(j)) return false;
  if (v > max)
    return cz_json_fail(j, CZ_ERR_PARSE, "integer %llu out of range (max %llu)",
                        (unsigned long long)v, (unsigned long long)max);
  *out = v;
  return true;
}

bool cz_json_null(cz_json *j) {
  cz_json_ws(j);
  if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
    j->p += 4;
    return true;
  }
  return cz_json_syntax(j, "null");
}

/* ---- [u8; 32] ------------------------------------------------------------------- */

/* A byte-array syntax error names the byte: path[k]. */
static bool byte_syntax(cz_json *j, unsigned k, const char *what) {
  cz_errpath_push_idx(&j->ep, k);
  cz_json_syntax(j, what);
  cz_errpath_pop(&j->ep);
  return false;
}

/* Digits are read by hand, at most three, and the common "d," / "d]" is
 * taken without a whitespace call: this loop is most of the parse. */
bool cz_json_bytes32(cz_json *j, uint8_t out[32]) {
  if (!cz_json_expect(j, '[', "'[' (an array of 32 bytes)")) return false;
  for (unsigned k = 0; k < 32; k++) {
    cz_json_ws(j);
    const char *p = j->p, *end = j->end;
    unsigned c, v;
    if (p >= end || (c = (unsigned)(*p - '0')) > 9) {
      if (p < end && *p == ']')
        return cz_json_fail(j, CZ_ERR_PARSE, "expected 32 bytes, found %u", k);
      return byte_syntax(j, k, "an integer 0..255");
    }
    v = c;
    p++;
    if (p < end && (c = (unsigned)(*p - '0')) <= 9) {
      if (v == 0) return byte_syntax(j, k, "a number without leading zeros");
      v = v * 10 + c;
      p++;
      if (p < end && (c = (unsigned)(*p - '0')) <= 9) {
        v = v * 10 + c;
        p++;
        if (p < end && (unsigned)(*p - '0') <= 9) v = 256; /* four digits */
      }
    }
    j->p = p;
    if (v > 255) {
      cz_errpath_push_idx(&j->ep, k);
      cz_json_fail(j, CZ_ERR_PARSE, "byte value out of range 0..255");
      cz_errpath_pop(&j->ep);
      return false;
    }
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) {
      cz_errpath_push_idx(&j->ep, k);
      integer_end(j);
      cz_errpath_pop(&j->ep);
      return false;
    }
    out[k] = (uint8_t)v;
    if (p < end && *p == (k < 31 ? ',' : ']')) {
      j->p++;
      continue;
    }
    cz_json_ws(j);
    if (j->p < end && *j->p == (k < 31 ? ',' : ']')) {
      j->p++;
      continue;
    }
    if (k < 31 && j->p < end && *j->p == ']')
      return cz_json_fail(j, CZ_ERR_PARSE, "expected 32 bytes, found %u", k + 1);
    if (k == 31 && j->p < end && *j->p == ',')
      return cz_json_fail(j, CZ_ERR_PARSE, "expected 32 bytes, found more");
    return cz_json_syntax(j, k < 31 ? "',' or ']'" : "']'");
  }
  return true;
}

/* ---- Objects and arrays ------------------------------------------------------------ */

bool cz_json_obj_begin(cz_json *j, cz_json_obj *it, const char *const *names, unsigned n) {
  *it = (cz_json_obj){names, n, 0, true, false};
  return cz_json_expect(j, '{', "'{'");
}

/* At the '}': every field was there. */
static int obj_complete(cz_json *j, const cz_json_obj *it) {
  for (unsigned i = 0; i < it->n; i++)
    if (!(it->seen & 1u << i)) {
      cz_json_fail(j, CZ_ERR_PARSE, "missing field `%s`", it->names[i]);
      return CZ_JSON_ERROR;
    }
  return CZ_JSON_END;
}

int cz_json_obj_field(cz_json *j, cz_json_obj *it) {
  cz_json_obj_leave_field(j, it);
  if (j->ep.err != CZ_OK) return CZ_JSON_ERROR;
  if (!it->first) {
    if (cz_json_eat(j, '}')) return obj_complete(j, it);
    if (!cz_json_expect(j, ',', "',' or '}'")) return CZ_JSON_ERROR;
  } else if (cz_json_eat(j, '}')) {
    return obj_complete(j, it);
  }
  it->first = false;
  char key[48];
  size_t len;
  if (!cz_json_short_string(j, key, sizeof key, &len)) return CZ_JSON_ERROR;
  unsigned k = 0;
  while (k < it->n && !(strlen(it->names[k]) == len && memcmp(it->names[k], key, len) == 0)) k++;
  if (k == it->n) {
    cz_json_fail(j, CZ_ERR_PARSE, "unknown field `%s%s`", key, len >= sizeof key ? "..." : "");
    return CZ_JSON_ERROR;
  }
  if (it->seen & 1u << k) {
    cz_json_fail(j, CZ_ERR_PARSE, "duplicate field `%s`", key);
    return CZ_JSON_ERROR;
  }
  it->seen |= 1u << k;
  if (!cz_json_expect(j, ':', "':'")) return CZ_JSON_ERROR;
  cz_errpath_push_key(&j->ep, it->names[k]);
  it->pushed = true;
  return (int)k;
}

bool cz_json_arr_begin(cz_json *j, cz_json_arr *it, uint64_t n, const char *what) {
  return cz_json_arr_begin_range(j, it, n, n, what);
}

bool cz_json_arr_begin_range(cz_json *j, cz_json_arr *it, uint64_t min, uint64_t max,
                             const char *what) {
  *it = (cz_json_arr){0, max, min, what};
  if (!cz_json_expect(j, '[', "'[' (an array)")) return false;
  cz_errpath_push_idx(&j->ep, 0);
  return true;
}

bool cz_json_arr_next(cz_json *j, cz_json_arr *it) {
  if (j->ep.err != CZ_OK) return false;
  bool close = cz_json_eat(j, ']');
  if (!close && it->i > 0 && !cz_json_expect(j, ',', "',' or ']'")) return false;
  if (close) {
    cz_errpath_pop(&j->ep);
    if (it->i < it->min && it->min == it->n)
      return cz_json_fail(j, CZ_ERR_PARSE, "expected %llu %s, found %llu",
                          (unsigned long long)it->n, it->what, (unsigned long long)it->i);
    if (it->i < it->min)
      return cz_json_fail(j, CZ_ERR_PARSE, "expected %llu to %llu %s, found %llu",
                          (unsigned long long)it->min, (unsigned long long)it->n, it->what,
                          (unsigned long long)it->i);
    return false;
  }
  if (it->i == it->n) {
    cz_errpath_pop(&j->ep);
    return cz_json_fail(j, CZ_ERR_PARSE, "expected %llu %s, found more", (unsigned long long)it->n,
                        it->what);
  }
  cz_errpath_set_idx(&j->ep, it->i);
  it->i++;
  return true;
}
