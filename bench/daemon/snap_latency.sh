#!/usr/bin/env bash
# SnapDeals update latency through cuzk-daemon (test parameters, the
# recorded shape on as by default): one update of SIZE made with
# gen-vanilla snap-prove, snap-<size> preloaded and one update proved to
# warm up (it records the shape), then N updates back to back on the idle
# daemon. Per update: the daemon's QUEUED -> END time (total_ms) and the
# client's wall time; per partition: synthesis (SYNTH_END synth_ms) and
# proving (GPU_END gpu_ms, verification included) from the TIMELINE lines.
# Output: `name value unit` lines, the medians.
#
# Usage: bench/daemon/snap_latency.sh [BUILD_DIR]   (default build)
# Environment: N=3 SIZE=2KiB|8MiB BUDGET=16GiB
#   PARAMS=dir of cached test parameters (default $CUZK_TEST_PARAM_CACHE or
#   BUILD_DIR/test-params; made on first use when missing, minutes)
#   OUTDIR=where the logs go (default a new /tmp/cuzk-snaplat.XXXXXX)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/daemon_common.sh"
N=${N:-3}
SIZE=${SIZE:-2KiB}
case $SIZE in 2KiB) srs=snap-2k ;; 8MiB) srs=snap-8m ;;
  *) echo "snap_latency.sh: SIZE 2KiB or 8MiB" >&2; exit 2 ;; esac
bench_setup snap_latency.sh cuzk-snaplat "${1:-build}"

"$bench" gen-vanilla snap-prove --sector-size "$SIZE" --out "$OUTDIR/u" >"$OUTDIR/gen.log" 2>&1
req="$OUTDIR/u/request.json"

sock="$OUTDIR/d.sock"
daemon_config "$OUTDIR/d.toml" "$PARAMS" "$BUDGET" 1
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
daemon_start "$daemon" "$OUTDIR/d.toml" "$sock" "$OUTDIR/daemon.log"
addr="unix://$sock"
say "preload $srs (test parameters are made when missing), warm up"
"$bench" preload -a "$addr" -c "$srs" >"$OUTDIR/preload.txt"
"$bench" single -a "$addr" -t snap --request "$req" --id warmup >"$OUTDIR/warmup.txt"
say "$N updates (load $(cut -d' ' -f1 /proc/loadavg))"
"$bench" batch -a "$addr" -t snap --request "$req" --id run -c "$N" -j 1 --progress 0 >"$OUTDIR/run.txt"
grep -q "completed $N failed 0" "$OUTDIR/run.txt" || { cat "$OUTDIR/run.txt" >&2; exit 1; }
kill -TERM "$pid"
wait "$pid" 2>/dev/null || true
trap - EXIT

"$py" - "$OUTDIR" "$SIZE" "$N" <<'PY'
import re, statistics, sys
out, size, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
log = open(out + "/daemon.log").read()
wall, total = [], []
for line in open(out + "/run.txt"):
    m = re.search(r"wall_s ([0-9.]+) .* total_ms (\d+)", line)
    if m:
        wall.append(float(m.group(1)) * 1000)
        total.append(int(m.group(2)))
def per_item(event, field):
    return [int(v) for v in re.findall(r"TIMELINE,\d+,%s,run[^,]*,item=\d+,%s=(\d+)" % (event, field), log)]
synth, prove = per_item("SYNTH_END", "synth_ms"), per_item("GPU_END", "gpu_ms")
med = statistics.median
print("machine.cores %d cores" % __import__("os").cpu_count())
print("update.size %s -\nrun.n %d updates" % (size, n))
print("update.total %.0f ms" % med(total))
print("update.wall %.0f ms" % med(wall))
print("partition.synthesis_pce %.0f ms" % med(synth))
print("partition.prove %.0f ms" % med(prove))
print("partition.count %d partitions" % len(prove))
print("run.outdir %s -" % out)
PY
