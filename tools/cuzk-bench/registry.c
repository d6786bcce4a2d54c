/* The subcommand table; one line per command. */
#include <stddef.h>
#include "commands.h"

const cz_bench_command cz_bench_commands[] = {
    {"verify", cmd_verify, "verify a Groth16 proof against a verifying key"},
    {NULL, NULL, NULL},
};
