#include "util/msg.h"
#include <stdarg.h>
#include <stdio.h>

void cz_msgv(char *msg, size_t msg_len, const char *fmt, va_list ap) {
  if (msg && msg_len) vsnprintf(msg, msg_len, fmt, ap);
}

void cz_msg(char *msg, size_t msg_len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cz_msgv(msg, msg_len, fmt, ap);
  va_end(ap);
}

cz_err cz_msg_err(char *msg, size_t msg_len, cz_err e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cz_msgv(msg, msg_len, fmt, ap);
  va_end(ap);
  return e;
}
