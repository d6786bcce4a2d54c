/* The subcommand table; one line per command. */
#include <stddef.h>
#include "commands.h"

const cz_bench_command cz_bench_commands[] = {
    {"cs", cmd_bench_cs, "constraint-system synthesis rate per LC layout"},
    {"ec", cmd_bench_ec, "ns/op of field, curve and pairing operations"},
    {"prove", cmd_prove, "setup (cached), prove and verify a synthetic circuit; phase times"},
    {"verify", cmd_verify, "verify a Groth16 proof against a verifying key"},
    {"ntt", cmd_bench_ntt, "NTT over Fr: time vs butterflies x Fr mul / threads"},
    {"msm", cmd_bench_msm, "multi-scalar multiplication G1/G2: us/point, sparse ratio, scaling"},
    {"poseidon", cmd_bench_poseidon, "Poseidon native hashes/s and gadget constraints/s per LC layout"},
    {"sha256-synth", cmd_bench_sha256, "SHA-256 gadget synthesis (20-block label): constraints/s per LC layout"},
    {"seal", cmd_bench_seal, "seal a test sector in memory and verify its vanilla proofs; times"},
    {NULL, NULL, NULL},
};
