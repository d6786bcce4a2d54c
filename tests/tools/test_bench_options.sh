#!/usr/bin/env bash
# cuzk-bench's command-line conventions: --version on both binaries, global
# options before the subcommand, --name=VALUE, numbers range-checked (no
# negative wrap), unknown options named as unknown, --help exiting 0.
# Usage: test_bench_options.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
DAEMON=$(dirname "$BENCH")/cuzk-daemon
source "$(dirname "${BASH_SOURCE[0]}")/../expect_exit.sh"
NONE=unix:///nonexistent/cuzk-test.sock # nothing listens there: calls fail, exit 1

expect 0 "cuzk-bench --version" "^cuzk-bench [0-9][0-9.]* (git [0-9a-z]*)$" "$BENCH" --version
if [ -x "$DAEMON" ]; then
  expect 0 "cuzk-daemon --version" "^cuzk-daemon [0-9][0-9.]* (git [0-9a-z]*)$" "$DAEMON" --version
fi
expect 1 "-a ADDR before the subcommand reaches it" "UNAVAILABLE" "$BENCH" -a "$NONE" status
expect 1 "--addr=ADDR before the subcommand" "UNAVAILABLE" "$BENCH" --addr="$NONE" status
expect 1 "--addr=ADDR after the subcommand" "UNAVAILABLE" "$BENCH" status --addr="$NONE"
expect 2 "a global option without its value" "needs a value" "$BENCH" -a
expect 2 "status --bogus is unknown, not short of a value" "unknown option --bogus" \
  "$BENCH" status --bogus
expect 2 "batch -c -1 is refused" "whole number" "$BENCH" batch -a "$NONE" -c -1
expect 2 "batch -c 99999999999 is refused" "whole number" "$BENCH" batch -a "$NONE" -c 99999999999
expect 2 "--priority abc is refused" "whole number 0..4" "$BENCH" single -a "$NONE" --priority abc
expect 2 "--priority 5 is refused" "whole number 0..4" "$BENCH" single -a "$NONE" --priority 5
expect 2 "--sector-num -1 is refused" "whole number" "$BENCH" single -a "$NONE" --sector-num -1
expect 2 "--partition 2^32 is refused" "whole number" "$BENCH" single -a "$NONE" --partition 4294967296
out=$("$BENCH" single --help 2>&1)
if [ $? -eq 0 ] && grep -q "exit status" <<<"$out"; then pass=$((pass + 1))
else echo "FAIL: single --help exits 0 and lists the exit codes: $out"; fail=$((fail + 1)); fi
expect_report test_bench_options
