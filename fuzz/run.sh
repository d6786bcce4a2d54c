#!/usr/bin/env bash
# Runs every libFuzzer target (one per fuzz/fuzz_*.c) from its seed corpus
# fuzz/corpus/<target>/ for SECONDS each, and prints per target the
# executions and the coverage it reached. Fails when a target is missing
# from the build, has no seeds, crashes (or leaks, or times out), or did
# not run at all: a campaign in which no fuzzer ran is a failure, not a pass.
# New inputs go to a scratch directory; the committed seeds are only read.
# Usage: bash fuzz/run.sh BUILD_DIR SECONDS   (from the repo root)
set -uo pipefail
BUILD=${1:?usage: $0 BUILD_DIR SECONDS}
SECONDS_EACH=${2:?usage: $0 BUILD_DIR SECONDS}
ran=0 failed=0 total=0
for src in fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  total=$((total + 1))
  bin="$BUILD/$name" seeds="fuzz/corpus/$name"
  if [ ! -x "$bin" ]; then echo "FAIL $name: $bin was not built"; failed=$((failed + 1)); continue; fi
  if [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
    echo "FAIL $name: no seeds in $seeds (bash fuzz/make_corpus.sh)"; failed=$((failed + 1)); continue
  fi
  work=$(mktemp -d)
  "$bin" "$work" "$seeds" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
    -artifact_prefix="$work/" >"$work.log" 2>&1
  rc=$?
  # libFuzzer's final stats: stat::number_of_executed_units, and the last
  # status line's cov: (edges) and ft: (features).
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$work.log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$work.log" | tail -1 | cut -d' ' -f2)
  if [ $rc -ne 0 ] || [ -z "$execs" ] || [ "$execs" -eq 0 ]; then
    echo "FAIL $name: exit $rc, ${execs:-no} executions"
    tail -n 40 "$work.log"
    mkdir -p "$BUILD/fuzz-artifacts"
    for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
      [ -e "$a" ] && cp "$a" "$BUILD/fuzz-artifacts/$name-$(basename "$a")" &&
        echo "  kept $BUILD/fuzz-artifacts/$name-$(basename "$a")"
    done
    failed=$((failed + 1))
  else
    echo "$name executions $execs cov ${cov:-0} ft ${ft:-0} seconds $SECONDS_EACH"
    ran=$((ran + 1))
  fi
  rm -rf "$work" "$work.log"
done
echo "fuzz: $ran of $total targets ran clean, $failed failed"
[ $failed -eq 0 ] && [ $ran -gt 0 ] && [ $ran -eq $total ]
