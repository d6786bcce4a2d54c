#!/usr/bin/env bash
# Daemon start to the first 2 KiB PoRep proof: with a cold shape cache (no
# pce-*.bin in param_cache: the first job records the circuit shape and
# saves it) and then with the recorded shape on disk (the next start loads
# it). Test parameters, the same C1 every time.
#
# Each round: remove the shape file, start cuzk-daemon, prove one PoRep C2
# with cuzk-bench single, stop ("cold"); then start again with the file
# written by the cold start, prove, stop ("warm"). Timed from the daemon's
# exec to the client's answer (the proof is verified by the daemon before
# it is returned); also the daemon's own total_ms and how the shape came
# (the daemon's "shape ... loaded from ... in N ms" or "recorded" line).
# Output: `name value unit` lines: each run, the medians, and cold/warm.
#
# Usage: bench/daemon/first_proof.sh [BUILD_DIR]   (default build)
# Environment: ROUNDS=3 SIZE=2KiB (or 8MiB) BUDGET=16GiB
#   PARAMS=dir of cached test parameters (default $CUZK_TEST_PARAM_CACHE or
#   BUILD_DIR/test-params; made on first use when missing)
#   OUTDIR=where the logs and the shape cache go (default /tmp/cuzk-first.XXXXXX)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/daemon_common.sh"
ROUNDS=${ROUNDS:-3}
SIZE=${SIZE:-2KiB}
case $SIZE in 2KiB | 8MiB) ;; *) echo "first_proof.sh: SIZE 2KiB or 8MiB" >&2; exit 2 ;; esac
bench_setup first_proof.sh cuzk-first "${1:-build}"
cache="$OUTDIR/param_cache"
mkdir -p "$cache"

prover=e807$(printf '0%.0s' $(seq 60)) # miner 1000, LEB128, zero-padded
c1="$OUTDIR/c1.json"
"$bench" gen-vanilla porep --sector-size "$SIZE" --sector-id 1 --prover-id "$prover" \
  --curio --out "$c1" >"$OUTDIR/gen.log" 2>&1
PARAM_CACHE=$cache daemon_config "$OUTDIR/d.toml" "$PARAMS" "$BUDGET" 1

pid=
trap daemon_stop EXIT
# one TAG: start the daemon, prove one C1, stop; the client's line in TAG.txt,
# the start-to-answer milliseconds in TAG.ms, the daemon's log in TAG.log.
one() {
  local sock="$OUTDIR/$1.sock" t0 t1
  t0=$(date +%s%N)
  daemon_start "$daemon" "$OUTDIR/d.toml" "$sock" "$OUTDIR/$1.log"
  "$bench" single -a "unix://$sock" -t porep --c1 "$c1" --sector-num 1 --miner-id 1000 \
    --id "$1" >"$OUTDIR/$1.txt" 2>&1 || { cat "$OUTDIR/$1.txt" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000)) >"$OUTDIR/$1.ms"
  daemon_stop
  grep -q "status COMPLETED" "$OUTDIR/$1.txt" || { cat "$OUTDIR/$1.txt" >&2; exit 1; }
}
for r in $(seq "$ROUNDS"); do
  rm -f "$cache"/pce-*.bin
  say "round $r: cold (load $(cut -d' ' -f1 /proc/loadavg))"
  one "cold-$r"
  ls "$cache"/pce-*.bin >/dev/null 2>&1 || { say "the cold start saved no shape"; exit 1; }
  say "round $r: warm"
  one "warm-$r"
done

