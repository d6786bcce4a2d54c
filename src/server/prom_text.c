/* The Prometheus text exposition format 0.0.4, written (cuzk/server.h).
 * Reference: prometheus/docs content/docs/instrumenting/exposition_formats.md:
 * label values escape \, " and newline; HELP text escapes \ and newline;
 * a histogram is <name>_bucket{le} (cumulative, ending with +Inf), <name>_sum
 * and <name>_count. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/server.h"

void cz_prom_init(cz_prom *p) {
  p->cap = 4096;
  p->len = 0;
  p->buf = malloc(p->cap);
  p->oom = p->buf == NULL;
  if (p->buf) p->buf[0] = 0;
}

static void put(cz_prom *p, const char *s, size_t n) {
  if (p->oom) return;
  if (p->len + n + 1 > p->cap) {
    size_t cap = p->cap * 2 + n + 1;
    char *nb = realloc(p->buf, cap);
    if (!nb) {
      p->oom = true;
      return;
    }
    p->buf = nb;
    p->cap = cap;
  }
  memcpy(p->buf + p->len, s, n);
  p->len += n;
  p->buf[p->len] = 0;
}

static void puts_(cz_prom *p, const char *s) { put(p, s, strlen(s)); }

/* label: also '"'; help: only '\' and newline. */
static void escaped(cz_prom *p, const char *s, bool label) {
  for (; *s; s++) {
    if (*s == '\\') puts_(p, "\\\\");
    else if (*s == '\n') puts_(p, "\\n");
    else if (*s == '"' && label) puts_(p, "\\\"");
    else put(p, s, 1);
  }
}

/* The shortest %g that reads back as v ("0.1", not 0.10000000000000001,
 * as Prometheus's own clients write bounds). */
static void shortest(char *b, size_t cap, double v) {
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(b, cap, "%.*g", prec, v);
    if (strtod(b, NULL) == v) return;
  }
}

/* Integers exactly (counters print as digits while they fit a double's 53
 * bits), others shortest; NaN and infinities as the format spells them. */
static void format(char *b, size_t cap, double v) {
  if (isnan(v)) snprintf(b, cap, "NaN");
  else if (isinf(v)) snprintf(b, cap, v > 0 ? "+Inf" : "-Inf");
  else if (v == floor(v) && fabs(v) < 9007199254740992.0) snprintf(b, cap, "%.0f", v);
  else shortest(b, cap, v);
}

static void number(cz_prom *p, double v) {
  char b[40];
  format(b, sizeof b, v);
  puts_(p, b);
}

void cz_prom_family(cz_prom *p, const char *name, const char *type, const char *help) {
  puts_(p, "# HELP ");
  puts_(p, name);
  puts_(p, " ");
  escaped(p, help, false);
  puts_(p, "\n# TYPE ");
  puts_(p, name);
  puts_(p, " ");
  puts_(p, type);
  puts_(p, "\n");
}

static void labels_(cz_prom *p, const char *const *labels, const char *le) {
  bool any = false;
  for (size_t i = 0; labels && labels[i] && labels[i + 1]; i += 2) {
    puts_(p, any ? "," : "{");
    puts_(p, labels[i]);
    puts_(p, "=\"");
    escaped(p, labels[i + 1], true);
    puts_(p, "\"");
    any = true;
  }
  if (le) {
    puts_(p, any ? ",le=\"" : "{le=\"");
    puts_(p, le);
    puts_(p, "\"");
    any = true;
  }
  if (any) puts_(p, "}");
}

static void sample(cz_prom *p, const char *name, const char *suffix, const char *const *labels,
                   const char *le, double v) {
  puts_(p, name);
  puts_(p, suffix);
  labels_(p, labels, le);
  puts_(p, " ");
  number(p, v);
  puts_(p, "\n");
}

void cz_prom_sample(cz_prom *p, const char *name, const char *const *labels, double v) {
  sample(p, name, "", labels, NULL, v);
}

void cz_prom_histogram(cz_prom *p, const char *name, const char *const *labels,
                       const cz_histogram_snap *h) {
  char le[40];
  for (size_t i = 0; i < h->n; i++) {
    format(le, sizeof le, h->le[i]);
    sample(p, name, "_bucket", labels, le, (double)h->cum[i]);
  }
  sample(p, name, "_bucket", labels, "+Inf", (double)h->count);
  sample(p, name, "_sum", labels, NULL, h->sum);
  sample(p, name, "_count", labels, NULL, (double)h->count);
}

char *cz_prom_finish(cz_prom *p) {
  if (p->oom) {
    free(p->buf);
    p->buf = NULL;
    return NULL;
  }
  char *out = p->buf;
  p->buf = NULL;
  return out;
}
