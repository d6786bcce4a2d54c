#!/usr/bin/env bash
# The layer check: no file under src/ includes a header of a higher layer.
#
# The order is written here and nowhere else (docs/ARCHITECTURE.md points
# here). Layers on one line separated by commas are siblings: neither may
# include the other.
#   util < ec < ntt, msm < cs < groth16 < cuda < hash < gadgets < filecoin
#        < engine < provers < server < tools
# A header's layer: src/<layer>/... for internal headers; for the public
# headers in include/cuzk/, the table below, which each header's first line
# repeats ("/* Layer: ec */"). A new public header must be added to the table
# (the check fails on an unknown one or a first line that disagrees).
# An internal header (src/<layer>/x.h) is its layer's own: other layers may
# include it only when it is listed in EXPORTED below, with the reason.
# Every global symbol of the libraries starts with cz_ (CZ_ for constants):
# with the path of a built program (ctest passes cuzk-bench), nm reads the
# libcuzk_*.a archives beside it; without one, the non-static function
# definitions under src/ are read instead.
# Usage: test_layers.sh [BUILD/cuzk-bench]   (run from anywhere in the repository)
set -euo pipefail
bin=${1:+$(realpath -- "$1")}
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ORDER=(util ec "ntt,msm" cs groth16 cuda hash gadgets filecoin engine provers server tools)

declare -A HEADER=(
  [err.h]=util [log.h]=util [progress.h]=util [parallel.h]=util [perf_counters.h]=util [clock.h]=util [histogram.h]=util
  [crc32c.h]=util
  [cpu.h]=ec [fr_packed.h]=ec [fp.h]=ec [fp2.h]=ec [fp12.h]=ec [fr.h]=ec [g1.h]=ec [g2.h]=ec [pairing.h]=ec
  [ntt.h]=ntt [msm.h]=msm
  [cs.h]=cs [lc.h]=cs [cs_slots.h]=cs
  [groth16.h]=groth16 [params.h]=groth16 [params_store.h]=groth16 [groth16_prove.h]=groth16
  [synthetic.h]=groth16 [zkey.h]=groth16 [circom.h]=groth16
  [cuda_backend.h]=cuda
  [sha256.h]=hash [blake2b.h]=hash [chacha8.h]=hash [chacha20.h]=hash [poseidon.h]=hash [merkle.h]=hash
  [gadgets.h]=gadgets [poseidon_gadget.h]=gadgets [por.h]=gadgets
  [registry.h]=filecoin [param_digest.h]=filecoin [sdr.h]=filecoin [porep.h]=filecoin [post.h]=filecoin
  [post_circuit.h]=filecoin [snap.h]=filecoin [snap_circuit.h]=filecoin [vanilla_merkle.h]=filecoin
  [engine.h]=engine [proof_ops.h]=engine
  [provers.h]=provers [circom_keys.h]=provers
  [server.h]=server
)

# Internal headers other layers may include, and why.
declare -A EXPORTED=(
  [util/msg.h]="the one message helper"
  [util/atomic_file.h]="cache files written crash-safe: temporary, fsync, rename, sweep"
  [util/bigbuf.h]="huge-page buffers and the scratch cache"
  [util/errpath.h]="field paths in input errors"
  [util/json_scan.h]="the streaming JSON scanner"
  [ec/mont.h]="Montgomery limbs for the NTT, MSM and cs hot loops"
  [ec/fp_inline.h]="inline Fp for curve code in msm and groth16"
  [ec/ifma_field.h]="8-lane IFMA field for msm, ntt and the setup's fixed-base multiplication"
  [ec/ifma_fp2.h]="8-lane IFMA Fp2 for the G2 MSM and the setup's fixed-base multiplication"
  [ec/mont_adx_asm.h]="ADX multiply for the NTT"
  [groth16/g16_internal.h]="the prover's internals, shared with its CUDA backend"
)

rank_of() { # layer name -> its position in ORDER
  local i
  for i in "${!ORDER[@]}"; do
    [[ ",${ORDER[$i]}," == *",$1,"* ]] && { echo "$i"; return; }
  done
  echo -1
}

