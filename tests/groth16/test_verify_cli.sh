#!/usr/bin/env bash
# cuzk-bench verify: exit status 0 (valid), 1 (invalid), 2 (unusable input)
# on the real WinningPoSt and PoRep vectors and on broken variants of them.
# Usage: test_verify_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
WP=tests/vectors/winningpost-2kib
PR=tests/vectors/porep-2kib-v1_1
for f in $WP/winning-post-2kib.vk $WP/public_inputs.json $WP/vector.json \
         $PR/vk.hex $PR/public_inputs.json $PR/vector.json; do
  [ -f "$f" ] || { echo "missing vector file $f"; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0

# expect CODE DESCRIPTION [--out PATTERN] -- ARGS...: run verify, check the
# exit status and (optionally) that stdout+stderr match PATTERN.
expect() {
  local want=$1 desc=$2 pattern=""
  shift 2
  if [ "$1" = --out ]; then pattern=$2; shift 2; fi
  [ "$1" = -- ] && shift
  local out rc
  out=$("$BENCH" verify "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: $desc: exit $rc, expected $want; output: $out"; fail=$((fail + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -q -- "$pattern" <<<"$out"; then
    echo "FAIL: $desc: output lacks '$pattern': $out"; fail=$((fail + 1)); return
  fi
  if [ "$want" -eq 2 ] && [ "$(wc -l <<<"$out")" -ne 1 ]; then
    echo "FAIL: $desc: expected a one-line reason, got: $out"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

json_field() { sed -n "s/.*\"$1\": *\"\([0-9a-fA-F]*\)\".*/\1/p" "$2"; }
WP_PROOF=$(json_field proof_bytes_hex $WP/vector.json)
PR_PROOF=$(json_field proof_hex $PR/vector.json)
[ ${#WP_PROOF} -eq 384 ] && [ ${#PR_PROOF} -eq 384 ] || { echo "cannot read proofs"; exit 1; }
VK=$WP/winning-post-2kib.vk
IN=$WP/public_inputs.json

# The valid proofs, in each accepted form.
expect 0 "winningpost proof as hex" --out '^valid$' -- --vk $VK --public-inputs $IN --proof "$WP_PROOF"
expect 0 "0x-prefixed hex" -- --vk $VK --public-inputs $IN --proof "0x$WP_PROOF"
printf "$(sed 's/../\\x&/g' <<<"$WP_PROOF")" >"$TMP/proof.bin"
echo "$WP_PROOF" >"$TMP/proof.hex"
expect 0 "proof as a raw file" -- --vk $VK --public-inputs $IN --proof "$TMP/proof.bin"
expect 0 "proof as a hex file" -- --vk $VK --public-inputs $IN --proof "$TMP/proof.hex"
expect 0 "--opt=value form" -- --vk=$VK --public-inputs=$IN --proof="$WP_PROOF"
expect 0 "porep, compressed hex key" --out '^valid$' -- --vk $PR/vk.hex --vk-compressed --vk-hex \
  --public-inputs $PR/public_inputs.json --proof "$PR_PROOF"
expect 0 "porep, layout and hex detected" -- --vk $PR/vk.hex --public-inputs $PR/public_inputs.json \
  --proof "$PR_PROOF"

# Invalid proofs: exit 1.
SWAPPED=${WP_PROOF:288:96}${WP_PROOF:96:192}${WP_PROOF:0:96}   # C | B | A
expect 1 "A and C swapped" --out '^invalid: ' -- --vk $VK --public-inputs $IN --proof "$SWAPPED"
last=${WP_PROOF:383:1}; [ "$last" = 0 ] && new=1 || new=0
expect 1 "last proof digit changed" --out '^invalid: ' -- --vk $VK --public-inputs $IN \
  --proof "${WP_PROOF:0:383}$new"
sed '0,/"1000000000000000000000000000000000000000000000000000000000000000"/s//"1100000000000000000000000000000000000000000000000000000000000000"/' \
  $IN >"$TMP/in_tampered.json"
cmp -s $IN "$TMP/in_tampered.json" && { echo "could not tamper an input"; exit 1; }
expect 1 "an input changed" --out '^invalid: ' -- --vk $VK --public-inputs "$TMP/in_tampered.json" \
  --proof "$WP_PROOF"
expect 1 "porep proof with A and C swapped" -- --vk $PR/vk.hex \
  --public-inputs $PR/public_inputs.json --proof "${PR_PROOF:288:96}${PR_PROOF:96:192}${PR_PROOF:0:96}"

# Unusable input: exit 2 with a one-line reason.
expect 2 "missing vk file" --out 'no-such' -- --vk "$TMP/no-such.vk" --public-inputs $IN --proof "$WP_PROOF"
expect 2 "missing inputs file" --out 'no-such' -- --vk $VK --public-inputs "$TMP/no-such.json" --proof "$WP_PROOF"
expect 2 "missing proof file" --out 'no-such' -- --vk $VK --public-inputs $IN --proof "$TMP/no-such.proof"
head -c 5000 $VK >"$TMP/trunc.vk"
expect 2 "truncated vk" --out 'truncated' -- --vk "$TMP/trunc.vk" --public-inputs $IN --proof "$WP_PROOF"
head -c 13635 $VK >"$TMP/trunc1.vk"
expect 2 "vk one byte short" --out 'truncated' -- --vk "$TMP/trunc1.vk" --public-inputs $IN --proof "$WP_PROOF"
cp $VK "$TMP/long.vk"; printf 'x' >>"$TMP/long.vk"
expect 2 "vk with a trailing byte" --out 'trailing' -- --vk "$TMP/long.vk" --public-inputs $IN --proof "$WP_PROOF"
cp $VK "$TMP/bad.vk"; chmod u+w "$TMP/bad.vk"
dd if=/dev/zero of="$TMP/bad.vk" bs=1 seek=48 count=48 conv=notrunc status=none   # alpha's y = 0
expect 2 "vk point off the curve" --out 'not on the curve' -- --vk "$TMP/bad.vk" --public-inputs $IN --proof "$WP_PROOF"
head -c 100 $PR/vk.hex >"$TMP/trunc.hex"
expect 2 "truncated hex vk" --out 'truncated' -- --vk "$TMP/trunc.hex" --public-inputs $PR/public_inputs.json --proof "$PR_PROOF"
echo "zz$(cat $PR/vk.hex)" >"$TMP/badhex.vk"
expect 2 "bad hex in a --vk-hex key" --out 'hex' -- --vk "$TMP/badhex.vk" --vk-hex --public-inputs $PR/public_inputs.json --proof "$PR_PROOF"
printf '{"inputs": ["00' >"$TMP/malformed.json"
expect 2 "malformed JSON" --out 'JSON' -- --vk $VK --public-inputs "$TMP/malformed.json" --proof "$WP_PROOF"
echo '{"count": 1}' >"$TMP/noinputs.json"
expect 2 "JSON without inputs" --out 'inputs' -- --vk $VK --public-inputs "$TMP/noinputs.json" --proof "$WP_PROOF"
echo '{"inputs": ["0100000000000000000000000000000000000000000000000000000000000000"], "count": 1}' >"$TMP/one.json"
expect 2 "wrong input count" --out 'input count' -- --vk $VK --public-inputs "$TMP/one.json" --proof "$WP_PROOF"
echo '{"inputs": ["0100"], "count": 1}' >"$TMP/short.json"
expect 2 "short input hex" --out 'input 0' -- --vk $VK --public-inputs "$TMP/short.json" --proof "$WP_PROOF"
echo '{"inputs": ["ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"]}' >"$TMP/big.json"
expect 2 "input not below r" --out 'modulus' -- --vk $VK --public-inputs "$TMP/big.json" --proof "$WP_PROOF"
sed 's/"count": 132/"count": 131/' $IN >"$TMP/count.json"
expect 2 "count disagrees with the list" --out 'count' -- --vk $VK --public-inputs "$TMP/count.json" --proof "$WP_PROOF"
expect 2 "proof hex one byte short" --out '191 bytes' -- --vk $VK --public-inputs $IN --proof "${WP_PROOF:0:382}"
expect 2 "proof hex one byte long" --out '193 bytes' -- --vk $VK --public-inputs $IN --proof "${WP_PROOF}00"
expect 2 "odd-length proof hex" -- --vk $VK --public-inputs $IN --proof "${WP_PROOF:0:383}"
head -c 191 "$TMP/proof.bin" >"$TMP/short.bin"
expect 2 "proof file of 191 raw bytes" -- --vk $VK --public-inputs $IN --proof "$TMP/short.bin"
expect 2 "missing --proof" --out 'missing --proof' -- --vk $VK --public-inputs $IN
expect 2 "unknown option" --out 'unknown option' -- --vk $VK --public-inputs $IN --proof "$WP_PROOF" --bogus
expect 2 "stray argument" --out 'unexpected argument' -- --vk $VK --public-inputs $IN --proof "$WP_PROOF" extra

# --help succeeds and names every option.
if "$BENCH" verify --help | grep -q -- '--public-inputs'; then pass=$((pass + 1)); else
  echo "FAIL: --help"; fail=$((fail + 1)); fi

echo "test_verify_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
