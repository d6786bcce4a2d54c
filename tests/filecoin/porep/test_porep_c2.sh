#!/usr/bin/env bash
# PoRep end to end for a 2 KiB sector through cuzk-bench: seal -> C1 JSON
# (also Curio's wrapper) -> C2 -> verify-seal, and bad C1 files rejected
# with a message before any proving. Test parameters are made once (a few
# minutes on 2 cores) and cached beside the build. CUZK_SECTOR_SIZE=8MiB
# runs the same for 8 MiB (`make test-8mib`; not in the suite).
# ctest-label: slow
# Usage: test_porep_c2.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$BENCH")/test-params}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
PROVER=0100000000000000000000000000000000000000000000000000000000000000
SIZE=${CUZK_SECTOR_SIZE:-2KiB}
case $SIZE in 2KiB) TAG=2KiB V1=0;; 8MiB) TAG=8MiB V1=1;; *) echo "unsupported size $SIZE"; exit 2;; esac

"$BENCH" gen-vanilla porep --sector-size $SIZE --sector-id 42 --prover-id $PROVER \
  --out "$TMP/c1.json" >"$TMP/gen.out" 2>"$TMP/gen.err"
ok "gen-vanilla exits 0" "[ $? -eq 0 ]"
"$BENCH" gen-vanilla porep --sector-size $SIZE --sector-id 42 --prover-id $PROVER --curio \
  --out "$TMP/c1-curio.json" >/dev/null 2>&1
ok "gen-vanilla --curio exits 0" "[ $? -eq 0 ]"
ok "curio wrapper shape" "grep -q '^{\"SectorNum\":42,\"Phase1Out\":\"' '$TMP/c1-curio.json'"

"$BENCH" prove --c1 "$TMP/c1.json" --cache-dir "$CACHE" --out "$TMP/proof.bin" \
  --vk-out "$TMP/vk.bin" >"$TMP/prove.out" 2>"$TMP/prove.err"
rc=$?
ok "prove --c1 exits 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || tail -5 "$TMP/prove.err"
ok "proof is 192 bytes" "[ \$(stat -c %s '$TMP/proof.bin' 2>/dev/null) = 192 ]"
ok "self-verified" "grep -qx 'verified yes' '$TMP/prove.out'"
# The store's own line (params_store.c), not any "test" (the cache dir,
# test-params, is in every path the stderr names).
ok "test parameters said on stderr" "grep -q \"prove: .*TEST parameters (.*not Filecoin's\" '$TMP/prove.err'"
for ph in synthesis ntt_h msm_h msm_l msm_a msm_b_g1 msm_b_g2 total; do
  ok "timing $ph" "grep -q '^CUZK_TIMING: ${ph}_ms=[0-9]' '$TMP/prove.err'"
done

vs() { "$BENCH" verify-seal --vk "$TMP/vk.bin" "$@" >"$TMP/vs.out" 2>&1; }
vs --c1 "$TMP/c1.json" --prover-id $PROVER --sector-id 42 --proof "$TMP/proof.bin"
ok "verify-seal --c1 valid" "[ $? -eq 0 ]"
vs --c1 "$TMP/c1-curio.json" --prover-id $PROVER --proof "$TMP/proof.bin"
ok "verify-seal with the wrapper's sector number" "[ $? -eq 0 ]"
vs --c1 "$TMP/c1.json" --prover-id $PROVER --sector-id 43 --proof "$TMP/proof.bin"
ok "another sector id: invalid" "[ $? -eq 1 ]"
vs --c1 "$TMP/c1.json" --prover-id ${PROVER/01/02} --sector-id 42 --proof "$TMP/proof.bin"
ok "another prover id: invalid" "[ $? -eq 1 ]"
vs --c1 "$TMP/c1.json" --registered-proof $V1 --prover-id $PROVER --sector-id 42 --proof "$TMP/proof.bin"
ok "V1 instead of V1_1: invalid" "[ $? -eq 1 ]"

# The wrapper proves too (same sector, fresh randomness r, s), here through
# pre-compiled synthesis (--pce; one proof for both, each its own check):
# the shape is recorded and its size said; the proof verifies like the
# plain one.
"$BENCH" prove --c1 "$TMP/c1-curio.json" --cache-dir "$CACHE" --pce --out "$TMP/proof2.bin" \
  >"$TMP/prove2.out" 2>&1
rc=$?
ok "prove the Curio wrapper" "[ $rc -eq 0 ] && grep -q '^load_params ' '$TMP/prove2.out'"
ok "prove --pce" "[ $rc -eq 0 ] && grep -q '^pce_shape_bytes [0-9]* bytes' '$TMP/prove2.out'"
vs --c1 "$TMP/c1.json" --prover-id $PROVER --sector-id 42 --proof "$TMP/proof2.bin"
ok "its proof verifies" "[ $? -eq 0 ]"

# Bad C1 files: rejected with a message, exit 2 (1 for vanilla proofs that do
# not verify), and never a proof.
bad() { # name, file, expected status, message regex
  "$BENCH" prove --c1 "$2" --cache-dir "$CACHE" --out "$TMP/bad.bin" >"$TMP/bad.out" 2>"$TMP/bad.err"
  local rc=$?
  ok "$1: exit $3" "[ $rc -eq $3 ]"
  ok "$1: message" "grep -Eqi '$4' '$TMP/bad.err'"
  ok "$1: no proof" "[ ! -e '$TMP/bad.bin' ]"
  rm -f "$TMP/bad.bin"
}
head -c 5000 "$TMP/c1.json" >"$TMP/trunc.json"
bad truncated "$TMP/trunc.json" 2 'c1|json|parse|unexpected|end'
# A different value in a Merkle path: parses, fails the native check.
python3 - "$TMP/c1.json" "$TMP/tamper.json" <<'PY'
import json, sys
c1 = json.load(open(sys.argv[1]))
proofs = next(iter(c1["vanilla_proofs"].values()))
lab = proofs[0][0]["labeling_proofs"][0]
lab["parents"][0][0] ^= 1
json.dump(c1, open(sys.argv[2], "w"))
PY
bad tampered "$TMP/tamper.json" 1 'labeling|parent|vanilla|invalid'
sed "s/\"StackedDrg${TAG}V1_1\"/\"StackedDrg512MiBV1_1\"/" "$TMP/c1.json" >"$TMP/kind.json"
bad "wrong registered proof" "$TMP/kind.json" 2 'registered|StackedDrg|kind|size'
bad "missing file" "$TMP/none.json" 2 'none.json'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
