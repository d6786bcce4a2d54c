/* The subcommand table; one line per command. */
#include <stddef.h>
#include "commands.h"

const cz_bench_command cz_bench_commands[] = {
    {"ntt", cz_bench_ntt, "NTT over Fr: time vs butterflies x Fr mul / threads"},
    {NULL, NULL, NULL},
};
