/* The subcommand table; one line per command. */
#include <stddef.h>
#include "commands.h"

const cz_bench_command cz_bench_commands[] = {
    {"cs", cz_bench_cs, "constraint-system synthesis rate per LC layout"},
    {NULL, NULL, NULL},
};
