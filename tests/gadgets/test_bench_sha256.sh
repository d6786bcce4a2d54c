#!/bin/bash
# cuzk-bench sha256-synth runs every layout on a short message and prints
# well-formed "name value unit" lines, with a ratio against vec for each
# other layout; the constraint count is that of the gadget.
set -euo pipefail
bench="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../bench_lines.sh"
out=$("$bench" sha256-synth --bytes 64 --reps 1)
echo "$out"
bench_lines_well_formed "$out"
bench_lines_layouts "$out" sha256.prove inline1 inline2 inline4 arena
# 512 input bits + bellpepper's 44874 (sha256.rs test_full_hash) + the
# PROVE backend's one input constraint (ONE).
grep -q '^sha256.prove.constraints 45387 constraints$' <<<"$out" || { echo "wrong count"; exit 1; }
grep -q '^sha256.prove.blocks 2 blocks$' <<<"$out" || { echo "wrong blocks"; exit 1; }
# Outputs are captured before grep -q: an early grep exit must not
# SIGPIPE the bench under pipefail.
w=$("$bench" sha256-synth --backend witness --lc arena --bytes 10 --reps 1)
grep -q '^sha256.witness.arena_vs_vec ' <<<"$w"
r=$("$bench" sha256-synth --backend record --lc inline:2 --bytes 10 --reps 1)
grep -q '^sha256.record.inline2 ' <<<"$r"
if "$bench" sha256-synth --lc inline:3 >/dev/null 2>&1; then echo "inline:3 accepted"; exit 1; fi
echo ok
