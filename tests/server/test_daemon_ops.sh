#!/usr/bin/env bash
# cuzk-daemon as operators run it (daemon_ops_e2e.py): a held TCP port and a
# bad port are refused, [::1] works, the unix socket's mode and group,
# SIGHUP, the non-loopback warning. Usage: test_daemon_ops.sh path/to/cuzk-bench.
. tests/server/daemon_prereq.sh
run_e2e tests/server/daemon_ops_e2e.py
