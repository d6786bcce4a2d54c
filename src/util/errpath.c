#include "util/errpath.h"
#include <string.h>
#include "util/msg.h"

bool cz_errpath_failv(cz_errpath *ep, cz_err e, const char *fmt, va_list ap) {
  if (ep->err != CZ_OK) return false;
  ep->err = e;
  char *m = ep->msg;
  size_t cap = ep->msg_len;
  if (!m || cap == 0) return false;
  /* Each piece is cut to what is left; n stops at cap - 1. */
  size_t n = 0;
#define APPEND(...) (cz_msg(m + n, cap - n, __VA_ARGS__), n += strlen(m + n))
  APPEND("%s", ep->prefix ? ep->prefix : "");
  int depth = ep->depth < CZ_ERRPATH_MAX_DEPTH ? ep->depth : CZ_ERRPATH_MAX_DEPTH;
  for (int i = 0; i < depth; i++) {
    if (ep->stack[i].key) APPEND("%s%s", i ? "." : "", ep->stack[i].key);
    else APPEND("[%llu]", (unsigned long long)ep->stack[i].idx);
  }
  if (depth) APPEND(": ");
#undef APPEND
  cz_msgv(m + n, cap - n, fmt, ap);
  for (char *c = m; *c; c++)
    if ((unsigned char)*c < 0x20) *c = '?';
  return false;
}

bool cz_errpath_fail(cz_errpath *ep, cz_err e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cz_errpath_failv(ep, e, fmt, ap);
  va_end(ap);
  return false;
}
