#!/bin/bash
# cuzk-bench msm prints well-formed "name value unit" lines for both groups,
# with the sparse/dense ratio and the thread speedup measured in the same run.
set -euo pipefail
# Checks read the output from here-strings, not `echo | grep -q`: grep -q
# exits at its first match, and with pipefail the echo's SIGPIPE then failed
# the check at random.
bench="$1"
for g in g1 g2; do
  out=$("$bench" msm --group $g --log-n 9 --reps 1 --threads 2 --density sparse01 --scaling)
  echo "$out"
  bad=$(echo "$out" | awk 'NF != 3 || $2 !~ /^[0-9.]+$/' | wc -l)
  [ "$bad" -eq 0 ] || { echo "malformed lines"; exit 1; }
  for l in dense sparse01 dense_t1; do
    grep -q "^msm.$g.2^9.t2.$l.per_point .* us/point$" <<<"$out" || { echo "missing $l"; exit 1; }
    grep -q "^msm.$g.2^9.t2.$l.total .* ms$" <<<"$out" || { echo "missing $l total"; exit 1; }
  done
  grep -q "^msm.$g.2^9.t2.sparse01_vs_dense .* ratio$" <<<"$out" || { echo "missing ratio"; exit 1; }
  grep -q "^msm.$g.2^9.t2.speedup_vs_t1 .* ratio$" <<<"$out" || { echo "missing speedup"; exit 1; }
  grep -q "^msm.$g.2^9.t2.speedup_cpu_bound .* ratio$" <<<"$out" || { echo "missing cpu bound"; exit 1; }
  # One thread pinned to each of the 2 CPUs, and what they allow together.
  if [ "$(nproc)" -ge 2 ]; then
    [ "$(grep -c "^msm.$g.2^9.t2.dense_t1_cpu[0-9]*.total .* ms$" <<<"$out")" -eq 2 ] ||
      { echo "missing pinned runs"; exit 1; }
    grep -q "^msm.$g.2^9.t2.speedup_ideal .* ratio$" <<<"$out" || { echo "missing ideal"; exit 1; }
    grep -q "^msm.$g.2^9.t2.parallel_efficiency .* ratio$" <<<"$out" || { echo "missing efficiency"; exit 1; }
  fi
done
out=$("$bench" msm --group g1 --log-n 8 --reps 1 --acc xyzz --window 6)
grep -q '^msm.g1.2^8.t1.dense.window 6 bits$' <<<"$out"
out=$("$bench" msm --group g1 --log-n 8 --reps 1 --acc affine --window 10)
grep -q '^msm.g1.2^8.t1.dense.batch_affine 1 bool$' <<<"$out"
# The IFMA / scalar-field comparison in one run (both ratios; on a CPU
# without IFMA both sides are the scalar code).
out=$("$bench" msm --group g1 --log-n 9 --reps 1 --vs-scalar)
grep -q '^msm.g1.2^9.t1.ifma_vs_scalar [0-9.]* ratio$' <<<"$out" || { echo "missing ifma_vs_scalar"; exit 1; }
grep -q '^msm.g1.2^9.t1.ifma_vs_scalar_cpu [0-9.]* ratio$' <<<"$out" || { echo "missing cpu ratio"; exit 1; }
grep -q '^msm.g1.2^9.t1.dense_scalar.ifma 0 bool$' <<<"$out" || { echo "scalar side used ifma"; exit 1; }
if "$bench" msm --group g3 >/dev/null 2>&1; then echo "g3 accepted"; exit 1; fi
if "$bench" msm --window 17 >/dev/null 2>&1; then echo "window 17 accepted"; exit 1; fi
echo ok
