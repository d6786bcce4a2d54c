#!/usr/bin/env bash
# Every cuzk-bench subcommand's --help (and -h, and the daemon's): exit 0,
# the usage on stdout (nothing on stderr), ending with the exit codes every
# command uses: 0 ok, 1 invalid or failed, 2 usage or unusable input. The
# subcommands are read from `cuzk-bench --help`, so a new one is covered
# without editing this file.
# Usage: test_help.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
DAEMON=$(dirname "$BENCH")/cuzk-daemon
pass=0 fail=0
EXIT_LINE='^exit status: 0 ok.*, 1 [a-z].*, 2 usage or unusable input'

check_help() { # check_help NAME COMMAND...
  local name=$1 out err rc
  shift
  err=$("$@" 2>&1 >/dev/null)
  out=$("$@" 2>/dev/null)
  rc=$?
  if [ "$rc" -ne 0 ]; then echo "FAIL: $name: exit $rc"; fail=$((fail + 1)); return; fi
  if [ -n "$err" ]; then echo "FAIL: $name: wrote to stderr: $err"; fail=$((fail + 1)); return; fi
  if ! grep -q "^usage: " <<<"$out"; then echo "FAIL: $name: no usage line"; fail=$((fail + 1)); return; fi
  if ! grep -Eq "$EXIT_LINE" <<<"$out"; then
    echo "FAIL: $name: its exit codes are not listed: $out"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

cmds=$("$BENCH" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF > 1 {print $1}')
n=$(wc -w <<<"$cmds")
if [ "$n" -lt 20 ]; then echo "FAIL: cuzk-bench --help lists $n commands: $cmds"; fail=$((fail + 1)); fi
check_help "cuzk-bench --help" "$BENCH" --help
for c in $cmds; do
  check_help "$c --help" "$BENCH" "$c" --help
  check_help "$c -h" "$BENCH" "$c" -h
done
for k in porep winning-post window-post; do check_help "gen-vanilla $k --help" "$BENCH" gen-vanilla "$k" --help; done
if [ -x "$DAEMON" ]; then
  check_help "cuzk-daemon --help" "$DAEMON" --help
  check_help "cuzk-daemon -h" "$DAEMON" -h
fi
# A wrong option is a usage error: 2, and the usage is not printed as help.
rc=0
for c in $cmds; do
  "$BENCH" "$c" --no-such-option >/dev/null 2>&1
  r=$?
  if [ "$r" -ne 2 ]; then echo "FAIL: $c --no-such-option: exit $r, expected 2"; rc=1; fi
done
if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
echo "test_help: $pass passed, $fail failed ($n commands)"
[ "$fail" -eq 0 ]
