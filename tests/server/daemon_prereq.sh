# Sourced by the cuzk-daemon end-to-end tests with $1 = path/to/cuzk-bench:
# checks the prerequisites (exit 77, a skip, only when the gRPC packages are
# absent; when they are present a missing daemon is a failure), generates the
# python3-grpcio stubs from proto/cuzk/v1/proving.proto into $tmp (removed at
# exit) and defines run_e2e SCRIPT NAME, which runs the python script on them.
set -u
bench=${1:?usage: $0 path/to/cuzk-bench}
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

run_e2e() { "$py" "$1" "$daemon" "$tmp" "$bench"; }
