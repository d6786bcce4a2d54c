#!/bin/bash
# cuzk-bench poseidon prints well-formed "name value unit" lines: native
# rates, a gadget rate and a ratio against vec for every LC layout, and the
# gadget's per-hash constraint count (505 for arity 8, neptune's test).
set -euo pipefail
bench="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../bench_lines.sh"
out=$("$bench" poseidon --hashes 50 --circuits 3 --reps 1)
echo "$out"
bench_lines_well_formed "$out"
for k in opt plain; do
  grep -q "^poseidon.native.a8.$k .* hashes/s$" <<<"$out" || { echo "missing native $k"; exit 1; }
done
bench_lines_layouts "$out" poseidon.gadget.prove.a8 inline1 inline2 inline4 arena
grep -q "^poseidon.gadget.a8.constraints_per_hash 505 constraints$" <<<"$out"
# The output is captured before grep reads it: a pipe into grep -q under
# pipefail fails whenever grep exits at its match while the bench is still
# writing (SIGPIPE), and the bench's own exit status is checked this way too.
out=$("$bench" poseidon --arity 2 --backend witness --lc arena --hashes 10 --circuits 2 --reps 1)
grep -q "^poseidon.gadget.a2.constraints_per_hash 311 constraints$" <<<"$out"
out=$("$bench" poseidon --arity 11 --backend record --lc inline:2 --hashes 10 --circuits 2 --reps 1)
grep -q "^poseidon.gadget.a11.constraints_per_hash 598 constraints$" <<<"$out"
if "$bench" poseidon --arity 3 >/dev/null 2>&1; then echo "arity 3 accepted"; exit 1; fi
if "$bench" poseidon --lc inline:3 >/dev/null 2>&1; then echo "inline:3 accepted"; exit 1; fi
echo ok
