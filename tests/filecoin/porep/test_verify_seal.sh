#!/usr/bin/env bash
# cuzk-bench verify-seal on the polka-storage 2 KiB PoRep vector (a real
# StackedDRG proof; see its README: porep_id zero, API 1.1.0, sector 77):
# it verifies (exit 0); changing any single input makes it invalid (exit 1);
# bad hex, wrong lengths, conflicting or missing options are unusable
# input (exit 2, one line).
# Usage: test_verify_seal.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
V=tests/vectors/porep-2kib-v1_1
WPVK=tests/vectors/winningpost-2kib/winning-post-2kib.vk
for f in $V/vk.hex $V/vector.json $WPVK; do
  [ -f "$f" ] || { echo "missing vector file $f"; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"

field() { sed -n "s/.*\"$1\": *\"\{0,1\}\([0-9a-fA-F.]*\)\"\{0,1\},\{0,1\}$/\1/p" $V/vector.json | head -1; }
PROOF=$(field proof_hex)
COMM_R=$(field comm_r_hex)
COMM_D=$(field comm_d_hex)
TICKET=$(field ticket_hex)
SEED=$(field seed_hex)
PROVER=$(field prover_id_hex)
PORE=$(field porep_id_hex)
SECTOR=$(sed -n 's/.*"sector_id": *\([0-9]*\).*/\1/p' $V/vector.json)
API=$(field api_version)
[ ${#PROOF} -eq 384 ] && [ ${#COMM_R} -eq 64 ] && [ ${#COMM_D} -eq 64 ] && [ ${#TICKET} -eq 64 ] &&
  [ ${#SEED} -eq 64 ] && [ ${#PROVER} -eq 64 ] && [ ${#PORE} -eq 64 ] && [ "$SECTOR" = 77 ] &&
  [ "$API" = 1.1.0 ] || { echo "cannot read the vector"; exit 1; }

# The vector's values, overridable one at a time: run NAME=VALUE ... -- EXTRA
run() {
  local vk=$V/vk.hex vkc=--vk-compressed sz=2KiB pid=$PORE api=$API sid=$SECTOR prov=$PROVER tk=$TICKET sd=$SEED \
    cr=$COMM_R cd=$COMM_D pf=$PROOF
  while [ $# -gt 0 ] && [ "$1" != -- ]; do local "$1"; shift; done
  [ "${1:-}" = -- ] && shift
  "$BENCH" verify-seal --vk "$vk" $vkc --sector-size "$sz" --porep-id "$pid" \
    --api-version "$api" --sector-id "$sid" --prover-id "$prov" --ticket "$tk" --seed "$sd" \
    --comm-r "$cr" --comm-d "$cd" --proof "$pf" "$@"
}


# Change the hex digit at position $2 of $1 (0 <-> 1, anything else -> 0).
flip() { local s=$1 i=$2 c=${1:$2:1}; [ "$c" = 0 ] && c=1 || c=0; echo "${s:0:i}$c${s:i+1}"; }

# Valid, in each accepted form.
expect 0 "the vector verifies" '^valid$' run
expect 0 "sector size in bytes" '^valid$' run sz=2048
expect 0 "0x-prefixed values" '^valid$' run pid=0x$PORE tk=0x$TICKET cr=0x$COMM_R
expect 0 "--partitions 1" '^valid$' run -- --partitions 1
printf "$(sed 's/../\\x&/g' <<<"$PROOF")" >"$TMP/proof.bin"
echo "$PROOF" >"$TMP/proof.hex"
expect 0 "proof as a raw file" '^valid$' run pf="$TMP/proof.bin"
expect 0 "proof as a hex file" '^valid$' run pf="$TMP/proof.hex"
expect 0 "key layout and hex detected" '^valid$' run vkc=
expect 0 "key named hex" '^valid$' run vkc=--vk-hex
# 1.2.0 differs from 1.1.0 only outside the PoRep graph (sdr.h): same verdict.
expect 0 "api 1.2.0 has 1.1.0's graph" '^valid$' run api=1.2.0

# Any single input changed: invalid.
expect 1 "sector id 78" '^invalid: ' run sid=78
expect 1 "sector id 0" '^invalid: ' run sid=0
expect 1 "prover id changed" '^invalid: ' run prov=$(flip $PROVER 63)
expect 1 "ticket changed" '^invalid: ' run tk=$(flip $TICKET 10)
expect 1 "seed changed" '^invalid: ' run sd=$(flip $SEED 0)
expect 1 "comm_r changed" '^invalid: ' run cr=$(flip $COMM_R 1)
expect 1 "comm_d changed" '^invalid: ' run cd=$(flip $COMM_D 40)
expect 1 "porep id changed" '^invalid: ' run pid=$(flip $PORE 1)
expect 1 "api version 1.0.0" '^invalid: ' run api=1.0.0
expect 1 "a proof byte changed (C)" '^invalid: ' run pf=$(flip $PROOF 383)
expect 1 "a proof byte changed (A)" '^invalid: ' run pf=$(flip $PROOF 95)
expect 1 "A and C swapped" 'pairing check of partition 0' run pf="${PROOF:288:96}${PROOF:96:192}${PROOF:0:96}"
# The registered proofs of that size have porep_id [id, 0, ...]: id 5 is
# V1_1 with porep_id 5, id 0 has porep_id 0 but API 1.0.0 (README).
REG="--vk $V/vk.hex --sector-id 77 --prover-id $PROVER --ticket $TICKET --seed $SEED --comm-r $COMM_R --comm-d $COMM_D --proof $PROOF"
expect 1 "registered proof 5" '^invalid: ' "$BENCH" verify-seal --registered-proof 5 $REG
expect 1 "registered proof StackedDrg2KiBV1" '^invalid: ' "$BENCH" verify-seal --registered-proof StackedDrg2KiBV1 $REG
# Two partitions: the second copy has partition 1's challenges, so fails.
expect 1 "two partitions, the second wrong" 'pairing check of partition 1 fails' \
  run pf="$PROOF$PROOF" -- --partitions 2

# Unusable input: exit 2, one line.
expect 2 "bad hex in the ticket" 'ticket' run tk="zz${TICKET:2}"
expect 2 "ticket 31 bytes" '31 bytes' run tk="${TICKET:2}"
expect 2 "ticket 33 bytes" '33 bytes' run tk="${TICKET}00"
expect 2 "seed of odd length" 'seed' run sd="${SEED:1}"
expect 2 "prover id empty" 'prover-id' run prov=
expect 2 "porep id 31 bytes" 'porep-id' run pid="${PORE:2}"
expect 2 "comm_r not below r" 'comm-r.*modulus' run cr=$(printf 'f%.0s' {1..64})
expect 2 "comm_d all zero" 'comm-d is all zero' run cd=$PORE
expect 2 "sector id not a number" 'sector-id' run sid=abc
expect 2 "sector id negative" 'sector-id' run sid=-1
expect 2 "api version 2.0.0" 'api-version' run api=2.0.0
expect 2 "not a Filecoin sector size" 'sector size' run sz=4KiB
expect 2 "sector size junk" 'sector-size' run sz=2KB
expect 2 "proof 191 bytes" '191 bytes' run pf="${PROOF:2}"
expect 2 "proof 193 bytes" '193 bytes' run pf="${PROOF}00"
expect 2 "two proofs, one partition" '384 bytes' run pf="$PROOF$PROOF"
expect 2 "one proof, two partitions" 'expected 384' run -- --partitions 2
expect 2 "odd-length proof hex" 'proof' run pf="${PROOF:1}"
expect 2 "missing proof file" 'no-such' run pf="$TMP/no-such"
expect 2 "missing vk file" 'no-such' run vk="$TMP/no-such.vk"
expect 2 "vk of another circuit" 'public inputs' run vk=$WPVK vkc=
expect 2 "registered proof and porep id" 'excludes' "$BENCH" verify-seal --registered-proof 5 --porep-id "$PORE" $REG
expect 2 "unknown registered proof" 'unknown seal proof' "$BENCH" verify-seal --registered-proof 20 $REG
expect 2 "no configuration" 'missing --sector-size' "$BENCH" verify-seal $REG
expect 2 "missing --api-version" 'missing --api-version' "$BENCH" verify-seal --sector-size 2KiB --porep-id "$PORE" $REG
for opt in sector-id prover-id ticket seed comm-r comm-d; do
  args=$(sed "s/--$opt [^ ]*//" <<<"$REG")
  expect 2 "missing --$opt" "missing --$opt" "$BENCH" verify-seal --registered-proof 5 $args
done
expect 2 "missing --proof" 'missing --proof' "$BENCH" verify-seal --registered-proof 5 ${REG% --proof*}
expect 2 "unknown option" 'unknown option' run -- --c2 x

if "$BENCH" verify-seal --help | grep -q -- '--porep-id'; then pass=$((pass + 1)); else
  echo "FAIL: --help"; fail=$((fail + 1)); fi

expect_report test_verify_seal
