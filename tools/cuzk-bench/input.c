#include "util/atomic_file.h"
#include "util/msg.h"
#include <unistd.h>
#include <fcntl.h>
#include "cuzk/clock.h"
#include "cuzk/param_digest.h"
#include "input.h"
#include "common/progress_out.h"
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static void say(char *why, size_t whylen, const char *fmt, ...) {
  if (!why || !whylen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, whylen, fmt, ap);
  va_end(ap);
}

cz_err cz_bench_read_file(const char *path, uint8_t **buf, size_t *len, char *why, size_t whylen) {
  *buf = NULL;
  *len = 0;
  /* "-" is standard input (single --c1 - had opened a file named "-"). */
  bool from_stdin = !strcmp(path, "-");
  FILE *f = from_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    say(why, whylen, "cannot open %s: %s", path, strerror(errno));
    return CZ_ERR_IO;
  }
  if (from_stdin) path = "standard input";
  uint8_t *b = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (cap - n < 2) {
      size_t ncap = cap ? cap * 2 : 4096;
      uint8_t *nb = realloc(b, ncap);
      if (!nb) {
        free(b);
        if (!from_stdin) fclose(f);
        say(why, whylen, "out of memory reading %s", path);
        return CZ_ERR_NOMEM;
      }
      b = nb;
      cap = ncap;
    }
    size_t got = fread(b + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int err = ferror(f);
  if (!from_stdin) fclose(f);
  if (err) {
    free(b);
    say(why, whylen, "cannot read %s", path);
    return CZ_ERR_IO;
  }
  b[n] = 0;
  *buf = b;
  *len = n;
  return CZ_OK;
}

/* The hex digits of text, without surrounding whitespace and 0x prefix. */
static void hex_span(const uint8_t *text, size_t len, size_t *start, size_t *end) {
  size_t s = 0, e = len;
  while (s < e && isspace(text[s])) s++;
  while (e > s && isspace(text[e - 1])) e--;
  if (e - s >= 2 && text[s] == '0' && (text[s + 1] == 'x' || text[s + 1] == 'X')) s += 2;
  *start = s;
  *end = e;
}

bool cz_bench_is_hex_text(const uint8_t *buf, size_t len) {
  size_t s, e;
  hex_span(buf, len, &s, &e);
  if (s == e || (e - s) % 2) return false;
  for (size_t i = s; i < e; i++)
    if (!isxdigit(buf[i])) return false;
  return true;
}

static int hex_val(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

cz_err cz_bench_hex_decode(uint8_t **out, size_t *outlen, const uint8_t *text, size_t len,
                           char *why, size_t whylen) {
  *out = NULL;
  *outlen = 0;
  size_t s, e;
  hex_span(text, len, &s, &e);
  for (size_t i = s; i < e; i++) {
    if (hex_val(text[i]) < 0) {
      say(why, whylen, "bad hex character at offset %zu", i);
      return CZ_ERR_PARSE;
    }
  }
  if ((e - s) % 2) {
    say(why, whylen, "odd number of hex digits (%zu)", e - s);
    return CZ_ERR_PARSE;
  }
  size_t n = (e - s) / 2;
  uint8_t *b = malloc(n ? n : 1);
  if (!b) {
    say(why, whylen, "out of memory");
    return CZ_ERR_NOMEM;
  }
  for (size_t i = 0; i < n; i++)
    b[i] = (uint8_t)(hex_val(text[s + 2 * i]) << 4 | hex_val(text[s + 2 * i + 1]));
  *out = b;
  *outlen = n;
  return CZ_OK;
}

cz_err cz_bench_load_public_inputs(const char *path, cz_fr **inputs, size_t *n, char *why,
                                   size_t whylen) {
  *inputs = NULL;
  *n = 0;
  FILE *probe = fopen(path, "rb");
  if (!probe) {
    say(why, whylen, "cannot open %s: %s", path, strerror(errno));
    return CZ_ERR_IO;
  }
  fclose(probe);

  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) {
    say(why, whylen, "%s: malformed JSON at line %d: %s", path, jerr.line, jerr.text);
    return CZ_ERR_PARSE;
  }
  cz_err rc = CZ_ERR_PARSE;
  cz_fr *v = NULL;
  json_t *arr = json_object_get(root, "inputs");
  if (!json_is_object(root) || !json_is_array(arr)) {
    say(why, whylen, "%s: expected an object with an \"inputs\" array", path);
    goto out;
  }
  size_t count = json_array_size(arr);
  json_t *jc = json_object_get(root, "count");
  if (jc && (!json_is_integer(jc) || json_integer_value(jc) < 0 ||
             (unsigned long long)json_integer_value(jc) != count)) {
    say(why, whylen, "%s: \"count\" does not match the %zu inputs listed", path, count);
    goto out;
  }
  v = malloc((count ? count : 1) * sizeof *v);
  if (!v) {
    say(why, whylen, "out of memory");
    rc = CZ_ERR_NOMEM;
    goto out;
  }
  for (size_t i = 0; i < count; i++) {
    const char *s = json_string_value(json_array_get(arr, i));
    uint8_t *bytes = NULL;
    size_t blen = 0;
    if (!s || cz_bench_hex_decode(&bytes, &blen, (const uint8_t *)s, strlen(s), NULL, 0) != CZ_OK ||
        blen != CZ_FR_BYTES) {
      free(bytes);
      say(why, whylen, "%s: input %zu is not 32 bytes of hex", path, i);
      goto out;
    }
    cz_err e = cz_fr_from_bytes_le(&v[i], bytes);
    free(bytes);
    if (e != CZ_OK) {
      say(why, whylen, "%s: input %zu: %s", path, i, cz_err_str(e));
      goto out;
    }
  }
  *inputs = count ? v : NULL;
  if (!count) free(v);
  *n = count;
  v = NULL;
  rc = CZ_OK;
out:
  free(v);
  json_decref(root);
  return rc;
}

