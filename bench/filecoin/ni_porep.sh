#!/usr/bin/env bash
# NI-PoRep C2 of a test sector (default 8 MiB: 13 partitions of V1_1's
# circuit, its test parameters reused): time per partition and peak RSS,
# against the memory the daemon charges for the job.
#
# 1. cuzk-bench prove --c1 under /usr/bin/time -v: in process, partitions
#    one after another (the C2 wall / partitions; peak RSS). The proof is
#    checked with verify-seal.
# 2. (DAEMON=1, the default) the same C1 through cuzk-daemon (default
#    pipeline: synthesis_concurrency 1 + max_gpu_queue_depth 1, so two
#    partitions alive; recorded shape on): GetStatus's memory_bytes polled
#    every 0.2 s (the budget charged: hot parameters + shape + the job's
#    estimate), the daemon's VmHWM, and its TIMELINE's per-partition times.
# Output: `name value unit` lines.
#
# Usage: bench/filecoin/ni_porep.sh [BUILD_DIR]   (default build)
# Environment: SIZE=8MiB (or 2KiB) DAEMON=1 BUDGET=16GiB
#   PARAMS=dir of cached test parameters (default $CUZK_TEST_PARAM_CACHE or
#   BUILD_DIR/test-params; made on first use when missing: 8 MiB's take
#   many minutes, `make test-8mib` makes them too)
#   OUTDIR=where the logs go (default a new /tmp/cuzk-ni.XXXXXX)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../daemon/daemon_common.sh"
SIZE=${SIZE:-8MiB}
DAEMON=${DAEMON:-1}
bench_setup ni_porep.sh cuzk-ni "${1:-build}" "$DAEMON"
[ -x /usr/bin/time ] || { echo "ni_porep.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }
mkdir -p "$OUTDIR/param_cache"
name=ni_porep_$(echo "$SIZE" | tr A-Z a-z)

prover=e807$(printf '0%.0s' $(seq 60)) # miner 1000, LEB128, zero-padded
c1="$OUTDIR/ni.json"
t0=$(date +%s%N)
"$bench" --quiet gen-vanilla porep --ni --sector-size "$SIZE" --sector-id 1 --prover-id "$prover" \
  --out "$c1" >"$OUTDIR/gen.log" 2>&1
echo "$name.seal_and_c1 $((($(date +%s%N) - t0) / 1000000)) ms"

say "cuzk-bench prove (load $(cut -d' ' -f1 /proc/loadavg))"
/usr/bin/time -v "$bench" prove --c1 "$c1" --cache-dir "$PARAMS" --out "$OUTDIR/proof.bin" \
  --vk-out "$OUTDIR/vk.bin" >"$OUTDIR/prove.out" 2>"$OUTDIR/prove.err" \
  || { tail -5 "$OUTDIR/prove.err" >&2; exit 1; }
"$bench" verify-seal --vk "$OUTDIR/vk.bin" --c1 "$c1" --prover-id "$prover" --sector-id 1 \
  --proof "$OUTDIR/proof.bin" >"$OUTDIR/verify.out" 2>&1 || { cat "$OUTDIR/verify.out" >&2; exit 1; }
echo "$name.prove.verify_seal valid"

if [ "$DAEMON" != 0 ]; then
  PARAM_CACHE=$OUTDIR/param_cache daemon_config "$OUTDIR/d.toml" "$PARAMS" "$BUDGET" 1
  sock="$OUTDIR/d.sock"
  trap daemon_stop EXIT
  daemon_start "$daemon" "$OUTDIR/d.toml" "$sock" "$OUTDIR/daemon.log"
  say "the daemon (load $(cut -d' ' -f1 /proc/loadavg))"
  "$bench" single -a "unix://$sock" -t porep --c1 "$c1" --sector-num 1 --miner-id 1000 --id ni \
    --verify-vk "$OUTDIR/vk.bin" >"$OUTDIR/single.txt" 2>&1 &
  cpid=$!
  : >"$OUTDIR/status.txt"
  while kill -0 "$cpid" 2>/dev/null; do
    "$bench" status -a "unix://$sock" >>"$OUTDIR/status.txt" 2>/dev/null || true
    sleep 0.2
  done
  wait "$cpid" || { cat "$OUTDIR/single.txt" >&2; exit 1; }
  grep VmHWM /proc/$pid/status >"$OUTDIR/daemon.hwm"
  "$bench" status -a "unix://$sock" >"$OUTDIR/status-after.txt"
  daemon_stop
fi

"$py" - "$OUTDIR" "$name" "$DAEMON" <<'PY'
import os, re, statistics, sys
out, name, with_daemon = sys.argv[1], sys.argv[2], sys.argv[3] != "0"
MIB = 1 << 20
p = open(out + "/prove.out").read()
t = open(out + "/prove.err").read()
c2 = float(re.search(r"^c2 ([0-9.]+) ms", p, re.M).group(1))
parts = int(re.search(r"^partitions (\d+)", p, re.M).group(1))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) * 1024
params = [float(x) for x in re.findall(r"^(?:load_params|setup) ([0-9.]+) ms", p, re.M)]
print("%s.partitions %d count" % (name, parts))
print("%s.prove.load_params %.0f ms" % (name, params[0] if params else float("nan")))
print("%s.prove.c2 %.0f ms" % (name, c2))
print("%s.prove.per_partition %.0f ms" % (name, c2 / parts))
print("%s.prove.peak_rss %.0f MiB" % (name, rss / MIB))
if with_daemon:
    single = open(out + "/single.txt").read()
    m = re.search(r"total_ms (\d+)", single)
    print("%s.daemon.total %s ms" % (name, m.group(1) if m else "nan"))
    print("%s.daemon.verified %s" % (name, "valid" if "verified valid" in single else "NO"))
    log = open(out + "/daemon.log").read()
    gpu = [int(x) for x in re.findall(r"^TIMELINE,\d+,GPU_END,ni,item=\d+,gpu_ms=(\d+)", log, re.M)]
    syn = [int(x) for x in re.findall(r"^TIMELINE,\d+,SYNTH_END,ni,item=\d+,synth_ms=(\d+)", log, re.M)]
    fl = [int(x) for x in re.findall(r"^TIMELINE,\d+,SYNTH_START,ni,item=\d+,in_flight=(\d+)", log, re.M)]
    if gpu and syn:
        print("%s.daemon.median_prove_per_partition %.0f ms" % (name, statistics.median(gpu)))
        print("%s.daemon.median_synth_per_partition %.0f ms" % (name, statistics.median(syn)))
    print("%s.daemon.in_flight_peak %d partitions" % (name, max(fl, default=0)))
    used = [int(x) for x in re.findall(r"^memory_bytes (\d+) /", open(out + "/status.txt").read(), re.M)]
    after = open(out + "/status-after.txt").read()
    srs = sum(int(x) for x in re.findall(r"^srs \S+ hot (\d+) bytes", after, re.M))
    idle = int(re.search(r"^memory_bytes (\d+) /", after, re.M).group(1))
    hwm = int(re.search(r"VmHWM:\s+(\d+) kB", open(out + "/daemon.hwm").read()).group(1)) * 1024
    print("%s.daemon.charged_peak %.0f MiB" % (name, max(used, default=0) / MIB))
    print("%s.daemon.charged_hot_srs_and_shape %.0f MiB" % (name, srs / MIB))
    print("%s.daemon.charged_job %.0f MiB" % (name, (max(used, default=0) - idle) / MIB))
    print("%s.daemon.peak_rss %.0f MiB" % (name, hwm / MIB))
    if used:
        print("%s.daemon.peak_rss_over_charged %.2f ratio" % (name, hwm / max(used)))
PY
echo "ni_porep.sh: logs in $OUTDIR" >&2
