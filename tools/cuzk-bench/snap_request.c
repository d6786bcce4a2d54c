/* SnapDeals request files (snap_request.h), through jansson; vanilla.json
 * is post_request.c's. */
#include "snap_request.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

__attribute__((format(printf, 4, 5))) static cz_err say(cz_err e, char *why, size_t whylen,
                                                       const char *fmt, ...) {
  if (why && whylen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
  }
  return e;
}

void cz_bench_snap_request_free(cz_bench_snap_request *r) {
  if (!r) return;
  cz_bench_blobs_free(r->vanilla, r->n_vanilla);
  memset(r, 0, sizeof *r);
}

const cz_snap_kind *cz_bench_snap_kind_arg(const char *arg) {
  if (!arg || !*arg) return NULL;
  char *end = NULL;
  unsigned long v = strtoul(arg, &end, 10);
  if (*end == 0 && arg[0] >= '0' && arg[0] <= '9') return v < CZ_SNAP_N_KINDS ? cz_snap_kind_by_id((uint32_t)v) : NULL;
  return cz_snap_kind_by_name(arg);
}

static void hex_of(char out[65], const uint8_t b[32]) {
  for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static cz_err write_text(const char *dir, const char *name, const char *text, size_t len,
                         char *why, size_t whylen) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
    return say(CZ_ERR_IO, why, whylen, "%s/%s: path too long", dir, name);
  return cz_bench_write_atomic(path, text, len, why, whylen);
}

cz_err cz_bench_snap_request_write(const char *dir, const cz_bench_snap_request *r, char *why,
                                   size_t whylen) {
  if (!r->kind || !r->n_vanilla)
    return say(CZ_ERR_INVALID_ARG, why, whylen, "request: needs a kind and the partition proofs");
  char hex[65];
  json_t *j = json_object();
  if (j) {
    json_object_set_new(j, "proof_kind", json_string("snap-deals"));
    json_object_set_new(j, "registered_proof", json_integer(r->kind->id));
    hex_of(hex, r->comm_r_old);
    json_object_set_new(j, "comm_r_old", json_string(hex));
    hex_of(hex, r->comm_d_new);
    json_object_set_new(j, "comm_d_new", json_string(hex));
    hex_of(hex, r->comm_r_new);
    json_object_set_new(j, "comm_r_new", json_string(hex));
    json_object_set_new(j, "vanilla", json_string("vanilla.json"));
  }
  char *text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
  json_decref(j);
  size_t vlen = 0;
  char *vanilla = cz_bench_vanilla_json(r->vanilla, r->n_vanilla, &vlen);
  cz_err e = text && vanilla ? CZ_OK : say(CZ_ERR_NOMEM, why, whylen, "out of memory");
  if (e == CZ_OK) e = write_text(dir, "vanilla.json", vanilla, vlen, why, whylen);
  if (e == CZ_OK) {
    size_t tl = strlen(text);
    char *nl = realloc(text, tl + 2);
    if (nl) {
      text = nl;
      memcpy(text + tl++, "\n", 2);
    }
    e = write_text(dir, "request.json", text, tl, why, whylen);
  }
  free(text);
  free(vanilla);
  return e;
}

static cz_err hex32_field(json_t *obj, const char *key, const char *file, uint8_t out[32],
                          char *why, size_t whylen) {
  const char *s = json_string_value(json_object_get(obj, key));
  if (!s) return say(CZ_ERR_PARSE, why, whylen, "%s: %s: missing or not a string", file, key);
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  size_t n = strlen(s);
  if (n != 64)
    return say(CZ_ERR_PARSE, why, whylen, "%s: %s: %zu hex digits, expected 64", file, key, n);
  for (size_t i = 0; i < 32; i++) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1 || !strchr("0123456789abcdefABCDEF", s[2 * i]) ||
        !strchr("0123456789abcdefABCDEF", s[2 * i + 1]))
      return say(CZ_ERR_PARSE, why, whylen, "%s: %s: not hex at digit %zu", file, key, 2 * i);
    out[i] = (uint8_t)v;
  }
  return CZ_OK;
}

static cz_err read_obj(const char *path, json_t *j, cz_bench_snap_request *r, char *why,
                       size_t whylen) {
  if (!json_is_object(j)) return say(CZ_ERR_PARSE, why, whylen, "%s: not a JSON object", path);
  const char *kind = json_string_value(json_object_get(j, "proof_kind"));
  if (!kind || (strcmp(kind, "snap-deals") && strcmp(kind, "snap") && strcmp(kind, "update")))
    return say(CZ_ERR_PARSE, why, whylen, "%s: proof_kind: expected \"snap-deals\"", path);
  json_t *rp = json_object_get(j, "registered_proof");
  char num[24];
  const char *arg = json_string_value(rp);
  if (json_is_integer(rp)) {
    snprintf(num, sizeof num, "%lld", (long long)json_integer_value(rp));
    arg = num;
  }
  if (!(r->kind = cz_bench_snap_kind_arg(arg)))
    return say(CZ_ERR_INVALID_ARG, why, whylen,
               "%s: registered_proof: not a registered update proof (0-4 or a name)", path);
  cz_err e;
  if ((e = hex32_field(j, "comm_r_old", path, r->comm_r_old, why, whylen)) != CZ_OK) return e;
  if ((e = hex32_field(j, "comm_d_new", path, r->comm_d_new, why, whylen)) != CZ_OK) return e;
  if ((e = hex32_field(j, "comm_r_new", path, r->comm_r_new, why, whylen)) != CZ_OK) return e;
  const char *name = json_string_value(json_object_get(j, "vanilla"));
  if (!name || !*name) return say(CZ_ERR_PARSE, why, whylen, "%s: vanilla: missing", path);
  const char *slash = strrchr(path, '/');
  size_t dir = name[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
  char *vp = malloc(dir + strlen(name) + 1);
  if (!vp) return say(CZ_ERR_NOMEM, why, whylen, "%s: out of memory", path);
  memcpy(vp, path, dir);
  strcpy(vp + dir, name);
  char inner[384];
  e = cz_bench_vanilla_load(vp, &r->vanilla, &r->n_vanilla, inner, sizeof inner);
  free(vp);
  if (e != CZ_OK) return say(e, why, whylen, "%s: vanilla: %s", path, inner);
  return CZ_OK;
}

cz_err cz_bench_snap_request_read(const char *path, cz_bench_snap_request *out, char *why,
                                  size_t whylen) {
  memset(out, 0, sizeof *out);
  uint8_t *buf = NULL;
  size_t len = 0;
  cz_err e = cz_bench_read_file(path, &buf, &len, why, whylen);
  if (e != CZ_OK) return e;
  json_error_t err;
  json_t *j = json_loadb((const char *)buf, len, 0, &err);
  free(buf);
  if (!j) return say(CZ_ERR_PARSE, why, whylen, "%s: line %d: %s", path, err.line, err.text);
  e = read_obj(path, j, out, why, whylen);
  json_decref(j);
  if (e != CZ_OK) cz_bench_snap_request_free(out);
  return e;
}
