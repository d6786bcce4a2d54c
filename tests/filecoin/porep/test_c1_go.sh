#!/bin/bash
# The C1 reader against Go's encoding/json, the writer Curio's batch-sealing
# path uses before it sends a C1 to cuzk: tests/reference/go/c1json decodes
# our C1 into Go types written from rust-fil-proofs' structs and marshals it
# again (Go's field order, "_h":null in columns, the Merkle proof variants
# as omitempty pointers, Curio's base64 wrapper). Every Go text must read
# back to the same C1 (`cuzk-bench c1-parse --canonical`) for each 2 KiB
# kind (V1_1, V1, SyntheticPoRep, NI-PoRep) and the synthetic 32 GiB (Sub)
# and 64 GiB (Top) shapes; a slice Go writes as null or [] is refused with
# one line naming it, as serde refuses them. Skipped (77) without Debian's
# golang-go. Usage: test_c1_go.sh path/to/cuzk-bench   (from the repo root)
set -uo pipefail
bench=${1:?usage: $0 path/to/cuzk-bench}
command -v go >/dev/null || { echo "SKIP: go is absent (Debian package golang-go)"; exit 77; }
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: $PY is absent"; exit 77; }

# An offline build from the standard library only, its cache in the build
# folder: no module proxy, no toolchain download, no VCS stamping.
build=$(cd "$(dirname "$bench")" && pwd)
export GOCACHE=$build/go/cache GOPATH=$build/go/path GOPROXY=off GOTOOLCHAIN=local \
       GOFLAGS=-buildvcs=false GOENV=off GOSUMDB=off
c1json=$build/go/c1json
(cd tests/reference/go/c1json && go build -o "$c1json" .) || { echo "FAIL: go build c1json"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# What the reader read from $1, in our layout, into $2.
canonical() { "$bench" c1-parse --canonical "$1" >"$2" 2>"$tmp/err"; }

# $1: a C1 of ours; $2: a name. Go's text of it must differ from ours and
# read back to the same C1.
check_go() {
  local ours=$1 name=$2
  canonical "$ours" "$tmp/$name.ref" || { fail "$name: ours: $(cat "$tmp/err")"; return; }
  "$c1json" "$ours" "$tmp/$name.go.json" || { fail "$name: Go cannot decode our C1"; return; }
  if cmp -s "$ours" "$tmp/$name.go.json"; then fail "$name: Go wrote our layout byte for byte"; fi
  grep -q '^{"comm_d":\[' "$tmp/$name.go.json" || fail "$name: not in Go's field order"
  grep -q '"_h":null' "$tmp/$name.go.json" || fail "$name: no \"_h\":null"
  if canonical "$tmp/$name.go.json" "$tmp/$name.out" && cmp -s "$tmp/$name.ref" "$tmp/$name.out"; then
    echo "ok: $name: Go's text reads as the same C1"
  else
    fail "$name: Go's text reads differently: $(cat "$tmp/err")"
  fi
}

for kind in "" --v1 --synthetic --ni; do
  name=2KiB-${kind#--}
  [ -n "$kind" ] || name=2KiB-v1_1
  "$bench" --quiet gen-vanilla porep --sector-size 2KiB $kind --out "$tmp/$name.json" >/dev/null ||
    { fail "$name: gen-vanilla"; continue; }
  check_go "$tmp/$name.json" "$name"
  # Python's json, a third reader: the same document up to key order, so
  # Go's types hold every field of our writer under the same name.
  "$PY" -c 'import json, sys; a, b = (json.load(open(p)) for p in sys.argv[1:]); sys.exit(a != b)' \
    "$tmp/$name.json" "$tmp/$name.go.json" || fail "$name: Go's document differs from ours"
done
grep -q '"Single":{' "$tmp/2KiB-v1_1.go.json" || fail "2KiB: no Single Merkle proof"

for size in 32GiB 64GiB; do
  "$bench" c1-parse --sector-size $size -i 1 --out "$tmp/$size.json" >/dev/null ||
    { fail "$size: c1-parse --out"; continue; }
  check_go "$tmp/$size.json" "$size"
done
grep -q '"Sub":{' "$tmp/32GiB.go.json" || fail "32GiB: no Sub Merkle proof"
grep -q '"Top":{' "$tmp/64GiB.go.json" || fail "64GiB: no Top Merkle proof"

# Curio's wrapper as Go writes it: Phase1Out a []byte, so standard base64.
"$c1json" -curio "$tmp/2KiB-v1_1.json" "$tmp/wrapped.json" || fail "Go cannot wrap"
grep -q '^{"SectorNum":1,"Phase1Out":"eyJjb21tX2Qi' "$tmp/wrapped.json" || fail "not Go's wrapper"
if canonical "$tmp/wrapped.json" "$tmp/wrapped.out" && cmp -s "$tmp/2KiB-v1_1.ref" "$tmp/wrapped.out"; then
  echo "ok: Curio's wrapper from Go reads as the same C1"
else
  fail "Curio's wrapper from Go: $(cat "$tmp/err")"
fi

# A slice Go writes as null (nil) or [] (empty): serde refuses null for a
# Vec and the counts are fixed, so each is refused with one line naming it.
for field in exp_parents drg_parents labeling_proofs parents rows path hashes; do
  for how in nil empty; do
    [ $how = nil ] && want="\"$field\":null" || want="\"$field\":\[\]"
    "$c1json" -$how $field "$tmp/2KiB-v1_1.json" "$tmp/bad.json" || { fail "-$how $field"; continue; }
    grep -q "$want" "$tmp/bad.json" || { fail "-$how $field: Go did not write $want"; continue; }
    canonical "$tmp/bad.json" "$tmp/bad.out"
    rc=$?
    msg=$(cat "$tmp/err")
    if [ $rc -eq 1 ] && [ ! -s "$tmp/bad.out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
       grep -qE "\.$field: (expected '\[' \(an array\)|expected [0-9]+ .*, found 0)" <<<"$msg"; then
      echo "ok: $field as $how refused: $msg"
    else
      fail "$field as $how: rc $rc: $msg"
    fi
  done
done

[ $fails -eq 0 ] || { echo "test_c1_go: $fails failed"; exit 1; }
echo "test_c1_go: ok"
