/* The subcommand table; one line per command. */
#include <stddef.h>
#include "commands.h"

const cz_bench_command cz_bench_commands[] = {
    {"cs", cz_bench_cs, "constraint-system synthesis rate per LC layout"},
    {"msm", cz_bench_msm, "multi-scalar multiplication G1/G2: us/point, sparse ratio, scaling"},
    {NULL, NULL, NULL},
};
