#!/usr/bin/env bash
# cuzk-bench's progress on stderr (bench/common/progress_out.c): parameter
# setup, writing and loading (prove --synthetic) and sealing (gen-vanilla)
# print "progress <phase>: ..." lines when stderr is not a terminal, with
# their fraction and an end line at 100%; a terminal gets one rewritten
# line (\r); the global --quiet, before or after the command, prints none
# and changes nothing else. The throttling itself is test_progress's.
# Usage: test_progress_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
pass=0 fail=0
tmp=$(mktemp -d /tmp/cuzk-progress-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ok() { # ok DESCRIPTION COND...
  local what=$1
  shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
has() { grep -Eq -- "$2" <<<"$1"; }
PROVE=(prove --synthetic chain --log-constraints 12 --threads 2 --cache-dir "$tmp/params")

err=$("$BENCH" "${PROVE[@]}" 2>&1 >"$tmp/out1")
ok "prove (making parameters) succeeds" grep -q '^valid$' "$tmp/out1"
ok "the keygen phase is shown" has "$err" '^progress keygen: elapsed [0-9.]+s$'
ok "setup starts at 0%" has "$err" '^progress setup: 0/[0-9.]+k points 0\.0% elapsed '
ok "setup ends at 100% with a rate" \
  has "$err" '^progress setup: ([0-9.]+k)/\1 points 100\.0% [0-9.]+k? points/s elapsed '
# The setup streams its points into the file as it makes them: its
# progress is the file's; then the store maps what it wrote.
ok "the written file is mapped" has "$err" '^progress map params: ([0-9.]+M)/\1 B 100\.0% '
ok "no carriage return off a terminal" bash -c '! grep -q $'"'\r'"' <<<"$0"' "$err"

err=$("$BENCH" "${PROVE[@]}" 2>&1 >"$tmp/out2")
ok "prove (loading parameters) succeeds" grep -q '^valid$' "$tmp/out2"
ok "mapping the key shows its bytes" has "$err" '^progress map params: ([0-9.]+M)/\1 B 100\.0% '
ok "loading makes no parameters" bash -c '! grep -q "^progress setup" <<<"$0"' "$err"

for q in before after; do
  if [ $q = before ]; then args=(--quiet "${PROVE[@]}"); else args=("${PROVE[@]}" --quiet); fi
  err=$("$BENCH" "${args[@]}" 2>&1 >"$tmp/out3")
  rc=$?
  ok "--quiet $q the command: exit 0, valid" bash -c '[ "$0" -eq 0 ] && grep -q "^valid$" "$1"' "$rc" "$tmp/out3"
  ok "--quiet $q the command: no progress line" bash -c '! grep -q "^progress " <<<"$0"' "$err"
done

G=(gen-vanilla porep --sector-size 2KiB --sector-id 7)
err=$("$BENCH" "${G[@]}" --out "$tmp/c1.json" 2>&1 >/dev/null)
ok "gen-vanilla writes the C1" test -s "$tmp/c1.json"
# 2 KiB: 64 nodes x (2 layers + 3) + 2 challenges = 322
ok "sealing starts at 0" has "$err" '^progress seal: 0/322 nodes 0\.0% elapsed '
ok "sealing ends at 322/322" has "$err" '^progress seal: 322/322 nodes 100\.0% '
err=$("$BENCH" --quiet "${G[@]}" --out "$tmp/c1q.json" 2>&1 >/dev/null)
ok "gen-vanilla --quiet: the same C1, no progress" \
  bash -c 'cmp -s "$1" "$2" && ! grep -q "^progress " <<<"$0"' "$err" "$tmp/c1.json" "$tmp/c1q.json"

err=$("$BENCH" gen-vanilla window-post --sector-size 2KiB --sectors 2 --out "$tmp/w" 2>&1 >/dev/null)
n=$(grep -c '^progress seal: 322/322 nodes 100\.0% ' <<<"$err")
ok "gen-vanilla window-post --sectors 2: each sector's seal to its end ($n)" test "$n" -eq 2

# A terminal (util-linux script gives one): the line is rewritten in place.
if command -v script >/dev/null; then
  script -qec "$BENCH ${PROVE[*]} --no-cache" /dev/null >"$tmp/tty" 2>&1
  ok "on a terminal the progress line is rewritten (\\r ... ESC[K)" \
    grep -q $'\rprogress setup: .*\033\\[K' "$tmp/tty"
else
  echo "SKIP: no script(1): the terminal form is not checked here (test_progress checks it)"
fi
echo "test_progress_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
