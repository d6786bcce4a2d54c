#!/usr/bin/env bash
# The CUDA backend's device check, for a machine with an NVIDIA GPU (not in
# ctest). From the repo root:
#   bash tests/cuda/gpu_check.sh [BUILD_DIR]        (default build-gpu)
# Builds Release with -DCUZK_CUDA=ON for this GPU's architecture only (fast),
# then runs cuzk-gpu-check on every visible device (H/NTT, G1 MSM
# 2^20..2^26 on the first, up to 2^24 on the others, batch_add, whole
# sparse and chain proofs against the CPU backend, bit for bit, proofs
# verified), one cuzk-bench prove --backend cuda, and, when cuzk-daemon was
# built (gRPC packages present), every device in one daemon proving
# WinningPoSt jobs (tests/cuda/gpu_daemon_check.sh). Prints `name value
# unit` lines (gpuN.name for device N); the last line is `gpu_check ok` or
# `gpu_check FAILED`.
# Knobs: CUZK_GPU_MIN_LOG (20), CUZK_GPU_MAX_LOG (26), CUZK_GPU_PROOF_LOG
# (16), CUZK_GPU_TIMEOUT (seconds for the check program, 360): the defaults
# fit a 10-minute device slot with time left to rerun smaller.
set -u
BUILD=${1:-build-gpu}
MIN=${CUZK_GPU_MIN_LOG:-20}
MAX=${CUZK_GPU_MAX_LOG:-26}
PLOG=${CUZK_GPU_PROOF_LOG:-16}
LIMIT=${CUZK_GPU_TIMEOUT:-360}
T0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,compute_cap --format=csv,noheader 2>/dev/null || echo "nvidia-smi: none"
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
ARCH=${ARCH:-90}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCUZK_CUDA_ARCHS="$ARCH" >"$BUILD.cmake.log" 2>&1 \
  || { tail -20 "$BUILD.cmake.log"; echo "gpu_check FAILED (configure)"; exit 1; }
TARGETS="cuzk-gpu-check cuzk-bench"
grep -q '^cuzk-daemon:' "$BUILD/Makefile" 2>/dev/null && TARGETS="$TARGETS cuzk-daemon"
cmake --build "$BUILD" -j"$(nproc)" --target $TARGETS >"$BUILD.build.log" 2>&1 \
  || { grep -E 'error' -A3 "$BUILD.build.log" | head -40; echo "gpu_check FAILED (build)"; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
rc=0
N=$("$BUILD/cuzk-gpu-check" --count)
echo "devices ${N:-0}"
[ "${N:-0}" -ge 1 ] || { echo "gpu_check FAILED (no device)"; exit 3; }
# The first device in full; the others up to 2^24, so that 8 devices fit.
for ((d = 0; d < N; d++)); do
  max=$MAX; [ $d -gt 0 ] && [ "$max" -gt 24 ] && max=24
  timeout "$LIMIT" "$BUILD/cuzk-gpu-check" --device $d --min-log "$MIN" --max-log "$max" \
    --proof-log "$PLOG" | sed "s/^/gpu$d./"
  drc=${PIPESTATUS[0]}
  [ $drc -eq 124 ] && echo "gpu$d: cuzk-gpu-check timed out after $LIMIT s (rerun with a smaller CUZK_GPU_MAX_LOG)"
  [ $drc -eq 0 ] || rc=1
done
# The bench end to end (its own setup, proof on the GPU, verification).
out=$(timeout 120 "$BUILD/cuzk-bench" prove --synthetic sparse --log-constraints 16 --no-cache \
  --backend cuda --threads 0 2>&1)
bench_rc=$?
echo "$out" | grep -E '^(prove|valid|invalid|CUZK_TIMING)'
[ $bench_rc -eq 0 ] || { echo "cuzk-bench prove --backend cuda: exit $bench_rc"; rc=1; }
# Proved on the GPU, not somewhere else: named, with the device phases.
grep -qx 'prove: backend cuda' <<<"$out" || { echo "cuzk-bench prove: the GPU was not used"; rc=1; }
grep -q '^CUZK_TIMING: ntt_msm_h_ms=' <<<"$out" || { echo "cuzk-bench prove: no GPU phase timings"; rc=1; }
if [ -x "$BUILD/cuzk-daemon" ]; then
  bash tests/cuda/gpu_daemon_check.sh "$BUILD" "$N" || rc=1
else
  echo "daemon_check skipped (cuzk-daemon not built: no gRPC packages)"
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
if [ $rc -eq 0 ]; then echo "gpu_check ok"; else echo "gpu_check FAILED (rc $rc)"; fi
exit $rc
