#!/usr/bin/env bash
# cuzk-daemon with emulated GPUs (gpus.test_emulated_devices, TEST ONLY) under
# the work a sealing machine sees: 40 jobs of every kind (2 KiB PoRep C2,
# WinningPoSt, WindowPoSt, SnapDeals) on 4 devices x 2 workers with faults
# injected on two of them, each proof checked by its cuzk-bench verifier; and
# a WinningPoSt submitted while PoRep partitions hold both of 2 devices
# takes the next free device ahead of the queued PoRep partitions.
# ctest-label: slow e2e
# Usage: test_daemon_gpus_mixed.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_gpus_mixed_e2e.py
