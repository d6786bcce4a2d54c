#!/usr/bin/env bash
# PoRep challenges (interactive, NI-PoRep, synthetic) against an independent
# Python reference (tests/reference/porep_challenges_reference.py: hashlib
# and python3-cryptography's ChaCha20, written from rust-fil-proofs'
# challenges.rs), for every registered sector size.
# Usage: test_porep_challenges.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: $PY is absent"; exit 77; }
"$PY" -c 'import cryptography' 2>/dev/null || { echo "SKIP: python3-cryptography is absent"; exit 77; }
exec "$PY" "$(dirname "${BASH_SOURCE[0]}")/porep_challenges_reference.py" "$BENCH"
