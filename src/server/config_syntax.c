/* The written forms of daemon settings that are more than a number or a
 * string: sizes ("5GiB"), durations ("5m") and listen addresses
 * ("unix:///path", "host:port", "[IPv6]:port"). They stand apart from the
 * TOML config (config.c, config_keys.c), as the gRPC server and the daemon
 * parse listen addresses too. */
#include <ctype.h>
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/server.h"
#include "util/msg.h"

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