int cz_bench_parse_size(const char *text, uint64_t *bytes) {
  static const struct {
    const char *suffix;
    unsigned shift;
  } units[] = {{"", 0}, {"KiB", 10}, {"K", 10}, {"MiB", 20}, {"M", 20}, {"GiB", 30}, {"G", 30}};
  if (!text || *text < '0' || *text > '9') return -1;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(text, &end, 10);
  if (errno) return -1;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcasecmp(end, units[i].suffix) != 0) continue;
    if (n > (UINT64_MAX >> units[i].shift)) return -1;
    *bytes = (uint64_t)n << units[i].shift;
    return 0;
  }
  return -1;
}

cz_err cz_bench_load_hex_or_file(const char *arg, const char *name, uint8_t **out, size_t *len,
                                 char *what, size_t whatlen, char *why, size_t whylen) {
  struct stat st;
  uint8_t *raw = NULL;
  size_t rawlen = 0;
  *out = NULL;
  *len = 0;
  cz_err e;
  if (stat(arg, &st) != 0 && cz_bench_is_hex_text((const uint8_t *)arg, strlen(arg))) {
    say(what, whatlen, "%s hex", name);
    return cz_bench_hex_decode(out, len, (const uint8_t *)arg, strlen(arg), why, whylen);
  }
  say(what, whatlen, "%s file", name);
  if ((e = cz_bench_read_file(arg, &raw, &rawlen, why, whylen)) != CZ_OK) return e;
  if (!cz_bench_is_hex_text(raw, rawlen)) { /* raw bytes */
    *out = raw;
    *len = rawlen;
    return CZ_OK;
  }
  e = cz_bench_hex_decode(out, len, raw, rawlen, why, whylen);
  free(raw);
  return e;
}

int cz_bench_hex32(const char *cmd, const char *opt, const char *arg, uint8_t out[32]) {
  uint8_t *b = NULL;
  size_t n = 0;
  char why[128];
  if (cz_bench_hex_decode(&b, &n, (const uint8_t *)arg, strlen(arg), why, sizeof why) != CZ_OK) {
    fprintf(stderr, "%s: --%s: %s (expected 64 hex digits)\n", cmd, opt, why);
    return 2;
  }
  if (n != 32) {
    fprintf(stderr, "%s: --%s holds %zu bytes, expected 32 (64 hex digits)\n", cmd, opt, n);
    free(b);
    return 2;
  }
  memcpy(out, b, 32);
  free(b);
  return 0;
}

