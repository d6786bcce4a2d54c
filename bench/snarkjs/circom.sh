#!/usr/bin/env bash
# Groth16 prove time of circom circuits: snarkjs 0.7.6 against cuzk-prove,
# on the same .zkey and .wtns, over BLS12-381. See README.md ("circom").
#
#   bench/snarkjs/circom.sh [--circuit sha256_512|dense_chain_bench|FILE.r1cs]
#                           [--wtns FILE] [--runs R] [--build DIR] [--no-snarkjs]
#
# --circuit     sha256_512 (default; tests/data/circom), dense_chain_bench
#               (circom2-compiled DenseChain(16383): 65,532 constraints,
#               compiled once into .cache), or any .r1cs with --wtns
# --runs R      timed runs per side (default 5), medians reported
# --build DIR   where cuzk-prove and cuzk-bench are (default build)
# --no-snarkjs  time cuzk only (for circuits snarkjs cannot finish)
#
# The key is made once by `cuzk-bench zkey-setup` (known toxic waste,
# tests/benchmarks only) and used by both sides. The runs alternate: one
# `snarkjs groth16 prove` (a node process), one `cuzk-prove` (a process
# that maps the key and reads the witness), so that both see the same
# share of a machine whose load drifts; then snarkjs's in-process API
# (prove_bench.mjs, curve built once) and cuzk's in-process repeat
# (`cuzk-bench prove --zkey --repeat`, key loaded once). One proof of each
# side is verified by the other's verifier.
#
# Output: `name value` lines on stdout (progress on stderr): cpu, circuit,
# constraints, domain_log2, zkey_bytes, loadavg_1m_before/after,
# snarkjs_cli_prove_ms, snarkjs_api_prove_ms, snarkjs_prove_ms (the smaller),
# cuzk_cli_prove_ms, cuzk_warm_prove_ms, cuzk_peak_rss_mib,
# speedup_cli (snarkjs_prove_ms / cuzk_cli_prove_ms: cuzk's whole process
# against snarkjs's best), speedup_warm (snarkjs_prove_ms / cuzk warm).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE="$HERE/.cache/circom"
SNARKJS="$HERE/node_modules/.bin/snarkjs"
CIRCUIT=sha256_512 WTNS= RUNS=5 BUILD="$ROOT/build" NO_SNARKJS=0

log() { echo "circom.sh: $*" >&2; }
die() { log "error: $*"; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --circuit) CIRCUIT=$2; shift 2 ;;
    --wtns) WTNS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --no-snarkjs) NO_SNARKJS=1; shift ;;
    *) die "unknown argument $1" ;;
  esac
done
PROVE="$BUILD/cuzk-prove" BENCH="$BUILD/cuzk-bench"
[ -x "$PROVE" ] && [ -x "$BENCH" ] || die "build cuzk first ($BUILD/cuzk-prove, cuzk-bench)"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "NA"; exit }
    if (NR % 2) printf "%.1f\n", v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA" || b + 0 == 0) print "NA"; else printf "%.2f\n", a / b }'; }
minimum() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA") print b; else if (b == "NA") print a; else print (a + 0 < b + 0 ? a : b) }'; }
unxz_to() { python3 -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as i, open(sys.argv[2], "wb") as o: shutil.copyfileobj(i, o)' "$1" "$2"; }

# The circuit's .r1cs and .wtns in $DIR.
prepare_circuit() {
  mkdir -p "$CACHE"
  case "$CIRCUIT" in
    *.r1cs)
      [ -n "$WTNS" ] || die "--circuit FILE.r1cs needs --wtns"
      NAME=$(basename "$CIRCUIT" .r1cs); DIR="$CACHE/$NAME"; mkdir -p "$DIR"
      cp "$CIRCUIT" "$DIR/circuit.r1cs"; cp "$WTNS" "$DIR/witness.wtns" ;;
    sha256_512)
      NAME=$CIRCUIT; DIR="$CACHE/$NAME"; mkdir -p "$DIR"
      [ -f "$DIR/circuit.r1cs" ] || unxz_to "$ROOT/tests/data/circom/$NAME/circuit.r1cs.xz" "$DIR/circuit.r1cs"
      [ -f "$DIR/witness.wtns" ] || unxz_to "$ROOT/tests/data/circom/$NAME/witness.wtns.xz" "$DIR/witness.wtns" ;;
    dense_chain_bench)
      NAME=$CIRCUIT; DIR="$CACHE/$NAME"; mkdir -p "$DIR"
      if [ ! -f "$DIR/witness.wtns" ]; then
        [ -x "$ROOT/tests/circom/node_modules/.bin/circom2" ] ||
          (cd "$ROOT/tests/circom" && npm ci --no-audit --no-fund >&2)
        log "compiling $NAME with circom2 (once)"
        (cd "$ROOT/tests/circom" && OUT="$CACHE/gen" ./gen.sh "$NAME" >&2)
        unxz_to "$CACHE/gen/$NAME/circuit.r1cs.xz" "$DIR/circuit.r1cs"
        unxz_to "$CACHE/gen/$NAME/witness.wtns.xz" "$DIR/witness.wtns"
      fi ;;
    *) die "unknown circuit $CIRCUIT" ;;
  esac
  if [ ! -s "$DIR/circuit.zkey" ] || [ "$DIR/circuit.zkey" -ot "$DIR/circuit.r1cs" ]; then
    log "key for $NAME (cuzk-bench zkey-setup, once)"
    "$BENCH" zkey-setup --r1cs "$DIR/circuit.r1cs" --zkey "$DIR/circuit.zkey.tmp" >"$DIR/setup.txt"
    mv "$DIR/circuit.zkey.tmp" "$DIR/circuit.zkey"
  fi
  cat "$DIR/setup.txt" >&2
  if [ "$NO_SNARKJS" = 0 ]; then
    [ -x "$SNARKJS" ] || (cd "$HERE" && npm ci --no-audit --no-fund >&2)
    [ -s "$DIR/verification_key.json" ] ||
      "$SNARKJS" zkey export verificationkey "$DIR/circuit.zkey" "$DIR/verification_key.json" >&2
  fi
}

