#!/usr/bin/env bash
# cuzk-bench verify-post on the official WinningPoSt 2 KiB vector (a real
# proof made by filecoin-ffi under Filecoin's v28 key, tests/vectors/
# winningpost-2kib): from vector.json alone (randomness, miner 1000 ->
# prover id, sector 7, comm_r = the sealed CID's last 32 bytes) it
# verifies (exit 0); any changed input or proof byte is invalid (exit 1);
# unusable input is exit 2 with one line.
# Usage: test_verify_post.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
V=tests/vectors/winningpost-2kib
for f in $V/vector.json $V/winning-post-2kib.vk; do
  [ -f "$f" ] || { echo "missing vector file $f"; exit 1; }
done
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"
field() { sed -n "s/.*\"$1\": *\"\{0,1\}\([0-9a-fA-F]*\)\"\{0,1\},\{0,1\}$/\1/p" $V/vector.json | head -1; }
PROOF=$(field proof_bytes_hex)
RAND=$(field randomness_hex)
CID=$(field sealed_cid_bytes_hex)
COMM_R=${CID: -64}
SECTOR=$(field sector_number)
MINER=$(field miner_id)
[ ${#PROOF} -eq 384 ] && [ ${#RAND} -eq 64 ] && [ ${#COMM_R} -eq 64 ] && [ "$SECTOR" = 7 ] &&
  [ "$MINER" = 1000 ] || { echo "cannot read the vector"; exit 1; }
# LEB128(1000) = e8 07, zero-padded to 32 bytes.
PROVER=e807$(printf '0%.0s' $(seq 60))

run() {
  local rp=0 rd=$RAND pv=$PROVER sc="$SECTOR:$COMM_R" pf=$PROOF vk=$V/winning-post-2kib.vk
  while [ $# -gt 0 ] && [ "$1" != -- ]; do local "$1"; shift; done
  [ "${1:-}" = -- ] && shift
  "$BENCH" verify-post --vk "$vk" --registered-proof "$rp" --randomness "$rd" --prover-id "$pv" \
    --sectors "$sc" --proof "$pf" "$@"
}
# flip HEX POS: HEX with the hex digit at POS changed
flip() { local h=$1 p=$2 c=${1:$2:1}; local n; n=$(printf '%x' $(( (16#$c + 1) % 16 ))); echo "${h:0:$p}$n${h:$((p + 1))}"; }

expect 0 "the official proof under the official key" "^valid" run
expect 1 "another sector number" "invalid" run sc="8:$COMM_R"
expect 1 "another comm_r" "invalid" run sc="$SECTOR:$(flip "$COMM_R" 0)"
expect 1 "other randomness" "invalid" run rd="$(flip "$RAND" 2)"
for pos in 1 95 96 200 287 288 383; do
  expect 1 "proof hex digit $pos changed" "invalid" run pf="$(flip "$PROOF" $pos)"
done
expect 2 "a WindowPoSt registered proof for a WinningPoSt key" "public inputs" run rp=5
expect 2 "registered proof 15" "not a registered PoSt proof" run rp=15
expect 2 "randomness >= r" "randomness" run rd=ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
expect 2 "a short proof" "expected 192" run pf="${PROOF:0:382}"
expect 2 "bad sector list" "SECTOR_ID:COMM_R" run sc="seven"
expect 2 "a short comm_r" "comm_r" run sc="7:abcd"
expect 2 "partition 1 of a WinningPoSt" "partition" run -- --partition 1
expect 2 "two sectors for a WinningPoSt" "" run sc="$SECTOR:$COMM_R,$SECTOR:$COMM_R"
expect 2 "no --proof" "missing" "$BENCH" verify-post --vk $V/winning-post-2kib.vk

expect_report test_verify_post
