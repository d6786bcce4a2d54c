#!/usr/bin/env bash
# The bounded load test: 400 calls from 8 clients mixing real 2 KiB
# WinningPoSt proofs, duplicate ids, malformed and garbage bytes, unknown
# jobs, cancels and short awaits (daemon_load_e2e.py); every answer as the
# request-id rules say, every proof verified. Test parameters are shared
# (build/test-params). The 200-call load of test_daemon (no proofs) stays
# there, where the sanitizer run covers it.
# ctest-label: slow
# Usage: test_daemon_load.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_load_e2e.py
