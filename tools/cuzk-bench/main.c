/* cuzk-bench: the verifier front end, the daemon client and the in-process
 * benchmarks, one subcommand each. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "common/progress_out.h"

static int usage(FILE *out) {
  fprintf(out, "usage: cuzk-bench [global options] <command> [options]\n\ncommands:\n");
  for (const cz_bench_command *c = cz_bench_commands; c->name; c++)
    fprintf(out, "  %-12s %s\n", c->name, c->summary);
  fprintf(out,
          "\nglobal options (before or after the command):\n"
          "  -a, --addr ADDR   the daemon (default http://127.0.0.1:9820, or unix://PATH)\n"
          "  --log-level L     the daemon commands' log level\n"
          "  --quiet           no progress on stderr (parameter setup and loading, sealing,\n"
          "                    batch); otherwise one rewritten line on a terminal, a line\n"
          "                    every few seconds elsewhere\n"
          "  --version         the version and git commit\n"
          "`cuzk-bench <command> --help` describes a command.\n"
          "exit status: 0 ok, 1 invalid or failed, 2 usage or unusable input\n");
  return out == stderr ? 2 : 0;
}

/* Global options may stand before the subcommand, as upstream's
 * `cuzk-bench -a ADDR status`: they are moved after its name, where the
 * subcommand parses them. Returns the count moved, -1 for a missing value. */
static int hoist_global_options(int argc, char **argv) {
  int moved = 0;
  while (1 + moved < argc) {
    const char *a = argv[1 + moved];
    bool with_value = !strcmp(a, "-a") || !strcmp(a, "--addr") || !strcmp(a, "--log-level");
    bool joined = !strncmp(a, "--addr=", 7) || !strncmp(a, "--log-level=", 12);
    if (!with_value && !joined) break;
    if (with_value && 2 + moved >= argc) return -1;
    moved += with_value ? 2 : 1;
  }
  if (moved && 1 + moved < argc) { /* rotate: options after the command name */
    char *cmd = argv[1 + moved];
    memmove(argv + 2, argv + 1, (size_t)moved * sizeof *argv);
    argv[1] = cmd;
  }
  return moved;
}

/* --quiet may stand anywhere before a "--": it is taken out of argv here,
 * so that no subcommand's parser needs to know it. Returns the new argc. */
static int take_quiet(int argc, char **argv) {
  int n = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      while (i < argc) argv[n++] = argv[i++];
      break;
    }
    if (!strcmp(argv[i], "--quiet")) cz_bench_set_quiet(true);
    else argv[n++] = argv[i];
  }
  argv[n] = NULL;
  return n;
}

int main(int argc, char **argv) {
  argc = take_quiet(argc, argv);
  if (argc < 2) return usage(stderr);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) return usage(stdout);
  if (!strcmp(argv[1], "--version")) {
    printf("cuzk-bench %s (git %s)\n", CUZK_VERSION, CUZK_GIT_COMMIT);
    return 0;
  }
  int moved = hoist_global_options(argc, argv);
  if (moved < 0 || 1 + moved >= argc) {
    fprintf(stderr, "cuzk-bench: %s\n",
            moved < 0 ? "a global option needs a value" : "no command after the global options");
    return 2;
  }
  for (const cz_bench_command *c = cz_bench_commands; c->name; c++)
    if (!strcmp(argv[1], c->name)) return c->run(argc - 1, argv + 1);
  fprintf(stderr, "cuzk-bench: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
