#!/usr/bin/env bash
# cuzk-bench prove --backend: cpu proves on the CPU; cuda and auto prove on
# the GPU when there is one, else fall back to the CPU and say so on stderr
# (the proof verifies either way); any other name is a usage error.
# Usage: test_backend_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }

for b in cpu cuda auto; do
  "$BENCH" prove --synthetic sparse --log-constraints 6 --threads 2 --cache-dir "$TMP" \
    --backend $b >"$TMP/out" 2>"$TMP/err"
  ok "$b exits 0" "[ $? -eq 0 ]"
  ok "$b proof valid" "grep -qx valid '$TMP/out'"
  ok "$b total timing" "grep -q '^CUZK_TIMING: total_ms=' '$TMP/err'"
  if [ $b = cpu ]; then
    ok "cpu says nothing about backends" "! grep -q 'backend' '$TMP/err'"
  else
    # the GPU, named, or the fallback, with its reason
    ok "$b names its backend or its fallback" \
      "grep -q '^prove: backend cuda\$' '$TMP/err' || grep -q '^prove: CUDA backend unavailable (.*); proving on the CPU\$' '$TMP/err'"
    if grep -q '^prove: backend cuda$' "$TMP/err"; then
      for ph in prep_msm ntt_msm_h b_g2_msm batch_add tail_msm; do
        ok "$b timing $ph" "grep -q '^CUZK_TIMING: ${ph}_ms=' '$TMP/err'"
      done
    fi
  fi
done
"$BENCH" prove --synthetic sparse --log-constraints 6 --cache-dir "$TMP" --backend gpu \
  >"$TMP/out" 2>"$TMP/err"
ok "unknown backend exits 2" "[ $? -eq 2 ]"
ok "unknown backend explained" "grep -q 'cpu, cuda or auto' '$TMP/err'"

echo "test_backend_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
