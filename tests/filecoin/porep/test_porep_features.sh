#!/usr/bin/env bash
# SyntheticPoRep and NI-PoRep 2 KiB sectors end to end through cuzk-bench:
# gen-vanilla --synthetic / --ni -> C1 -> prove -> verify-seal; the nodes the
# C1 opens equal the rule's challenges as the Python reference computes them
# (hashlib, python3-cryptography's ChaCha20); a feature proof does not
# verify as the interactive kind; a C1 with the wrong partition count or the
# wrong rule's challenges is refused before proving. The NI sector's 13
# partitions are proved once per suite: test_daemon_seal_kinds proves the
# same C1 through the daemon and leaves the proof in the build tree
# (test-fixtures/, ctest fixture ni_porep), keyed by the C1 and the
# verifying key; this test checks that proof, and proves the C1 itself only
# when there is none for its inputs (about 2 minutes on 2 cores).
# ctest-label: slow e2e
# Usage: test_porep_features.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$BENCH")/test-params}
PY=/usr/bin/python3
"$PY" -c 'import cryptography' 2>/dev/null || { echo "SKIP: python3-cryptography is absent"; exit 77; }
REF=tests/reference/porep_challenges_reference.py
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
# The sector of tests/server/daemon_seal_kinds_e2e.py (miner 1000's prover
# id, sector 42): the same C1, so that its NI proof can be reused.
PROVER=e807000000000000000000000000000000000000000000000000000000000000 SECTOR=42
# The NI fixture's name for a C1 and a key (ni_fixture in daemon_seal_kinds_e2e.py).
fixture() {
  echo "$(dirname "$BENCH")/test-fixtures/ni-porep-$(sha256sum <"$1" | cut -c1-16)-$(sha256sum <"$2" | cut -c1-16).proof"
}

for feat in synthetic ni; do
  c1="$TMP/$feat.json"
  "$BENCH" --quiet gen-vanilla porep --sector-size 2KiB --$feat --sector-id $SECTOR --prover-id $PROVER \
    --out "$c1" >/dev/null 2>"$TMP/gen.err"
  ok "$feat: gen-vanilla exits 0" "[ $? -eq 0 ]"
  "$PY" "$REF" --c1 "$c1" >"$TMP/ref.out" 2>&1
  ok "$feat: the C1 opens the Python reference's challenges" "[ $? -eq 0 ]"
  [ $? -eq 0 ] || cat "$TMP/ref.out"
  parts=1
  [ $feat = ni ] && parts=13
  # The synthetic sector first: its run writes vk.bin, the key the NI fixture is named by.
  if [ $feat = ni ] && [ -s "$(fixture "$c1" "$TMP/vk.bin")" ]; then
    echo "ni: the proof test_daemon_seal_kinds made of this C1 under this key: $(fixture "$c1" "$TMP/vk.bin")"
    cp "$(fixture "$c1" "$TMP/vk.bin")" "$TMP/$feat.proof"
  else
    [ $feat = ni ] && echo "ni: no proof of this C1 under this key from test_daemon_seal_kinds: proving it here"
    "$BENCH" --quiet prove --c1 "$c1" --cache-dir "$CACHE" --out "$TMP/$feat.proof" \
      --vk-out "$TMP/vk.bin" >"$TMP/prove.out" 2>"$TMP/prove.err"
    rc=$?
    ok "$feat: prove exits 0" "[ $rc -eq 0 ]"
    [ $rc -eq 0 ] || tail -3 "$TMP/prove.err"
    ok "$feat: self-verified" "grep -qx 'verified yes' '$TMP/prove.out'"
  fi
  ok "$feat: $parts x 192 bytes" "[ \$(stat -c %s '$TMP/$feat.proof' 2>/dev/null) = $((parts * 192)) ]"
  vs() { "$BENCH" verify-seal --vk "$TMP/vk.bin" --c1 "$c1" --prover-id $PROVER --sector-id $SECTOR \
    --proof "$TMP/$feat.proof" "$@" >"$TMP/vs.out" 2>&1; }
  vs
  ok "$feat: verify-seal valid" "[ $? -eq 0 ]"
  vs --sector-id $((SECTOR + 1))
  ok "$feat: another sector id: invalid" "[ $? -eq 1 ]"
done
# A synthetic proof is not an interactive one (the challenges differ).
"$BENCH" verify-seal --vk "$TMP/vk.bin" --c1 "$TMP/synthetic.json" --registered-proof 5 \
  --prover-id $PROVER --sector-id $SECTOR --proof "$TMP/synthetic.proof" >"$TMP/vs.out" 2>&1
ok "synthetic proof as StackedDrg2KiBV1_1: invalid" "[ $? -eq 1 ]"

bad() { # name, file, expected status, message regex
  "$BENCH" --quiet prove --c1 "$2" --cache-dir "$CACHE" --out "$TMP/bad.bin" >"$TMP/bad.out" 2>"$TMP/bad.err"
  local rc=$?
  ok "$1: exit $3" "[ $rc -eq $3 ]"
  ok "$1: message" "grep -Eqi '$4' '$TMP/bad.err'"
  ok "$1: no proof" "[ ! -e '$TMP/bad.bin' ]"
  rm -f "$TMP/bad.bin"
}
# An NI C1 with its last partition dropped; an interactive C1 relabelled as
# synthetic (its proofs open the seed's interactive challenges).
"$PY" - "$TMP/ni.json" "$TMP/ni-short.json" <<'PY'
import json, sys
c1 = json.load(open(sys.argv[1]))
next(iter(c1["vanilla_proofs"].values())).pop()
json.dump(c1, open(sys.argv[2], "w"))
PY
bad "NI-PoRep C1 with 12 partitions" "$TMP/ni-short.json" 2 '13 partitions, found 12'
"$BENCH" --quiet gen-vanilla porep --sector-size 2KiB --sector-id $SECTOR --prover-id $PROVER \
  --out "$TMP/inter.json" >/dev/null 2>&1
sed 's/"StackedDrg2KiBV1_1"/"StackedDrg2KiBV1_1_Feat_SyntheticPoRep"/' "$TMP/inter.json" >"$TMP/relabel.json"
bad "interactive C1 sent as synthetic" "$TMP/relabel.json" 1 'challenge|vanilla|invalid'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