fail=0
checked=0
while IFS= read -r -d '' f; do
  rel=${f#src/}
  layer=${rel%%/*}
  me=$(rank_of "$layer")
  if [ "$me" -lt 0 ]; then
    echo "test_layers: $f: folder src/$layer is not in the layer order"; fail=1; continue
  fi
  while IFS= read -r inc; do
    checked=$((checked + 1))
    if [[ $inc == cuzk/v1/*.pb-c.h || $inc == cuzk/circom/v1/*.pb-c.h ]]; then
      hl=server # the protobuf-c code generated from proto/cuzk/v1 and proto/cuzk/circom/v1
    elif [[ $inc == cuzk/* ]]; then
      h=${inc#cuzk/}
      hl=${HEADER[$h]:-}
      if [ -z "$hl" ]; then
        echo "test_layers: $f includes $inc, which has no layer in the table"; fail=1; continue
      fi
    elif [[ $inc == */* ]]; then
      hl=${inc%%/*}
      if [ "$hl" != "$layer" ] && [ -z "${EXPORTED[$inc]:-}" ]; then
        echo "test_layers: $f includes $inc, an internal header of $hl"; fail=1; continue
      fi
    else
      continue # same folder
    fi
    them=$(rank_of "$hl")
    if [ "$hl" != "$layer" ] && [ "$them" -ge "$me" ]; then
      echo "test_layers: $f ($layer) includes $inc ($hl): not a lower layer"; fail=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -print0 | sort -z)

# Every public header has a layer, and its first line names the same one
# ("/* Layer: ec */"), so that a reader of the header sees it and the two
# cannot drift apart.
for h in include/cuzk/*.h; do
  b=${h#include/cuzk/}
  [ -n "${HEADER[$b]:-}" ] || { echo "test_layers: $h has no layer in the table"; fail=1; continue; }
  first=$(head -n 1 "$h")
  if [ "$first" != "/* Layer: ${HEADER[$b]} */" ]; then
    echo "test_layers: $h: its first line is '$first', not '/* Layer: ${HEADER[$b]} */' as the table says"
    fail=1
  fi
done

# Public headers include only their own or lower layers' headers.
for h in include/cuzk/*.h; do
  b=${h#include/cuzk/}
  me=$(rank_of "${HEADER[$b]:-none}")
  while IFS= read -r inc; do
    hl=${HEADER[${inc#cuzk/}]:-}
    [ -n "$hl" ] || continue
    them=$(rank_of "$hl")
    if [ "$hl" != "${HEADER[$b]}" ] && [ "$them" -ge "$me" ]; then
      echo "test_layers: $h (${HEADER[$b]}) includes $inc ($hl): not a lower layer"; fail=1
    fi
  done < <(sed -n 's/^#include "\(cuzk\/[^"]*\)".*/\1/p' "$h")
done

# Global symbols: cz_ or CZ_ only. From the archives: every symbol a C
# object defines; in a CUDA object, the strong unmangled ones (the rest are
# the CUDA headers' weak templates and nvcc's anonymous-namespace stubs).
n_syms=0
archives=()
[ -n "$bin" ] && for a in "$(dirname "$bin")"/libcuzk_*.a; do [ -f "$a" ] && archives+=("$a"); done
if [ "${#archives[@]}" -gt 0 ] && command -v nm >/dev/null; then
  syms=$(nm -g --defined-only -A "${archives[@]}" 2>/dev/null | awk 'NF >= 3 {
    split($1, m, ":"); obj = m[2]; t = $(NF - 1); s = $NF
    if (s ~ /^__(odr_)?asan|^__ubsan|^__sancov/) next # the sanitizers own (test-asan, fuzz)
    if (obj ~ /\.c\.o$/ || (t ~ /^[TDBRCGS]$/ && s !~ /^_Z/)) print obj ": " s }')
  where="the ${#archives[@]} archives beside $bin"
else
  syms=$(python3 - <<'PY'
import glob, re
# A definition: a line at column 0, not static, naming a function whose
# parameter list is followed by a brace (a declaration ends with ';').
DEF = re.compile(r"^(?!typedef\b|extern\b|return\b|#)([A-Za-z_][\w \t*]*?)\b(\w+)\s*\([^;{}]*\)\s*\{", re.M)
for f in sorted(glob.glob("src/**/*.c", recursive=True)):
    for m in DEF.finditer(open(f, encoding="utf-8").read()):
        if not re.search(r"\bstatic\b", m.group(1)):
            print(f"{f}: {m.group(2)}")
PY
  )
  where="the non-static function definitions under src/ (no archives: pass the path of a built program)"
fi
while IFS= read -r line; do
  [ -n "$line" ] || continue
  n_syms=$((n_syms + 1))
  case "${line##*: }" in
  cz_* | CZ_*) ;;
  *) echo "test_layers: ${line}: a global symbol without the cz_ prefix (static, or cz_...)"; fail=1 ;;
  esac
done <<<"$syms"

# "kind" means one thing: the proofs the engine schedules (cz_proof_kind). No
# other type is named a kind (a registered proof, a cs mode, a table of
# functions: ..._ops), so the word reads the same everywhere.
kinds=$(grep -rhoE --include='*.[ch]' '(\}|typedef [^;(]*[ *])[[:space:]]*[A-Za-z_0-9]*kind[A-Za-z_0-9]*[[:space:]]*;' \
  src include tools bench tests fuzz | grep -oE '[A-Za-z_0-9]*kind[A-Za-z_0-9]*' | sort -u)
if [ "$kinds" != "cz_proof_kind" ]; then
  echo "test_layers: types named a kind: $(echo $kinds) (only cz_proof_kind may be)"
  fail=1
fi

if [ "$fail" -ne 0 ]; then
  exit 1
fi
echo "test_layers: $n_syms global symbols in $where start with cz_"
echo "test_layers: $checked includes under src/ respect the order ${ORDER[*]}"
