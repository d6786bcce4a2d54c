/* util/json_scan and util/errpath, directly: each token kind, each error
 * with its message and path, the two iterators and the base64 decoder.
 *
 * Where the answers come from:
 * - what is JSON and what a string decodes to: RFC 8259 (section 2
 *   whitespace, 6 numbers, 7 strings and its example "\uD834\uDD1E" for
 *   U+1D11E G clef); the UTF-8 bytes are those of RFC 3629 section 3 and
 *   agree with Python's '\u00e9\u20ac\U0001d11e'.encode();
 * - base64: RFC 4648 section 10's test vectors ("f" .. "foobar"); the
 *   others were made with Python's base64.b64encode / b64decode (each says
 *   which call), which also accepts nonzero unused bits as Go does.
 * The message texts are this scanner's own (the C1 reader's, unchanged by
 * the split): those checks are regression guards. */
#include <stdint.h>
#include "check.h"
#include "util/errpath.h"
#include "util/json_scan.h"

static char msg[256];

static cz_json J(const char *text) {
  cz_json j;
  msg[0] = 0;
  cz_json_init(&j, text, strlen(text), msg, sizeof msg, NULL);
  return j;
}

#define CHECK_MSG(want) \
  do { \
    if (strcmp(msg, want) == 0) check_passed++; \
    else { \
      check_failed++; \
      fprintf(stderr, "%s:%d: message \"%s\", want \"%s\"\n", __FILE__, __LINE__, msg, want); \
    } \
  } while (0)

/* ---- errpath ------------------------------------------------------------------ */

static void test_errpath(void) {
  cz_errpath ep;
  cz_errpath_init(&ep, msg, sizeof msg, NULL);
  CHECK(!cz_errpath_fail(&ep, CZ_ERR_PARSE, "bad %d", 7));
  CHECK_EQ_INT(ep.err, CZ_ERR_PARSE);
  CHECK_MSG("bad 7"); /* depth 0: no ": " */

  /* The style guide's model message. */
  cz_errpath_init(&ep, msg, sizeof msg, NULL);
  cz_errpath_push_key(&ep, "vanilla_proofs");
  cz_errpath_push_idx(&ep, 0);
  cz_errpath_push_idx(&ep, 0);
  cz_errpath_set_idx(&ep, 1);
  cz_errpath_push_key(&ep, "comm_d_proofs");
  cz_errpath_push_key(&ep, "leaf");
  cz_errpath_fail(&ep, CZ_ERR_TRUNCATED, "unexpected end of input");
  CHECK_MSG("vanilla_proofs[0][1].comm_d_proofs.leaf: unexpected end of input");
  CHECK_EQ_INT(ep.err, CZ_ERR_TRUNCATED);
  /* The first error sticks. */
  cz_errpath_fail(&ep, CZ_ERR_PARSE, "second");
  CHECK_MSG("vanilla_proofs[0][1].comm_d_proofs.leaf: unexpected end of input");
  CHECK_EQ_INT(ep.err, CZ_ERR_TRUNCATED);

  /* A path that starts with an index; the prefix; pop. */
  cz_errpath_init(&ep, msg, sizeof msg, "Phase1Out: ");
  cz_errpath_push_idx(&ep, 3);
  cz_errpath_push_key(&ep, "a");
  cz_errpath_push_key(&ep, "b");
  cz_errpath_pop(&ep);
  cz_errpath_fail(&ep, CZ_ERR_PARSE, "x");
  CHECK_MSG("Phase1Out: [3].a: x");

  /* Deeper than CZ_ERRPATH_MAX_DEPTH: counted, the first frames printed. */
  cz_errpath_init(&ep, msg, sizeof msg, NULL);
  for (int i = 0; i < CZ_ERRPATH_MAX_DEPTH + 3; i++) cz_errpath_push_idx(&ep, (uint64_t)i % 10);
  cz_errpath_set_idx(&ep, 9); /* beyond the stack: ignored */
  for (int i = 0; i < 3; i++) cz_errpath_pop(&ep);
  CHECK_EQ_INT(ep.depth, CZ_ERRPATH_MAX_DEPTH);
  cz_errpath_fail(&ep, CZ_ERR_PARSE, "deep");
  CHECK_MSG("[0][1][2][3][4][5][6][7][8][9][0][1][2][3][4][5][6][7][8][9][0][1][2][3]: deep");

  /* One line: control bytes of the message become '?'. */
  cz_errpath_init(&ep, msg, sizeof msg, NULL);
  cz_errpath_fail(&ep, CZ_ERR_PARSE,
                  "a\nb\tc\x1f"
                  "d");
  CHECK_MSG("a?b?c?d");

  /* Cut to msg_len - 1, wherever the cut falls. */
  for (size_t cap = 1; cap <= 16; cap++) {
    char small[16];
    memset(small, 'Z', sizeof small);
    cz_errpath_init(&ep, small, cap, "pre: ");
    cz_errpath_push_key(&ep, "key");
    cz_errpath_push_idx(&ep, 12);
    cz_errpath_fail(&ep, CZ_ERR_PARSE, "what");
    const char *full = "pre: key[12]: what";
    CHECK(strlen(small) == cap - 1 && memcmp(small, full, cap - 1) == 0);
  }

  /* No buffer: the error is still recorded. */
  cz_errpath_init(&ep, NULL, 0, NULL);
  CHECK(!cz_errpath_fail(&ep, CZ_ERR_NOMEM, "x"));
  CHECK_EQ_INT(ep.err, CZ_ERR_NOMEM);
}

