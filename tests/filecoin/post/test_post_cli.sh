#!/usr/bin/env bash
# cuzk-bench gen-vanilla winning-post|window-post and verify-vanilla.
#
# gen-vanilla seals 2 KiB sectors and writes request.json + vanilla.json
# (and, with --bincode-dir, each proof as raw bincode); verify-vanilla
# accepts what it wrote in every form (vanilla.json, bincode, the request),
# and the real 32 GiB WindowPoSt vector from filecoin-ffi
# (tests/vectors/windowpost-32gib-vanilla: registered proof 8, zero
# randomness, miner 1000). Python's base64 and json modules, not our code,
# check that vanilla.json is Go's json.Marshal([][]byte) of the bincode
# files. Then the bad cases: a changed byte, other randomness, another
# registered proof or partition are invalid (exit 1); a truncated file, bad
# options or fields are unusable (exit 2, one line naming the field).
# Usage: test_post_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "test_post_cli: skipped: $PY is absent (it checks the base64)"; exit 77; }
VEC=tests/vectors/windowpost-32gib-vanilla/sector1.vproof
[ -f "$VEC" ] || { echo "missing vector file $VEC"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"

ok() { # ok DESCRIPTION COMMAND...: the command must succeed (quietly)
  local desc=$1
  shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $desc"; fail=$((fail + 1)); fi
}

# A copy of $1 with byte $2 XOR 1, into $3 (low bit of a little-endian
# field value: it stays below r).
tamper() { "$PY" -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[int(sys.argv[2])]^=1; open(sys.argv[3],"wb").write(b)' "$@"; }

ZERO=$(printf '0%.0s' {1..64})
LEB1000=e807$(printf '0%.0s' {1..60}) # 1000 = 0x3e8: LEB128 e8 07
R=2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a # gen-vanilla's default
R2=1111111111111111111111111111111111111111111111111111111111111111

# ---- gen-vanilla ----
gen() { "$BENCH" gen-vanilla "$@" >/dev/null 2>"$TMP/gen.err" || { cat "$TMP/gen.err"; return 1; }; }
ok "gen winning-post 2KiB, 3 sectors" gen winning-post --sector-size 2KiB --sectors 3 \
  --out "$TMP/win" --bincode-dir "$TMP/winb"
ok "gen window-post 2KiB, 3 sectors, partition 0" gen window-post --sector-size 2KiB --sectors 3 \
  --partition 0 --out "$TMP/w0" --bincode-dir "$TMP/w0b"
ok "gen window-post 2KiB, 3 sectors, partition 1 (padded)" gen window-post --sector-size 2KiB \
  --sectors 3 --partition 1 --out "$TMP/w1" --bincode-dir "$TMP/w1b"
ok "gen window-post V1 (5), partition 1" gen window-post --registered-proof 5 --sectors 3 \
  --partition 1 --randomness $R2 --miner-id 1234 --out "$TMP/v1" --bincode-dir "$TMP/v1b"

# request.json holds what the brief lists; vanilla.json is Go's
# json.Marshal([][]byte) of the bincode files (sector ids from the request).
check_files() { # DIR BINCODE_DIR KIND REGISTERED PARTITION MINER SECTORS...
  "$PY" - "$@" <<'EOF'
import base64, json, sys
d, bd, kind, reg, part, miner = sys.argv[1:7]
want_ids = [int(x) for x in sys.argv[7:]]
req = json.load(open(d + "/request.json"))
assert req["proof_kind"] == kind, req
assert req["registered_proof"] == int(reg) and req["partition"] == int(part), req
assert req["miner_id"] == int(miner) and req["vanilla"] == "vanilla.json", req
assert len(req["randomness"]) == 64 and int(req["randomness"], 16) >= 0
ids = [s["sector_id"] for s in req["sectors"]]
assert ids == want_ids, (ids, want_ids)
text = open(d + "/vanilla.json", "rb").read()
arr = json.loads(text)
assert isinstance(arr, list) and len(arr) == len(ids)
raw = [open("%s/sector-%d.vproof" % (bd, i), "rb").read() for i in ids]
for s, b, sec in zip(arr, raw, req["sectors"]):
    assert base64.b64decode(s, validate=True) == b
    assert int.from_bytes(b[0:8], "little") == sec["sector_id"]
    assert b[8:40].hex() == sec["comm_r"]
go = "[" + ",".join('"%s"' % base64.standard_b64encode(b).decode() for b in raw) + "]"
assert text == go.encode(), "vanilla.json is not json.Marshal([][]byte)"
EOF
}
WIN_SECTOR=$(sed -n 's/.*"sector_id": *\([0-9]*\).*/\1/p' "$TMP/win/request.json")
ok "winning files" check_files "$TMP/win" "$TMP/winb" winning-post 0 0 1000 "$WIN_SECTOR"
ok "window partition 0 files" check_files "$TMP/w0" "$TMP/w0b" window-post 10 0 1000 1 2
ok "window partition 1 files" check_files "$TMP/w1" "$TMP/w1b" window-post 10 1 1000 3
ok "window V1 partition 1 files" check_files "$TMP/v1" "$TMP/v1b" window-post 5 1 1234 3
# Deterministic: the same options give the same bytes.
ok "gen again" gen winning-post --sector-size 2KiB --sectors 3 --out "$TMP/win2"
ok "deterministic" cmp -s "$TMP/win/vanilla.json" "$TMP/win2/vanilla.json"

# ---- verify-vanilla: valid ----
vv() { "$BENCH" verify-vanilla "$@"; }
WIN="--kind winning-post --registered-proof 0 --randomness $R --prover-id $LEB1000"
WIN_B=$TMP/winb/sector-$WIN_SECTOR.vproof
expect 0 "winning vanilla.json" '^valid$' vv $WIN --vanilla "$TMP/win/vanilla.json"
expect 0 "winning bincode" '^valid$' vv $WIN --vanilla "$WIN_B"
expect 0 "winning --miner-id" '^valid$' vv --registered-proof 0 --randomness $R --miner-id 1000 \
  --vanilla "$WIN_B"
expect 0 "winning by name" '^valid$' vv --registered-proof StackedDrgWinning2KiBV1 \
  --randomness $R --miner-id 1000 --vanilla "$WIN_B"
expect 0 "winning request" '^valid$' vv --request "$TMP/win/request.json"
WIN10="--kind window-post --registered-proof 10 --randomness $R --miner-id 1000"
expect 0 "window partition 0" '^valid$' vv $WIN10 --vanilla "$TMP/w0/vanilla.json"
expect 0 "window partition 0, two bincode files" '^valid$' vv $WIN10 \
  --vanilla "$TMP/w0b/sector-1.vproof" "$TMP/w0b/sector-2.vproof"
expect 0 "window partition 0, --vanilla twice" '^valid$' vv $WIN10 \
  --vanilla "$TMP/w0b/sector-1.vproof" --vanilla="$TMP/w0b/sector-2.vproof"
expect 0 "window partition 1" '^valid$' vv $WIN10 --partition 1 --vanilla "$TMP/w1/vanilla.json"
expect 0 "window partition 1 request" '^valid$' vv --request "$TMP/w1/request.json"
expect 0 "bare vanilla.json as --request" '^valid$' vv --request "$TMP/w1/vanilla.json" \
  --registered-proof 10 --randomness $R --miner-id 1000 --partition 1
expect 0 "window V1 partition 1 request" '^valid$' vv --request "$TMP/v1/request.json"
REAL="--kind window-post --registered-proof 8 --randomness $ZERO --prover-id $LEB1000"
expect 0 "real 32 GiB vector" '^valid$' vv $REAL --vanilla "$VEC"
expect 0 "real vector, --miner-id 1000" '^valid$' vv --registered-proof 8 --randomness $ZERO \
  --miner-id 1000 --vanilla "$VEC"

# ---- invalid: exit 1 ----
tamper "$VEC" 76 "$TMP/real-path.vproof" # inclusion 0, base path level 0, first hash
expect 1 "real vector, a path hash changed" 'does not hash to the root' vv $REAL \
  --vanilla "$TMP/real-path.vproof"
tamper "$WIN_B" 140 "$TMP/win-path.vproof" # Single: 56 variant, root, leaf, 8 + 8, hash
expect 1 "winning, a path hash changed" '^invalid: .*does not hash' vv $WIN \
  --vanilla "$TMP/win-path.vproof"
tamper "$WIN_B" 0 "$TMP/win-id.vproof"
expect 1 "winning, the sector id changed" '^invalid: ' vv $WIN --vanilla "$TMP/win-id.vproof"
expect 1 "real vector, other randomness" '^invalid: .*is not the challenge' vv \
  --registered-proof 8 --randomness $R --prover-id $LEB1000 --vanilla "$VEC"
expect 1 "winning, other randomness" '^invalid: .*is not the challenge' vv \
  --registered-proof 0 --randomness $R2 --prover-id $LEB1000 --vanilla "$WIN_B"
expect 1 "window, other randomness" '^invalid: ' vv --registered-proof 10 --randomness $R2 \
  --miner-id 1000 --vanilla "$TMP/w0/vanilla.json"
expect 1 "real vector as 64 GiB (9)" '^invalid: .*needs Top' vv --registered-proof 9 \
  --randomness $ZERO --prover-id $LEB1000 --vanilla "$VEC"
expect 1 "real vector as Winning 32 GiB (3)" '^invalid: .*66 challenges' vv --registered-proof 3 \
  --randomness $ZERO --prover-id $LEB1000 --vanilla "$VEC"
expect 1 "window 2 KiB as Winning 2 KiB" '^invalid: ' vv --registered-proof 0 \
  --randomness $R --miner-id 1000 --vanilla "$TMP/w1/vanilla.json"
# ApiVersion 1.0.0 numbers challenges across partitions: partition 1's
# proof is not partition 0's.
expect 1 "V1 partition 1 as partition 0" '^invalid: ' vv --registered-proof 5 --randomness $R2 \
  --miner-id 1234 --partition 0 --vanilla "$TMP/v1/vanilla.json"
sed 's/"sector_id": 3/"sector_id": 7/' "$TMP/w1/request.json" >"$TMP/w1/other-sector.json"
expect 1 "request names another sector" 'sector_id: 3 is not the challenged sector 7' vv \
  --request "$TMP/w1/other-sector.json"

# ---- unusable: exit 2, one line ----
head -c 1000 "$VEC" >"$TMP/trunc.vproof"
expect 2 "truncated vector" 'unexpected end of input' vv $REAL --vanilla "$TMP/trunc.vproof"
head -c 100 "$WIN_B" >"$TMP/trunc-win.vproof"
expect 2 "truncated winning proof" 'trunc-win.vproof: vanilla_proofs\[0\]' vv $WIN \
  --vanilla "$TMP/trunc-win.vproof"
expect 2 "unknown registered proof" 'registered-proof: .99' vv --registered-proof 99 \
  --randomness $ZERO --prover-id $LEB1000 --vanilla "$VEC"
expect 2 "--kind disagrees with the registered proof" 'is a window-post proof' vv \
  --kind winning-post --registered-proof 8 --randomness $ZERO --prover-id $LEB1000 --vanilla "$VEC"
expect 2 "--kind junk" 'kind' vv --kind porep --registered-proof 8 --randomness $ZERO \
  --prover-id $LEB1000 --vanilla "$VEC"
expect 2 "two proofs for WinningPoSt" 'takes exactly 1' vv $WIN --vanilla "$WIN_B" "$WIN_B"
expect 2 "three proofs for a 2 KiB window partition" 'takes 1 to 2' vv $WIN10 \
  --vanilla "$TMP/w0/vanilla.json" "$TMP/w1/vanilla.json"
expect 2 "winning partition 1" 'only partition 0' vv $WIN --partition 1 --vanilla "$WIN_B"
expect 2 "randomness not canonical" 'randomness' vv --registered-proof 8 \
  --randomness $(printf 'f%.0s' {1..64}) --prover-id $LEB1000 --vanilla "$VEC"
expect 2 "randomness 31 bytes" 'randomness' vv --registered-proof 8 --randomness ${ZERO:2} \
  --prover-id $LEB1000 --vanilla "$VEC"
expect 2 "missing --randomness" 'missing --randomness' vv --registered-proof 8 \
  --prover-id $LEB1000 --vanilla "$VEC"
expect 2 "missing --prover-id" 'missing --prover-id' vv --registered-proof 8 --randomness $ZERO \
  --vanilla "$VEC"
expect 2 "missing --vanilla" 'missing --vanilla' vv $REAL
expect 2 "--vanilla without a file" 'needs a FILE' vv $REAL --vanilla
expect 2 "missing file" 'no-such' vv $REAL --vanilla "$TMP/no-such"
expect 2 "--prover-id with --miner-id" 'exclude' vv $REAL --miner-id 5 --vanilla "$VEC"
expect 2 "request with options" 'drop those options' vv --request "$TMP/w1/request.json" \
  --randomness $R
expect 2 "bare vanilla.json without options" 'needs --registered-proof' vv \
  --request "$TMP/w1/vanilla.json"
printf '["AAA*"]' >"$TMP/bad64.json"
expect 2 "bad base64" 'bad64.json: \[0\]: bad base64' vv $REAL --vanilla "$TMP/bad64.json"
printf '["AAAA"' >"$TMP/badjson.json"
expect 2 "broken JSON" 'badjson.json:1:' vv $REAL --vanilla "$TMP/badjson.json"
req_edit() { # req_edit NAME SED: a copy of w1's request, edited, in w1/NAME
  sed "$2" "$TMP/w1/request.json" >"$TMP/w1/$1"
}
req_edit bad-rand.json 's/"randomness": "../"randomness": "zz/'
expect 2 "request: bad randomness" 'bad-rand.json: randomness: ' vv --request "$TMP/w1/bad-rand.json"
req_edit bad-kind.json 's/"window-post"/"winning-post"/'
expect 2 "request: proof_kind disagrees" 'registered_proof: 10 .* is a window-post proof' vv \
  --request "$TMP/w1/bad-kind.json"
req_edit bad-comm.json 's/"comm_r": "../"comm_r": "/'
expect 2 "request: short comm_r" 'sectors\[0\].comm_r: 31 bytes' vv --request "$TMP/w1/bad-comm.json"
req_edit no-miner.json '/"miner_id"/d'
expect 2 "request: no miner_id" 'miner_id: missing' vv --request "$TMP/w1/no-miner.json"
req_edit no-vanilla.json 's/"vanilla.json"/"gone.json"/'
expect 2 "request: missing vanilla file" 'vanilla: cannot open' vv --request "$TMP/w1/no-vanilla.json"

# gen-vanilla refusals.
expect 2 "gen: partition past the end" 'has 2 partitions' "$BENCH" gen-vanilla window-post \
  --sector-size 2KiB --sectors 3 --partition 2 --out "$TMP/x"
expect 2 "gen: winning with a window proof" 'is a window-post proof' "$BENCH" gen-vanilla \
  winning-post --registered-proof 10 --out "$TMP/x"
expect 2 "gen: size and proof disagree" 'for 8MiB sectors' "$BENCH" gen-vanilla window-post \
  --sector-size 2KiB --registered-proof 11 --out "$TMP/x"
expect 2 "gen: randomness not canonical" 'randomness' "$BENCH" gen-vanilla window-post \
  --sector-size 2KiB --randomness $(printf 'f%.0s' {1..64}) --out "$TMP/x"
expect 2 "gen: not a sector size" 'sector size' "$BENCH" gen-vanilla winning-post \
  --sector-size 4KiB --out "$TMP/x"
expect 2 "gen: no --out" 'need --out' "$BENCH" gen-vanilla winning-post --sector-size 2KiB
expect 2 "gen: zero sectors" 'sectors' "$BENCH" gen-vanilla winning-post --sector-size 2KiB \
  --sectors 0 --out "$TMP/x"

echo "test_post_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
