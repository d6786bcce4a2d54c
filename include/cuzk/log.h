/* Layer: util */
/* The one logger of cuzk-daemon (src/util/log.c).
 *
 * A line is written with a single fprintf to stderr, so that lines of
 * several threads never interleave (stdio locks the stream per call).
 * Formats:
 *   CZ_LOG_PLAIN (the default until cz_log_setup): the message alone, as
 *     the tools (cuzk-bench) always printed it;
 *   CZ_LOG_TEXT: `2026-12-01T10:57:03.123Z INFO daemon: listening on ...`
 *     (RFC 3339 UTC with milliseconds, the level in capitals, the component);
 *   CZ_LOG_JSON: one object a line,
 *     {"ts":"...","level":"info","component":"daemon","msg":"..."}.
 * A line longer than 4 KiB is cut there. Every function may be called
 * from any thread at any time; cz_log_setup may be called again (SIGHUP). */
#ifndef CUZK_LOG_H
#define CUZK_LOG_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum { CZ_LOG_ERROR = 0, CZ_LOG_WARN, CZ_LOG_INFO, CZ_LOG_DEBUG } cz_log_level;
typedef enum { CZ_LOG_PLAIN = 0, CZ_LOG_TEXT, CZ_LOG_JSON } cz_log_format;

/* Lines above level are dropped; fmt chooses the line format. */
void cz_log_setup(cz_log_level level, cz_log_format fmt);
cz_log_level cz_log_get_level(void);
/* Whether a line of this level would be written. */
bool cz_log_enabled(cz_log_level level);

/* "error", "warn", "info", "debug" ("trace" is debug) -> *out; false (and
 * *out unchanged) for anything else. */
bool cz_log_parse_level(const char *name, cz_log_level *out);
/* "text" or "json" -> *out; false for anything else. */
bool cz_log_parse_format(const char *name, cz_log_format *out);

/* One line: component is a short lower-case word ("daemon", "grpc"); the
 * message has no trailing newline (one is dropped if present). */
void cz_log(cz_log_level level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cz_logv(cz_log_level level, const char *component, const char *fmt, va_list ap);

/* The current UTC time as RFC 3339 with milliseconds
 * ("2026-12-01T10:57:03.123Z"); out must hold 25 bytes. Returns out. */
char *cz_log_timestamp(char out[25]);

#endif
