#!/bin/bash
# cuzk-bench ntt prints machine-readable "name value unit" lines: the paths
# by name, every time and ratio as a positive number, the ratios of the
# forward and inverse transforms and of H against the bound.
set -euo pipefail
bench="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../bench_lines.sh"
out=$("$bench" ntt --log-n 14 --threads 2 --reps 1 --h 2>&1) || { echo "$out"; echo "cuzk-bench ntt failed"; exit 1; }
echo "$out"
bench_lines_well_formed "$(grep -v ' name$' <<<"$out")"
for k in forward inverse h_poly; do
  for r in ratio cpu_ratio; do
    grep -q "^ntt_${k}_$r [0-9.]* x$" <<<"$out" || { echo "missing ntt_${k}_$r"; exit 1; }
  done
done
p=$("$bench" ntt --log-n 10 --reps 1 --portable)
grep -q '^ntt_fr_path portable name$' <<<"$p" || { echo "--portable not taken"; exit 1; }
grep -q '^ntt_vec_path none name$' <<<"$p" || { echo "--portable left IFMA on"; exit 1; }
if "$bench" ntt --log-n 29 >/dev/null 2>&1; then echo "--log-n 29 accepted"; exit 1; fi
echo ok
