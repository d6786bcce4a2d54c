#!/usr/bin/env bash
# The format check CI runs: every C file in the repository is laid out as
# .clang-format says (the whole tree was formatted once, so any difference is
# new). Usage: check_format.sh   (run from anywhere in the repository)
# Exit 0 when every tracked .c and .h file is formatted (or clang-format is
# missing: said on stderr), 1 naming each file that is not, with the command
# that fixes it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if ! command -v clang-format >/dev/null 2>&1; then
  echo "check_format: clang-format is not installed (apt-get install clang-format); skipped" >&2
  exit 0
fi
mapfile -t files < <(git ls-files '*.c' '*.h')
bad=$(clang-format --style=file --dry-run "${files[@]}" 2>&1 | grep -o '^[^:]*:[0-9]*:[0-9]*: warning' |
  cut -d: -f1 | sort -u || true)
if [ -z "$bad" ]; then
  echo "check_format: all ${#files[@]} C files follow .clang-format"
  exit 0
fi
echo "$bad"
echo "check_format: the files above differ from .clang-format (fix with: clang-format -i --style=file FILE)" >&2
exit 1
