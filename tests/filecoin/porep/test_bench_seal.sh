#!/bin/bash
# cuzk-bench seal seals and verifies a 2 KiB sector and prints well-formed
# "name value unit" lines with its times; an unknown proof is refused.
set -euo pipefail
bench="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../../bench_lines.sh"
out=$("$bench" seal --registered-proof 5 --threads 2 --reps 2)
echo "$out"
bench_lines_well_formed "$out"
grep -q "^seal.sector_bytes 2048 B$" <<<"$out" || { echo "missing sector size"; exit 1; }
grep -q "^seal.threads 2 threads$" <<<"$out" || { echo "missing threads"; exit 1; }
for k in seal.wall seal.cpu verify.wall verify.cpu; do
  [ "$(echo "$out" | grep -c "^$k [0-9.]* s$")" -eq 2 ] || { echo "missing $k"; exit 1; }
done
rc=0
"$bench" seal --registered-proof 20 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { echo "proof 20 gave status $rc, want 2"; exit 1; }
echo ok
