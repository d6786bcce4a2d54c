#!/usr/bin/env bash
# End-to-end Groth16 prove time: snarkjs 0.7.6 against cuzk on the same
# squaring-chain R1CS over BLS12-381. See README.md in this folder.
#
#   bench/snarkjs/run.sh [--runs R] [--log-constraints K] [--n N]
#                        [--cuzk PATH] [--only snarkjs|cuzk] [--ceremony]
#                        [--self-test]
#
# --runs R             timed runs per side (default 5); the median is reported
# --log-constraints K  passed to `cuzk-bench prove` (default 16)
# --n N                chain length for the snarkjs R1CS (default: the one
#                      cuzk-bench proves for K, see chain_n_for_log below)
# --cuzk PATH          the cuzk-bench binary (default build/cuzk-bench)
# --only SIDE          time one side only
# --ceremony           make the powers of tau with snarkjs (new, contribute,
#                      prepare phase2) and contribute to the zkey, instead of
#                      fast_ptau.mjs's known-toxic-waste file (hours here)
# --self-test          check the CUZK_TIMING parser and the median on samples
#
# Prepares, once, what is missing under bench/snarkjs/.cache (ignored by git):
# node_modules (npm ci), a BLS12-381 powers of tau (fast_ptau.mjs, or with
# --ceremony snarkjs's new + 1 contribution + prepare phase2), the R1CS and
# witness (gen_chain.mjs), the zkey (`snarkjs groth16 setup`, + 1 contribution
# with --ceremony), the verification key; then proves once with the snarkjs
# CLI and checks the proof with `snarkjs groth16 verify`.
#
# Output: "name value" lines on stdout (progress on stderr):
#   loadavg_1m_before/after  the 1-minute load average around the timing
#   snarkjs_cli_prove_ms     median wall time of `snarkjs groth16 prove`
#                            (a fresh node process per proof)
#   snarkjs_api_prove_ms     median of groth16.prove() in a warm node process
#                            (prove_bench.mjs; no node start-up, curve built)
#   snarkjs_prove_ms         the smaller of the two (never flatters cuzk)
#   cuzk_prove_ms            median of cuzk's in-process prove: synthesis of
#                            the witness + H + MSMs, from CUZK_TIMING lines
#   speedup                  snarkjs_prove_ms / cuzk_prove_ms
#   speedup_cli, speedup_api the same against each snarkjs figure
# The CLI runs alternate with the cuzk runs (see time_all).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE="$HERE/.cache"
SNARKJS="$HERE/node_modules/.bin/snarkjs"
CURVE=bls12381

RUNS=5
LOGC=16
N=
CUZK="$ROOT/build/cuzk-bench"
ONLY=
SELF_TEST=0
SETUP=fast

log() { echo "run.sh: $*" >&2; }
die() { log "error: $*"; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --log-constraints) LOGC=$2; shift 2 ;;
    --n) N=$2; shift 2 ;;
    --cuzk) CUZK=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --self-test) SELF_TEST=1; shift ;;
    --ceremony) SETUP=ceremony; shift ;;
    *) die "unknown argument $1" ;;
  esac
done

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
loadavg() { cut -d' ' -f1 /proc/loadavg; }

# Median of the numbers on stdin (mean of the middle two for an even count).
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "NA"; exit }
    if (NR % 2) printf "%.1f\n", v[(NR + 1) / 2];
    else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# One cuzk prove, as milliseconds, from its stderr (stdin here). The prover
