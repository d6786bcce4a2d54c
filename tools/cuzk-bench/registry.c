/* The subcommand table; one line per command. */
#include <stddef.h>
#include "commands.h"

const cz_bench_command cz_bench_commands[] = {
    {"cs", cz_bench_cmd_cs, "constraint-system synthesis rate per LC layout"},
    {"ec", cz_bench_cmd_ec, "ns/op of field, curve and pairing operations"},
    {"prove", cmd_prove, "setup (cached), prove and verify a synthetic circuit; phase times"},
    {"verify", cmd_verify, "verify a Groth16 proof against a verifying key"},
    {"verify-post", cmd_verify_post,
     "verify a WinningPoSt / WindowPoSt proof from the randomness and sectors"},
    {"verify-update", cmd_verify_update, "verify a SnapDeals update's proofs from its commitments"},
    {"post-inputs", cmd_post_inputs, "print a PoSt partition's public inputs (hex, one per line)"},
    {"porep-challenges", cmd_porep_challenges,
     "one partition's PoRep challenges (interactive, ni, synthetic)"},
    {"verify-seal", cmd_verify_seal,
     "verify a PoRep C2 proof from the sector's commitments and randomness"},
    {"porep-inputs", cmd_porep_inputs,
     "print a PoRep partition's public inputs (hex, one per line)"},
    {"sdr-parents", cmd_sdr_parents,
     "print a seal proof's porep_id, API version and the SDR parents of nodes"},
    {"setup", cmd_setup,
     "TEST parameters streamed to the file the parameter store looks for (any size)"},
    {"zkey-setup", cmd_zkey_setup,
     "a snarkjs .zkey (and .ptau) for a circom .r1cs from known toxic waste, tests only"},
    {"ntt", cz_bench_cmd_ntt, "NTT over Fr: time vs butterflies x Fr mul / threads"},
    {"msm", cz_bench_cmd_msm, "multi-scalar multiplication G1/G2: us/point, sparse ratio, scaling"},
    {"poseidon", cz_bench_cmd_poseidon,
     "Poseidon native hashes/s and gadget constraints/s per LC layout"},
    {"sha256-synth", cz_bench_cmd_sha256,
     "SHA-256 gadget synthesis (20-block label): constraints/s per LC layout"},
    {"gen-vanilla", cmd_gen_vanilla,
     "seal test sectors; write a C1 (porep), PoSt vanilla proofs (winning-post, window-post) or "
     "update partition proofs (snap-prove)"},
    {"verify-vanilla", cmd_verify_vanilla,
     "verify PoSt vanilla proofs (bincode or vanilla.json) natively"},
    {"synth-only", cmd_synth_only,
     "one partition's synthesis at any size and kind: wall, user, sys, RSS, --scaling, --ab, "
     "--pce"},
    {"pce", cmd_pce,
     "make (--build) or check (--check) the recorded circuit shape in the parameter cache"},
    {"pool", cz_bench_cmd_pool,
     "first touch of big buffers (huge pages, threads) against the pool's reuse"},
    {"param-digest", cz_bench_cmd_param_digest,
     "hash an official parameter file as its digest check does (a sparse 47 GiB one by default), "
     "against b2sum"},
    {"seal", cz_bench_cmd_seal,
     "seal a test sector in memory and verify its vanilla proofs; times"},
#ifdef CUZK_HAVE_GRPC
    {"status", cmd_client_status, "a running daemon's status (-a ADDR)"},
    {"metrics", cmd_client_metrics, "a running daemon's Prometheus metrics"},
    {"preload", cmd_client_preload, "make a circuit's SRS hot in the daemon (-c ID)"},
    {"evict", cmd_client_evict, "drop a circuit's SRS in the daemon (-c ID)"},
    {"single", cmd_client_single, "one proof through the daemon's Prove"},
    {"batch", cmd_client_batch, "N proofs (-c N, -j J at once): per-proof lines, proofs/min"},
#endif
    {"circuit-info", cmd_circuit_info,
     "count a registered circuit (porep, winning-post, window-post, update): constraints, inputs, "
     "aux"},
    {"c1-parse", cmd_c1_parse, "C1 JSON parse time and MB/s on a synthetic C1 of a sector size"},
    {NULL, NULL, NULL},
};
