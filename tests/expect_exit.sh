# Sourced by the command-line tests: expect, and the pass / fail counters.
#
# expect CODE DESCRIPTION PATTERN COMMAND...: run COMMAND (stdout and
# stderr together); it must exit with CODE, its output must match PATTERN
# (grep; "" matches anything), and a failure (CODE != 0) must say why in
# exactly one line. Counts into $pass / $fail; expect_report NAME prints
# "NAME: P passed, F failed" and returns whether none failed.
pass=0 fail=0
expect() {
  local want=$1 desc=$2 pattern=$3
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: $desc: exit $rc, expected $want; output: $out"; fail=$((fail + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -q -- "$pattern" <<<"$out"; then
    echo "FAIL: $desc: output lacks '$pattern': $out"; fail=$((fail + 1)); return
  fi
  if [ "$want" -ne 0 ] && [ "$(wc -l <<<"$out")" -ne 1 ]; then
    echo "FAIL: $desc: expected one line, got: $out"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
expect_report() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
