#!/usr/bin/env bash
# make bench-32gib: a 32 GiB PoRep C2 proved and verified on this machine
# from test parameters larger than its memory (a mapped key), step by step:
#   c1       gen-vanilla porep --sparse (a TEST INPUT: an all-zero sector of
#            which only the challenges and their parents are labelled)
#   check    synth-only --check of one challenge (the circuit holds)
#   key      cuzk-bench setup: the 32 GiB PoRep test key streamed to disk
#            (about 44 GiB; about 12.4 GB of memory for its evaluation)
#   prove-0  partition 0 alone, then verify-seal --partition 0
#   prove    all ten partitions, then verify-seal
#   daemon   cuzk-daemon: SubmitProof of the C1 in Curio's wrapper, all ten
#            partitions, each checked by the client against the key
#   window-key    the 32 GiB WindowPoSt test key; the disk (80 GB here) holds
#                 one 32 GiB key at a time, so the PoRep key goes first
#   window-prove  WindowPoSt partition 0 from Curio's real vanilla proof
#                 (tests/vectors/windowpost-32gib-vanilla: sector 1, miner
#                 1000, zero randomness), then verify-post
# Resumable: each step leaves its output and a done.<step> mark in $WORK and
# is skipped when the mark is there; delete a mark to run that step again.
# Every timed step prints /usr/bin/time's wall, user, sys, peak RSS and the
# blocks it read, and the page cache before and after (Cached in
# /proc/meminfo). Not in CI: the key alone takes most of an hour on 2 cores.
# Usage: bench_32gib.sh [path/to/cuzk-bench]   (from the repository root)
#   CUZK_32GIB_DIR   where everything goes (default /var/tmp/cuzk-32gib)
#   THREADS          thread budget (default 0: all cores)
#   STEPS            the steps to run, in order (default: all of them)
set -euo pipefail
BENCH=$(realpath "${1:-build/cuzk-bench}")
WORK=${CUZK_32GIB_DIR:-/var/tmp/cuzk-32gib}
THREADS=${THREADS:-0}
SIZE=${SECTOR_SIZE:-32GiB} # another size (2KiB) tries the steps quickly
STEPS=${STEPS:-c1 check key prove-0 prove daemon window-key window-prove}
PARAMS=$WORK/params
C1=$WORK/c1-32gib-sparse.json
# The sector the sparse C1 claims (verify-seal needs what a C1 does not carry).
SECTOR=1
PROVER=0000000000000000000000000000000000000000000000000000000000000000
mkdir -p "$WORK" "$PARAMS" "$WORK/bin"
# A copy of the binary, so that a rebuild during a long step changes nothing.
cp "$BENCH" "$WORK/bin/cuzk-bench"
cp "$(dirname "$BENCH")/cuzk-daemon" "$WORK/bin/cuzk-daemon" 2>/dev/null || true
B=$WORK/bin/cuzk-bench

VEC=$(realpath tests/vectors/windowpost-32gib-vanilla/sector1.vproof)
ZERO=0000000000000000000000000000000000000000000000000000000000000000

cached_kb() { awk '/^Cached:/ {print $2}' /proc/meminfo; }

# timed NAME CMD...: runs CMD with its stdout in $WORK/NAME.out and stderr
# (progress, CUZK_TIMING, /usr/bin/time -v) in $WORK/NAME.err; prints the
# figures as `name value unit` lines. GB is 10^9 bytes: /usr/bin/time and
# /proc/meminfo count KiB, hence the * 1024.
timed() {
  local name=$1
  shift
  local before
  before=$(cached_kb)
  local rc=0
  /usr/bin/time -v "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
  awk -v n="$name" -v b="$before" -v a="$(cached_kb)" '
    /Elapsed \(wall clock\)/ { split($NF, t, ":"); w = t[1] * 60 + t[2]; if (length(t) == 3) w = t[1] * 3600 + t[2] * 60 + t[3] }
    /User time/ { u = $NF } /System time/ { s = $NF } /Maximum resident/ { r = $NF }
    /File system inputs/ { io = $NF }
    /^CUZK_TIMING: / { sub(/^CUZK_TIMING: /, ""); split($0, kv, "="); ph[kv[1]] += kv[2] }
    END {
      printf "%s_wall %.1f s\n%s_user %.1f s\n%s_sys %.1f s\n", n, w, n, u, n, s
      printf "%s_peak_rss %.2f GB\n%s_read %.2f GB\n", n, r * 1024 / 1e9, n, io * 512 / 1e9
      printf "%s_page_cache_before %.2f GB\n%s_page_cache_after %.2f GB\n", n, b * 1024 / 1e9, n, a * 1024 / 1e9
      for (k in ph) printf "%s_%s %.1f s\n", n, k, ph[k] / 1000
    }' "$WORK/$name.err" | sort
  return $rc
}

