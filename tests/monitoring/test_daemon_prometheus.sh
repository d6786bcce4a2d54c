#!/usr/bin/env bash
# A real Prometheus (Debian's prometheus, 2.42) scrapes a cuzk-daemon, on
# an emulated GPU, proving two 2 KiB WinningPoSt and one 2 KiB PoRep C2 (each
# proof verified): every query of the shipped Grafana dashboard returns
# data through Prometheus's HTTP API, every metric the dashboard and the
# alert rules read is in the daemon's /metrics, and Prometheus evaluates
# every rule without error (daemon_prometheus_e2e.py). Prometheus runs on a
# free loopback port with its own config and data folder; the package's
# service, running or not, is not used. Test parameters are shared with the
# other daemon tests (build/test-params).
# ctest-label: slow
# Usage: test_daemon_prometheus.sh path/to/cuzk-bench (the daemon is its sibling).
if ! command -v prometheus >/dev/null; then
  echo "SKIP: prometheus not installed (Debian package prometheus; make deps installs it)"; exit 77
fi
. tests/server/daemon_prereq.sh
export CUZK_TEST_PARAM_CACHE=${CUZK_TEST_PARAM_CACHE:-$(dirname "$bench")/test-params}
run_e2e tests/monitoring/daemon_prometheus_e2e.py
