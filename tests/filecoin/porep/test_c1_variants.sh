#!/usr/bin/env bash
# The C1 reader against Python's json writing one real C1 in many equivalent
# layouts, and against invalid variants (tests/filecoin/porep/c1_variants.py).
# Usage: test_c1_variants.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: $PY is absent"; exit 77; }
exec "$PY" "$(dirname "${BASH_SOURCE[0]}")/c1_variants.py" "$BENCH"
