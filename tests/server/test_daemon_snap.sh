#!/usr/bin/env bash
# cuzk-daemon proving a SnapDeals 2 KiB update through python3-grpcio: the
# request from cuzk-bench gen-vanilla snap-prove, the proof checked with
# cuzk-bench verify-update; bad requests answered with one reason and
# nothing queued. Test parameters are shared with the other daemon tests
# (build/test-params; the first run makes the update circuit's, ~2.5 min).
# ctest-label: slow e2e
# Usage: test_daemon_snap.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_snap_e2e.py
