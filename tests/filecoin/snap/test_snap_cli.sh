#!/usr/bin/env bash
# cuzk-bench gen-vanilla snap-prove: a 2 KiB CC sector sealed and updated,
# its one PartitionProof written (15,064 bytes: the bincode layout of
# storage-proofs-update vanilla.rs, counted in snap_vanilla.c) as
# vanilla.json, request.json and a raw .vproof. Python's json and base64
# modules, not our code, check that vanilla.json holds exactly the raw file
# and that request.json names the update proof 0 and the commitments
# printed. verify-vanilla accepts the request and refuses another
# comm_d_new (exit 1). Bad options, data and truncated bincode are refused
# with one line (exit 2).
# Usage: test_snap_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "test_snap_cli: skipped: $PY is absent (it checks the base64)"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"

expect 0 "gen-vanilla snap-prove 2KiB" "partition 0 15064 bytes" \
  "$BENCH" gen-vanilla snap-prove --sector-size 2KiB --out "$TMP/out" --bincode-dir "$TMP/bin"
out=$("$BENCH" gen-vanilla snap-prove --sector-size 2KiB --out "$TMP/out2" 2>/dev/null)
expect 0 "same sector, same proofs" "" cmp "$TMP/out/vanilla.json" "$TMP/out2/vanilla.json"
expect 0 "vanilla.json is the base64 of the .vproof, request.json the printed commitments" "ok" \
  "$PY" - "$TMP/out" "$TMP/bin/partition-0.vproof" "$out" <<'PYEOF'
import base64, json, sys
d, raw, printed = sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3]
v = json.load(open(d + "/vanilla.json"))
assert len(v) == 1 and base64.b64decode(v[0]) == raw and len(raw) == 15064, "vanilla.json"
r = json.load(open(d + "/request.json"))
assert r["proof_kind"] == "snap-deals" and r["registered_proof"] == 0, r
lines = dict(l.split(" ", 1) for l in printed.splitlines())
for k in ("comm_r_old", "comm_d_new", "comm_r_new"):
    assert r[k] == lines[k] and len(bytes.fromhex(r[k])) == 32, k
# comm_c first, then 8 apex leaves, then 10 challenge proofs.
assert int.from_bytes(raw[32:40], "little") == 8
assert int.from_bytes(raw[40 + 256:48 + 256], "little") == 10
print("ok")
PYEOF
expect 0 "verify-vanilla of the update request" "^valid" \
  "$BENCH" verify-vanilla --request "$TMP/out/request.json"
"$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); r['vanilla']=sys.argv[2]; r['comm_d_new']=r['comm_r_old']; json.dump(r, open(sys.argv[3],'w'))" \
  "$TMP/out/request.json" "$TMP/bin/partition-0.vproof" "$TMP/other.json"
expect 1 "verify-vanilla with another comm_d_new" "apex_leafs: they do not hash to comm_d_new" \
  "$BENCH" verify-vanilla --request "$TMP/other.json"
head -c 1000 "$TMP/bin/partition-0.vproof" > "$TMP/cut.vproof"
"$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); r['vanilla']=sys.argv[2]; json.dump(r, open(sys.argv[3],'w'))" \
  "$TMP/out/request.json" "$TMP/cut.vproof" "$TMP/cut.json"
expect 2 "verify-vanilla of truncated bincode" "unexpected end of input" \
  "$BENCH" verify-vanilla --request "$TMP/cut.json"
expect 2 "an update request takes no other option" "carries everything" \
  "$BENCH" verify-vanilla --request "$TMP/out/request.json" --registered-proof 0
expect 2 "4 KiB is no Filecoin size" "test updates are made for 2KiB and 8MiB" \
  "$BENCH" gen-vanilla snap-prove --sector-size 4KiB --out "$TMP/x"
expect 2 "--out is needed" "need --sector-size and --out" \
  "$BENCH" gen-vanilla snap-prove --sector-size 2KiB
head -c 100 /dev/zero > "$TMP/short"
expect 2 "data of the wrong length" "holds 100 bytes" \
  "$BENCH" gen-vanilla snap-prove --sector-size 2KiB --data "$TMP/short" --out "$TMP/x"
head -c 2048 /dev/zero | tr '\0' '\377' > "$TMP/bad"
expect 2 "data that is not fr32" "not fr32-padded" \
  "$BENCH" gen-vanilla snap-prove --sector-size 2KiB --data "$TMP/bad" --out "$TMP/x"
expect 2 "unknown gen-vanilla kind" "expected porep, winning-post, window-post or snap-prove" \
  "$BENCH" gen-vanilla snap
expect_report test_snap_cli
