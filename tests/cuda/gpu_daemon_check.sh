#!/usr/bin/env bash
# Every GPU in one daemon, for a machine with NVIDIA GPUs (run by
# gpu_check.sh, not by ctest): cuzk-daemon with gpus.devices = [] (all of
# them) and two workers per device proves 4 WinningPoSt 2 KiB jobs per
# device, 2 per device at once (cuzk-bench batch; the daemon verifies each
# proof before it answers), then cuzk-bench status must list every device
# healthy, each with partitions proved and no fault.
#   bash tests/cuda/gpu_daemon_check.sh BUILD_DIR DEVICES
# Prints `daemon_* value unit` lines and `daemon_check ok|FAILED`.
# GPU_DAEMON_EMULATE=1 (TEST ONLY) runs the same on emulated devices, so
# that the script itself can be tried on a machine without a GPU.
set -u
BUILD=${1:?usage: $0 BUILD_DIR DEVICES}
N=${2:?usage: $0 BUILD_DIR DEVICES}
bench=$BUILD/cuzk-bench
tmp=$(mktemp -d /tmp/cuzk-gpu-daemon.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "daemon_check: $1"; tail -20 "$tmp/daemon.log" 2>/dev/null; echo "daemon_check FAILED"; exit 1; }

if [ "${GPU_DAEMON_EMULATE:-0}" = 1 ]; then
  gpus="test_emulated_devices = $N"
else
  gpus='devices = []
backend = "cuda"'
fi
mkdir -p "$tmp/params" "$tmp/none"
cat >"$tmp/cuzk.toml" <<EOF
[srs]
param_cache = "$tmp/none"
allow_test_params = true
test_param_cache = "$tmp/params"
[gpus]
gpu_workers_per_device = 2
$gpus
EOF
"$bench" gen-vanilla winning-post --sector-size 2KiB --sectors 2 --out "$tmp/winning" \
  >"$tmp/gen.log" 2>&1 || fail "gen-vanilla winning-post: $(tail -1 "$tmp/gen.log")"

"$BUILD/cuzk-daemon" -l 127.0.0.1:0 -c "$tmp/cuzk.toml" 2>"$tmp/daemon.log" &
pid=$!
port=
for _ in $(seq 600); do
  port=$(sed -n 's/.*grpc port \([0-9]*\).*/\1/p' "$tmp/daemon.log" | head -1)
  [ -n "$port" ] && grep -q 'listening on' "$tmp/daemon.log" && break
  kill -0 "$pid" 2>/dev/null || fail "the daemon did not start"
  sleep 0.1
done
[ -n "$port" ] || fail "the daemon did not say its port"
addr=127.0.0.1:$port
grep -q "proving on $N device(s)" "$tmp/daemon.log" || fail "the daemon does not prove on $N device(s)"

# One first, for the test parameters; then 4 per device, 2 per device at once.
"$bench" -a "$addr" single -t winning --request "$tmp/winning/request.json" \
  >"$tmp/first.log" 2>&1 || fail "the first WinningPoSt: $(tail -2 "$tmp/first.log")"
t0=$(date +%s.%N)
"$bench" -a "$addr" batch -t winning --request "$tmp/winning/request.json" -c $((4 * N)) \
  -j $((2 * N)) --progress 0 >"$tmp/batch.log" 2>&1 || fail "batch: $(tail -3 "$tmp/batch.log")"
t1=$(date +%s.%N)
echo "daemon_devices $N"
echo "daemon_jobs $((4 * N))"
echo "daemon_batch_wall $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
grep '^summary ' "$tmp/batch.log" | sed 's/^/daemon_batch_/'

"$bench" -a "$addr" status >"$tmp/status.log" 2>&1 || fail "status: $(tail -2 "$tmp/status.log")"
grep '^gpu ' "$tmp/status.log" | sed 's/^/daemon_status /'
for ((d = 0; d < N; d++)); do
  line=$(grep "^gpu $d " "$tmp/status.log")
  [ -n "$line" ] || fail "status lists no device $d"
  grep -q ' healthy ' <<<"$line" || fail "device $d is not healthy: $line"
  grep -qE ' proved [1-9][0-9]* faults 0$' <<<"$line" || fail "device $d proved nothing or faulted: $line"
done
kill "$pid"
wait "$pid" || fail "the daemon did not stop cleanly"
pid=
echo "daemon_check ok"
