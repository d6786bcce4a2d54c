#!/usr/bin/env bash
# cuzk-daemon proving 2 KiB PoRep C2 under SIGHUP, SIGTERM (/readyz 503 while
# it drains) and kill -9 with a restart, and cuzk-bench single --c1 - (stdin)
# through it (daemon_signals_e2e.py). Test parameters are shared with
# test_porep_c2 (build/test-params).
# ctest-label: slow
# Usage: test_daemon_signals.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_signals_e2e.py
