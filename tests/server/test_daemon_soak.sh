#!/usr/bin/env bash
# A 3-minute soak of one cuzk-daemon (bench/daemon/soak.sh --minutes 3):
# rounds of verified 2 KiB PoRep C2, WinningPoSt, WindowPoSt, SnapDeals and
# circom proofs, cancels, clients cut off mid-call, malformed requests,
# SIGHUP and EvictSRS/PreloadSRS; at the end RSS no more than 5% above its
# value a third into the run, fds and threads back to their idle counts, no
# proof lost or wrong, every request answered as documented.
# ctest-label: slow e2e
# Usage: test_daemon_soak.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
PARAMS=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params} \
  bench/daemon/soak.sh --minutes 3 --build "$(dirname "$bench")" --out "$tmp/soak"
