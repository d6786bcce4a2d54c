#!/usr/bin/env bash
# cuzk-bench synth-only on a 2 KiB sector sealed in process: every iteration
# line and summary line is there, every path (plain, recorded shape, another
# layout, one thread) counts the same 2,687,961 constraints, --perf reads
# counters or says in one line why not; the PoSt and update kinds run on
# inputs of their real shape; bad options exit 2. Synthesis of 2.7 M
# constraints is too slow under ASan.
# ctest-label: slow
# Usage: test_synth_only.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
N='[0-9][0-9.]*'
IT="wall_ms=$N user_s=$N sys_s=$N peak_rss_mb=$N threads=$N constraints"

"$BENCH" synth-only -i 2 --pce --perf >"$TMP/out" 2>"$TMP/err"
ok "exit 0" "[ $? -eq 0 ]"
for p in inline4 pce; do
  ok "$p: 2 iteration lines" "[ \$(grep -c '^iteration [01] $p $IT=2687961 aux=$N full_aux=$N\$' '$TMP/out') -eq 2 ]"
  for f in synthesis_median user_median sys_median sys_share peak_rss_median constraints_per_s \
           constraints_per_core_s; do
    ok "$p.$f" "grep -q '^$p\\.$f $N ' '$TMP/out'"
  done
done
ok "pce ratio" "grep -q '^ratio.pce_over_inline4 $N ratio\$' '$TMP/out'"
ok "pce shape" "grep -q '^pce.shape_bytes $N bytes\$' '$TMP/out'"
ok "perf: counters or one line why not" \
  "grep -q '^perf unavailable: ' '$TMP/out' || grep -q '^inline4.perf cycles=' '$TMP/out'"

"$BENCH" synth-only --lc vec --ab arena >"$TMP/ab" 2>&1
ok "--ab exit 0" "[ $? -eq 0 ] && grep -q '^ratio.arena_over_vec $N ratio\$' '$TMP/ab'"
ok "--ab: same constraints" "grep -q '^constraints 2687961 count\$' '$TMP/ab'"
"$BENCH" synth-only --scaling --threads 2 >"$TMP/sc" 2>&1
ok "--scaling" "[ $? -eq 0 ] && grep -q '^iteration 0 one_thread $IT=2687961 aux=$N full_aux=$N\$' '$TMP/sc' &&
  grep -q '^ratio.one_thread_over_inline4 $N ratio\$' '$TMP/sc'"

# The other kinds on inputs of their real 2 KiB shape (rust-fil-proofs'
# counts plus the input constraints PROVE appends).
for kc in "winning-post 66*" "window-post 2*" "update 1705044"; do
  set -- $kc
  "$BENCH" synth-only --kind "$1" --sector-size 2KiB >"$TMP/k" 2>&1
  ok "--kind $1" "[ $? -eq 0 ] && grep -q '^constraints [0-9]* count\$' '$TMP/k'"
done
ok "update counts" "grep -q '^constraints 1705044 count\$' '$TMP/k'"
# The witness's full (not 0 or 1) values, which the memory estimates count
# (cz_partition_mem_bytes): PoRep's and SnapDeals' are under 2% of aux,
# PoSt's (Poseidon) over 99%.
full_share() { # FILE: full_aux * 100 / aux on its first iteration line
  sed -n 's/^iteration 0 .* aux=\([0-9]*\) full_aux=\([0-9]*\)$/\2 \1/p' "$1" |
    awk "NR == 1 { print int(\$1 * 100 / \$2) }"
}
ok "update: full values under 2%" "[ \$(full_share '$TMP/k') -lt 2 ]"
ok "porep: full values under 2%" "[ \$(full_share '$TMP/out') -lt 2 ]"
"$BENCH" synth-only --kind window-post --sector-size 2KiB >"$TMP/w" 2>&1
ok "window-post: full values over 99%" "[ \$(full_share '$TMP/w') -ge 99 ]"

"$BENCH" synth-only --lc nope >/dev/null 2>&1
ok "unknown layout: exit 2" "[ $? -eq 2 ]"
"$BENCH" synth-only --partition 3 >/dev/null 2>&1
ok "no such partition: exit 2" "[ $? -eq 2 ]"
"$BENCH" synth-only --ab arena --pce >/dev/null 2>&1
ok "--ab with --pce: exit 2" "[ $? -eq 2 ]"
"$BENCH" synth-only --kind nope >/dev/null 2>&1
ok "unknown kind: exit 2" "[ $? -eq 2 ]"
"$BENCH" synth-only --kind update --c1 /dev/null >/dev/null 2>&1
ok "--c1 for update: exit 2" "[ $? -eq 2 ]"
"$BENCH" synth-only --sector-size 3KiB >/dev/null 2>&1
ok "no such size: exit 2" "[ $? -eq 2 ]"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
