#!/usr/bin/env bash
# cuzk-bench prove: setup is cached on the first run and reused on the
# second, every prover phase prints one CUZK_TIMING line, proofs verify,
# and a corrupt cache file is detected and replaced.
# Usage: test_prove_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }

for shape in chain sparse; do
  "$BENCH" prove --synthetic $shape --log-constraints 5 --threads 2 --cache-dir "$TMP" \
    >"$TMP/out1" 2>"$TMP/err1"
  ok "$shape first run exits 0" "[ $? -eq 0 ]"
  ok "$shape first run runs setup" "grep -q '^setup ' '$TMP/out1'"
  ok "$shape cache file written" "[ -s '$TMP/cuzk-TEST-ONLY-synthetic-$shape-5.params' ]"
  for ph in synthesis ntt_h msm_h msm_l msm_a msm_b_g1 msm_b_g2 batch_add tail_msm total; do
    ok "$shape timing $ph" "[ \$(grep -c '^CUZK_TIMING: ${ph}_ms=[0-9][0-9]*\$' '$TMP/err1') -eq 1 ]"
  done
  "$BENCH" prove --synthetic $shape --log-constraints 5 --count 3 --checked --cache-dir "$TMP" \
    >"$TMP/out2" 2>"$TMP/err2"
  ok "$shape second run exits 0" "[ $? -eq 0 ]"
  ok "$shape second run loads the cache" "grep -q '^load_params ' '$TMP/out2' && ! grep -q '^setup ' '$TMP/out2'"
  ok "$shape second run valid" "grep -qx valid '$TMP/out2'"
done

# A truncated cache file is reported and replaced.
f="$TMP/cuzk-TEST-ONLY-synthetic-chain-5.params"
head -c 2000 "$f" >"$f.cut" && mv "$f.cut" "$f"
"$BENCH" prove --synthetic chain --log-constraints 5 --cache-dir "$TMP" >"$TMP/out3" 2>"$TMP/err3"
ok "truncated cache: exit 0" "[ $? -eq 0 ]"
ok "truncated cache: reported" "grep -q 'unusable' '$TMP/err3'"
ok "truncated cache: setup again" "grep -q '^setup ' '$TMP/out3'"

"$BENCH" prove --synthetic ring --log-constraints 5 --no-cache >/dev/null 2>&1
ok "unknown shape: exit 2" "[ $? -eq 2 ]"
"$BENCH" prove --synthetic chain --log-constraints 1 --no-cache >/dev/null 2>&1
ok "too small: exit 2" "[ $? -eq 2 ]"

echo "test_prove_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
