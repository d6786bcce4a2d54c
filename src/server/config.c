/* The daemon's TOML config: a small parser for the subset cuzk configs use
 * (Debian ships no C TOML library). Values are parsed into a tagged union
 * and then applied to the one key they name (config_keys.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/server.h"
#include "server/config_internal.h"
#include "util/msg.h"

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

/* ---- values --------------------------------------------------------------- */

/* Parse one scalar at p; sets *next. False on a syntax error. */
static bool parse_scalar(const char **pp, const char *end, value *v, const char **why) {
  const char *p = *pp;
  if (p < end && (*p == '"' || *p == '\'')) {
    char q = *p++;
    size_t n = 0;
    while (p < end && *p != q && *p != '\n') {
      char c = *p++;
      if (q == '"' && c == '\\' && p < end) {
        char e = *p++;
        c = e == 'n' ? '\n' : e == 't' ? '\t' : e == '\\' ? '\\' : e == '"' ? '"' : 0;
        if (!c) return *why = "unsupported escape in a string", false;
      }
      if (n + 1 >= sizeof v->str) return *why = "string too long", false;
      v->str[n++] = c;
    }
    if (p >= end || *p != q) return *why = "unterminated string", false;
    v->str[n] = 0;
    v->type = V_STR;
    *pp = p + 1;
    return true;
  }
  if (end - p >= 4 && strncmp(p, "true", 4) == 0) {
    v->type = V_BOOL, v->b = true, *pp = p + 4;
    return true;
  }
  if (end - p >= 5 && strncmp(p, "false", 5) == 0) {
    v->type = V_BOOL, v->b = false, *pp = p + 5;
    return true;
  }
  char num[32];
  size_t n = 0;
  if (p < end && (*p == '-' || *p == '+')) num[n++] = *p++;
  if (p >= end || !isdigit((unsigned char)*p))
    return *why = "expected a string, number, boolean or array", false;
  while (p < end && (isdigit((unsigned char)*p) || *p == '_')) {
    if (*p != '_') {
      if (n + 1 >= sizeof num) return *why = "number too long", false;
      num[n++] = *p;
    }
    p++;
  }
  num[n] = 0;
  errno = 0;
  v->i = strtoll(num, NULL, 10);
  if (errno) return *why = "number out of range", false;
  v->type = V_INT;
  *pp = p;
  return true;
}

static bool parse_value(const char **pp, const char *end, value *v, const char **why) {
  const char *p = *pp;
  if (p < end && *p == '[') {
    p++;
    v->type = V_ARRAY;
    v->n = 0;
    v->item_type = -1;
    for (;;) {
      while (p < end && isspace((unsigned char)*p)) p++;
      if (p < end && *p == ']') break;
      value item;
      if (!parse_scalar(&p, end, &item, why)) return false;
      if (v->n >= MAX_ARRAY) return *why = "array too long", false;
      v->item_type = item.type;
      v->items[v->n++] = item.type == V_INT ? item.i : 0;
      while (p < end && isspace((unsigned char)*p)) p++;
      if (p < end && *p == ',') p++;
      else if (p < end && *p == ']') break;
      else return *why = "expected , or ] in an array", false;
    }
    *pp = p + 1;
    return true;
  }
  return parse_scalar(pp, end, v, why);
}

static bool bare_key_char(char ch) { return isalnum((unsigned char)ch) || ch == '_' || ch == '-'; }

/* A dotted bare key ("a.b_c"), into out. */
static bool parse_key(const char **pp, const char *end, char *out, size_t cap) {
  const char *p = *pp;
  size_t n = 0;
  for (;;) {
    p = skip_ws(p, end);
    const char *s = p;
    while (p < end && bare_key_char(*p)) p++;
    if (p == s || n + (size_t)(p - s) + 2 >= cap) return false;
    memcpy(out + n, s, (size_t)(p - s));
    n += (size_t)(p - s);
    p = skip_ws(p, end);
    if (p < end && *p == '.') {
      out[n++] = '.';
      p++;
      continue;
    }
    break;
  }
  out[n] = 0;
  *pp = p;
  return true;
}

cz_err cz_daemon_config_parse(cz_daemon_config *c, const char *text, size_t len, char *msg,
                              size_t msg_len) {
  char table[256] = "";
  const char *p = text, *end = text + len;
  int line = 0;
  while (p < end) {
    line++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    const char *why = NULL;
    const char *q = skip_ws(p, eol);
    if (q < eol && *q == '\r') q++;
    if (q == eol || *q == '#') goto next;
    if (*q == '[') {
      q++;
      bool array_table = q < eol && *q == '[';
      if (array_table) q++;
      if (!parse_key(&q, eol, table, sizeof table)) {
        why = "malformed table header";
        goto bad;
      }
      if (q >= eol || *q != ']' || (array_table && (q + 1 >= eol || q[1] != ']'))) {
        why = "expected ] after a table name";
        goto bad;
      }
      q += array_table ? 2 : 1;
      if (array_table && !strcmp(table, "circom.keys")) {
        if (c->n_circom_keys == CZ_MAX_CIRCOM_KEYS) {
          why = "too many [[circom.keys]] tables";
          goto bad;
        }
        memset(&c->circom_keys[c->n_circom_keys++], 0, sizeof c->circom_keys[0]);
      }
    } else {
      char key[256], full[512];
      if (!parse_key(&q, eol, key, sizeof key)) {
        why = "expected key = value";
        goto bad;
      }
      if (q >= eol || *q != '=') {
        why = "expected = after the key";
        goto bad;
      }
      q = skip_ws(q + 1, eol);
      value v;
      const char *vend = q;
      /* Arrays may span lines. */
      if (!parse_value(&vend, end, &v, &why)) goto bad;
      for (const char *r = q; r < vend; r++)
        if (*r == '\n') line++;
      eol = memchr(vend, '\n', (size_t)(end - vend));
      if (!eol) eol = end;
      q = vend;
      snprintf(full, sizeof full, "%s%s%s", table, table[0] ? "." : "", key);
      bool unknown;
      if (!cz_config_apply(c, full, &v, &unknown, &why))
        return cz_msg_err(msg, msg_len, CZ_ERR_PARSE, "line %d: %s: %s", line, full, why);
      if (unknown && !c->warning[0])
        snprintf(c->warning, sizeof c->warning, "unknown key %.200s (line %d)", full, line);
    }
    q = skip_ws(q, eol);
    if (q < eol && *q == '\r') q++;
    if (q < eol && *q != '#') {
      why = "unexpected text after the value";
      goto bad;
    }
  next:
    p = eol < end ? eol + 1 : end;
    continue;
  bad:
    return cz_msg_err(msg, msg_len, CZ_ERR_PARSE, "line %d: %s", line, why);
  }
  return CZ_OK;
}

cz_err cz_daemon_config_load(cz_daemon_config *c, const char *path, char *msg, size_t msg_len) {
  FILE *f = fopen(path, "rb");
  if (!f) return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t r;
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      char *nb = cap < (1u << 24) ? realloc(buf, cap *= 2) : NULL;
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (!buf) return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: too large or out of memory", path);
  cz_err err = cz_daemon_config_parse(c, buf, n, msg, msg_len);
  free(buf);
  return err;
}
