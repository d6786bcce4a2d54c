#!/usr/bin/env bash
# PoRep public inputs against an independent Python reference
# (tests/reference/porep_reference.py: hashlib and a Python ChaCha8, written
# from rust-fil-proofs' definitions, checked first on the polka-storage
# 2 KiB vector): porep_id of every registered seal proof, partitions' inputs
# and sampled SDR parents from 2 KiB to 64 GiB, a gen-vanilla C1.
# Usage: test_porep_reference.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: $PY is absent"; exit 77; }
exec "$PY" "$(dirname "${BASH_SOURCE[0]}")/porep_reference.py" "$BENCH"
