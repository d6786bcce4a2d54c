#!/usr/bin/env bash
# cuzk-daemon proving the 2 KiB SyntheticPoRep and NI-PoRep kinds through
# python3-grpcio: each proof checked with cuzk-bench verify-seal (NI: 13
# partitions, in order), bad C1s of those kinds refused in one line, and the
# NI job's partitions streaming through a window of 3. The NI proof is left
# in build/test-fixtures for test_porep_features (ctest fixture ni_porep),
# so that its 13 partitions are proved once a suite. Test parameters are
# V1_1's, shared with test_porep_c2.sh. About 3 minutes on 2 cores.
# ctest-label: slow e2e
# Usage: test_daemon_seal_kinds.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_seal_kinds_e2e.py
