/* cuzk-bench: the verifier front end, the daemon client and the in-process
 * benchmarks, one subcommand each. */
#include <stdio.h>
#include <string.h>
#include "commands.h"

static int usage(FILE *out) {
  fprintf(out, "usage: cuzk-bench <command> [options]\n\ncommands:\n");
  for (const cz_bench_command *c = cz_bench_commands; c->name; c++)
    fprintf(out, "  %-12s %s\n", c->name, c->summary);
  return out == stderr ? 2 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage(stderr);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) return usage(stdout);
  for (const cz_bench_command *c = cz_bench_commands; c->name; c++)
    if (!strcmp(argv[1], c->name)) return c->run(argc - 1, argv + 1);
  fprintf(stderr, "cuzk-bench: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