/* ---- Punctuation -------------------------------------------------------------------- */

static void test_punctuation(void) {
  /* RFC 8259 section 2: whitespace is space, \t, \n, \r; nothing else. */
  cz_json j = J(" \t\n\r:");
  CHECK(cz_json_eat(&j, ':'));
  CHECK_EQ_INT(cz_json_offset(&j), 5);
  j = J("\f:");
  CHECK(!cz_json_eat(&j, ':'));
  CHECK_EQ_INT(j.ep.err, CZ_OK); /* eat records nothing */
  j = J("\v:");
  CHECK(!cz_json_expect(&j, ':', "':'"));
  CHECK_MSG("expected ':' at byte 0");
  j = J("  ");
  CHECK(!cz_json_expect(&j, ':', "':'"));
  CHECK_MSG("unexpected end of input (expected ':')");
  CHECK_EQ_INT(j.ep.err, CZ_ERR_PARSE);

  j = J("x \n");
  j.p++;
  CHECK(cz_json_end(&j));
  j = J("{} }");
  j.p += 2;
  CHECK(!cz_json_end(&j));
  CHECK_MSG("trailing characters at byte 3");

  /* The text need not be NUL-terminated: the end is len. */
  cz_json k;
  cz_json_init(&k, "::", 1, msg, sizeof msg, NULL);
  CHECK(cz_json_eat(&k, ':'));
  CHECK(!cz_json_eat(&k, ':'));
}

/* ---- Strings ------------------------------------------------------------------------- */

