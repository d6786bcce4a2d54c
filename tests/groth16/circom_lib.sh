# Sourced by the circom tests (test_circom_prove.sh, test_circom_snarkjs.sh):
# the fixtures of tests/data/circom, made ready in $WORK, and file edits.
#   circom_setup BENCH    sets PROVE (cuzk-prove beside BENCH), WORK (a
#                         temporary folder removed on exit), DATA
#   circom_ready NAME     $WORK/NAME/{circuit.zkey, witness.wtns, ...}: the
#                         committed files; for sha256_512 the R1CS and
#                         witness unpacked and a key made by cuzk-bench
#                         zkey-setup (cached in the build folder)
#   circom_prove NAME     circom_ready, then cuzk-prove into $WORK/NAME/
#                         proof.json, public.json (one expect); sets d
#   bump_first_number IN OUT   the first decimal string of a JSON file plus 1
#   change_digit IN OUT        the 20th digit of the first number changed
#   bump_last_value IN OUT     a .wtns with its last value plus 1 (mod r)
CIRCOM_CIRCUITS="tiny many_public dense_chain sha256_512"

circom_setup() {
  BENCH=$1
  PROVE=$(dirname "$BENCH")/cuzk-prove
  DATA=tests/data/circom
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  [ -x "$PROVE" ] || { echo "circom: $PROVE was not built"; exit 1; }
}

unxz_to() { python3 -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as i, open(sys.argv[2], "wb") as o: shutil.copyfileobj(i, o)' "$1" "$2"; }

circom_ready() {
  local name=$1 d=$WORK/$1
  mkdir -p "$d"
  if [ -f "$DATA/$name/circuit.zkey" ]; then
    cp "$DATA/$name"/* "$d/"
    return 0
  fi
  unxz_to "$DATA/$name/circuit.r1cs.xz" "$d/circuit.r1cs"
  unxz_to "$DATA/$name/witness.wtns.xz" "$d/witness.wtns"
  cp "$DATA/$name"/*.json "$d/"
  # The key: made once per build folder from fresh toxic waste (tests only).
  local cache
  cache=$(dirname "$BENCH")/test-circom
  mkdir -p "$cache"
  if [ ! -s "$cache/$name.zkey" ] || [ "$cache/$name.zkey" -ot "$DATA/$name/circuit.r1cs.xz" ]; then
    "$BENCH" zkey-setup --r1cs "$d/circuit.r1cs" --zkey "$cache/$name.zkey.tmp" >"$d/setup.log" ||
      { cat "$d/setup.log"; return 1; }
    mv "$cache/$name.zkey.tmp" "$cache/$name.zkey"
  fi
  ln -s "$(cd "$cache" && pwd)/$name.zkey" "$d/circuit.zkey"
}

circom_prove() {
  d=$WORK/$1
  circom_ready "$1" || { echo "FAIL: $1: fixture"; fail=$((fail + 1)); return 1; }
  expect 0 "$1: prove" "" "$PROVE" "$d/circuit.zkey" "$d/witness.wtns" "$d/proof.json" "$d/public.json"
}

bump_first_number() {
  python3 - "$1" "$2" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r'"(\d+)"', t)
open(sys.argv[2], "w").write(t[:m.start(1)] + str(int(m.group(1)) + 1) + t[m.end(1):])
PY
}

change_digit() {
  python3 - "$1" "$2" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
i = re.search(r'"(\d{21,})"', t).start(1) + 20
open(sys.argv[2], "w").write(t[:i] + str((int(t[i]) + 1) % 10) + t[i + 1:])
PY
}

bump_last_value() {
  python3 - "$1" "$2" <<'PY'
import sys
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
b = bytearray(open(sys.argv[1], "rb").read())
v = (int.from_bytes(b[-32:], "little") + 1) % R
b[-32:] = v.to_bytes(32, "little")
open(sys.argv[2], "wb").write(b)
PY
}
