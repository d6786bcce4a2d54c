/* The daemon's TOML config: a small parser for the subset cuzk configs use
 * (Debian ships no C TOML library). Values are parsed into a tagged union
 * and then applied to the one key they name. */
#include <ctype.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/server.h"
#include "util/msg.h"

void cz_daemon_config_default(cz_daemon_config *c) {
  memset(c, 0, sizeof *c);
  snprintf(c->listen, sizeof c->listen, "unix:///run/curio/cuzk.sock");
  c->socket_mode = 0660;
  const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
  snprintf(c->param_cache, sizeof c->param_cache, "%s", env && env[0] ? env : "/data/zk/params");
  c->total_budget = 0;
  c->safety_margin = 5ull << 30;
  c->eviction_min_idle_ms = 5 * 60 * 1000;
  c->gpu_workers_per_device = 2;
  c->gpu_unhealthy_after = 3;
  c->gpu_self_test_interval_ms = 60 * 1000;
  c->max_batch_size = 1;
  c->max_batch_wait_ms = 10000;
  c->pipeline_enabled = true;
  c->synthesis_concurrency = 1;
  c->max_parallel_synthesis = 18;
  snprintf(c->log_level, sizeof c->log_level, "info");
  snprintf(c->log_format, sizeof c->log_format, "text");
  c->pce = true;
  snprintf(c->backend, sizeof c->backend, "auto");
}

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

/* A unit system: each unit's name and multiplier; whether a fraction
 * ("1.5GiB") is allowed and whether names match in any case. */
typedef struct {
  const char *name;
  uint64_t mul;
} unit;
typedef struct {
  const unit *units;
  size_t n_units;
  bool fraction, any_case;
} unit_system;

/* "<digits>[.<digits>] [unit]" (blanks around), times the unit's
 * multiplier; CZ_ERR_PARSE on anything else or overflow, *out set only on
 * success. */
static cz_err parse_scaled(const char *s, const unit_system *sys, uint64_t *out) {
  while (isspace((unsigned char)*s)) s++;
  if (!isdigit((unsigned char)*s)) return CZ_ERR_PARSE;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno) return CZ_ERR_PARSE;
  double frac = 0;
  if (sys->fraction && *end == '.') {
    char *fend;
    frac = strtod(end, &fend);
    end = fend;
  }
  while (isspace((unsigned char)*end)) end++;
  char name[16];
  size_t n = strlen(end);
  while (n && isspace((unsigned char)end[n - 1])) n--;
  if (n >= sizeof name) return CZ_ERR_PARSE;
  for (size_t i = 0; i < n; i++)
    name[i] = sys->any_case ? (char)tolower((unsigned char)end[i]) : end[i];
  name[n] = 0;
  for (size_t i = 0; i < sys->n_units; i++) {
    if (strcmp(name, sys->units[i].name) != 0) continue;
    uint64_t mul = sys->units[i].mul;
    if (v > UINT64_MAX / mul) return CZ_ERR_PARSE;
    *out = v * mul + (uint64_t)(frac * (double)mul);
    return CZ_OK;
  }
  return CZ_ERR_PARSE;
}

cz_err cz_parse_size(const char *s, uint64_t *bytes) {
  static const unit units[] = {
      {"", 1},
      {"b", 1},
      {"byte", 1},
      {"bytes", 1},
      {"kib", 1ull << 10},
      {"mib", 1ull << 20},
      {"gib", 1ull << 30},
      {"tib", 1ull << 40},
      {"kb", 1000ull},
      {"mb", 1000000ull},
      {"gb", 1000000000ull},
      {"tb", 1000000000000ull},
      {"k", 1ull << 10},
      {"m", 1ull << 20},
      {"g", 1ull << 30},
      {"t", 1ull << 40},
  };
  static const unit_system sizes = {units, sizeof units / sizeof *units, true, true};
  return parse_scaled(s, &sizes, bytes);
}

cz_err cz_parse_duration_ms(const char *s, uint64_t *ms) {
  static const unit units[] = {
      {"ms", 1},      {"msec", 1},       {"milliseconds", 1}, {"s", 1000},
      {"sec", 1000},  {"second", 1000},  {"seconds", 1000},   {"", 1000},
      {"m", 60000},   {"min", 60000},    {"minute", 60000},   {"minutes", 60000},
      {"h", 3600000}, {"hour", 3600000}, {"hours", 3600000},
  };
  static const unit_system durations = {units, sizeof units / sizeof *units, false, false};
  return parse_scaled(s, &durations, ms);
}

/* ---- values --------------------------------------------------------------- */

enum { V_STR, V_INT, V_BOOL, V_ARRAY };
#define MAX_ARRAY 64
typedef struct {
  int type;
  char str[1024];
  long long i;
  bool b;
  size_t n; /* array: integers only are kept (gpus.devices) */
  long long items[MAX_ARRAY];
  int item_type;
} value;

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

