#!/usr/bin/env bash
# Throughput of cuzk-daemon for N back-to-back PoRep C2 proofs (2 KiB by
# default), one at a time against pipelined, in the same run:
#   serial:    1 worker, pipeline.enabled = false, client concurrency 1
#   pipelined: 2 workers (gpus.gpu_workers_per_device = 2), pipeline on,
#              client concurrency 2
# Each mode starts its own daemon (test parameters, memory budget BUDGET),
# preloads the SRS (its load time is reported, not counted), then runs
# `cuzk-bench batch -c N -j J`. Modes alternate for REPEAT rounds so that
# load from other processes falls on both; the medians and the ratio
# pipelined/serial come last. Output: `name value unit` lines on stdout
# (progress and the load average on stderr); the raw logs stay in OUTDIR.
#
# Usage: bench/daemon/run.sh [BUILD_DIR]   (default build)
# Environment: N=4 REPEAT=3 SECTOR_SIZE=2KiB BUDGET=8GiB
#   PARAMS=dir of cached test parameters (default $CUZK_TEST_PARAM_CACHE or
#   BUILD_DIR/test-params; made on first use when missing: minutes)
#   OUTDIR=where the logs go (default a new /tmp/cuzk-dbench.XXXXXX)
#   MODES="serial pipelined" (any of serial, pipelined)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/daemon_common.sh"
here=$(cd "$(dirname "$0")" && pwd)
N=${N:-4}
REPEAT=${REPEAT:-3}
SECTOR_SIZE=${SECTOR_SIZE:-2KiB}
BUDGET=${BUDGET:-8GiB}
MODES=${MODES:-serial pipelined}
case $SECTOR_SIZE in
  2KiB) circuit=porep-2k ;;
  8MiB) circuit=porep-8m ;;
  *) echo "run.sh: SECTOR_SIZE 2KiB or 8MiB" >&2; exit 2 ;;
esac
bench_setup run.sh cuzk-dbench "${1:-build}"
load() { cut -d' ' -f1-3 /proc/loadavg; }

# Miner 1000 (LEB128 e8 07, zero-padded: Curio's prover id), sector 1.
prover=e807$(printf '0%.0s' $(seq 60))
c1="$OUTDIR/c1-$SECTOR_SIZE.json"
"$bench" gen-vanilla porep --sector-size "$SECTOR_SIZE" --sector-id 1 --prover-id "$prover" \
  --curio --out "$c1" >"$OUTDIR/gen-vanilla.log" 2>&1

pid=
trap daemon_stop EXIT

# one_run MODE ROUND: prints the run's figures into $OUTDIR/MODE-ROUND.fig
one_run() {
  local mode=$1 round=$2 workers pipeline conc
  case $mode in
    serial) workers=1 pipeline=false conc=1 ;;
    pipelined) workers=2 pipeline=true conc=2 ;;
    *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
  esac
  local tag="$mode-$round" sock="$OUTDIR/$mode-$round.sock"
  daemon_config "$OUTDIR/$tag.toml" "$PARAMS" "$BUDGET" "$workers" \
    "$(printf '[pipeline]\nenabled = %s' "$pipeline")"
  daemon_start "$daemon" "$OUTDIR/$tag.toml" "$sock" "$OUTDIR/$tag.daemon.log"
  local budget rss0 load0 load1 hwm
  budget=$(sed -n 's/.*memory budget \([0-9]*\) bytes.*/\1/p' "$OUTDIR/$tag.daemon.log" | head -1)
  say "$tag: preload $circuit (load $(load))"
  "$bench" preload -a "unix://$sock" -c "$circuit" >"$OUTDIR/$tag.preload.txt"
  local load_ms
  load_ms=$(sed -n 's/.*load_time_ms \([0-9]*\).*/\1/p' "$OUTDIR/$tag.preload.txt")
  rss0=$(awk '/^VmRSS/ {printf "%.0f", $2 * 1024}' "/proc/$pid/status")
  load0=$(load)
  cpu0=$(cut -d' ' -f14,15 "/proc/$pid/stat")
  say "$tag: batch -c $N -j $conc (load $load0)"
  "$bench" batch -a "unix://$sock" -t porep --c1 "$c1" --sector-num 1 --miner-id 1000 \
    -c "$N" -j "$conc" >"$OUTDIR/$tag.batch.txt" 2>"$OUTDIR/$tag.batch.err" || true
  load1=$(load)
  hwm=$(awk '/^VmHWM/ {printf "%.0f", $2 * 1024}' "/proc/$pid/status")
  cpu1=$(cut -d' ' -f14,15 "/proc/$pid/stat")
  # The daemon's CPU time (user + system) during the batch, per proof: the
  # cost that does not depend on the share of the cores other processes leave.
  local cpu
  cpu=$("$py" -c "import sys; a = [int(x) for x in sys.argv[1:5]]; t = $(getconf CLK_TCK)
print('%.1f' % ((a[2] + a[3] - a[0] - a[1]) / t))" $cpu0 $cpu1)
  daemon_stop
  cat "$OUTDIR/$tag.batch.txt" >&2
  "$py" "$here/timeline.py" run "$mode" "$OUTDIR/$tag.daemon.log" "$OUTDIR/$tag.batch.txt" \
    "srs_load=$load_ms:ms" "rss_after_preload=$rss0:bytes" "peak_rss=$hwm:bytes" \
    "memory_budget=$budget:bytes" "peak_rss_over_budget=$("$py" -c "print('%.4f' % ($hwm / $budget))"):fraction" \
    "daemon_cpu=$cpu:s" "daemon_cpu_per_proof=$("$py" -c "print('%.1f' % ($cpu / $N))"):s" \
    "load1_before=${load0%% *}:load" "load1_after=${load1%% *}:load" \
    | tee "$OUTDIR/$tag.fig"
}

echo "machine.cores $(nproc) cores"
echo "run.n $N proofs"
echo "run.repeat $REPEAT rounds"
echo "run.sector_size $SECTOR_SIZE -"
for r in $(seq "$REPEAT"); do
  for m in $MODES; do one_run "$m" "$r"; done
done
set -- $MODES
if [ $# -ge 2 ]; then
  "$py" "$here/timeline.py" summary "$1" "$2" "$OUTDIR"/*.fig
else
  "$py" "$here/timeline.py" summary "$1" "$1" "$OUTDIR"/*.fig
fi
echo "run.outdir $OUTDIR -"
