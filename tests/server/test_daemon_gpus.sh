#!/usr/bin/env bash
# cuzk-daemon with two emulated GPUs (gpus.test_emulated_devices, TEST ONLY):
# WinningPoSt 2 KiB proofs (the smallest circuit: emulation is slow) spread
# across the devices and
# proved there, every proof checked with cuzk-bench verify-post; GetStatus
# lists each device (name, memory, health, partitions proved), GET /status
# has gpus and /metrics the per-device series (cuzk_gpu_faults_total...).
# ctest-label: slow
# Usage: test_daemon_gpus.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_gpus_e2e.py