# The shape file's load (cuzk-bench pce --check: read, checksum, mmap'd
# into a usable shape) against the disk's sequential read of the same file
# (dd bs=4M), each ROUNDS times from a cold page cache when
# /proc/sys/vm/drop_caches is writable (else from a warm one, said so).
shape=$(ls "$cache"/pce-*.bin | head -1)
cold=warm_page_cache
sync
if (echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null; then cold=cold_page_cache; fi
: >"$OUTDIR/load.txt"
for r in $(seq "$ROUNDS"); do
  [ $cold = cold_page_cache ] && echo 3 >/proc/sys/vm/drop_caches
  "$bench" pce --check --kind porep --sector-size "$SIZE" --dir "$cache" >"$OUTDIR/check-$r.txt"
  grep -qx "pce.path $shape path" "$OUTDIR/check-$r.txt" || { say "pce --check read another file"; exit 1; }
  [ $cold = cold_page_cache ] && echo 3 >/proc/sys/vm/drop_caches
  t0=$(date +%s%N)
  dd if="$shape" of=/dev/null bs=4M 2>/dev/null
  echo "dd $((($(date +%s%N) - t0) / 1000)) us" >>"$OUTDIR/load.txt"
  grep "^pce.load " "$OUTDIR/check-$r.txt" >>"$OUTDIR/load.txt"
done
echo "shape_file $(stat -c %s "$shape") $cold" >>"$OUTDIR/load.txt"

"$py" - "$OUTDIR" "$ROUNDS" "$SIZE" <<'PY'
import re, statistics, sys
out, rounds, size = sys.argv[1], int(sys.argv[2]), sys.argv[3]
name = "first_proof_" + size.lower()
med = {}
for tag in ("cold", "warm"):
    walls, totals = [], []
    for r in range(1, rounds + 1):
        ms = int(open("%s/%s-%d.ms" % (out, tag, r)).read())
        client = open("%s/%s-%d.txt" % (out, tag, r)).read()
        log = open("%s/%s-%d.log" % (out, tag, r)).read()
        m = re.search(r"total_ms (\d+)", client)
        total = int(m.group(1)) if m else float("nan")
        loaded = re.search(r"shape \S+ loaded from \S+ in (\d+) ms", log)
        how = "loaded_%s_ms" % loaded.group(1) if loaded else (
            "recorded" if re.search(r"shape \S+ recorded", log) else "unknown")
        print("%s.%s.%d.start_to_proof %d ms shape=%s" % (name, tag, r, ms, how))
        print("%s.%s.%d.daemon_total %s ms" % (name, tag, r, total))
        # The vanilla check (ms at 2 KiB) and the shape's load or recording.
        ev = {e: int(t) for t, e in re.findall(r"^TIMELINE,(\d+),(VANILLA_CHECK|PCE),", log, re.M)}
        if len(ev) == 2:
            print("%s.%s.%d.vanilla_check_and_shape %d ms" % (name, tag, r, ev["PCE"] - ev["VANILLA_CHECK"]))
        walls.append(ms)
        totals.append(total)
    med[tag] = statistics.median(walls)
    print("%s.%s.median_start_to_proof %.0f ms" % (name, tag, med[tag]))
    print("%s.%s.median_daemon_total %.0f ms" % (name, tag, statistics.median(totals)))
print("%s.cold_over_warm %.2f ratio" % (name, med["cold"] / med["warm"]))
load = open(out + "/load.txt").read()
size, cache = re.search(r"^shape_file (\d+) (\S+)", load, re.M).groups()
size = int(size)
dd = [size / (int(x) / 1e6) / 1e6 for x in re.findall(r"^dd (\d+) us", load, re.M)]
pce = [size / float(x) / 1e6 for x in re.findall(r"^pce.load ([0-9.]+) s", load, re.M)]
print("%s.shape_file %d B %s" % (name, size, cache))
print("%s.shape_load_rate %.0f MB_per_s median_of_%d" % (name, statistics.median(pce), len(pce)))
print("%s.disk_sequential_read %.0f MB_per_s median_of_%d" % (name, statistics.median(dd), len(dd)))
print("%s.shape_load_over_disk %.2f ratio" % (name, statistics.median(pce) / statistics.median(dd)))
PY
echo "first_proof.sh: logs in $OUTDIR" >&2
