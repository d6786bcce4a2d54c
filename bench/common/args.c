#include "common/args.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const cz_opt *find_opt(const cz_opt *opts, const char *name, size_t len) {
  for (const cz_opt *o = opts; o->name; o++)
    if (strlen(o->name) == len && !strncmp(o->name, name, len)) return o;
  return NULL;
}

static const cz_opt *find_alias(const cz_opt *opts, char c) {
  for (const cz_opt *o = opts; o->name; o++)
    if (o->alias == c) return o;
  return NULL;
}

static int set_value(const char *cmd, const cz_opt *o, const char *v) {
  if (o->type == CZ_OPT_STRING) {
    *(const char **)o->dest = v;
    return 0;
  }
  /* CZ_OPT_UINT: plain decimal only; strtoul alone would take "-1" or " 7". */
  char *end;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  if (!*v || *v < '0' || *v > '9' || *end || errno) {
    fprintf(stderr, "%s: --%s needs a non-negative decimal number, got '%s'\n", cmd, o->name, v);
    return 2;
  }
  *(unsigned long *)o->dest = n;
  return 0;
}

int cz_opts_parse(int argc, char **argv, const cz_opt *opts, bool *help) {
  const char *cmd = argc > 0 ? argv[0] : "cuzk-bench";
  *help = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      *help = true;
      return 0;
    }
    const cz_opt *o = NULL;
    const char *eq = NULL;
    if (a[0] == '-' && a[1] && a[1] != '-' && !a[2]) {
      o = find_alias(opts, a[1]);
    } else if (!strncmp(a, "--", 2) && a[2]) {
      const char *name = a + 2;
      eq = strchr(name, '=');
      o = find_opt(opts, name, eq ? (size_t)(eq - name) : strlen(name));
    } else {
      fprintf(stderr, "%s: unexpected argument '%s'\n", cmd, a);
      return 2;
    }
    if (!o) {
      fprintf(stderr, "%s: unknown option '%s'\n", cmd, a);
      return 2;
    }
    if (o->type == CZ_OPT_FLAG) {
      if (eq) {
        fprintf(stderr, "%s: --%s takes no value\n", cmd, o->name);
        return 2;
      }
      *(bool *)o->dest = true;
      continue;
    }
    const char *v = eq ? eq + 1 : NULL;
    if (!v) {
      if (i + 1 >= argc) {
        fprintf(stderr, "%s: --%s needs a value\n", cmd, o->name);
        return 2;
      }
      v = argv[++i];
    }
    int rc = set_value(cmd, o, v);
    if (rc) return rc;
  }
  return 0;
}

void cz_opts_usage(FILE *out, const char *cmd, const char *synopsis, const cz_opt *opts) {
  fprintf(out, "usage: cuzk-bench %s %s\n\noptions:\n", cmd, synopsis);
  for (const cz_opt *o = opts; o->name; o++) {
    char left[64], alias[8] = "";
    if (o->alias) snprintf(alias, sizeof alias, "-%c, ", o->alias);
    snprintf(left, sizeof left, "%s--%s%s%s", alias, o->name, o->value ? " " : "",
             o->value ? o->value : "");
    fprintf(out, "  %-26s %s\n", left, o->help);
  }
  fputs(CZ_BENCH_EXIT_STATUS, out);
}

int cz_opts_parse_or_help(int argc, char **argv, const cz_opt *opts, const char *cmd,
                          const char *synopsis) {
  bool help = false;
  int rc = cz_opts_parse(argc, argv, opts, &help);
  if (rc) return rc;
  if (!help) return -1;
  cz_opts_usage(stdout, cmd, synopsis, opts);
  return 0;
}

bool cz_bench_help_arg(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }
