#!/bin/bash
# cuzk-bench cs runs every layout on a small circuit and prints well-formed
# "name value unit" lines, with a ratio against vec for each other layout.
set -euo pipefail
bench="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../bench_lines.sh"
out=$("$bench" cs --constraints 2000 --reps 1 2>&1) || { echo "$out"; echo "cuzk-bench cs failed"; exit 1; }
echo "$out"
bench_lines_well_formed "$out"
for c in chain wide; do
  bench_lines_layouts "$out" "cs.prove.$c" inline1 inline2 inline4 arena reuse
done
# Capture before grepping: grep -q exits at the first match, and under
# pipefail the writer's SIGPIPE would fail the test at random.
w=$("$bench" cs --backend witness --lc arena --constraints 500 --reps 1)
grep -q '^cs.witness.wide.arena_vs_vec ' <<<"$w"
r=$("$bench" cs --backend record --lc inline:2 --constraints 500 --reps 1)
grep -q '^cs.record.chain.inline2 ' <<<"$r"
if "$bench" cs --lc inline:3 >/dev/null 2>&1; then echo "inline:3 accepted"; exit 1; fi
echo ok