# prints "CUZK_TIMING: <phase>_ms=<int>" per phase; its total_ms covers the
# prover (H + MSMs + assembly) but not synthesis, which the caller measures
# and prints as synthesis_ms, so the prove step is synthesis_ms + total_ms.
# Several lines of one phase (a batch) are summed. Fails if total_ms is absent.
cuzk_ms_from_log() {
  sed -n 's/.*CUZK_TIMING: *\([a-z0-9_]*\)_ms=\([0-9.]*\).*/\1 \2/p' |
    awk '{ t[$1] += $2; seen[$1] = 1 }
         END { if (!seen["total"]) exit 1; printf "%.1f\n", t["total"] + t["synthesis"] }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {
  if (a == "NA" || b == "NA" || b + 0 == 0) print "NA"; else printf "%.2f\n", a / b }'; }

self_test() {
  local got
  got=$(printf '%s\n' "cuzk-bench: proving" \
    "CUZK_TIMING: synthesis_ms=120" "CUZK_TIMING: ntt_h_ms=80" \
    "CUZK_TIMING: msm_h_ms=200" "CUZK_TIMING: total_ms=650" | cuzk_ms_from_log)
  [ "$got" = "770.0" ] || die "self-test: parser gave '$got', want 770.0"
  got=$(printf 'CUZK_TIMING: total_ms=41\n' | cuzk_ms_from_log)
  [ "$got" = "41.0" ] || die "self-test: parser gave '$got', want 41.0"
  if printf 'CUZK_TIMING: synthesis_ms=5\n' | cuzk_ms_from_log >/dev/null; then
    die "self-test: parser accepted a log without total_ms"
  fi
  got=$(printf '9\n3\n100\n' | median); [ "$got" = "9.0" ] || die "self-test: median '$got'"
  got=$(printf '4\n1\n3\n2\n' | median); [ "$got" = "2.5" ] || die "self-test: median '$got'"
  got=$(ratio 9500 500); [ "$got" = "19.00" ] || die "self-test: ratio '$got'"
  log "self-test passed"
}

if [ "$SELF_TEST" = 1 ]; then self_test; exit 0; fi

# The chain length cuzk-bench proves for --log-constraints K: K is the log2
# of the QAP domain and the input constraints (ONE and x) count, so the chain
# has 2^K - CZ_SYNTHETIC_INPUTS = 2^K - 2 squarings, from x = 3
# (tools/cuzk-bench/cmd_prove.c, include/cuzk/synthetic.h).
chain_n_for_log() { echo $(( (1 << $1) - 2 )); }
[ -n "$N" ] || N=$(chain_n_for_log "$LOGC")

# snarkjs's domain: 2^(floor(log2(N + nPub + nOut)) + 1), nPub = 1 (zkey_new.js).
ceil_pow() { local p=0; while [ $(( 1 << p )) -le "$1" ]; do p=$((p + 1)); done; echo "$p"; }
CIR_POWER=$(ceil_pow $((N + 1)))

prepare_snarkjs() {
  mkdir -p "$CACHE"
  if [ ! -x "$SNARKJS" ]; then
    log "installing snarkjs (npm ci)"
    (cd "$HERE" && npm ci --no-audit --no-fund >&2)
  fi
  local v
  v=$(node -p 'require(process.argv[1]).version' "$HERE/node_modules/snarkjs/package.json")
  [ "$v" = "0.7.6" ] || die "snarkjs $v installed, 0.7.6 expected (run npm ci in $HERE)"

  # The powers of tau: a cached ceremony-style file covering the domain if
  # there is one, else (default) the known-toxic-waste file of fast_ptau.mjs
  # for exactly this domain, else snarkjs's own route (--ceremony).
  PTAU=
  local p t0
  for p in $(seq "$CIR_POWER" 28); do
    if [ -f "$CACHE/pot${p}_final.ptau" ]; then PTAU="$CACHE/pot${p}_final.ptau"; break; fi
  done
  if [ -z "$PTAU" ] && [ "$SETUP" = fast ]; then
    PTAU="$CACHE/pot${CIR_POWER}_fast.ptau"
    if [ ! -f "$PTAU" ]; then
      log "bench-only powers of tau 2^$CIR_POWER (known toxic waste, fast_ptau.mjs)"
      t0=$(now_ms)
      node "$HERE/fast_ptau.mjs" --power "$CIR_POWER" --curve "$CURVE" --out "$PTAU"
      echo "ptau_fast_${CIR_POWER}_ms $(( $(now_ms) - t0 ))" | tee "$PTAU.time" >&2
    fi
  fi
  if [ -z "$PTAU" ]; then
    p=$CIR_POWER
    PTAU="$CACHE/pot${p}_final.ptau"
    log "powers of tau 2^$p for $CURVE: new + contribute + prepare phase2 (slow, once)"
    t0=$(now_ms)
    "$SNARKJS" powersoftau new "$CURVE" "$p" "$CACHE/pot${p}_0000.ptau" >&2
    "$SNARKJS" powersoftau contribute "$CACHE/pot${p}_0000.ptau" "$CACHE/pot${p}_0001.ptau" \
      --name=cuzk-bench -e="cuzk bench $(date +%s%N) $RANDOM" >&2
    "$SNARKJS" powersoftau prepare phase2 "$CACHE/pot${p}_0001.ptau" "$PTAU.tmp" >&2
    mv "$PTAU.tmp" "$PTAU"
    rm -f "$CACHE/pot${p}_0000.ptau" "$CACHE/pot${p}_0001.ptau"
    echo "ptau_${p}_ms $(( $(now_ms) - t0 ))" | tee "$PTAU.time" >&2
  fi
  echo "ptau $(basename "$PTAU")"

  BASE=$(node "$HERE/gen_chain.mjs" --n "$N" --curve "$CURVE" --out "$CACHE")
  ZKEY="$BASE.zkey"
  VKEY="$BASE.vkey.json"
  # The zkey remembers the ptau it came from; another ptau means a new setup.
  if [ ! -f "$ZKEY" ] || [ ! -f "$VKEY" ] ||
     [ "$(cat "$ZKEY.ptau" 2>/dev/null)" != "$(basename "$PTAU")" ]; then
    log "groth16 setup for $N constraints with $(basename "$PTAU")"
    t0=$(now_ms)
    rm -f "$ZKEY" "$VKEY" "$ZKEY.ptau"
    "$SNARKJS" groth16 setup "$BASE.r1cs" "$PTAU" "$BASE.0.zkey" >&2
    if [ "$SETUP" = ceremony ]; then
      # A phase-2 contribution (delta != G). The fast setup skips it: delta
      # only changes which points the prover adds, not how many.
      "$SNARKJS" zkey contribute "$BASE.0.zkey" "$ZKEY.tmp" \
        --name=cuzk-bench -e="cuzk bench $(date +%s%N) $RANDOM" >&2
      rm -f "$BASE.0.zkey"
    else
      mv "$BASE.0.zkey" "$ZKEY.tmp"
    fi
    "$SNARKJS" zkey export verificationkey "$ZKEY.tmp" "$VKEY" >&2
    mv "$ZKEY.tmp" "$ZKEY"
    basename "$PTAU" >"$ZKEY.ptau"
    echo "zkey_setup_ms $(( $(now_ms) - t0 ))" >&2
  fi

  # One proof with the CLI, checked by the CLI verifier: the setup is right.
  "$SNARKJS" groth16 prove "$ZKEY" "$BASE.wtns" "$CACHE/proof.json" "$CACHE/public.json" >&2
  "$SNARKJS" groth16 verify "$VKEY" "$CACHE/public.json" "$CACHE/proof.json" >&2 ||
    die "snarkjs groth16 verify rejected snarkjs's own proof"
  echo "snarkjs_cli_verify ok"
}

# One timed `snarkjs groth16 prove` (a fresh node process): its ms on stdout.
snarkjs_cli_once() {
  local t0 ms
  t0=$(now_ms)
  "$SNARKJS" groth16 prove "$ZKEY" "$BASE.wtns" "$CACHE/proof.json" "$CACHE/public.json" >&2
  ms=$(( $(now_ms) - t0 ))
  echo "snarkjs_cli_run_ms $ms" >&2
  echo "$ms"
}

# One timed `cuzk-bench prove`: its synthesis_ms + total_ms on stdout.
cuzk_once() {
  local errlog ms
  errlog=$(mktemp)
  "$CUZK" prove --synthetic chain --log-constraints "$LOGC" >/dev/null 2>"$errlog" ||
    { cat "$errlog" >&2; rm -f "$errlog"; die "cuzk-bench prove failed"; }
  grep CUZK_TIMING "$errlog" >&2 || true
  ms=$(cuzk_ms_from_log <"$errlog") || { rm -f "$errlog"; die "no CUZK_TIMING total_ms from cuzk-bench"; }
  rm -f "$errlog"
  echo "cuzk_run_ms $ms" >&2
  echo "$ms"
}

# The CLI runs of snarkjs and the cuzk runs alternate, so that both sides
# see the same share of a machine whose load drifts; the in-process snarkjs
# runs follow in one node process.
time_all() {
  local i cli_list cuzk_list
  cli_list=$(mktemp) cuzk_list=$(mktemp)
  if [ "$ONLY" != snarkjs ]; then
    if [ -x "$CUZK" ]; then
      # Untimed warm-up: the first run makes and caches the test parameters.
      log "cuzk: warm-up (setup or load of the cached test parameters)"
      "$CUZK" prove --synthetic chain --log-constraints "$LOGC" >&2 2>/dev/null ||
        die "cuzk-bench prove failed"
    else
      log "no $CUZK: build cuzk first (cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2)"
      CUZK=
    fi
  fi
  log "$RUNS rounds of: snarkjs groth16 prove (CLI), cuzk-bench prove --synthetic chain --log-constraints $LOGC"
  for i in $(seq "$RUNS"); do
    [ "$ONLY" = cuzk ] || snarkjs_cli_once >>"$cli_list"
    [ "$ONLY" = snarkjs ] || [ -z "$CUZK" ] || cuzk_once >>"$cuzk_list"
  done
  SNARKJS_CLI_MS=$(median <"$cli_list")
  CUZK_MS=$(median <"$cuzk_list")
  rm -f "$cli_list" "$cuzk_list"
  if [ "$ONLY" != cuzk ]; then
    log "snarkjs API: $RUNS x groth16.prove() in one process"
    local out
    out=$(cd "$HERE" && node prove_bench.mjs "$ZKEY" "$BASE.wtns" "$VKEY" "$RUNS")
    echo "$out" >&2
    grep -q '^snarkjs_api_verify ok$' <<<"$out" || die "the timed snarkjs proof did not verify"
    SNARKJS_API_MS=$(awk '/^snarkjs_api_run_ms/ { print $2 }' <<<"$out" | median)
  fi
}

minimum() { awk -v a="$1" -v b="$2" 'BEGIN {
  if (a == "NA") print b; else if (b == "NA") print a; else print (a + 0 < b + 0 ? a : b) }'; }

SNARKJS_API_MS=NA SNARKJS_CLI_MS=NA CUZK_MS=NA
[ "$ONLY" = cuzk ] || prepare_snarkjs
echo "chain_constraints $N"
echo "domain_log2 $CIR_POWER"
echo "loadavg_1m_before $(loadavg)"
time_all
echo "loadavg_1m_after $(loadavg)"
SNARKJS_MS=$(minimum "$SNARKJS_CLI_MS" "$SNARKJS_API_MS")
echo "snarkjs_cli_prove_ms $SNARKJS_CLI_MS"
echo "snarkjs_api_prove_ms $SNARKJS_API_MS"
echo "snarkjs_prove_ms $SNARKJS_MS"
echo "cuzk_prove_ms $CUZK_MS"
echo "speedup $(ratio "$SNARKJS_MS" "$CUZK_MS")"
echo "speedup_cli $(ratio "$SNARKJS_CLI_MS" "$CUZK_MS")"
echo "speedup_api $(ratio "$SNARKJS_API_MS" "$CUZK_MS")"
