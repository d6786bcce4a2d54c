#!/usr/bin/env bash
# cuzk-daemon proving 2 KiB PoRep C2 through python3-grpcio: Prove on a
# loopback port, SubmitProof + AwaitProof (of a WinningPoSt) and cuzk-bench
# batch on a unix socket, bad requests; every returned proof is checked with
# cuzk-bench verify-seal (verify-post). Priorities, cancels and batches are
# test_daemon_porep_queue's (make test-e2e). Test parameters are shared with
# test_porep_c2.sh.
# ctest-label: slow
# Usage: test_daemon_porep.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/server/daemon_porep_e2e.py
