#!/usr/bin/env bash
# cuzk-bench setup: writes the file the parameter store looks for (prove
# then loads it instead of running setup, and its proofs verify), makes the
# output directory, and a disk without room fails with the sizes and leaves
# nothing behind.
# Usage: test_setup_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }

D="$TMP/cache/sub"
"$BENCH" setup --synthetic chain --log-constraints 6 --threads 2 --out "$D" >"$TMP/out1" 2>"$TMP/err1"
ok "setup exits 0" "[ $? -eq 0 ]"
f="$D/cuzk-TEST-ONLY-synthetic-chain-6.params"
ok "the store's file written" "[ -s '$f' ] && grep -q '^setup.file $f path\$' '$TMP/out1'"
ok "its size as announced" "[ \$(stat -c %s '$f') -gt \$(awk '/^file.bytes_approx/ {print \$2}' '$TMP/out1') ]"
ok "points as announced" "[ \$(awk '/^stream.points / {print \$2}' '$TMP/out1') = \$(awk '/^work.points / {print \$2}' '$TMP/out1') ]"
ok "no temporary left" "[ \$(ls -A '$D' | wc -l) -eq 1 ]"
"$BENCH" prove --synthetic chain --log-constraints 6 --threads 2 --cache-dir "$D" >"$TMP/out2" 2>"$TMP/err2"
ok "prove exits 0" "[ $? -eq 0 ]"
ok "prove loads the file" "grep -q '^load_params ' '$TMP/out2' && ! grep -q '^setup ' '$TMP/out2'"
ok "its proof verifies" "grep -qx valid '$TMP/out2'"

# WindowPoSt 2 KiB: the store's file for that circuit (the name the
# prover's parameter lookup forms), and nothing else.
W="$TMP/window"
"$BENCH" --quiet setup --circuit window-post --sector-size 2KiB --threads 2 --out "$W" \
  >"$TMP/out4" 2>"$TMP/err4"
ok "window-post setup exits 0" "[ $? -eq 0 ]"
ok "window-post: the store's file" \
  "[ \$(ls '$W') = cuzk-TEST-ONLY-post-r1-v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params ]"
"$BENCH" setup --circuit window-post --sector-size 3KiB --out "$W" >/dev/null 2>"$TMP/err5"
ok "no WindowPoSt of 3 KiB: exit 2" "[ $? -eq 2 ] && grep -q 'no Window PoSt of sector size 3KiB' '$TMP/err5'"

E="$TMP/full"
"$BENCH" setup --synthetic sparse --log-constraints 6 --out "$E" --keep-free 999999999999999999 \
  >"$TMP/out3" 2>"$TMP/err3"
ok "no room exits 1" "[ $? -eq 1 ]"
ok "no room says the sizes" "grep -q 'not enough free disk space: the file needs [0-9]* bytes' '$TMP/err3'"
ok "no room leaves nothing" "[ -z \"\$(ls -A '$E')\" ]"

echo "test_setup_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