/* ---- keys ----------------------------------------------------------------- */

static bool want_u32(const value *v, uint32_t *out, const char **why) {
  if (v->type != V_INT || v->i < 0 || v->i > (long long)UINT32_MAX)
    return *why = "expected a non-negative integer", false;
  *out = (uint32_t)v->i;
  return true;
}

static bool want_str(const value *v, char *out, size_t cap, const char **why) {
  if (v->type != V_STR) return *why = "expected a string", false;
  if (strlen(v->str) >= cap) return *why = "string too long", false;
  snprintf(out, cap, "%s", v->str);
  return true;
}

static bool want_size(const value *v, uint64_t *out, bool allow_auto, const char **why) {
  if (v->type == V_INT && v->i >= 0) *out = (uint64_t)v->i;
  else if (v->type != V_STR) return *why = "expected a size such as \"5GiB\"", false;
  else if (allow_auto && strcmp(v->str, "auto") == 0) return *out = 0, true;
  else if (cz_parse_size(v->str, out) != CZ_OK)
    return *why = "expected a size such as \"5GiB\"", false;
  if (allow_auto && *out == 0) return *why = "a budget of 0 bytes (use \"auto\")", false;
  return true;
}

static bool want_duration(const value *v, uint64_t *out, const char **why) {
  if (v->type == V_INT && v->i >= 0) return *out = (uint64_t)v->i * 1000u, true; /* seconds */
  if (v->type != V_STR || cz_parse_duration_ms(v->str, out) != CZ_OK)
    return *why = "expected a duration such as \"5m\" or \"30s\"", false;
  return true;
}

static bool want_bool(const value *v, bool *out, const char **why) {
  if (v->type != V_BOOL) return *why = "expected true or false", false;
  *out = v->b;
  return true;
}

/* A string that must be one of the NULL-ended list; *why is expected. */
static bool want_one_of(const value *v, char *out, size_t cap, const char *const *allowed,
                        const char *expected, const char **why) {
  if (!want_str(v, out, cap, why)) return false;
  for (size_t i = 0; allowed[i]; i++)
    if (!strcmp(out, allowed[i])) return true;
  return *why = expected, false;
}

/* A string, as TOML has no 0660: a bare integer 660 would be decimal. */
static bool want_mode(const value *v, uint32_t *out, const char **why) {
  char *end;
  if (v->type != V_STR || !v->str[0] || strspn(v->str, "01234567") != strlen(v->str) ||
      strlen(v->str) > 4 || strtoul(v->str, &end, 8) > 0777)
    return *why = "expected an octal mode string such as \"0660\"", false;
  *out = (uint32_t)strtoul(v->str, &end, 8);
  return true;
}

static bool want_devices(const value *v, cz_daemon_config *c, const char **why) {
  if (v->type != V_ARRAY || (v->n && v->item_type != V_INT))
    return *why = "expected an array of device ordinals", false;
  if (v->n > CZ_MAX_GPU_DEVICES) return *why = "too many devices", false;
  for (size_t i = 0; i < v->n; i++) {
    if (v->items[i] < 0 || v->items[i] > 1024) return *why = "bad device ordinal", false;
    /* two workers of one device must share its state, not open it twice */
    for (size_t k = 0; k < i; k++)
      if (v->items[k] == v->items[i]) return *why = "a device is listed twice", false;
    c->gpu_devices[i] = (int)v->items[i];
  }
  c->n_gpu_devices = v->n;
  return true;
}

/* The [gpus] keys (apply's rules). */
static bool apply_gpus(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                       const char **why) {
  static const char *const backends[] = {"cpu", "cuda", "auto", NULL};
  *unknown = false;
  if (!strcmp(key, "gpus.devices")) return want_devices(v, c, why);
  if (!strcmp(key, "gpus.gpu_threads")) {
    /* Nothing reads it yet: the Groth16 stage's CPU threads are
     * synthesis.threads. A non-zero value would be a setting that does
     * nothing, so it is refused. */
    if (!want_u32(v, &c->gpu_threads, why)) return false;
    if (c->gpu_threads)
      return *why = "not implemented: only 0 (the proving threads are synthesis.threads)", false;
    return true;
  }
  if (!strcmp(key, "gpus.gpu_workers_per_device"))
    return want_u32(v, &c->gpu_workers_per_device, why);
  if (!strcmp(key, "gpus.backend"))
    return want_one_of(v, c->backend, sizeof c->backend, backends, "expected cpu, cuda or auto",
                       why);
  if (!strcmp(key, "gpus.unhealthy_after")) return want_u32(v, &c->gpu_unhealthy_after, why);
  if (!strcmp(key, "gpus.self_test_interval"))
    return want_duration(v, &c->gpu_self_test_interval_ms, why);
  if (!strcmp(key, "gpus.test_emulated_faults"))
    return want_str(v, c->test_emulated_faults, sizeof c->test_emulated_faults, why);
  if (!strcmp(key, "gpus.test_emulated_devices")) {
    if (!want_u32(v, &c->test_emulated_devices, why)) return false;
    if (c->test_emulated_devices > CZ_MAX_GPU_DEVICES) return *why = "too many devices", false;
    return true;
  }
  *unknown = true;
  return true;
}