snarkjs_cli_once() {
  local t0=$(now_ms)
  "$SNARKJS" groth16 prove "$DIR/circuit.zkey" "$DIR/witness.wtns" "$DIR/sj_proof.json" "$DIR/sj_public.json" >&2
  echo $(( $(now_ms) - t0 ))
}

cuzk_cli_once() {
  local t0=$(now_ms)
  "$PROVE" "$DIR/circuit.zkey" "$DIR/witness.wtns" "$DIR/cz_proof.json" "$DIR/cz_public.json" >&2
  echo $(( $(now_ms) - t0 ))
}

prepare_circuit
echo "cpu $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores$(grep -q avx512ifma /proc/cpuinfo && echo ', avx512ifma')"
echo "circuit $NAME"
sed -n 's/^constraints \([0-9]*\).*/constraints \1/p; s/^domain_log2 /domain_log2 /p; s/^zkey_bytes \([0-9]*\).*/zkey_bytes \1/p' "$DIR/setup.txt"
echo "loadavg_1m_before $(cut -d' ' -f1 /proc/loadavg)"
cli=$(mktemp) czl=$(mktemp)
cuzk_cli_once >/dev/null # warm the page cache
for i in $(seq "$RUNS"); do
  [ "$NO_SNARKJS" = 1 ] || { ms=$(snarkjs_cli_once); echo "$ms" >>"$cli"; log "snarkjs cli $ms ms"; }
  ms=$(cuzk_cli_once); echo "$ms" >>"$czl"; log "cuzk-prove $ms ms"
done
SJ_CLI=$(median <"$cli"); CZ_CLI=$(median <"$czl"); rm -f "$cli" "$czl"
SJ_API=NA
if [ "$NO_SNARKJS" = 0 ]; then
  out=$(cd "$HERE" && node prove_bench.mjs "$DIR/circuit.zkey" "$DIR/witness.wtns" "$DIR/verification_key.json" "$RUNS")
  echo "$out" >&2
  grep -q '^snarkjs_api_verify ok$' <<<"$out" || die "snarkjs's in-process proof did not verify"
  SJ_API=$(awk '/^snarkjs_api_run_ms/ { print $2 }' <<<"$out" | median)
  "$SNARKJS" groth16 verify "$DIR/verification_key.json" "$DIR/cz_public.json" "$DIR/cz_proof.json" >&2 ||
    die "snarkjs rejects cuzk's proof"
  "$PROVE" verify "$DIR/verification_key.json" "$DIR/sj_public.json" "$DIR/sj_proof.json" >&2 ||
    die "cuzk rejects snarkjs's proof"
  echo "cross_verify ok"
fi
warm=$("$BENCH" prove --zkey "$DIR/circuit.zkey" --wtns "$DIR/witness.wtns" --repeat "$RUNS" 2>"$DIR/warm.err")
grep -q '^valid$' <<<"$warm" || { cat "$DIR/warm.err" >&2; die "cuzk-bench prove --zkey failed"; }
grep CUZK_TIMING "$DIR/warm.err" | tail -10 >&2
echo "loadavg_1m_after $(cut -d' ' -f1 /proc/loadavg)"
SJ=$(minimum "$SJ_CLI" "$SJ_API")
CZ_WARM=$(awk '/^prove_run / { print $2 }' <<<"$warm" | median)
echo "snarkjs_cli_prove_ms $SJ_CLI"
echo "snarkjs_api_prove_ms $SJ_API"
echo "snarkjs_prove_ms $SJ"
echo "cuzk_cli_prove_ms $CZ_CLI"
echo "cuzk_warm_prove_ms $CZ_WARM"
echo "cuzk_load_zkey_ms $(awk '/^load_zkey / { print $2 }' <<<"$warm")"
echo "cuzk_peak_rss_mib $(awk '/^peak_rss / { print $2 }' <<<"$warm")"
echo "speedup_cli $(ratio "$SJ" "$CZ_CLI")"
echo "speedup_warm $(ratio "$SJ" "$CZ_WARM")"
