#!/usr/bin/env bash
# ctest-label: slow
# snarkjs 0.7.6 against cuzk on the circom circuits of tests/data/circom:
# `snarkjs groth16 verify` accepts cuzk-prove's proofs and refuses them with
# a changed public input; cuzk verifies snarkjs's proof made with a key of
# cuzk-bench zkey-setup (SHA-256); and snarkjs's `groth16 setup` on
# cz_ptau_write's powers of tau gives cz_zkey_setup's key byte for byte
# (sections 1 to 9). Needs node and the npm packages of tests/circom
# (package-lock.json): installed from npm's cache without the network
# when missing; without node or the packages the test is SKIPPED (77).
# Usage: test_circom_snarkjs.sh path/to/cuzk-bench   (from the repo root)
set -u
skip() { echo "test_circom_snarkjs: SKIPPED: $*"; exit 77; }
command -v node >/dev/null || skip "node is not installed"
SNARKJS=tests/circom/node_modules/.bin/snarkjs
if [ ! -x "$SNARKJS" ]; then
  command -v npm >/dev/null || skip "npm is not installed (tests/circom needs snarkjs 0.7.6)"
  (cd tests/circom && npm ci --offline --no-audit --no-fund >/dev/null 2>&1) ||
    skip "snarkjs 0.7.6 is not in npm's cache and the test does not use the network" \
         "(cd tests/circom && npm ci)"
fi
. tests/expect_exit.sh
. tests/groth16/circom_lib.sh
circom_setup "${1:?usage: $0 path/to/cuzk-bench}"

for c in $CIRCOM_CIRCUITS; do
  circom_prove "$c" || continue
  if [ ! -f "$d/verification_key.json" ]; then
    expect 0 "$c: snarkjs exports our key's vk" "" \
      "$SNARKJS" zkey export verificationkey "$d/circuit.zkey" "$d/verification_key.json"
  fi
  expect 0 "$c: snarkjs verifies our proof" "OK" \
    "$SNARKJS" groth16 verify "$d/verification_key.json" "$d/public.json" "$d/proof.json"
  bump_first_number "$d/public.json" "$d/public_bad.json"
  expect 1 "$c: snarkjs refuses a changed public input" "Invalid proof" \
    "$SNARKJS" groth16 verify "$d/verification_key.json" "$d/public_bad.json" "$d/proof.json"
done

# snarkjs proves with cuzk's SHA-256 key; cuzk verifies it.
d=$WORK/sha256_512
expect 0 "sha256_512: snarkjs proves with cuzk's key" "" \
  "$SNARKJS" groth16 prove "$d/circuit.zkey" "$d/witness.wtns" "$d/sp.json" "$d/spub.json"
expect 0 "sha256_512: snarkjs's public.json is ours" "" cmp "$d/spub.json" "$d/public.json"
expect 0 "sha256_512: cuzk verifies snarkjs's proof" "^OK$" \
  "$PROVE" verify "$d/verification_key.json" "$d/spub.json" "$d/sp.json"

# The same key from both setups: sections 1 to 9 (all but the last 68
# bytes, section 10's circuit hash and contribution count).
d=$WORK/many_public
expect 0 "zkey-setup with ptau" "" "$BENCH" zkey-setup --r1cs "$d/circuit.r1cs" \
  --zkey "$d/ours.zkey" --ptau "$d/ours.ptau" --delta-one
expect 0 "snarkjs groth16 setup on our ptau" "" \
  "$SNARKJS" groth16 setup "$d/circuit.r1cs" "$d/ours.ptau" "$d/theirs.zkey"
n=$(($(stat -c %s "$d/ours.zkey") - 68))
expect 0 "the same key, byte for byte" "" \
  cmp -n "$n" "$d/ours.zkey" "$d/theirs.zkey"
expect 0 "the same size" "" test "$(stat -c %s "$d/ours.zkey")" -eq "$(stat -c %s "$d/theirs.zkey")"
expect_report test_circom_snarkjs