/* The [daemon], [srs] and [memory] keys (apply's rules). */
static bool apply_host(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                       const char **why) {
  *unknown = false;
  if (!strcmp(key, "daemon.listen")) return want_str(v, c->listen, sizeof c->listen, why);
  if (!strcmp(key, "daemon.status_listen"))
    return want_str(v, c->status_listen, sizeof c->status_listen, why);
  if (!strcmp(key, "daemon.socket_mode")) return want_mode(v, &c->socket_mode, why);
  if (!strcmp(key, "daemon.socket_group"))
    return want_str(v, c->socket_group, sizeof c->socket_group, why);
  if (!strcmp(key, "srs.param_cache"))
    return want_str(v, c->param_cache, sizeof c->param_cache, why);
  if (!strcmp(key, "srs.test_param_cache"))
    return want_str(v, c->test_param_cache, sizeof c->test_param_cache, why);
  if (!strcmp(key, "srs.allow_test_params")) return want_bool(v, &c->allow_test_params, why);
  if (!strcmp(key, "memory.total_budget")) return want_size(v, &c->total_budget, true, why);
  if (!strcmp(key, "memory.safety_margin")) return want_size(v, &c->safety_margin, false, why);
  if (!strcmp(key, "memory.eviction_min_idle"))
    return want_duration(v, &c->eviction_min_idle_ms, why);
  *unknown = true;
  return true;
}

/* A key of the current [[circom.keys]] table. */
static bool apply_circom_key(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                             const char **why) {
  *unknown = strncmp(key, "circom.keys.", 12) != 0;
  if (*unknown) return true;
  if (!c->n_circom_keys) return *why = "expected [[circom.keys]] tables", false;
  cz_circom_key_config *k = &c->circom_keys[c->n_circom_keys - 1];
  key += 12;
  if (!strcmp(key, "name")) return want_str(v, k->name, sizeof k->name, why);
  if (!strcmp(key, "path")) return want_str(v, k->path, sizeof k->path, why);
  if (!strcmp(key, "check_subgroup")) return want_bool(v, &k->check_subgroup, why);
  *unknown = true;
  return true;
}

