/* PoSt request files (post_request.h): request.json through jansson,
 * vanilla.json by hand, so that its bytes are exactly Go's. */
#include "post_request.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "input.h"
#include "util/msg.h"

void cz_bench_blobs_free(cz_bench_blob *list, size_t n) {
  for (size_t i = 0; list && i < n; i++) free(list[i].bytes);
  free(list);
}

void cz_bench_post_request_free(cz_bench_post_request *r) {
  if (!r) return;
  free(r->sectors);
  cz_bench_blobs_free(r->vanilla, r->n_vanilla);
  memset(r, 0, sizeof *r);
}

/* ---- vanilla.json ------------------------------------------------------------ */

char *cz_bench_vanilla_json(const cz_bench_blob *v, size_t n, size_t *len) {
  size_t cap = 3; /* "[", "]", NUL */
  for (size_t i = 0; i < n; i++) cap += cz_bench_base64_len(v[i].len) + 3;
  char *out = malloc(cap), *p = out;
  if (!out) return NULL;
  *p++ = '[';
  for (size_t i = 0; i < n; i++) {
    if (i) *p++ = ',';
    *p++ = '"';
    p += cz_bench_base64_encode(p, v[i].bytes, v[i].len);
    *p++ = '"';
  }
  *p++ = ']';
  *p = 0;
  if (len) *len = (size_t)(p - out);
  return out;
}

/* Append the proofs of a parsed JSON array (file named for messages). */
static cz_err blobs_from_array(json_t *arr, const char *file, cz_bench_blob **list, size_t *n,
                               char *why, size_t whylen) {
  size_t m = json_array_size(arr);
  if (m == 0)
    return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: an empty array of vanilla proofs", file);
  cz_bench_blob *l = realloc(*list, (*n + m) * sizeof *l);
  if (!l) return cz_msg_err(why, whylen, CZ_ERR_NOMEM, "%s: out of memory", file);
  *list = l;
  for (size_t i = 0; i < m; i++) {
    json_t *s = json_array_get(arr, i);
    if (!json_is_string(s))
      return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: [%zu]: not a string (expected base64)",
                        file, i);
    size_t tl = json_string_length(s), bl = 0;
    uint8_t *b = malloc(3 * (tl / 4) + 1);
    char b64why[128];
    if (!b) return cz_msg_err(why, whylen, CZ_ERR_NOMEM, "%s: out of memory", file);
    if (!cz_bench_base64_decode(b, &bl, json_string_value(s), tl, b64why, sizeof b64why)) {
      free(b);
      return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: [%zu]: %s", file, i, b64why);
    }
    l[*n].bytes = b;
    l[*n].len = bl;
    (*n)++;
  }
  return CZ_OK;
}

/* Parse JSON text of a whole file, with the position of a syntax error. */
static json_t *load_json(const uint8_t *text, size_t len, const char *file, char *why,
                         size_t whylen) {
  json_error_t je;
  json_t *j = json_loadb((const char *)text, len, JSON_REJECT_DUPLICATES, &je);
  if (!j) cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s:%d:%d: %s", file, je.line, je.column, je.text);
  return j;
}

static bool looks_like_json(const uint8_t *b, size_t len) {
  size_t i = 0;
  while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) i++;
  return i < len && (b[i] == '[' || b[i] == '{') && memchr(b, 0, len) == NULL;
}

cz_err cz_bench_vanilla_load(const char *path, cz_bench_blob **list, size_t *n, char *why,
                             size_t whylen) {
  uint8_t *buf = NULL;
  size_t len = 0;
  cz_err e = cz_bench_read_file(path, &buf, &len, why, whylen);
  if (e != CZ_OK) return e;
  if (!looks_like_json(buf, len)) { /* one bincode proof: the buffer is it */
    cz_bench_blob *l = realloc(*list, (*n + 1) * sizeof *l);
    if (!l) {
      free(buf);
      return cz_msg_err(why, whylen, CZ_ERR_NOMEM, "%s: out of memory", path);
    }
    *list = l;
    l[*n].bytes = buf;
    l[*n].len = len;
    (*n)++;
    return CZ_OK;
  }
  json_t *j = load_json(buf, len, path, why, whylen);
  free(buf);
  if (!j) return CZ_ERR_PARSE;
  if (!json_is_array(j))
    e = cz_msg_err(why, whylen, CZ_ERR_PARSE,
                   "%s: a JSON object, not a vanilla.json array (a request file? use --request)",
                   path);
  else e = blobs_from_array(j, path, list, n, why, whylen);
  json_decref(j);
  return e;
}

