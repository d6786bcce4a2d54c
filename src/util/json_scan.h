/* A zero-copy streaming JSON scanner for readers of fixed schemas (internal).
 *
 * The reader walks its schema and asks for each token in turn; nothing is
 * built in between (no DOM, no copies), so a 32 GiB C1 (~39 MB of JSON,
 * mostly [u8; 32] arrays) parses in one pass straight into its model. It
 * follows RFC 8259 and serde_json's rules for what serde's derived structs
 * accept: strings with every escape checked and no lone surrogate,
 * integers without sign, fraction, exponent or leading zeros, objects whose
 * fields are known names in any order (none unknown, none twice, none
 * missing), arrays of an exact length. Go's encoding/json base64 of a
 * []byte (Curio's wrapper) is here too.
 *
 * Errors: every function that reads returns false on error and records it
 * in j->ep (util/errpath.h) with the path to the value: CZ_ERR_PARSE unless
 * said otherwise, the first error only. The messages say what was expected
 * and where, as a byte offset from j->start: "expected ':' at byte 17",
 * "unexpected end of input (expected an integer)". After an error j->p is
 * unspecified; cz_json_obj_field and cz_json_arr_next return at once, so
 * a reader's loops end, and further calls record nothing new.
 *
 * Threading: a cz_json is one thread's at a time; there is no global state.
 * The text is only read, and must stay put while it is scanned. */
#ifndef CUZK_UTIL_JSON_SCAN_H
#define CUZK_UTIL_JSON_SCAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "util/errpath.h"

typedef struct {
  const char *start, *p, *end; /* the text, and the next byte to read */
  cz_errpath ep;               /* the first error and the path to it */
} cz_json;

/* Scan text[0, len) (need not be NUL-terminated). msg, msg_len and prefix
 * go to cz_errpath_init: msg may be NULL (errors are then recorded but not
 * written), prefix names an enclosing document ("Phase1Out: "). */
static inline void cz_json_init(cz_json *j, const char *text, size_t len, char *msg, size_t msg_len,
                                const char *prefix) {
  j->start = j->p = text;
  j->end = text + len;
  cz_errpath_init(&j->ep, msg, msg_len, prefix);
}

static inline size_t cz_json_offset(const cz_json *j) { return (size_t)(j->p - j->start); }

/* ---- Structure: whitespace and punctuation --------------------------------
 * Inline: they run between every two tokens of the 32 GiB C1. */

/* Skip JSON whitespace (space, \t, \n, \r). */
static inline void cz_json_ws(cz_json *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')) j->p++;
}

/* Skip whitespace, then take c if it is next. Records nothing. */
static inline bool cz_json_eat(cz_json *j, char c) {
  cz_json_ws(j);
  if (j->p < j->end && *j->p == c) {
    j->p++;
    return true;
  }
  return false;
}

/* Record a syntax error at j->p: "expected <expected> at byte N", or
 * "unexpected end of input (expected <expected>)" at the end. Returns false. */
bool cz_json_syntax(cz_json *j, const char *expected);

/* cz_json_eat(c), or a syntax error naming what (e.g. "':'"). */
static inline bool cz_json_expect(cz_json *j, char c, const char *what) {
  return cz_json_eat(j, c) || cz_json_syntax(j, what);
}

/* Record an error of the reader's own (a value out of its range) on the
 * current path: cz_errpath_fail on j->ep. Returns false. */
