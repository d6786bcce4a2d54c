#!/usr/bin/env bash
# cuzk-daemon's log lines: timestamps, refusals at warn, JSON, the parameter
# directory. Usage: test_daemon_logs.sh path/to/cuzk-bench.
. tests/server/daemon_prereq.sh
run_e2e tests/server/daemon_logs_e2e.py