int cz_bench_load_vk(const char *cmd, cz_groth16_vk *vk, const char *path, bool force_hex,
                     bool force_compressed) {
  char why[512];
  uint8_t *raw = NULL, *bytes = NULL;
  size_t rawlen = 0, len = 0;
  memset(vk, 0, sizeof *vk);
  if (cz_bench_read_file(path, &raw, &rawlen, why, sizeof why) != CZ_OK) {
    fprintf(stderr, "%s: verifying key: %s\n", cmd, why);
    return 2;
  }
  if (force_hex || cz_bench_is_hex_text(raw, rawlen)) {
    if (cz_bench_hex_decode(&bytes, &len, raw, rawlen, why, sizeof why) != CZ_OK) {
      fprintf(stderr, "%s: verifying key %s: %s\n", cmd, path, why);
      free(raw);
      return 2;
    }
    free(raw);
  } else {
    bytes = raw;
    len = rawlen;
  }
  /* Without force_compressed the first point's compression flag decides. */
  bool compressed = force_compressed || (len > 0 && (bytes[0] & 0x80));
  cz_err e = cz_groth16_vk_read(vk, bytes, len, compressed, NULL);
  free(bytes);
  if (e != CZ_OK) {
    fprintf(stderr, "%s: verifying key %s (%s layout, %zu bytes): %s\n", cmd, path,
            compressed ? "compressed" : "uncompressed", len, cz_err_str(e));
    return 2;
  }
  return 0;
}

int cz_bench_load_proof(const char *cmd, const char *arg, uint8_t **bytes, size_t *len, char *what,
                        size_t whatlen) {
  char why[512];
  cz_err e = cz_bench_load_hex_or_file(arg, "proof", bytes, len, what, whatlen, why, sizeof why);
  if (e != CZ_OK) return cz_bench_unusable(cmd, "%s: %s", e == CZ_ERR_IO ? "proof" : what, why);
  return 0;
}

int cz_bench_load_vk_for(const char *cmd, cz_groth16_vk *vk, const char *path, bool force_hex,
                         bool force_compressed, size_t n_inputs, const char *who) {
  int rc = cz_bench_load_vk(cmd, vk, path, force_hex, force_compressed);
  if (rc != 0) return rc;
  if (vk->n_ic == n_inputs + 1) return 0;
  rc = cz_bench_unusable(cmd, "the verifying key takes %zu public inputs, %s has %zu", vk->n_ic - 1,
                         who, n_inputs);
  cz_groth16_vk_free(vk);
  memset(vk, 0, sizeof *vk);
  return rc;
}

int cz_bench_unusable(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 2;
}

cz_err cz_bench_write_atomic(const char *path, const void *buf, size_t len, char *why,
                             size_t whylen) {
  return cz_atomic_write_file(path, buf, len, why, whylen);
}

int cz_bench_write_file(const char *cmd, const char *path, const uint8_t *buf, size_t len) {
  char why[4400];
  if (cz_bench_write_atomic(path, buf, len, why, sizeof why) == CZ_OK) return 0;
  fprintf(stderr, "%s: %s\n", cmd, why);
  return 2;
}

int cz_bench_write_vk(const char *cmd, const char *path, const cz_groth16_vk *vk) {
  size_t n = cz_groth16_vk_write(NULL, vk, false);
  uint8_t *buf = malloc(n);
  if (!buf) {
    fprintf(stderr, "%s: out of memory\n", cmd);
    return 2;
  }
  cz_groth16_vk_write(buf, vk, false);
  int rc = cz_bench_write_file(cmd, path, buf, n);
  free(buf);
  return rc;
}

int cz_bench_prove_params(cz_groth16_params *out, const char *name, size_t n_ic, const char *tag,
                          const cz_bench_prove_opts *o, cz_params_keygen_fn keygen, void *ctx) {
  cz_params_store_opts so = {0};
  so.test_dir = o->cache_dir;
  so.test_tag = tag;
  so.official_only = o->official_only;
  so.checked = o->checked;
  so.decode = o->decoded_key;
  so.n_threads = o->threads;
  so.keygen = keygen;
  so.keygen_ctx = ctx;
  so.who = "prove";
  so.progress = cz_bench_progress();
  cz_params_origin org;
  char msg[512] = "";
  uint64_t t0 = cz_now_ns();
  if (cz_official_params_check(name, &so, msg, sizeof msg) != CZ_OK ||
      cz_params_store_get(out, name, n_ic, &so, &org, msg, sizeof msg) != CZ_OK) {
    fprintf(stderr, "prove: parameters: %s\n", msg);
    return 2;
  }
  printf("%s %.1f ms\n", org.source == CZ_PARAMS_TEST_GENERATED ? "setup" : "load_params",
         (double)(cz_now_ns() - t0) / 1e6);
  return 0;
}