step_c1() {
  timed c1 "$B" gen-vanilla porep --sparse --sector-size $SIZE --sector-id $SECTOR \
    --prover-id $PROVER --out "$C1"
}
seal() { "$B" verify-seal --vk "$WORK/vk.bin" --c1 "$C1" --prover-id $PROVER --sector-id $SECTOR "$@"; }
step_check() { timed check "$B" synth-only --c1 "$C1" --check --challenge 0 --threads "$THREADS"; }
step_key() {
  timed key nice -n 5 "$B" --quiet setup --circuit porep --sector-size $SIZE --out "$PARAMS" \
    --threads "$THREADS"
}
step_prove-0() {
  CUZK_TIMING=1 timed prove-0 "$B" --quiet prove --c1 "$C1" --cache-dir "$PARAMS" \
    --partition 0 --out "$WORK/proof-0.bin" --vk-out "$WORK/vk.bin" --threads "$THREADS"
  seal --proof "$WORK/proof-0.bin" --partition 0
}
step_prove() {
  CUZK_TIMING=1 timed prove "$B" --quiet prove --c1 "$C1" --cache-dir "$PARAMS" \
    --out "$WORK/proof.bin" --vk-out "$WORK/vk.bin" --threads "$THREADS"
  seal --proof "$WORK/proof.bin"
}

step_window-key() {
  rm -f "$PARAMS"/cuzk-TEST-ONLY-porep-*.params
  timed window-key nice -n 5 "$B" --quiet setup --circuit window-post --sector-size 32GiB \
    --out "$WORK/params-window" --threads "$THREADS"
}
step_window-prove() {
  /usr/bin/python3 -c 'import base64, json, sys
b = open(sys.argv[1], "rb").read()
json.dump([base64.b64encode(b).decode()], open(sys.argv[2], "w"))
print("1:" + b[8:40].hex(), file=open(sys.argv[3], "w"))' "$VEC" "$WORK/window-vanilla.json" \
    "$WORK/window-sectors.txt"
  CUZK_TIMING=1 timed window-prove "$B" --quiet prove --vanilla "$WORK/window-vanilla.json" \
    --registered-proof 8 --randomness $ZERO --miner-id 1000 --partition 0 \
    --cache-dir "$WORK/params-window" --out "$WORK/proof-window.bin" \
    --vk-out "$WORK/vk-window.bin" --threads "$THREADS"
  "$B" verify-post --vk "$WORK/vk-window.bin" --registered-proof 8 --randomness $ZERO \
    --prover-id e807$(printf '0%.0s' {1..60}) --sectors "$(cat "$WORK/window-sectors.txt")" \
    --partition 0 --proof "$WORK/proof-window.bin"
}

# The daemon's path: SubmitProof of the C1 in Curio's wrapper, all ten
# partitions, each verified by the daemon before it answers and again here
# (--verify-vk: the key's head). The default pipeline: where two partitions
# in flight do not fit the memory budget (24 GB), the engine runs them one
# at a time (window=1 on the QUEUED line). Plain synthesis (--no-pce: the
# path prove measured).
step_daemon() {
  "$B" --quiet gen-vanilla porep --sparse --sector-size $SIZE --sector-id $SECTOR \
    --prover-id $PROVER --curio --out "$WORK/c1-32gib-sparse-curio.json"
  printf '[daemon]\nstatus_listen = "127.0.0.1:%s"\n[srs]\nparam_cache = "%s"\nallow_test_params = true\ntest_param_cache = "%s"\n' \
    "${STATUS_PORT:-9821}" "$WORK/no-official-params" "$PARAMS" >"$WORK/daemon.toml"
  mkdir -p "$WORK/no-official-params" "$WORK/daemon-proofs"
  local sock="unix://$WORK/cuzk.sock"
  CUZK_TIMING=1 /usr/bin/time -v "$WORK/bin/cuzk-daemon" -c "$WORK/daemon.toml" -l "$sock" \
    --no-pce 2>"$WORK/daemon.err" &
  local pid=$!
  for _ in $(seq 600); do grep -q 'listening on' "$WORK/daemon.err" && break; sleep 1; done
  # What the daemon charged the job (the memory budget in use), sampled
  # from /metrics every 2 s while it runs.
  (while kill -0 "$pid" 2>/dev/null; do
    /usr/bin/python3 -c 'import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
      "http://127.0.0.1:${STATUS_PORT:-9821}/metrics" 2>/dev/null |
      awk '/^cuzk_memory_used_bytes /{print $2}'
    sleep 2
  done) >"$WORK/daemon-charged.txt" &
  local sampler=$! rc=0
  timed daemon-client "$B" -a "$sock" single -t porep --c1 "$WORK/c1-32gib-sparse-curio.json" \
    --sector-num $SECTOR --miner-id 0 --verify-vk "$(ls "$PARAMS"/*.params)" \
    --save-proofs "$WORK/daemon-proofs" || rc=$?
  pkill -TERM -P "$pid" # the daemon under /usr/bin/time, which then prints its figures
  wait "$pid" || true
  wait "$sampler" || true
  sort -g "$WORK/daemon-charged.txt" | awk 'END { printf "daemon_charged %.2f GB\n", $1 / 1e9 }'
  awk '/Maximum resident/ { printf "daemon_peak_rss %.2f GB\n", $NF * 1024 / 1e9 }
       /File system inputs/ { printf "daemon_read %.2f GB\n", $NF * 512 / 1e9 }' "$WORK/daemon.err"
  cat "$WORK/daemon-client.out"
  return $rc
}

echo "# $(lscpu | grep 'Model name' | tr -s ' ')"
echo "# avx512ifma: $(grep -qw avx512ifma /proc/cpuinfo && echo yes || echo no)"
for s in $STEPS; do
  if [ -e "$WORK/done.$s" ]; then
    echo "== $s: done before (rm $WORK/done.$s to run it again)"
    continue
  fi
  echo "== $s"
  "step_$s"
  touch "$WORK/done.$s"
done
