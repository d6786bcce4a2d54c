#!/usr/bin/env bash
# cuzk-daemon under SIGHUP while proving, SIGTERM (/readyz 503 while it
# drains a 2 KiB PoRep C2 that cuzk-bench single --c1 - awaits, the C1 on
# stdin) and kill -9 with a restart (daemon_signals_e2e.py); the proofs where
# the kind is not the point are 2 KiB WinningPoSt. Test parameters are
# shared with test_porep_c2 (build/test-params).
# ctest-label: slow
# Usage: test_daemon_signals.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_signals_e2e.py