static void test_strings(void) {
  const char *s;
  size_t n;
  bool esc;
  cz_json j = J(" \"abc\" ");
  CHECK(cz_json_scan_string(&j, &s, &n, &esc));
  CHECK(n == 3 && memcmp(s, "abc", 3) == 0 && !esc);
  CHECK_EQ_INT(cz_json_offset(&j), 6);
  /* An escaped quote does not end it; an escaped backslash before the
   * quote does. */
  j = J("\"a\\\"b\"");
  CHECK(cz_json_scan_string(&j, &s, &n, &esc));
  CHECK(n == 4 && memcmp(s, "a\\\"b", 4) == 0 && esc);
  j = J("\"a\\\\\"x");
  CHECK(cz_json_scan_string(&j, &s, &n, &esc));
  CHECK(n == 3 && esc && *j.p == 'x');
  j = J("\"\"");
  CHECK(cz_json_scan_string(&j, &s, &n, &esc) && n == 0 && !esc);

  /* Errors, at the offending byte. */
  j = J("5");
  CHECK(!cz_json_scan_string(&j, &s, &n, &esc));
  CHECK_MSG("expected a string at byte 0");
  j = J("\"abc");
  CHECK(!cz_json_scan_string(&j, &s, &n, &esc));
  CHECK_MSG("unexpected end of input (expected '\"')");
  j = J("\"a\\\"");
  CHECK(!cz_json_scan_string(&j, &s, &n, &esc));
  CHECK_MSG("unexpected end of input (expected '\"')");
  j = J("\"a\tb\""); /* RFC 8259 section 7: U+0000..U+001F must be escaped */
  CHECK(!cz_json_scan_string(&j, &s, &n, &esc));
  CHECK_MSG("expected no control character in a string at byte 2");
  j = J("\"a\\x\"");
  CHECK(!cz_json_scan_string(&j, &s, &n, &esc));
  CHECK_MSG("expected a valid escape at byte 3");
  j = J("\"\\u12g4\"");
  CHECK(!cz_json_scan_string(&j, &s, &n, &esc));
  CHECK_MSG("expected a \\u escape with 4 hex digits at byte 2");
  j = J("\"\\u123\"");
  CHECK(!cz_json_scan_string(&j, &s, &n, &esc));
  CHECK_MSG("expected a \\u escape with 4 hex digits at byte 2");
  /* Every escape RFC 8259 section 7 lists is accepted. */
  j = J("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00AF\\uabcd\"");
  CHECK(cz_json_scan_string(&j, &s, &n, &esc));
}

static void check_decode(const char *body, const char *want_hex) {
  unsigned char want[64];
  long wn = check_hex(want, sizeof want, want_hex);
  char out[64];
  size_t len = 99;
  bool ok = cz_json_decode_string(body, strlen(body), out, sizeof out, &len);
  CHECK(ok && (long)len == wn && memcmp(out, want, (size_t)wn) == 0 && out[len] == 0);
  if (!(ok && (long)len == wn)) fprintf(stderr, "  decoding \"%s\"\n", body);
}

