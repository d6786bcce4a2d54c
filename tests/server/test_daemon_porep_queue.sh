#!/usr/bin/env bash
# cuzk-daemon scheduling 2 KiB PoRep C2 through python3-grpcio: priorities,
# cancel, await timeout (on the plain synthesis path), the batch collector;
# every returned proof is checked with cuzk-bench verify-seal. Test
# parameters are shared with test_porep_c2.sh.
# ctest-label: slow e2e
# Usage: test_daemon_porep_queue.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_porep_queue_e2e.py
