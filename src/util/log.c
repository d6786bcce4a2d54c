/* The logger (cuzk/log.h): format the whole line into a buffer, then one
 * fprintf, so that concurrent lines never mix. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cuzk/log.h"

static _Atomic int log_level = CZ_LOG_INFO;
static _Atomic int log_format = CZ_LOG_PLAIN;

static const char *const upper[] = {"ERROR", "WARN", "INFO", "DEBUG"};
static const char *const lower[] = {"error", "warn", "info", "debug"};

void cz_log_setup(cz_log_level level, cz_log_format fmt) {
  atomic_store(&log_level, (int)level);
  atomic_store(&log_format, (int)fmt);
}

cz_log_level cz_log_get_level(void) { return (cz_log_level)atomic_load(&log_level); }

bool cz_log_enabled(cz_log_level level) { return (int)level <= atomic_load(&log_level); }

bool cz_log_parse_level(const char *name, cz_log_level *out) {
  for (int i = 0; i < 4; i++)
    if (!strcmp(name, lower[i])) {
      *out = (cz_log_level)i;
      return true;
    }
  if (!strcmp(name, "trace")) {
    *out = CZ_LOG_DEBUG;
    return true;
  }
  return false;
}

bool cz_log_parse_format(const char *name, cz_log_format *out) {
  if (!strcmp(name, "text")) *out = CZ_LOG_TEXT;
  else if (!strcmp(name, "json")) *out = CZ_LOG_JSON;
  else return false;
  return true;
}

char *cz_log_timestamp(char out[25]) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  size_t n = strftime(out, 20, "%Y-%m-%dT%H:%M:%S", &tm);
  unsigned ms = (unsigned)(ts.tv_nsec / 1000000) % 1000u;
  out[n] = '.';
  out[n + 1] = (char)('0' + ms / 100);
  out[n + 2] = (char)('0' + ms / 10 % 10);
  out[n + 3] = (char)('0' + ms % 10);
  out[n + 4] = 'Z';
  out[n + 5] = 0;
  return out;
}

/* s as the inside of a JSON string (RFC 8259: ", \ and controls escaped). */
static size_t json_escape(char *out, size_t cap, const char *s) {
  size_t n = 0;
  for (; *s && n + 7 < cap; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') {
      out[n++] = '\\';
      out[n++] = (char)ch;
    } else if (ch < 0x20) {
      n += (size_t)snprintf(out + n, cap - n, "\\u%04x", ch);
    } else {
      out[n++] = (char)ch;
    }
  }
  out[n] = 0;
  return n;
}

void cz_logv(cz_log_level level, const char *component, const char *fmt, va_list ap) {
  if (!cz_log_enabled(level)) return;
  if ((unsigned)level > CZ_LOG_DEBUG) level = CZ_LOG_DEBUG;
  char msg[4096];
  vsnprintf(msg, sizeof msg, fmt, ap);
  size_t len = strlen(msg);
  while (len && (msg[len - 1] == '\n' || msg[len - 1] == '\r')) msg[--len] = 0;
  int f = atomic_load(&log_format);
  if (f == CZ_LOG_PLAIN) {
    fprintf(stderr, "%s\n", msg);
    return;
  }
  char ts[25];
  cz_log_timestamp(ts);
  if (f == CZ_LOG_JSON) {
    char m[2 * sizeof msg], c[64]; /* escaping may grow the text; cut past m */
    json_escape(m, sizeof m, msg);
    json_escape(c, sizeof c, component);
    fprintf(stderr, "{\"ts\":\"%s\",\"level\":\"%s\",\"component\":\"%s\",\"msg\":\"%s\"}\n", ts,
            lower[level], c, m);
    return;
  }
  /* Text: a newline inside the message would start a line without a
   * timestamp; it becomes a space. */
  for (char *p = msg; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
  fprintf(stderr, "%s %s %s: %s\n", ts, upper[level], component, msg);
}

void cz_log(cz_log_level level, const char *component, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cz_logv(level, component, fmt, ap);
  va_end(ap);
}
