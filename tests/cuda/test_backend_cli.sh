#!/usr/bin/env bash
# cuzk-bench prove --backend: cpu proves on the CPU. With a GPU (this build
# has CUDA and the driver lists a device), cuda and auto both prove on it.
# Without one, cuda exits 1 with the reason and auto proves on the CPU and
# says so. Every proof verifies; any other name is a usage error (exit 2).
# Whether a GPU is there is asked of the build and the driver, not of the
# code under test, so exactly one outcome passes.
# Usage: test_backend_cli.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }

# CUZK_CUDA_BUILT comes from ctest (CMakeLists.txt); run by hand, the
# backend's symbols say it. CUZK_EXPECT_GPU=0|1 overrides the driver check,
# as for test_czg_prover (tests/cuda/gpu_present.h).
built=${CUZK_CUDA_BUILT:-}
if [ -z "$built" ]; then
  if [ "$(nm "$BENCH" 2>/dev/null | grep -c cz_gpu_cuda_open)" -gt 0 ]; then built=ON; else built=OFF; fi
fi
case ${CUZK_EXPECT_GPU:-} in
  0) gpu=0 ;;
  1) gpu=1 ;;
  *) if [ -e /dev/nvidia0 ] || [ -n "$(ls /proc/driver/nvidia/gpus 2>/dev/null)" ]; then gpu=1; else gpu=0; fi ;;
esac
[ "$built" = ON ] || gpu=0
echo "test_backend_cli: CUDA built $built, GPU expected $gpu"

prove() {
  "$BENCH" prove --synthetic sparse --log-constraints 6 --threads 2 --cache-dir "$TMP" \
    --backend "$1" >"$TMP/out" 2>"$TMP/err"
}
proved() { # $1: backend name; the proof verified, with its timing
  ok "$1 proof valid" "grep -qx valid '$TMP/out'"
  ok "$1 total timing" "grep -q '^CUZK_TIMING: total_ms=' '$TMP/err'"
}
on_gpu() { # $1: backend name; named, with the GPU phases
  ok "$1 names the GPU" "grep -q '^prove: backend cuda\$' '$TMP/err'"
  for ph in prep_msm ntt_msm_h b_g2_msm batch_add tail_msm; do
    ok "$1 timing $ph" "grep -q '^CUZK_TIMING: ${ph}_ms=' '$TMP/err'"
  done
}

prove cpu
ok "cpu exits 0" "[ $? -eq 0 ]"
proved cpu
ok "cpu says nothing about backends" "! grep -q 'backend' '$TMP/err'"

prove cuda
rc=$?
if [ $gpu = 1 ]; then
  ok "cuda exits 0" "[ $rc -eq 0 ]"
  proved cuda
  on_gpu cuda
else
  ok "cuda without a device exits 1 (got $rc)" "[ $rc -eq 1 ]"
  ok "cuda without a device says why" "grep -q '^prove: --backend cuda: no usable CUDA device: .' '$TMP/err'"
  ok "cuda without a device proves nothing" "[ ! -s '$TMP/out' ] || ! grep -q valid '$TMP/out'"
fi

prove auto
ok "auto exits 0" "[ $? -eq 0 ]"
proved auto
if [ $gpu = 1 ]; then
  on_gpu auto
else
  ok "auto falls back and says so" \
    "grep -q '^prove: CUDA backend unavailable (.*); proving on the CPU\$' '$TMP/err'"
  ok "auto on the CPU: no GPU phases" "! grep -q '^CUZK_TIMING: ntt_msm_h_ms=' '$TMP/err'"
fi
"$BENCH" prove --synthetic sparse --log-constraints 6 --cache-dir "$TMP" --backend gpu \
  >"$TMP/out" 2>"$TMP/err"
ok "unknown backend exits 2" "[ $? -eq 2 ]"
ok "unknown backend explained" "grep -q 'cpu, cuda or auto' '$TMP/err'"

echo "test_backend_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