/* Apply one key; false with *why on a bad value; *unknown when not ours. */
static bool apply(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                  const char **why) {
  static const char *const levels[] = {"trace", "debug", "info", "warn", "error", NULL};
  static const char *const formats[] = {"text", "json", NULL};
  bool ok = apply_host(c, key, v, unknown, why);
  if (!*unknown) return ok;
  ok = apply_circom_key(c, key, v, unknown, why);
  if (!*unknown) return ok;
  *unknown = false;
  ok = apply_gpus(c, key, v, unknown, why);
  if (!*unknown) return ok;
  *unknown = false;
  if (!strcmp(key, "scheduler.max_batch_size")) return want_u32(v, &c->max_batch_size, why);
  if (!strcmp(key, "scheduler.max_batch_wait_ms")) {
    if (v->type != V_INT || v->i < 0) return *why = "expected milliseconds", false;
    c->max_batch_wait_ms = (uint64_t)v->i;
    return true;
  }
  if (!strcmp(key, "synthesis.threads")) return want_u32(v, &c->synthesis_threads, why);
  if (!strcmp(key, "synthesis.pce")) return want_bool(v, &c->pce, why);
  if (!strcmp(key, "pipeline.enabled")) return want_bool(v, &c->pipeline_enabled, why);
  if (!strcmp(key, "pipeline.synthesis_concurrency"))
    return want_u32(v, &c->synthesis_concurrency, why);
  if (!strcmp(key, "pipeline.max_parallel_synthesis"))
    return want_u32(v, &c->max_parallel_synthesis, why);
  if (!strcmp(key, "pipeline.max_gpu_queue_depth"))
    return want_u32(v, &c->max_gpu_queue_depth, why);
  if (!strcmp(key, "logging.level"))
    return want_one_of(v, c->log_level, sizeof c->log_level, levels,
                       "expected trace, debug, info, warn or error", why);
  if (!strcmp(key, "logging.format"))
    return want_one_of(v, c->log_format, sizeof c->log_format, formats, "expected text or json",
                       why);
  *unknown = true;
  return true;
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
      if (!apply(c, full, &v, &unknown, &why))
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

/* ---- listen addresses ------------------------------------------------------ */

static bool is_loopback(const char *host) {
  unsigned char a[16];
  if (!strcmp(host, "localhost")) return true;
  if (inet_pton(AF_INET, host, a) == 1) return a[0] == 127;
  if (inet_pton(AF_INET6, host, a) != 1) return false;
  static const unsigned char v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (!memcmp(a, v4mapped, 12)) return a[12] == 127;
  for (int i = 0; i < 15; i++)
    if (a[i]) return false;
  return a[15] == 1;
}

cz_err cz_listen_parse(const char *listen, cz_listen_addr *out, char *msg, size_t msg_len) {
  memset(out, 0, sizeof *out);
  const char *a = listen;
  if (!strncmp(a, "http://", 7)) a += 7;
  if (!strncmp(a, "unix://", 7)) {
    if (!a[7] || strlen(a + 7) >= sizeof out->path)
      return cz_msg_err(msg, msg_len, CZ_ERR_PARSE, "listen %.300s: expected unix:///path", listen);
    out->is_unix = true;
    snprintf(out->path, sizeof out->path, "%s", a + 7);
    return CZ_OK;
  }
  const char *colon;
  size_t hlen;
  bool bracketed = a[0] == '[';
  if (bracketed) {
    const char *close = strchr(a, ']');
    if (!close || close[1] != ':')
      return cz_msg_err(msg, msg_len, CZ_ERR_PARSE, "listen %.300s: expected [IPv6]:port", listen);
    hlen = (size_t)(close - a - 1);
    colon = close + 1;
    a++;
  } else {
    colon = strrchr(a, ':');
    if (!colon)
      return cz_msg_err(msg, msg_len, CZ_ERR_PARSE,
                        "listen %.300s: expected unix:///path, host:port or [IPv6]:port", listen);
    hlen = (size_t)(colon - a);
    if (memchr(a, ':', hlen))
      return cz_msg_err(msg, msg_len, CZ_ERR_PARSE,
                        "listen %.300s: an IPv6 address needs brackets, as in [::1]:9820", listen);
  }
  if (hlen == 0 || hlen >= sizeof out->host)
    return cz_msg_err(msg, msg_len, CZ_ERR_PARSE,
                      "listen %.300s: no host (0.0.0.0 or [::] for every interface)", listen);
  memcpy(out->host, a, hlen);
  out->host[hlen] = 0;
  unsigned char v6[16];
  if (bracketed && inet_pton(AF_INET6, out->host, v6) != 1) {
    cz_msg(msg, msg_len, "listen %.300s: %.256s is not an IPv6 address", listen, out->host);
    memset(out, 0, sizeof *out);
    return CZ_ERR_PARSE;
  }
  const char *port = colon + 1;
  size_t plen = strlen(port);
  long v = plen ? strtol(port, NULL, 10) : -1;
  if (plen == 0 || plen > 5 || strspn(port, "0123456789") != plen || v > 65535) {
    cz_msg(msg, msg_len, "listen %.300s: port %.20s is not 1-65535 (or 0 for any free port)",
           listen, port);
    memset(out, 0, sizeof *out);
    return CZ_ERR_PARSE;
  }
  out->port = (int)v;
  out->loopback = is_loopback(out->host);
  return CZ_OK;
}

void cz_daemon_engine_config(const cz_daemon_config *c, cz_engine_config *out) {
  cz_engine_config_default(out);
  size_t devices = c->test_emulated_devices ? c->test_emulated_devices
                   : c->n_gpu_devices       ? c->n_gpu_devices
                                            : 1;
  size_t workers = devices * (c->gpu_workers_per_device ? c->gpu_workers_per_device : 1);
  out->n_workers = (unsigned)(workers > CZ_ENGINE_MAX_WORKERS ? CZ_ENGINE_MAX_WORKERS : workers);
  out->memory_budget = c->total_budget;
  out->safety_margin = c->safety_margin;
  out->eviction_min_idle_ms = c->eviction_min_idle_ms;
  out->max_batch_size = c->max_batch_size;
  out->max_batch_wait_ms = c->max_batch_wait_ms;
  out->param_cache = c->param_cache;
  /* A PoSt never waits for a free worker, and proves ahead of PoRep. */
  out->urgent_workers = 1;
  out->background_nice = 10;
  out->max_parallel_synthesis = c->max_parallel_synthesis;
  out->synthesis_concurrency = c->synthesis_concurrency;
  out->max_queue_depth = c->max_gpu_queue_depth;
  /* Without the pipeline a partition is proved before the next is made. */
  out->serial = !c->pipeline_enabled;
  out->synthesis_threads = c->synthesis_threads;
  out->device_fail_limit = c->gpu_unhealthy_after;
  out->self_test_interval_ms = c->gpu_self_test_interval_ms;
}
