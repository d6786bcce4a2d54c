/* A small long-option parser for cuzk-bench subcommands.
 *
 * Each subcommand describes its options in a table terminated by a zero
 * entry; cz_opts_parse fills the destinations and reports the first problem
 * as one line on stderr. Options are "--name VALUE", "--name=VALUE" or, for
 * flags, "--name"; an option with an alias also takes "-x VALUE" / "-x";
 * positional arguments are refused. */
#ifndef CUZK_BENCH_ARGS_H
#define CUZK_BENCH_ARGS_H
#include <stdbool.h>
#include <stdio.h>

typedef enum {
  CZ_OPT_FLAG,   /* dest: bool *, set to true */
  CZ_OPT_STRING, /* dest: const char **, points into argv */
  CZ_OPT_UINT,   /* dest: unsigned long *, decimal */
} cz_opt_type;

typedef struct {
  const char *name; /* without the leading "--" */
  cz_opt_type type;
  void *dest;
  const char *value; /* name of the value in usage text ("FILE"), NULL for flags */
  const char *help;  /* one line */
  char alias;        /* optional one-letter form "-x" (0: none) */
} cz_opt;

/* Parse argv[1..argc) (argv[0] is the subcommand's name, used in messages).
 * "-h"/"--help" sets *help and stops. Returns 0 on success, 2 (the usage
 * exit status) after printing "<cmd>: <reason>" to stderr. A repeated
 * option keeps its last value. */
int cz_opts_parse(int argc, char **argv, const cz_opt *opts, bool *help);

/* The exit codes every subcommand uses, ending each --help. */
#define CZ_BENCH_EXIT_STATUS "exit status: 0 ok, 1 invalid or failed, 2 usage or unusable input\n"

/* Whether arg asks for help: "-h" or "--help". */
bool cz_bench_help_arg(const char *arg);

/* Print "usage: cuzk-bench <cmd> <synopsis>", one line per option and
 * CZ_BENCH_EXIT_STATUS. */
void cz_opts_usage(FILE *out, const char *cmd, const char *synopsis, const cz_opt *opts);

/* cz_opts_parse, then on -h/--help cz_opts_usage(stdout, cmd, synopsis,
 * opts). Returns -1 when the command goes on, else the status it exits
 * with now: 0 after the usage, 2 after a bad option. */
int cz_opts_parse_or_help(int argc, char **argv, const cz_opt *opts, const char *cmd,
                          const char *synopsis);

#endif
