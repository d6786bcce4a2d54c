#!/usr/bin/env bash
# gen-vanilla porep --sparse (a TEST INPUT: an all-zero sector of which only
# the challenged nodes and their parents are labelled) for a 2 KiB sector:
# it says so on stderr and in --help; the C1 passes synth-only --check
# (TEST-mode synthesis: every constraint holds), proves with prove --c1
# (which checks the vanilla proofs natively and verifies its proof) and
# verifies with verify-seal; a changed label or Merkle path element is
# refused by the native check, naming it, and breaks a constraint that
# --check names; options it cannot honour are refused. It shares
# test_porep_c2's test parameters (build/test-params). CUZK_SECTOR_SIZE=8MiB
# runs the same for 8 MiB (`make test-8mib`; its parameters take long to
# make, so not in the suite).
# ctest-label: slow
# Usage: test_porep_sparse_c2.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$BENCH")/test-params}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
PROVER=0100000000000000000000000000000000000000000000000000000000000000
SIZE=${CUZK_SECTOR_SIZE:-2KiB}
case $SIZE in 2KiB | 8MiB) ;; *) echo "unsupported size $SIZE"; exit 2;; esac

gen() { "$BENCH" gen-vanilla porep --sparse --sector-size $SIZE --sector-id 42 --prover-id $PROVER "$@"; }
gen --out "$TMP/c1.json" >"$TMP/gen.out" 2>"$TMP/gen.err"
ok "gen-vanilla --sparse exits 0" "[ $? -eq 0 ]"
ok "TEST INPUT said on stderr" "grep -q 'TEST INPUT, not a sealed sector' '$TMP/gen.err'"
ok "touched nodes said" "grep -Eq '^touched_nodes [0-9]+ nodes' '$TMP/gen.out'"
ok "verified natively before writing" "grep -Eq '^verify_vanilla [0-9.]+ ms' '$TMP/gen.out'"
ok "--help says TEST INPUT" "'$BENCH' gen-vanilla porep --help | grep -q 'TEST INPUT'"
gen --out "$TMP/c1-again.json" >/dev/null 2>&1
ok "deterministic" "cmp -s '$TMP/c1.json' '$TMP/c1-again.json'"
gen --curio --out "$TMP/c1-curio.json" >/dev/null 2>&1
ok "--curio wrapper" "grep -q '^{\"SectorNum\":42,\"Phase1Out\":\"' '$TMP/c1-curio.json'"

expect 2 "--sparse --ni refused" 'excludes' gen --ni --out "$TMP/x.json"
expect 2 "--sparse --data refused" 'excludes' gen --data "$TMP/c1.json" --out "$TMP/x.json"

# The circuit is satisfied (TEST mode).
expect 0 "synth-only --check: satisfied" '^satisfied yes' "$BENCH" synth-only --c1 "$TMP/c1.json" --check

# --partition 0 proves that partition alone (the only one at 2 KiB; at 32
# GiB one of ten), and verify-seal --partition checks it alone. --repeat 2
# proves it twice on the parameters loaded once (a warm round: the A/B of
# a mapped key against a decoded one), each round verified.
"$BENCH" prove --c1 "$TMP/c1.json" --cache-dir "$CACHE" --out "$TMP/proof.bin" --partition 0 \
  --repeat 2 --vk-out "$TMP/vk.bin" >"$TMP/prove.out" 2>"$TMP/prove.err"
rc=$?
ok "prove --c1 exits 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || tail -5 "$TMP/prove.err"
ok "self-verified" "grep -qx 'verified yes' '$TMP/prove.out'"
ok "--repeat 2: two rounds" "[ \$(grep -c '^c2 [0-9.]* ms$' '$TMP/prove.out') = 2 ] &&
  [ \$(grep -c '^CUZK_TIMING: total_ms=' '$TMP/prove.err') = 2 ]"
expect 2 "prove --c1 --repeat 0: refused" 'repeat' "$BENCH" prove --c1 "$TMP/c1.json" \
  --cache-dir "$CACHE" --repeat 0 --out "$TMP/x.bin"
vs() { "$BENCH" verify-seal --vk "$TMP/vk.bin" "$@"; }
expect 0 "verify-seal --c1: valid" '^valid$' vs --c1 "$TMP/c1.json" --prover-id $PROVER --sector-id 42 \
  --proof "$TMP/proof.bin"
expect 0 "verify-seal --partition 0: valid" '^valid$' vs --c1 "$TMP/c1.json" --prover-id $PROVER \
  --sector-id 42 --proof "$TMP/proof.bin" --partition 0
expect 2 "verify-seal --partition past the last: refused" 'partition' vs --c1 "$TMP/c1.json" \
  --prover-id $PROVER --sector-id 42 --proof "$TMP/proof.bin" --partition 1
expect 2 "prove --partition past the last: refused" 'partition' "$BENCH" prove --c1 "$TMP/c1.json" \
  --cache-dir "$CACHE" --partition 1 --out "$TMP/x.bin"
ok "the mapped key's disk wait is timed" "grep -q '^CUZK_TIMING: key_wait_ms=[0-9]' '$TMP/prove.err'"
expect 1 "verify-seal, another sector id: invalid" '^invalid: ' vs --c1 "$TMP/c1.json" \
  --prover-id $PROVER --sector-id 43 --proof "$TMP/proof.bin"

# One value changed in the JSON: a label (DRG parent 0's layer-1 row; the
# circuit computes the challenged node's own labels, so not that one), a
# Merkle path element (tree R-last, level 0): the native check
# refuses it naming the field (exit 1, no proof), and a constraint breaks.
tamper() { # what, out
  python3 - "$TMP/c1.json" "$2" "$1" <<'PY'
import json, sys
c1 = json.load(open(sys.argv[1]))
pr = next(iter(c1["vanilla_proofs"].values()))[0][0]
if sys.argv[3] == "label":
    pr["replica_column_proofs"]["drg_parents"][0]["column"]["rows"][0][0] ^= 1
else:
    pr["comm_r_last_proof"]["data"]["Single"]["path"]["path"][0]["hashes"][0][0] ^= 1
json.dump(c1, open(sys.argv[2], "w"))
PY
}
bad() { # name, file, message regex
  "$BENCH" prove --c1 "$2" --cache-dir "$CACHE" --out "$TMP/bad.bin" >"$TMP/bad.out" 2>"$TMP/bad.err"
  local rc=$?
  ok "$1: exit 1" "[ $rc -eq 1 ]"
  ok "$1: message names it" "grep -Eq '$3' '$TMP/bad.err'"
  [ $rc -eq 1 ] && grep -Eq "$3" "$TMP/bad.err" || cat "$TMP/bad.err"
  ok "$1: no proof" "[ ! -e '$TMP/bad.bin' ]"
  rm -f "$TMP/bad.bin"
}
tamper label "$TMP/label.json"
bad "changed label" "$TMP/label.json" 'DRG parent 0 column \(node [0-9]+\): column hash is not the tree C leaf'
expect 1 "changed label: --check names a constraint" '^unsatisfied constraint [0-9]* of [0-9]*: challenge_0/' \
  "$BENCH" synth-only --c1 "$TMP/label.json" --check --challenge 0
tamper path "$TMP/path.json"
bad "changed path element" "$TMP/path.json" 'tree R-last inclusion proof does not verify'
expect 1 "changed path element: --check names a constraint" \
  '^unsatisfied constraint [0-9]* of [0-9]*: challenge_0/comm_r_last' \
  "$BENCH" synth-only --c1 "$TMP/path.json" --check --challenge 0

expect_report test_porep_sparse_c2
