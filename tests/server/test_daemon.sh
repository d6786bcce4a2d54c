#!/usr/bin/env bash
# End-to-end test of cuzk-daemon through an independent gRPC stack: Debian's
# python3-grpcio, with client stubs generated here by grpc_tools.protoc from
# the same proto/cuzk/v1/proving.proto. Everything but proving (that is
# test_daemon_porep.sh). Usage: test_daemon.sh path/to/cuzk-bench (the daemon
# is its sibling).
. tests/server/daemon_prereq.sh
run_e2e tests/server/daemon_e2e.py
