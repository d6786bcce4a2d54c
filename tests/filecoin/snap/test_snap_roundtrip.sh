#!/usr/bin/env bash
# ctest-label: slow
# SnapDeals in process, end to end: gen-vanilla snap-prove seals a CC
# sector and updates it, prove --request proves every partition (test
# parameters, cached with the other tests' in build/test-params: the first
# run makes the 2 KiB update circuit's, 1.7M constraints), verify-update
# checks the proofs from the commitments alone (also those made through
# the recorded shape, --pce). Then the bad cases: a
# tampered apex leaf is refused before proving (exit 1, one line); a
# changed proof byte, another comm_r_new or comm_d_new are invalid (exit
# 1); a proof of the wrong length or for another registered proof is
# unusable (exit 2).
# Usage: test_snap_roundtrip.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
SIZE=${CUZK_SECTOR_SIZE:-2KiB}
CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$BENCH")/test-params}
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "test_snap_roundtrip: skipped: $PY is absent"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"
field() { "$PY" -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

d=$TMP/u
expect 0 "gen-vanilla snap-prove $SIZE" "request" \
  "$BENCH" gen-vanilla snap-prove --sector-size "$SIZE" --out "$d" --bincode-dir "$d/bin"
req=$d/request.json
[ -f "$req" ] || { expect_report test_snap_roundtrip; exit 1; }
expect 0 "prove the update" "verified yes" \
  "$BENCH" prove --request "$req" --cache-dir "$CACHE" --out "$d/proof.bin" --vk-out "$d/vk.bin"
reg=$(field "$req" registered_proof)
r_old=$(field "$req" comm_r_old) d_new=$(field "$req" comm_d_new) r_new=$(field "$req" comm_r_new)
args=(verify-update --vk "$d/vk.bin" --registered-proof "$reg" --comm-r-old "$r_old"
  --comm-d-new "$d_new" --proof "$d/proof.bin")
expect 0 "verify-update" "^valid" "$BENCH" "${args[@]}" --comm-r-new "$r_new"
expect 0 "prove the update through the recorded shape" "verified yes" \
  "$BENCH" prove --request "$req" --cache-dir "$CACHE" --pce --out "$d/proof-pce.bin"
expect 0 "verify-update of the --pce proof" "^valid" \
  "$BENCH" verify-update --vk "$d/vk.bin" --registered-proof "$reg" --comm-r-old "$r_old" \
  --comm-d-new "$d_new" --comm-r-new "$r_new" --proof "$d/proof-pce.bin"
other=$("$PY" -c "import sys; b=bytearray.fromhex(sys.argv[1]); b[0]^=1; print(b.hex())" "$r_new")
expect 1 "verify-update with another comm_r_new" "invalid" "$BENCH" "${args[@]}" --comm-r-new "$other"
"$PY" -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[100]^=1; open(sys.argv[2],'wb').write(b)" \
  "$d/proof.bin" "$TMP/bad.bin"
expect 1 "verify-update of a changed proof" "invalid" \
  "$BENCH" verify-update --vk "$d/vk.bin" --registered-proof "$reg" --comm-r-old "$r_old" \
  --comm-d-new "$d_new" --comm-r-new "$r_new" --proof "$TMP/bad.bin"
head -c 100 "$d/proof.bin" > "$TMP/short.bin"
expect 2 "verify-update of a truncated proof" "holds 100 bytes" \
  "$BENCH" verify-update --vk "$d/vk.bin" --registered-proof "$reg" --comm-r-old "$r_old" \
  --comm-d-new "$d_new" --comm-r-new "$r_new" --proof "$TMP/short.bin"
# The proofs read as another size's: 2 KiB's as 8 MiB's (4 partitions), an
# 8 MiB update's as 2 KiB's (1 partition).
if [ "$reg" = 0 ]; then other_reg=1 other_parts="has 4 partitions"; else other_reg=0 other_parts="has 1 partition"; fi
expect 2 "verify-update for registered proof $other_reg" "$other_parts" \
  "$BENCH" "${args[@]}" --comm-r-new "$r_new" --registered-proof "$other_reg"
# A tampered apex leaf (byte 0 of leaf 5: 32 + 8 + 5 x 32): the native
# verifier refuses it before any proving.
"$PY" -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[200]^=1; open(sys.argv[2],'wb').write(b)" \
  "$d/bin/partition-0.vproof" "$TMP/bad.vproof"
# Partition 0 tampered, the other partitions (8 MiB: 1-3) as they were.
"$PY" - "$req" "$d/bin" "$TMP/bad.vproof" "$TMP" <<'PY'
import base64, glob, json, os, sys
req, bindir, bad, tmp = sys.argv[1:]
parts = sorted(glob.glob(os.path.join(bindir, "partition-*.vproof")),
               key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0]))
parts[0] = bad
json.dump([base64.b64encode(open(p, "rb").read()).decode() for p in parts],
          open(os.path.join(tmp, "bad-vanilla.json"), "w"))
r = json.load(open(req))
r["vanilla"] = os.path.join(tmp, "bad-vanilla.json")
json.dump(r, open(os.path.join(tmp, "bad.json"), "w"))
PY
expect 1 "prove a tampered apex leaf" "apex_leafs" \
  "$BENCH" prove --request "$TMP/bad.json" --cache-dir "$CACHE"
"$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); r['vanilla']=sys.argv[2]; r['registered_proof']=1; json.dump(r, open(sys.argv[3],'w'))" \
  "$req" "$d/bin/partition-0.vproof" "$TMP/wrong.json"
expect 2 "prove with the wrong registered proof" "1 partition proofs, StackedDrg8MiBV1 has 4" \
  "$BENCH" prove --request "$TMP/wrong.json" --cache-dir "$CACHE"
expect_report test_snap_roundtrip
