#!/usr/bin/env bash
# Runs every libFuzzer target (one per fuzz/fuzz_*.c) from its seed corpus
# fuzz/corpus/<target>/ for SECONDS each, and prints per target the
# executions and the coverage it reached. Fails when a target is missing
# from the build, has no seeds, crashes (or leaks, or times out), or did
# not run at all: a campaign in which no fuzzer ran is a failure, not a pass.
# New inputs go to a scratch directory; the committed seeds are only read,
# unless FUZZ_MERGE=1 asks to merge them back.
# Usage: bash fuzz/run.sh BUILD_DIR SECONDS   (from the repo root)
# Optional environment (fuzz/README.md):
#   FUZZ_TARGETS="fuzz_fp_decode fuzz_g1_decode"  only these targets
#   FUZZ_RUNS=10000000  also stop a target after this many executions
#   FUZZ_MERGE=1        minimize seeds + the run's new inputs (libFuzzer
#                       -merge=1) into a fresh directory that then replaces
#                       fuzz/corpus/<target>/
set -uo pipefail
BUILD=${1:?usage: $0 BUILD_DIR SECONDS}
SECONDS_EACH=${2:?usage: $0 BUILD_DIR SECONDS}
RUNS=${FUZZ_RUNS:-} MERGE=${FUZZ_MERGE:-0}
# The fuzz build's UBSan recovers by default: a report would only be printed
# to the log and the run pass. Halting turns it into a failing input.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
targets=${FUZZ_TARGETS:-$(for s in fuzz/fuzz_*.c; do basename "$s" .c; done)}
ran=0 failed=0 total=0
size() { find "$1" -type f -printf '%s\n' | awk '{ n++; b += $1 } END { print n + 0 " files " b + 0 " bytes" }'; }
for name in $targets; do
  total=$((total + 1))
  bin="$BUILD/$name" seeds="fuzz/corpus/$name"
  if [ ! -x "$bin" ]; then echo "FAIL $name: $bin was not built"; failed=$((failed + 1)); continue; fi
  if [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
    echo "FAIL $name: no seeds in $seeds (bash fuzz/make_corpus.sh)"; failed=$((failed + 1)); continue
  fi
  work=$(mktemp -d)
  start=$SECONDS
  "$bin" "$work" "$seeds" -max_total_time="$SECONDS_EACH" ${RUNS:+-runs="$RUNS"} \
    -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$work/" >"$work.log" 2>&1
  rc=$? took=$((SECONDS - start))
  # libFuzzer's final stats (stat::...), and the last status line's cov:
  # (edges), ft: (features) and corp: (inputs/bytes in memory).
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$work.log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$work.log" | tail -1 | cut -d' ' -f2)
  corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$work.log" | tail -1 | cut -d' ' -f2)
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
    stop="time"
    [ -n "$RUNS" ] && [ "$execs" -ge "$RUNS" ] && stop="runs"
    echo "$name executions $execs cov ${cov:-0} ft ${ft:-0} corpus ${corp:-0} seconds $took" \
      "exec/s ${rate:-0} stopped-by $stop"
    ran=$((ran + 1))
    if [ "$MERGE" = 1 ]; then
      fresh="fuzz/corpus/.$name.new" old="fuzz/corpus/.$name.old"
      rm -rf "$fresh" "$old" && mkdir "$fresh"
      if "$bin" -merge=1 "$fresh" "$seeds" "$work" -detect_leaks=1 >"$work.merge.log" 2>&1 &&
        [ -n "$(ls -A "$fresh")" ]; then
        before=$(size "$seeds")
        mv "$seeds" "$old" && mv "$fresh" "$seeds" && rm -rf "$old"
        echo "  merged $seeds: $before -> $(size "$seeds")"
      else
        echo "FAIL $name: merge failed, $seeds left as it was"
        tail -n 20 "$work.merge.log"
        rm -rf "$fresh"
        failed=$((failed + 1))
      fi
    fi
  fi
  rm -rf "$work" "$work.log" "$work.merge.log"
done
echo "fuzz: $ran of $total targets ran clean, $failed failed"
[ $failed -eq 0 ] && [ $ran -gt 0 ] && [ $ran -eq $total ]
