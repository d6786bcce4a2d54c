#!/usr/bin/env bash
# WinningPoSt and WindowPoSt in process, end to end: gen-vanilla seals test
# sectors and writes the vanilla proofs, prove --request makes the proof
# (test parameters, cached with the other tests' in build/test-params),
# verify-post checks it from the request's randomness and sectors alone.
# WindowPoSt over 3 sectors: both partitions, the second padded.
# 2 KiB in the suite; `make test-8mib` runs it with CUZK_SECTOR_SIZE=8MiB.
# Usage: test_post_roundtrip.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
SIZE=${CUZK_SECTOR_SIZE:-2KiB}
CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$BENCH")/test-params}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"

# field REQUEST EXPR: a value of request.json (python3: the file is JSON).
field() { /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

roundtrip() { # KIND SECTORS PARTITION
  local d=$TMP/$1-$2-$3
  expect 0 "gen-vanilla $1 $SIZE, $2 sectors, partition $3" "request" \
    "$BENCH" gen-vanilla "$1" --sector-size "$SIZE" --sectors "$2" --partition "$3" --out "$d"
  local req=$d/request.json
  [ -f "$req" ] || return
  expect 0 "prove $1 partition $3" "verified yes" \
    "$BENCH" prove --request "$req" --cache-dir "$CACHE" --out "$d/proof.bin" --vk-out "$d/vk.bin"
  local sectors prover
  sectors=$(field "$req" '",".join("%d:%s" % (s["sector_id"], s["comm_r"]) for s in r["sectors"])')
  prover=$(field "$req" '(lambda n: bytes([(n >> (7*i) & 0x7f) | (0x80 if n >> (7*(i+1)) else 0) for i in range(max(1, (n.bit_length() + 6) // 7))]))(r["miner_id"]).hex().ljust(64, "0")')
  local args=(verify-post --vk "$d/vk.bin" --registered-proof "$(field "$req" 'r["registered_proof"]')"
    --randomness "$(field "$req" 'r["randomness"]')" --prover-id "$prover" --sectors "$sectors"
    --partition "$3" --proof "$d/proof.bin")
  expect 0 "verify-post $1 partition $3" "^valid" "$BENCH" "${args[@]}"
  # Another sector list is another statement.
  expect 1 "verify-post $1 partition $3 for sector 99" "invalid" "$BENCH" "${args[@]}" \
    --sectors "99:${sectors#*:}"
}

roundtrip winning-post 3 0
# Outputs are written whole or not at all: a failed write names the reason
# and leaves no file behind.
out=$("$BENCH" prove --request "$TMP/winning-post-3-0/request.json" --cache-dir "$CACHE" \
  --out "$TMP/missing/proof.bin" 2>&1)
if [ $? -eq 2 ] && grep -q "^prove: cannot create .*No such file or directory" <<<"$out" &&
  [ ! -e "$TMP/missing" ]; then pass=$((pass + 1))
else echo "FAIL: prove --out into a missing directory: $out"; fail=$((fail + 1)); fi
roundtrip window-post 3 0
roundtrip window-post 3 1
expect_report test_post_roundtrip
