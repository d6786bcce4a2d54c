#!/usr/bin/env bash
# cuzk-daemon's cuzk.circom.v1.CircomProver through python3-grpcio: keys of
# tests/data/circom loaded from the config and by LoadKey, proofs checked
# by cuzk-prove verify (and snarkjs when tests/circom/node_modules has it),
# the errors of docs/circom.md, and the engine's priorities.
# ctest-label: slow
# Usage: test_daemon_circom.sh path/to/cuzk-bench (the daemon is its sibling).
. tests/server/daemon_prereq.sh
"$py" -m grpc_tools.protoc --proto_path=proto --python_out="$tmp" --grpc_python_out="$tmp" \
  cuzk/circom/v1/circom.proto || { echo "FAIL: grpc_tools.protoc (circom)"; exit 1; }
run_e2e tests/server/daemon_circom_e2e.py
