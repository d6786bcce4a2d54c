/* One-line error messages into a caller's buffer: the convention of every
 * function that takes (char *msg, size_t msg_len). */
#ifndef CUZK_UTIL_MSG_H
#define CUZK_UTIL_MSG_H
#include <stdarg.h>
#include <stddef.h>
#include "cuzk/err.h"

/* Format into msg (nothing when msg is NULL or msg_len 0; truncated to fit). */
void cz_msg(char *msg, size_t msg_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* cz_msg with a va_list, for helpers that take their own format. */
void cz_msgv(char *msg, size_t msg_len, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* cz_msg, then return e: `return cz_msg_err(msg, len, CZ_ERR_IO, "...")`. */
cz_err cz_msg_err(char *msg, size_t msg_len, cz_err e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
