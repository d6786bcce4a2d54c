#!/usr/bin/env bash
# A soak of one cuzk-daemon on 2 KiB test parameters: rounds of every kind
# of request (real PoRep C2, WinningPoSt, WindowPoSt, SnapDeals and circom
# proofs, each verified outside the daemon; malformed requests, cancels,
# clients cut off mid-call, SIGHUP, EvictSRS/PreloadSRS) until N minutes
# pass, the daemon's RSS, fds, threads, queue and memory pool sampled once a
# minute. The driver is soak.py (its docstring says what a round does).
#
# Usage: bench/daemon/soak.sh --minutes N [--build DIR] [--out DIR]
#   --build  the build folder (default build): cuzk-daemon, cuzk-bench, cuzk-prove
#   --out    where soak.csv, soak.png and the daemon's log go (default a new
#            /tmp/cuzk-soak.XXXXXX)
# Environment: BUDGET=8GiB (the daemon's memory.total_budget), PARAMS=dir of
#   cached test parameters (default $CUZK_TEST_PARAM_CACHE or DIR/test-params;
#   made on first use when missing), SAMPLE_SECONDS=60.
# Output: `name value unit` lines, then one PASS or FAIL line per check (RSS
# growth, fds and threads back to idle, no proof lost or wrong, every
# request answered as documented, a clean stop). Exit status 0 when all
# pass, 1 when one fails, 2 on bad usage or a missing prerequisite.
set -euo pipefail
usage() { echo "usage: soak.sh --minutes N [--build DIR] [--out DIR]" >&2; exit 2; }
minutes='' build_dir=build
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=${2:-}; shift 2 || usage ;;
    --build) build_dir=${2:-}; shift 2 || usage ;;
    --out) OUTDIR=${2:-}; shift 2 || usage ;;
    *) usage ;;
  esac
done
[[ $minutes =~ ^[0-9]+([.][0-9]+)?$ ]] || usage
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/daemon/daemon_common.sh
source "$here/daemon_common.sh"
BUDGET=${BUDGET:-8GiB}
bench_setup soak.sh cuzk-soak "$build_dir"
[ -x "$build/cuzk-prove" ] || { echo "soak.sh: $build/cuzk-prove is not built" >&2; exit 2; }
"$py" -c 'import grpc, grpc_tools.protoc' 2>/dev/null ||
  { echo "soak.sh: needs python3-grpcio and python3-grpc-tools" >&2; exit 2; }

work="$OUTDIR/work"
mkdir -p "$work"
"$py" -m grpc_tools.protoc --proto_path="$here/../../proto" --python_out="$work" \
  --grpc_python_out="$work" cuzk/v1/proving.proto cuzk/circom/v1/circom.proto
say "$minutes minutes, output in $OUTDIR"
"$py" "$here/soak.py" "$build/cuzk-daemon" "$work" "$build/cuzk-bench" --minutes "$minutes" \
  --out "$OUTDIR" --params "$PARAMS" --budget "$BUDGET" --sample-seconds "${SAMPLE_SECONDS:-60}"
