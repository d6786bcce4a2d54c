/* SnapDeals request files (snap_request.h), through jansson; vanilla.json
 * is post_request.c's. */
#include "snap_request.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "util/msg.h"

void cz_bench_snap_request_free(cz_bench_snap_request *r) {
  if (!r) return;
  cz_bench_blobs_free(r->vanilla, r->n_vanilla);
  memset(r, 0, sizeof *r);
}

const cz_registered_snap *cz_bench_registered_snap_arg(const char *arg) {
  if (!arg || !*arg) return NULL;
  char *end = NULL;
  unsigned long v = strtoul(arg, &end, 10);
  if (*end == 0 && arg[0] >= '0' && arg[0] <= '9')
    return v < CZ_REGISTERED_SNAP_COUNT ? cz_registered_snap_by_id((uint32_t)v) : NULL;
  return cz_registered_snap_by_name(arg);
}

cz_err cz_bench_snap_request_write(const char *dir, const cz_bench_snap_request *r, char *why,
                                   size_t whylen) {
  if (!r->registered || !r->n_vanilla)
    return cz_msg_err(why, whylen, CZ_ERR_INVALID_ARG,
                      "request: needs a kind and the partition proofs");
  char hex[65];
  json_t *j = json_object();
  if (j) {
    json_object_set_new(j, "proof_kind", json_string("snap-deals"));
    json_object_set_new(j, "registered_proof", json_integer(r->registered->id));
    cz_bench_hex32_text(hex, r->comm_r_old);
    json_object_set_new(j, "comm_r_old", json_string(hex));
    cz_bench_hex32_text(hex, r->comm_d_new);
    json_object_set_new(j, "comm_d_new", json_string(hex));
    cz_bench_hex32_text(hex, r->comm_r_new);
    json_object_set_new(j, "comm_r_new", json_string(hex));
    json_object_set_new(j, "vanilla", json_string("vanilla.json"));
  }
  cz_err e = cz_bench_request_files_write(dir, j, r->vanilla, r->n_vanilla, why, whylen);
  json_decref(j);
  return e;
}

static cz_err hex32_field(json_t *obj, const char *key, const char *file, uint8_t out[32],
                          char *why, size_t whylen) {
  const char *s = json_string_value(json_object_get(obj, key));
  if (!s)
    return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: %s: missing or not a string", file, key);
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  size_t n = strlen(s);
  if (n != 64)
    return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: %s: %zu hex digits, expected 64", file, key,
                      n);
  for (size_t i = 0; i < 32; i++) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1 || !strchr("0123456789abcdefABCDEF", s[2 * i]) ||
        !strchr("0123456789abcdefABCDEF", s[2 * i + 1]))
      return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: %s: not hex at digit %zu", file, key,
                        2 * i);
    out[i] = (uint8_t)v;
  }
  return CZ_OK;
}

static cz_err read_obj(const char *path, json_t *j, cz_bench_snap_request *r, char *why,
                       size_t whylen) {
  if (!json_is_object(j))
    return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: not a JSON object", path);
  const char *kind = json_string_value(json_object_get(j, "proof_kind"));
  if (!kind || (strcmp(kind, "snap-deals") && strcmp(kind, "snap") && strcmp(kind, "update")))
    return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: proof_kind: expected \"snap-deals\"", path);
  json_t *rp = json_object_get(j, "registered_proof");
  char num[24];
  const char *arg = json_string_value(rp);
  if (json_is_integer(rp)) {
    snprintf(num, sizeof num, "%lld", (long long)json_integer_value(rp));
    arg = num;
  }
  if (!(r->registered = cz_bench_registered_snap_arg(arg)))
    return cz_msg_err(why, whylen, CZ_ERR_INVALID_ARG,
                      "%s: registered_proof: not a registered update proof (0-4 or a name)", path);
  cz_err e;
  if ((e = hex32_field(j, "comm_r_old", path, r->comm_r_old, why, whylen)) != CZ_OK) return e;
  if ((e = hex32_field(j, "comm_d_new", path, r->comm_d_new, why, whylen)) != CZ_OK) return e;
  if ((e = hex32_field(j, "comm_r_new", path, r->comm_r_new, why, whylen)) != CZ_OK) return e;
  const char *name = json_string_value(json_object_get(j, "vanilla"));
  if (!name || !*name) return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: vanilla: missing", path);
  return cz_bench_request_vanilla_load(path, name, &r->vanilla, &r->n_vanilla, why, whylen);
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
  if (!j) return cz_msg_err(why, whylen, CZ_ERR_PARSE, "%s: line %d: %s", path, err.line, err.text);
  e = read_obj(path, j, out, why, whylen);
  json_decref(j);
  if (e != CZ_OK) cz_bench_snap_request_free(out);
  return e;
}