cz_err cz_bench_request_vanilla_load(const char *request, const char *name, cz_bench_blob **list,
                                     size_t *n, char *why, size_t whylen) {
  const char *slash = strrchr(request, '/');
  size_t dir = name[0] == '/' || !slash ? 0 : (size_t)(slash - request) + 1;
  char *path = malloc(dir + strlen(name) + 1);
  if (!path) return cz_msg_err(why, whylen, CZ_ERR_NOMEM, "%s: out of memory", request);
  memcpy(path, request, dir);
  strcpy(path + dir, name);
  char inner[384];
  cz_err e = cz_bench_vanilla_load(path, list, n, inner, sizeof inner);
  free(path);
  if (e != CZ_OK) return cz_msg_err(why, whylen, e, "%s: vanilla: %s", request, inner);
  return CZ_OK;
}

/* ---- request.json: reading ------------------------------------------------------ */

typedef struct {
  const char *file;
  char *why;
  size_t whylen;
} ctx;

static cz_err field_err(const ctx *c, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static cz_err field_err(const ctx *c, const char *field, const char *fmt, ...) {
  char reason[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  return cz_msg_err(c->why, c->whylen, CZ_ERR_PARSE, "%s: %s: %s", c->file, field, reason);
}

static cz_err get_u64(const ctx *c, json_t *obj, const char *key, const char *field, bool optional,
                      uint64_t *out) {
  json_t *v = json_object_get(obj, key);
  if (!v) return optional ? CZ_OK : field_err(c, field, "missing");
  if (!json_is_integer(v) || json_integer_value(v) < 0)
    return field_err(c, field, "not a non-negative integer");
  *out = (uint64_t)json_integer_value(v);
  return CZ_OK;
}

static cz_err get_hex32(const ctx *c, json_t *obj, const char *key, const char *field,
                        uint8_t out[32]) {
  json_t *v = json_object_get(obj, key);
  if (!v) return field_err(c, field, "missing");
  if (!json_is_string(v)) return field_err(c, field, "not a string (expected 64 hex digits)");
  const char *s = json_string_value(v);
  uint8_t *b = NULL;
  size_t n = 0;
  char why[128];
  if (cz_bench_hex_decode(&b, &n, (const uint8_t *)s, strlen(s), why, sizeof why) != CZ_OK)
    return field_err(c, field, "%s (expected 64 hex digits)", why);
  if (n != 32) {
    free(b);
    return field_err(c, field, "%zu bytes, expected 32 (64 hex digits)", n);
  }
  memcpy(out, b, 32);
  free(b);
  return CZ_OK;
}

static const char *type_name(cz_post_type t) {
  return t == CZ_POST_WINNING ? "winning-post" : "window-post";
}

const char *cz_bench_post_type_name(cz_post_type t) { return type_name(t); }

int cz_bench_post_type_of(const char *name) {
  if (name && !strcmp(name, "winning-post")) return CZ_POST_WINNING;
  if (name && !strcmp(name, "window-post")) return CZ_POST_WINDOW;
  return -1;
}

const cz_registered_post *cz_bench_registered_post_arg(const char *arg) {
  if (!arg || !*arg) return NULL;
  if (strspn(arg, "0123456789") == strlen(arg))
    return strlen(arg) <= 3 ? cz_registered_post_by_id((uint32_t)atoi(arg)) : NULL;
  return cz_registered_post_by_name(arg);
}

static cz_err get_registered(const ctx *c, json_t *obj, const cz_registered_post **out) {
  json_t *pk = json_object_get(obj, "proof_kind");
  if (!pk) return field_err(c, "proof_kind", "missing");
  const char *pks = json_string_value(pk);
  if (!pks || (strcmp(pks, "winning-post") && strcmp(pks, "window-post")))
    return field_err(c, "proof_kind", "expected \"winning-post\" or \"window-post\"");
  json_t *rp = json_object_get(obj, "registered_proof");
  const cz_registered_post *k = NULL;
  if (!rp) return field_err(c, "registered_proof", "missing");
  if (json_is_integer(rp)) {
    json_int_t id = json_integer_value(rp);
    k = id >= 0 && id <= UINT32_MAX ? cz_registered_post_by_id((uint32_t)id) : NULL;
    if (!k)
      return field_err(c, "registered_proof", "%lld is not a registered PoSt proof (0-14)",
                       (long long)id);
  } else if (json_is_string(rp)) {
    k = cz_registered_post_by_name(json_string_value(rp));
    if (!k)
      return field_err(c, "registered_proof", "unknown PoSt proof name \"%s\"",
                       json_string_value(rp));
  } else {
    return field_err(c, "registered_proof", "not a number or name");
  }
  if (strcmp(pks, type_name(k->type)))
    return field_err(c, "registered_proof", "%u (%s) is a %s proof, but proof_kind is %s", k->id,
                     k->name, type_name(k->type), pks);
  *out = k;
  return CZ_OK;
}

static cz_err get_sectors(const ctx *c, json_t *obj, cz_bench_post_request *r) {
  json_t *arr = json_object_get(obj, "sectors");
  if (!arr) return field_err(c, "sectors", "missing");
  if (!json_is_array(arr) || json_array_size(arr) == 0)
    return field_err(c, "sectors", "not a non-empty array");
  size_t n = json_array_size(arr);
  r->sectors = calloc(n, sizeof *r->sectors);
  if (!r->sectors) return cz_msg_err(c->why, c->whylen, CZ_ERR_NOMEM, "%s: out of memory", c->file);
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_array_get(arr, i);
    char f[64];
    snprintf(f, sizeof f, "sectors[%zu]", i);
    if (!json_is_object(s)) return field_err(c, f, "not an object");
    cz_err e;
    snprintf(f, sizeof f, "sectors[%zu].sector_id", i);
    if ((e = get_u64(c, s, "sector_id", f, false, &r->sectors[i].sector_id)) != CZ_OK) return e;
    snprintf(f, sizeof f, "sectors[%zu].comm_r", i);
    if ((e = get_hex32(c, s, "comm_r", f, r->sectors[i].comm_r)) != CZ_OK) return e;
    r->n_sectors++;
  }
  return CZ_OK;
}

/* The vanilla file named by the request, relative to the request's folder. */
static cz_err get_vanilla(const ctx *c, json_t *obj, cz_bench_post_request *r) {
  json_t *v = json_object_get(obj, "vanilla");
  if (!v) return field_err(c, "vanilla", "missing");
  const char *name = json_string_value(v);
  if (!name || !*name) return field_err(c, "vanilla", "not a file name");
  cz_err e =
      cz_bench_request_vanilla_load(c->file, name, &r->vanilla, &r->n_vanilla, c->why, c->whylen);
  if (e != CZ_OK) return e;
  if (r->n_vanilla != r->n_sectors)
    return field_err(c, "vanilla", "%zu proofs for %zu sectors (one per sector, in order)",
                     r->n_vanilla, r->n_sectors);
  return CZ_OK;
}

static cz_err read_request(const ctx *c, json_t *j, cz_bench_post_request *r) {
  cz_err e;
  uint64_t partition = 0;
  if ((e = get_registered(c, j, &r->registered)) != CZ_OK) return e;
  if ((e = get_hex32(c, j, "randomness", "randomness", r->randomness)) != CZ_OK) return e;
  if ((e = get_u64(c, j, "miner_id", "miner_id", false, &r->miner_id)) != CZ_OK) return e;
  r->has_miner_id = true;
  cz_prover_id_of_miner(r->prover_id, r->miner_id);
  if ((e = get_u64(c, j, "partition", "partition", true, &partition)) != CZ_OK) return e;
  if (partition > UINT32_MAX) return field_err(c, "partition", "too large");
  if (r->registered->type == CZ_POST_WINNING && partition != 0)
    return field_err(c, "partition", "%llu; WinningPoSt has only partition 0",
                     (unsigned long long)partition);
  r->partition = (uint32_t)partition;
  if ((e = get_sectors(c, j, r)) != CZ_OK) return e;
  return get_vanilla(c, j, r);
}

/* A bare vanilla.json: the rest from the options. */
static cz_err read_bare(const ctx *c, json_t *j, const cz_bench_post_options *opt,
                        cz_bench_post_request *r) {
  static const char *const need = "a bare vanilla.json needs";
  if (!opt || !opt->registered)
    return cz_msg_err(c->why, c->whylen, CZ_ERR_INVALID_ARG, "%s: %s --registered-proof", c->file,
                      need);
  if (!opt->randomness)
    return cz_msg_err(c->why, c->whylen, CZ_ERR_INVALID_ARG, "%s: %s --randomness", c->file, need);
  if (!opt->prover_id)
    return cz_msg_err(c->why, c->whylen, CZ_ERR_INVALID_ARG, "%s: %s --prover-id (or --miner-id)",
                      c->file, need);
  r->registered = opt->registered;
  memcpy(r->randomness, opt->randomness, 32);
  memcpy(r->prover_id, opt->prover_id, 32);
  r->partition = opt->has_partition ? opt->partition : 0;
  return blobs_from_array(j, c->file, &r->vanilla, &r->n_vanilla, c->why, c->whylen);
}

cz_err cz_bench_post_request_read(const char *path, const cz_bench_post_options *opt,
                                  cz_bench_post_request *out, char *why, size_t whylen) {
  memset(out, 0, sizeof *out);
  uint8_t *buf = NULL;
  size_t len = 0;
  cz_err e = cz_bench_read_file(path, &buf, &len, why, whylen);
  if (e != CZ_OK) return e;
  json_t *j = load_json(buf, len, path, why, whylen);
  free(buf);
  if (!j) return CZ_ERR_PARSE;
  ctx c = {path, why, whylen};
  if (json_is_object(j)) e = read_request(&c, j, out);
  else if (json_is_array(j)) e = read_bare(&c, j, opt, out);
  else
    e = cz_msg_err(why, whylen, CZ_ERR_PARSE,
                   "%s: neither a request (object) nor a vanilla.json (array of base64)", path);
  json_decref(j);
  if (e != CZ_OK) cz_bench_post_request_free(out);
  return e;
}

/* ---- request.json: writing --------------------------------------------------------- */

void cz_bench_hex32_text(char out[65], const uint8_t b[32]) {
  for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static cz_err write_text(const char *dir, const char *name, const char *text, size_t len, char *why,
                         size_t whylen) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
    return cz_msg_err(why, whylen, CZ_ERR_IO, "%s/%s: path too long", dir, name);
  return cz_bench_write_atomic(path, text, len, why, whylen);
}

cz_err cz_bench_request_files_write(const char *dir, const struct json_t *request,
                                    const cz_bench_blob *v, size_t n, char *why, size_t whylen) {
  size_t vlen = 0;
  char *vanilla = cz_bench_vanilla_json(v, n, &vlen);
  char *text = request ? json_dumps(request, JSON_INDENT(2)) : NULL;
  cz_err e = CZ_OK;
  if (!vanilla || !text)
    e = cz_msg_err(why, whylen, CZ_ERR_NOMEM, "out of memory writing the request");
  if (e == CZ_OK) e = write_text(dir, "vanilla.json", vanilla, vlen, why, whylen);
  if (e == CZ_OK) {
    size_t tl = strlen(text);
    char *nl = realloc(text, tl + 2);
    if (nl) {
      text = nl;
      memcpy(text + tl, "\n", 2);
      tl++;
    }
    e = write_text(dir, "request.json", text, tl, why, whylen);
  }
  free(vanilla);
  free(text);
  return e;
}

static json_t *request_json(const cz_bench_post_request *r) {
  char hex[65];
  json_t *j = json_object(), *secs = json_array();
  if (!j || !secs) {
    json_decref(j);
    json_decref(secs);
    return NULL;
  }
  json_object_set_new(j, "proof_kind", json_string(type_name(r->registered->type)));
  json_object_set_new(j, "registered_proof", json_integer(r->registered->id));
  cz_bench_hex32_text(hex, r->randomness);
  json_object_set_new(j, "randomness", json_string(hex));
  json_object_set_new(j, "miner_id", json_integer((json_int_t)r->miner_id));
  json_object_set_new(j, "partition", json_integer(r->partition));
  for (size_t i = 0; i < r->n_sectors; i++) {
    json_t *s = json_object();
    cz_bench_hex32_text(hex, r->sectors[i].comm_r);
    json_object_set_new(s, "sector_id", json_integer((json_int_t)r->sectors[i].sector_id));
    json_object_set_new(s, "comm_r", json_string(hex));
    json_array_append_new(secs, s);
  }
  json_object_set_new(j, "sectors", secs);
  json_object_set_new(j, "vanilla", json_string("vanilla.json"));
  return j;
}

cz_err cz_bench_post_request_write(const char *dir, const cz_bench_post_request *r, char *why,
                                   size_t whylen) {
  if (!r->registered || !r->has_miner_id || r->n_sectors != r->n_vanilla || r->n_sectors == 0)
    return cz_msg_err(why, whylen, CZ_ERR_INVALID_ARG,
                      "request: needs a kind, a miner id and one proof per sector");
  /* jansson's integers are signed 64-bit. */
  if (r->miner_id > INT64_MAX)
    return cz_msg_err(why, whylen, CZ_ERR_INVALID_ARG,
                      "miner_id %llu does not fit a JSON integer here",
                      (unsigned long long)r->miner_id);
  for (size_t i = 0; i < r->n_sectors; i++)
    if (r->sectors[i].sector_id > INT64_MAX)
      return cz_msg_err(why, whylen, CZ_ERR_INVALID_ARG, "sectors[%zu].sector_id is too large", i);
  json_t *j = request_json(r);
  cz_err e = cz_bench_request_files_write(dir, j, r->vanilla, r->n_vanilla, why, whylen);
  json_decref(j);
  return e;
}
