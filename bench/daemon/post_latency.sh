#!/usr/bin/env bash
# WinningPoSt latency through cuzk-daemon, on an idle daemon and while a
# PoRep C2 is proving, in the same run and against the same hot parameters.
#
# One daemon (one ordinary worker, plus the urgent worker every daemon has;
# test parameters): winning-<size> is preloaded and one WinningPoSt proved
# to warm up. Then ROUNDS rounds, each: N WinningPoSts back to back on the
# idle daemon ("idle"), then a PoRep C2 of PORE_SIZE submitted and, once its
# first partition is synthesizing, N WinningPoSts back to back ("busy"),
# and the PoRep awaited. Each WinningPoSt's latency is its TIMELINE
# QUEUED -> END time in the daemon (total_ms) and the client's wall time.
# Output: `name value unit` lines: the medians of each, the ratio
# busy/idle, and how far the PoRep got during the busy WinningPoSts.
#
# Usage: bench/daemon/post_latency.sh [BUILD_DIR]   (default build)
# Environment: N=5 ROUNDS=2 POST_SIZE=2KiB PORE_SIZE=8MiB BUDGET=16GiB
#   PARAMS=dir of cached test parameters (default $CUZK_TEST_PARAM_CACHE or
#   BUILD_DIR/test-params; made on first use when missing: the 8 MiB PoRep's
#   take many minutes, `make test-8mib` makes them too)
#   OUTDIR=where the logs go (default a new /tmp/cuzk-plat.XXXXXX)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/daemon_common.sh"
N=${N:-5}
ROUNDS=${ROUNDS:-2}
POST_SIZE=${POST_SIZE:-2KiB}
PORE_SIZE=${PORE_SIZE:-8MiB}
case $POST_SIZE in 2KiB) winning=winning-2k ;; 8MiB) winning=winning-8m ;;
  *) echo "post_latency.sh: POST_SIZE 2KiB or 8MiB" >&2; exit 2 ;; esac
case $PORE_SIZE in 2KiB) porep=porep-2k ;; 8MiB) porep=porep-8m ;;
  *) echo "post_latency.sh: PORE_SIZE 2KiB or 8MiB" >&2; exit 2 ;; esac
bench_setup post_latency.sh cuzk-plat "${1:-build}"

prover=e807$(printf '0%.0s' $(seq 60)) # miner 1000, LEB128, zero-padded
c1="$OUTDIR/c1.json"
"$bench" gen-vanilla porep --sector-size "$PORE_SIZE" --sector-id 1 --prover-id "$prover" \
  --curio --out "$c1" >"$OUTDIR/gen-porep.log" 2>&1
"$bench" gen-vanilla winning-post --sector-size "$POST_SIZE" --sectors 3 --out "$OUTDIR/w" \
  >"$OUTDIR/gen-winning.log" 2>&1

sock="$OUTDIR/d.sock"
daemon_config "$OUTDIR/d.toml" "$PARAMS" "$BUDGET" 1
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
daemon_start "$daemon" "$OUTDIR/d.toml" "$sock" "$OUTDIR/daemon.log"
addr="unix://$sock"
say "preload $winning and $porep (test parameters are made when missing)"
"$bench" preload -a "$addr" -c "$winning" >"$OUTDIR/preload-winning.txt"
"$bench" preload -a "$addr" -c "$porep" >"$OUTDIR/preload-porep.txt"
"$bench" single -a "$addr" --request "$OUTDIR/w/request.json" --id warmup >"$OUTDIR/warmup.txt"

# winnings TAG: N WinningPoSts back to back, their lines into $OUTDIR/TAG.txt
winnings() {
  "$bench" batch -a "$addr" --request "$OUTDIR/w/request.json" --id "$1" -c "$N" -j 1 \
    --progress 0 >"$OUTDIR/$1.txt"
  grep -q "completed $N failed 0" "$OUTDIR/$1.txt" || { cat "$OUTDIR/$1.txt" >&2; exit 1; }
}
porep_state() { # the PoRep job's first partition state, from GET-less status: TIMELINE
  grep -c "SYNTH_START,$1" "$OUTDIR/daemon.log" || true
}
for r in $(seq "$ROUNDS"); do
  say "round $r: idle (load $(cut -d' ' -f1 /proc/loadavg))"
  winnings "idle-$r"
  say "round $r: a $PORE_SIZE PoRep, then WinningPoSts while it proves"
  "$bench" single -a "$addr" -t porep --c1 "$c1" --sector-num 1 --miner-id 1000 --id "porep-$r" \
    >"$OUTDIR/porep-$r.txt" 2>&1 &
  ppid=$!
  for _ in $(seq 600); do
    [ "$(porep_state "porep-$r")" -ge 1 ] && break
    sleep 0.05
  done
  winnings "busy-$r"
  wait "$ppid" || { cat "$OUTDIR/porep-$r.txt" >&2; exit 1; }
done
kill -TERM "$pid"
wait "$pid" 2>/dev/null || true
trap - EXIT

"$py" - "$OUTDIR" "$N" "$ROUNDS" "$POST_SIZE" "$PORE_SIZE" <<'PY'
import glob, re, statistics, sys
out, n, rounds, post, pore = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
log = open(out + "/daemon.log").read()
def figures(tag):
    wall, total = [], []
    for f in sorted(glob.glob(out + "/%s-*.txt" % tag)):
        for line in open(f):
            m = re.search(r"wall_s ([0-9.]+) .* total_ms (\d+)", line)
            if m:
                wall.append(float(m.group(1)) * 1000)
                total.append(int(m.group(2)))
    return wall, total
iw, it = figures("idle")
bw, bt = figures("busy")
# Did the PoRep really prove during the busy WinningPoSts? Its partitions'
# GPU_START/END (prove) and SYNTH spans, against the busy jobs' QUEUED..END.
ev = [(int(t), e, j) for t, e, j in re.findall(r"TIMELINE,(\d+),(\w+),([^,]+),", log)]
def span(prefix):
    ts = [t for t, e, j in ev if j.startswith(prefix) and e in ("QUEUED", "END")]
    return (min(ts), max(ts)) if ts else (0, 0)
overlap = 0
for r in range(1, rounds + 1):
    b0, b1 = span("busy-%d" % r)
    p0, p1 = span("porep-%d" % r)
    overlap += max(0, min(b1, p1) - max(b0, p0))
med = statistics.median
print("machine.cores %d cores" % __import__("os").cpu_count())
print("post.size %s -\nporep.size %s -\nrun.n %d per_round\nrun.rounds %d rounds" % (post, pore, n, rounds))
print("winning.idle_total %.0f ms" % med(it))
print("winning.busy_total %.0f ms" % med(bt))
print("winning.idle_wall %.0f ms" % med(iw))
print("winning.busy_wall %.0f ms" % med(bw))
print("winning.busy_over_idle %.3f ratio" % (med(bt) / med(it)))
print("winning.busy_max_total %d ms" % max(bt))
b = sum(span("busy-%d" % r)[1] - span("busy-%d" % r)[0] for r in range(1, rounds + 1))
print("porep.overlap_with_busy %.3f fraction" % (overlap / b if b else 0))
print("run.outdir %s -" % out)
PY