static void test_decode(void) {
  check_decode("abc", "616263");
  /* The two-character escapes: " \ / b f n r t. */
  check_decode("\\\"\\\\\\/\\b\\f\\n\\r\\t", "225c2f080c0a0d09");
  check_decode("\\u0041\\u00e9\\u20AC", "41c3a9e282ac"); /* A, e acute, euro */
  check_decode("\\uD834\\uDD1E", "f09d849e");            /* RFC 8259's G clef */
  check_decode("\\u00e9\\u20ac\\ud834\\udd1e", "c3a9e282acf09d849e");
  check_decode("\\u0000x", "0078");                          /* NUL kept, counted */
  check_decode("\\u07ff\\u0800\\uffff", "dfbfe0a080efbfbf"); /* UTF-8 length edges */
  /* Lone surrogates (serde_json refuses them). */
  char out[16];
  size_t len;
  const char *bad[] = {"\\uD800",        "\\uDC00",        "\\uDBFFx",
                       "\\uD800\\u0041", "\\uD800\\uD800", "a\\uDFFF"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK(!cz_json_decode_string(bad[i], strlen(bad[i]), out, sizeof out, &len));
  /* Cut to cap - 1, *len the whole length. */
  CHECK(cz_json_decode_string("abcdef", 6, out, 4, &len));
  CHECK(len == 6 && strcmp(out, "abc") == 0);
  CHECK(cz_json_decode_string("\\u20ac", 6, out, 3, &len));
  CHECK(len == 3 && out[2] == 0);
}

static void test_short_string(void) {
  char out[8];
  size_t len;
  cz_json j = J("\"name\"");
  CHECK(cz_json_short_string(&j, out, sizeof out, &len) && len == 4 && !strcmp(out, "name"));
  j = J("\"n\\u0061me\"");
  CHECK(cz_json_short_string(&j, out, sizeof out, &len) && len == 4 && !strcmp(out, "name"));
  j = J("\"abcdefghij\"");
  CHECK(cz_json_short_string(&j, out, sizeof out, &len) && len == 10 && !strcmp(out, "abcdefg"));
  j = J("\"x\\ud800\" ");
  CHECK(!cz_json_short_string(&j, out, sizeof out, &len));
  CHECK_MSG("expected no lone UTF-16 surrogate at byte 9");
}

/* ---- Numbers, null ---------------------------------------------------------------------- */

static void check_uint_err(const char *text, uint64_t max, const char *want) {
  cz_json j = J(text);
  uint64_t v = 42;
  CHECK(!cz_json_uint(&j, max, &v) && v == 42 && j.ep.err == CZ_ERR_PARSE);
  CHECK_MSG(want);
}

static void test_uint(void) {
  uint64_t v;
  cz_json j = J(" 0");
  CHECK(cz_json_uint(&j, 0, &v) && v == 0);
  j = J("18446744073709551615,");
  CHECK(cz_json_uint(&j, UINT64_MAX, &v) && v == UINT64_MAX && *j.p == ',');
  j = J("255]");
  CHECK(cz_json_uint(&j, 255, &v) && v == 255);
  check_uint_err("18446744073709551616", UINT64_MAX, "integer out of range");
  check_uint_err("256", 255, "integer 256 out of range (max 255)");
  /* RFC 8259 section 6: int = zero / ( digit1-9 *DIGIT ); serde refuses
   * a sign, a fraction and an exponent for an unsigned field. */
  check_uint_err(" -1", UINT64_MAX, "expected a non-negative integer at byte 1");
  check_uint_err("01", UINT64_MAX, "expected a number without leading zeros at byte 0");
  check_uint_err("00", UINT64_MAX, "expected a number without leading zeros at byte 0");
  check_uint_err("1.5", UINT64_MAX, "expected an integer, found a float at byte 1");
  check_uint_err("1e3", UINT64_MAX, "expected an integer, found a float at byte 1");
  check_uint_err("7E0", UINT64_MAX, "expected an integer, found a float at byte 1");
  check_uint_err("+1", UINT64_MAX, "expected an integer at byte 0");
  check_uint_err("x", UINT64_MAX, "expected an integer at byte 0");
  check_uint_err("  ", UINT64_MAX, "unexpected end of input (expected an integer)");

  j = J(" null,");
  CHECK(cz_json_null(&j) && *j.p == ',');
  j = J("nul");
  CHECK(!cz_json_null(&j));
  CHECK_MSG("expected null at byte 0");
  j = J("Null");
  CHECK(!cz_json_null(&j));
  CHECK_MSG("expected null at byte 0");
  j = J("");
  CHECK(!cz_json_null(&j));
  CHECK_MSG("unexpected end of input (expected null)");
}

/* ---- [u8; 32] ----------------------------------------------------------------------------- */

/* "[v0,v1,...]" of n values, each i * 8 (0, 8, .., 248), with sep after
 * each comma. */
static void bytes_text(char *t, size_t cap, unsigned n, const char *sep) {
  size_t k = (size_t)snprintf(t, cap, "[");
  for (unsigned i = 0; i < n; i++)
    k += (size_t)snprintf(t + k, cap - k, "%s%u", i ? sep : "", i * 8);
  snprintf(t + k, cap - k, "]");
}

static void check_bytes_err(const char *text, const char *want) {
  cz_json j = J(text);
  cz_errpath_push_key(&j.ep, "leaf");
  uint8_t out[32];
  CHECK(!cz_json_bytes32(&j, out) && j.ep.err == CZ_ERR_PARSE);
  CHECK_MSG(want);
}

static void test_bytes32(void) {
  char t[512];
  uint8_t out[32], want[32];
  for (unsigned i = 0; i < 32; i++) want[i] = (uint8_t)(i * 8);
  const char *seps[] = {",", ", ", ",\n  "};
  for (int s = 0; s < 3; s++) {
    bytes_text(t, sizeof t, 32, seps[s]);
    cz_json j = J(t);
    memset(out, 0xAA, sizeof out);
    CHECK(cz_json_bytes32(&j, out) && memcmp(out, want, 32) == 0 && j.p == j.end);
  }
  /* Whitespace on either side of every token. */
  cz_json j =
      J(" [ 0 , 1 ,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,"
        "27,28,29,30,255 ] ");
  CHECK(cz_json_bytes32(&j, out) && out[1] == 1 && out[31] == 255);

  bytes_text(t, sizeof t, 31, ",");
  check_bytes_err(t, "leaf: expected 32 bytes, found 31");
  bytes_text(t, sizeof t, 33, ",");
  check_bytes_err(t, "leaf: expected 32 bytes, found more");
  check_bytes_err("[]", "leaf: expected 32 bytes, found 0");
  check_bytes_err("[ 1, 2 ]", "leaf: expected 32 bytes, found 2");
  check_bytes_err("{", "leaf: expected '[' (an array of 32 bytes) at byte 0");
  check_bytes_err("[1,2,256]", "leaf[2]: byte value out of range 0..255");
  check_bytes_err("[1,2,1000]", "leaf[2]: byte value out of range 0..255");
  check_bytes_err("[1,01]", "leaf[1]: expected a number without leading zeros at byte 3");
  check_bytes_err("[1,-1]", "leaf[1]: expected an integer 0..255 at byte 3");
  check_bytes_err("[1,2.0]", "leaf[1]: expected an integer, found a float at byte 4");
  check_bytes_err("[1,2e0]", "leaf[1]: expected an integer, found a float at byte 4");
  check_bytes_err("[1 2]", "leaf: expected ',' or ']' at byte 3");
  check_bytes_err("[1,", "leaf[1]: unexpected end of input (expected an integer 0..255)");
  check_bytes_err("[1", "leaf: unexpected end of input (expected ',' or ']')");
  bytes_text(t, sizeof t, 32, ",");
  t[strlen(t) - 1] = 0; /* no ']' */
  check_bytes_err(t, "leaf: unexpected end of input (expected ']')");
}

/* ---- The iterators ---------------------------------------------------------------------- */

static const char *const ABC[] = {"a", "b", "c"};
static const char A60[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

/* {"a": uint, "b": [2 uints], "c": null} in any order; 0 or the error. */
static cz_err parse_abc(const char *text, uint64_t out[3]) {
  cz_json j = J(text);
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(&j, &o, ABC, 3)) return j.ep.err;
  while ((f = cz_json_obj_field(&j, &o)) >= 0) {
    if (f == 0) {
      cz_json_uint(&j, UINT64_MAX, &out[0]);
    } else if (f == 1) {
      cz_json_arr a;
      if (!cz_json_arr_begin(&j, &a, 2, "numbers")) return j.ep.err;
      while (cz_json_arr_next(&j, &a)) cz_json_uint(&j, 9, &out[a.i]);
      if (j.ep.err) return j.ep.err;
    } else {
      cz_json_null(&j);
    }
  }
  if (f == CZ_JSON_END && cz_json_end(&j)) return CZ_OK;
  CHECK(j.ep.err != CZ_OK); /* CZ_JSON_ERROR always has one recorded */
  return j.ep.err;
}

static void check_abc_err(const char *text, const char *want) {
  uint64_t v[3];
  CHECK_EQ_INT(parse_abc(text, v), CZ_ERR_PARSE);
  CHECK_MSG(want);
}

static void test_iterators(void) {
  uint64_t v[3] = {0};
  CHECK_EQ_INT(parse_abc("{\"a\":5,\"b\":[1,2],\"c\":null}", v), CZ_OK);
  CHECK(v[0] == 5 && v[1] == 1 && v[2] == 2);
  CHECK_EQ_INT(parse_abc(" { \"c\" : null , \"b\" : [ 3 , 4 ] , \"a\" : 6 } ", v), CZ_OK);
  CHECK(v[0] == 6 && v[1] == 3 && v[2] == 4);
  CHECK_EQ_INT(parse_abc("{\"\\u0062\":[0,0],\"a\":1,\"c\":null}", v), CZ_OK); /* "b" escaped */

  check_abc_err("[", "expected '{' at byte 0");
  check_abc_err("{\"a\":1,\"b\":[1,2]}", "missing field `c`");
  check_abc_err("{}", "missing field `a`");
  check_abc_err("{\"a\":1,\"a\":2}", "duplicate field `a`");
  check_abc_err("{\"a\":1,\"d\":2}", "unknown field `d`");
  check_abc_err("{\"a\\nb\":1}", "unknown field `a?b`");
  /* A key is kept to 47 bytes: a longer one is cut and marked. */
  char longkey[80], want[80];
  snprintf(longkey, sizeof longkey, "{\"%.52s\":1}", A60);
  snprintf(want, sizeof want, "unknown field `%.47s...`", A60);
  check_abc_err(longkey, want);
  check_abc_err("{\"a\" 1}", "expected ':' at byte 5");
  /* The field is off the path once its value is read. */
  check_abc_err("{\"a\":1 \"b\"", "expected ',' or '}' at byte 7");
  check_abc_err("{\"a\":1,}", "expected a string at byte 7");
  check_abc_err("{\"a\":-1}", "a: expected a non-negative integer at byte 5");
  check_abc_err("{\"c\":0}", "c: expected null at byte 5");
  /* The array's element on the path, and its count. */
  check_abc_err("{\"b\":[1,10]}", "b[1]: integer 10 out of range (max 9)");
  check_abc_err("{\"b\":[1]}", "b: expected 2 numbers, found 1");
  check_abc_err("{\"b\":[]}", "b: expected 2 numbers, found 0");
  check_abc_err("{\"b\":[1,2,3]}", "b: expected 2 numbers, found more");
  check_abc_err("{\"b\":[1;2]}", "b[0]: expected ',' or ']' at byte 7");
  check_abc_err("{\"b\":{}}", "b: expected '[' (an array) at byte 5");
  check_abc_err("{\"a\":1,\"b\":[1,2],\"c\":null} x", "trailing characters at byte 27");
  check_abc_err("{\"a\":1", "unexpected end of input (expected ',' or '}')");

  /* Leaving a field early: the error is about the object. */
  cz_json j = J("{\"a\":1}");
  cz_json_obj o;
  CHECK(cz_json_obj_begin(&j, &o, ABC, 1));
  CHECK_EQ_INT(cz_json_obj_field(&j, &o), 0);
  CHECK_EQ_INT(j.ep.depth, 1);
  cz_json_obj_leave_field(&j, &o);
  CHECK_EQ_INT(j.ep.depth, 0);
  cz_json_fail(&j, CZ_ERR_INVALID_ARG, "whole");
  CHECK_MSG("whole");
  CHECK_EQ_INT(cz_json_obj_field(&j, &o), CZ_JSON_ERROR); /* the error ends the loop */

  /* An empty object of no fields; nested arrays put both indices. */
  j = J("{}");
  CHECK(cz_json_obj_begin(&j, &o, ABC, 0));
  CHECK_EQ_INT(cz_json_obj_field(&j, &o), CZ_JSON_END);
  j = J("[[0,0],[0,x]]");
  cz_json_arr a, b;
  CHECK(cz_json_arr_begin(&j, &a, 2, "rows"));
  while (cz_json_arr_next(&j, &a)) {
    if (!cz_json_arr_begin(&j, &b, 2, "cells")) break;
    uint64_t x;
    while (cz_json_arr_next(&j, &b)) cz_json_uint(&j, 0, &x);
  }
  CHECK_MSG("[1][1]: expected an integer at byte 10");
  CHECK(!cz_json_arr_next(&j, &a)); /* after an error: false at once */
  j = J("[]");
  CHECK(cz_json_arr_begin(&j, &a, 0, "none"));
  CHECK(!cz_json_arr_next(&j, &a) && j.ep.err == CZ_OK && j.ep.depth == 0);
}

/* ---- Base64 --------------------------------------------------------------------------------- */

/* Decode the JSON string body s; compare with the bytes of want_hex. */
static void check_b64(const char *s, const char *want_hex) {
  unsigned char want[64];
  long wn = check_hex(want, sizeof want, want_hex);
  cz_json j = J("");
  uint8_t out[64];
  size_t n = strlen(s), len = 99;
  CHECK(n / 4 * 3 <= sizeof out);
  bool ok = cz_json_base64(&j, s, n, out, &len);
  CHECK(ok && (long)len == wn && memcmp(out, want, (size_t)wn) == 0);
  if (!ok || (long)len != wn) fprintf(stderr, "  base64 \"%s\": %s\n", s, msg);
}

static void check_b64_err(const char *s, const char *want) {
  cz_json j = J("");
  uint8_t out[64];
  size_t len;
  CHECK(!cz_json_base64(&j, s, strlen(s), out, &len) && j.ep.err == CZ_ERR_PARSE);
  CHECK_MSG(want);
}

static void test_base64(void) {
  /* RFC 4648 section 10. */
  check_b64("", "");
  check_b64("Zg==", "66");
  check_b64("Zm8=", "666f");
  check_b64("Zm9v", "666f6f");
  check_b64("Zm9vYg==", "666f6f62");
  check_b64("Zm9vYmE=", "666f6f6261");
  check_b64("Zm9vYmFy", "666f6f626172");
  /* base64.b64encode(bytes(range(248, 256)) + bytes(range(8))): both
   * alphabet ends, '+' and '/'. */
  check_b64("+Pn6+/z9/v8AAQIDBAUGBw==", "f8f9fafbfcfdfeff0001020304050607");
  /* The same with '/' written as JSON's escape \/. */
  check_b64("+Pn6+\\/z9\\/v8AAQIDBAUGBw==", "f8f9fafbfcfdfeff0001020304050607");
  /* base64.b64encode(b'\xff\xff\xff') == b'////', b'\xfb\xef\xbe' -> '++++'. */
  check_b64("\\/\\/\\/\\/", "ffffff");
  check_b64("++++", "fbefbe");
  /* base64.b64encode('\u00e9\u20ac\U0001d11e'.encode()) == b'w6nigqzwnYSe'. */
  check_b64("w6nigqzwnYSe", "c3a9e282acf09d849e");
  /* Line breaks, as the escapes \n \r, anywhere before the padding. */
  check_b64("Zm9v\\nYmFy", "666f6f626172");
  check_b64("\\r\\nZm\\r\\n9vYg=\\n=", "666f6f62");
  /* Unused low bits ignored: base64.b64decode('Zh==') == b'f',
   * b64decode('Zm9=') == b'fo' (Go's StdEncoding accepts them too). */
  check_b64("Zh==", "66");
  check_b64("Zm9=", "666f");

  check_b64_err("Zg=", "bad base64: length is not a multiple of 4");
  check_b64_err("Zm9vY", "bad base64: length is not a multiple of 4");
  check_b64_err("=Zg=", "bad base64: '=' at character 0");
  check_b64_err("Z===", "bad base64: '=' at character 1");
  check_b64_err("Zg=a", "bad base64: data after '=' at character 3");
  check_b64_err("Zg==Zg==", "bad base64: data after padding at character 4");
  check_b64_err("Zg==\\n", "bad base64: data after padding at character 4");
  check_b64_err("Zm9v!A==", "bad base64: character 4 is not base64");
  check_b64_err("Zm-_", "bad base64: character 2 is not base64"); /* base64url's alphabet */
  check_b64_err("Zm9v\\tYmFy", "bad base64: escape \\t at character 5");
  check_b64_err("Zm\\u0039v", "bad base64: escape \\u at character 3");
}

int main(void) {
  test_errpath();
  test_punctuation();
  test_strings();
  test_decode();
  test_short_string();
  test_uint();
  test_bytes32();
  test_iterators();
  test_base64();
  return check_report("json_scan");
}
