#!/usr/bin/env bash
# ctest-label: slow
# cuzk-prove on the circom circuits of tests/data/circom (no node needed):
# each proof verifies (cuzk-prove verify, with verification_key.json or the
# zkey), public.json is snarkjs's byte for byte, snarkjs's proof verifies
# here; a changed public input or proof digit is refused; a witness that
# breaks a constraint gets no proof and one line saying so (naming the
# constraint with --r1cs). SHA-256(512)'s outputs are checked against
# hashlib. Usage: test_circom_prove.sh path/to/cuzk-bench (from the repo root)
set -u
. tests/expect_exit.sh
. tests/groth16/circom_lib.sh
circom_setup "${1:?usage: $0 path/to/cuzk-bench}"

for c in $CIRCOM_CIRCUITS; do
  circom_prove "$c" || continue
  expect 0 "$c: public.json is snarkjs's" "" cmp "$d/public.json" "$d/snarkjs_public.json"
  vk=$d/verification_key.json
  [ -f "$vk" ] || vk=$d/circuit.zkey
  expect 0 "$c: our proof verifies" "^OK$" "$PROVE" verify "$vk" "$d/public.json" "$d/proof.json"
  if [ -f "$d/snarkjs_proof.json" ]; then
    expect 0 "$c: snarkjs's proof verifies" "^OK$" \
      "$PROVE" verify "$d/circuit.zkey" "$d/snarkjs_public.json" "$d/snarkjs_proof.json"
  fi
  bump_first_number "$d/public.json" "$d/public_bad.json"
  expect 1 "$c: changed public input" "INVALID: the proof does not verify" \
    "$PROVE" verify "$vk" "$d/public_bad.json" "$d/proof.json"
  change_digit "$d/proof.json" "$d/proof_bad.json"
  expect 1 "$c: changed proof digit" "cuzk-prove: " \
    "$PROVE" verify "$vk" "$d/public.json" "$d/proof_bad.json"
  bump_last_value "$d/witness.wtns" "$d/bad.wtns"
  rm -f "$d/p2.json" "$d/q2.json"
  expect 1 "$c: unsatisfying witness" "does not satisfy the circuit" \
    "$PROVE" "$d/circuit.zkey" "$d/bad.wtns" "$d/p2.json" "$d/q2.json"
  expect 0 "$c: no proof written" "" test ! -e "$d/p2.json"
  expect 1 "$c: unsatisfying witness, --r1cs" "does not satisfy constraint [0-9]* of" \
    "$PROVE" --r1cs "$d/circuit.r1cs" "$d/circuit.zkey" "$d/bad.wtns" "$d/p2.json" "$d/q2.json"
done

# The SHA-256 circuit's 256 output bits are SHA-256 of its 512 input bits.
expect 0 "sha256_512: outputs are hashlib's digest" "" python3 - "$WORK/sha256_512" <<'PY'
import hashlib, json, sys
d = sys.argv[1]
bits = [int(b) for b in json.load(open(d + "/input.json"))["in"]]
msg = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, 512, 8))
want = "".join(format(b, "08b") for b in hashlib.sha256(msg).digest())
got = "".join(json.load(open(d + "/public.json")))
sys.exit(0 if got == want else 1)
PY

expect 2 "usage" "expected 4 arguments" "$PROVE" only-one-argument
expect 1 "missing zkey" "cannot\|No such file" "$PROVE" "$WORK/none.zkey" "$WORK/tiny/witness.wtns" \
  "$WORK/p.json" "$WORK/q.json"
expect 1 "witness of another circuit" "the witness has" "$PROVE" "$WORK/tiny/circuit.zkey" \
  "$WORK/dense_chain/witness.wtns" "$WORK/p.json" "$WORK/q.json"
expect_report test_circom_prove
