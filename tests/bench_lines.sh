# Checks shared by the synthesis bench tests (cs, sha256-synth, poseidon):
# sourced, not run. Each check prints why and exits 1 on failure.

# Every line of $1 is "name value unit" with a positive decimal value.
bench_lines_well_formed() {
  local bad
  bad=$(echo "$1" | awk 'NF != 3 || $2 !~ /^[0-9.]+$/ || $2 <= 0' | wc -l)
  [ "$bad" -eq 0 ] || { echo "malformed lines"; exit 1; }
}

# $1 holds "$2.vec ... constraints/s" and, for each further layout L in
# $3..., "$2.L ... constraints/s" and "$2.L_vs_vec ... ratio".
bench_lines_layouts() {
  local out=$1 prefix=$2 l
  shift 2
  for l in vec "$@"; do
    grep -q "^$prefix.$l .* constraints/s$" <<<"$out" || { echo "missing $prefix.$l"; exit 1; }
  done
  for l in "$@"; do
    grep -q "^$prefix.${l}_vs_vec .* ratio$" <<<"$out" || { echo "missing ratio $prefix.$l"; exit 1; }
  done
}
