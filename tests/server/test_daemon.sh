#!/usr/bin/env bash
# End-to-end test of cuzk-daemon through an independent gRPC stack: Debian's
# python3-grpcio, with client stubs generated here by grpc_tools.protoc from
# the same proto/cuzk/v1/proving.proto. Usage: test_daemon.sh path/to/cuzk-bench
# (the daemon is its sibling). Skips (exit 77) only when the gRPC packages
# are absent; when they are present, a missing daemon is a failure.
set -u
bench=${1:?usage: test_daemon.sh path/to/cuzk-bench}
daemon="$(dirname "$bench")/cuzk-daemon"
py=/usr/bin/python3

if ! pkg-config --exists grpc libprotobuf-c 2>/dev/null || ! command -v protoc-c >/dev/null; then
  echo "SKIP: libgrpc-dev / libprotobuf-c-dev / protobuf-c-compiler not installed"; exit 77
fi
if ! [ -x "$py" ] || ! "$py" -c 'import grpc, grpc_tools.protoc' 2>/dev/null; then
  echo "SKIP: python3-grpcio / python3-grpc-tools not installed"; exit 77
fi
if ! [ -x "$daemon" ]; then
  echo "FAIL: the gRPC packages are installed but $daemon was not built"; exit 1
fi

tmp=$(mktemp -d /tmp/cuzk-daemon-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$py" -m grpc_tools.protoc --proto_path=proto --python_out="$tmp" --grpc_python_out="$tmp" \
  cuzk/v1/proving.proto || { echo "FAIL: grpc_tools.protoc"; exit 1; }
exec "$py" tests/server/daemon_e2e.py "$daemon" "$tmp" "$bench"