bool cz_json_fail(cz_json *j, cz_err e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Skip whitespace; true at the end of the text, else "trailing characters
 * at byte N". For the end of a document. */
bool cz_json_end(cz_json *j);

/* ---- Values ---------------------------------------------------------------- */

/* A string. On success [*s, *s + *n) is its body as written (escapes not
 * decoded, pointing into the text) and *esc says whether it holds any
 * escape. Errors: not a string, no closing quote, a control character, an
 * escape other than \" \\ \/ \b \f \n \r \t \uXXXX. */
bool cz_json_scan_string(cz_json *j, const char **s, size_t *n, bool *esc);

/* Decode a body that cz_json_scan_string accepted into out[cap] (cap >= 1),
 * as UTF-8; out is NUL-terminated and holds at most cap - 1 bytes, *len is
 * the decoded length (it may exceed cap - 1: out was cut). False for a lone
 * UTF-16 surrogate (\ud800 alone, \udc00 first), which serde_json refuses.
 * Pure: records nothing, any thread. */
bool cz_json_decode_string(const char *s, size_t n, char *out, size_t cap, size_t *len);

/* A string decoded into out[cap] (cap >= 1) as cz_json_decode_string does:
 * for keys and names, where a string cut to fit matches no name (*len says
 * how long it was). Errors: those of cz_json_scan_string, and "expected no
 * lone UTF-16 surrogate" (at the byte after the string). */
bool cz_json_short_string(cz_json *j, char *out, size_t cap, size_t *len);

/* A non-negative integer <= max into *out (untouched on error). Errors:
 * "expected a non-negative integer" (a '-'), "expected an integer",
 * "expected a number without leading zeros", "expected an integer, found a
 * float" (a fraction or exponent), "integer out of range" (over 2^64 - 1),
 * "integer V out of range (max M)". */
bool cz_json_uint(cz_json *j, uint64_t max, uint64_t *out);

/* The literal null. */
bool cz_json_null(cz_json *j);

/* A [u8; 32] as serde writes it: an array of exactly 32 integers 0..255.
 * The hot path (a 32 GiB C1 holds ~330k of them). An error about one byte
 * has its index on the path (path[k]: "byte value out of range 0..255");
 * a wrong count is "expected 32 bytes, found K" or "... found more".
 * out is partly written on error. */
bool cz_json_bytes32(cz_json *j, uint8_t out[32]);

/* ---- Objects with known fields --------------------------------------------- */

/* Iterates the fields of an object whose field names are names[0, n)
 * (n <= 32, each name shorter than 48 bytes, static): each at most once,
 * in any order, all of them, nothing else. While the caller parses a
 * field's value, the field's name is on the path.
 *
 *   cz_json_obj o;
 *   int f;
 *   if (!cz_json_obj_begin(j, &o, NAMES, 3)) return false;
 *   while ((f = cz_json_obj_field(j, &o)) >= 0) parse the value of NAMES[f];
 *   return f == CZ_JSON_END; */
typedef struct {
  const char *const *names;
  unsigned n, seen; /* seen: bit k set once names[k] was read */
  bool first, pushed;
} cz_json_obj;

enum { CZ_JSON_END = -1, CZ_JSON_ERROR = -2 };

/* Take the '{'. */
bool cz_json_obj_begin(cz_json *j, cz_json_obj *it, const char *const *names, unsigned n);

/* The next field's index, with its name on the path and its ':' taken;
 * CZ_JSON_END after the '}' of a complete object; CZ_JSON_ERROR when an
 * error is recorded, now or before (also the value's). Errors: "expected
 * ',' or '}'", "unknown field `K`", "duplicate field `K`", "missing field
 * `K`" (at the '}'), and those of cz_json_short_string. */
int cz_json_obj_field(cz_json *j, cz_json_obj *it);

/* Take the current field's name off the path before cz_json_obj_field
 * would: for an error about the object as a whole. */
static inline void cz_json_obj_leave_field(cz_json *j, cz_json_obj *it) {
  if (it->pushed) cz_errpath_pop(&j->ep), it->pushed = false;
}

/* ---- Arrays of a known length ------------------------------------------------
 *
 *   cz_json_arr a;
 *   if (!cz_json_arr_begin(j, &a, n, "rows")) return false;
 *   while (cz_json_arr_next(j, &a)) parse element a.i - 1;
 *   if (j->ep.err) return false; */
typedef struct {
  uint64_t i, n;    /* elements begun, elements wanted (at most) */
  uint64_t min;     /* elements wanted at least (n for an exact count) */
  const char *what; /* the elements, plural, for the count error */
} cz_json_arr;

/* Take the '[' and put [0] on the path. */
bool cz_json_arr_begin(cz_json *j, cz_json_arr *it, uint64_t n, const char *what);
/* The same for min..max elements (it->i holds the count after the ']'). */
bool cz_json_arr_begin_range(cz_json *j, cz_json_arr *it, uint64_t min, uint64_t max,
                             const char *what);

/* True when element it->i follows: [i] is on the path and it->i is then
 * one more. False at the ']' (the index is then off the path) or on error
 * (j->ep.err says which; after any earlier error it returns false at
 * once). Errors: "expected ',' or ']'", "expected N <what>, found K",
 * "expected N <what>, found more". */
bool cz_json_arr_next(cz_json *j, cz_json_arr *it);

/* ---- Base64 inside a string (json_base64.c) ----------------------------------- */

/* Decode [s, s + n), the body of a JSON string from cz_json_scan_string,
 * as Go's encoding/json decodes a []byte (base64.StdEncoding, RFC 4648
 * section 4 alphabet): padded to a multiple of 4 characters; the escapes
 * \n and \r are skipped, \/ is '/'; the unused low bits of the last
 * character are ignored. Nothing may follow the padding: not even \n, which
 * Go would skip (its encoder never writes one). out must hold 3 * (n / 4)
 * bytes; *outlen gets the count written. Errors ("bad base64: ..." with
 * the character's index in s): another escape, '=' as the first or second
 * character of a group, data after '=' or after the padding, a character
 * outside the alphabet, a length that is not a multiple of 4. */
bool cz_json_base64(cz_json *j, const char *s, size_t n, uint8_t *out, size_t *outlen);

#endif
