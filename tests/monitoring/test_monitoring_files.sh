#!/usr/bin/env bash
# The shipped Prometheus rules (packaging/prometheus/cuzk-alerts.yml) pass
# `promtool check rules` and their unit tests (`promtool test rules
# cuzk_alerts_test.yml`: each alert fires on its series, quiet on the
# others), and the dashboard (packaging/grafana/cuzk.json) and the rules
# read only documented metrics and cover docs/operating.md's alert table
# (check_files.py). That every query returns data from a real Prometheus
# scraping a real daemon is test_daemon_prometheus.sh's.
# Usage: test_monitoring_files.sh [ignored]
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if ! command -v promtool >/dev/null; then
  echo "SKIP: promtool not installed (Debian package prometheus; make deps installs it)"; exit 77
fi
if ! python3 -c 'import yaml' 2>/dev/null; then
  echo "SKIP: python3-yaml not installed (make deps installs it)"; exit 77
fi
rc=0
promtool check rules packaging/prometheus/cuzk-alerts.yml || { echo "FAIL: promtool check rules"; rc=1; }
(cd tests/monitoring && promtool test rules cuzk_alerts_test.yml) || { echo "FAIL: promtool test rules"; rc=1; }
python3 tests/monitoring/check_files.py || rc=1
exit $rc
