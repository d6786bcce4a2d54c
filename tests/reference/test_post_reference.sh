#!/usr/bin/env bash
# PoSt public inputs against an independent Python reference
# (tests/reference/post_reference.py: hashlib, written from rust-fil-proofs'
# definitions), for every registered PoSt proof.
# Usage: test_post_reference.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: $PY is absent"; exit 77; }
exec "$PY" "$(dirname "${BASH_SOURCE[0]}")/post_reference.py" "$BENCH"
