#!/usr/bin/env bash
# cuzk-daemon proving WinningPoSt and WindowPoSt 2 KiB through
# python3-grpcio: vanilla proofs from cuzk-bench gen-vanilla, every proof
# checked with cuzk-bench verify-post; bad requests answered with one
# reason and nothing queued. Test parameters are shared with the other
# daemon tests (build/test-params).
# ctest-label: slow
# Usage: test_daemon_post.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_post_e2e.py
