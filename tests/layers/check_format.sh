#!/usr/bin/env bash
# The format check CI runs: the C lines a change touches must be laid out as
# .clang-format says. Only changed lines are checked (git clang-format), so
# older code that differs in detail is not rewritten by every change.
# Usage: check_format.sh [BASE]   (run from anywhere in the repository)
#   BASE: the commit the change starts from; default the merge base with
#   origin/main, else main, else HEAD~1. Uncommitted edits count too.
# Exit 0 when the touched lines are formatted (or clang-format is missing:
# said on stderr), 1 with the diff to apply when they are not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if ! command -v git-clang-format >/dev/null 2>&1 && ! git clang-format -h >/dev/null 2>&1; then
  echo "check_format: git clang-format is not installed (apt-get install clang-format); skipped" >&2
  exit 0
fi
base=${1:-}
if [ -z "$base" ]; then
  for ref in origin/main main; do
    if git rev-parse -q --verify "$ref^{commit}" >/dev/null; then
      base=$(git merge-base HEAD "$ref")
      break
    fi
  done
  # On main itself (or without it) the last commit is the change.
  if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
    base=$(git rev-parse -q --verify 'HEAD~1^{commit}' || true)
  fi
fi
if [ -z "$base" ]; then
  echo "check_format: no commit to compare with; nothing checked"
  exit 0
fi
out=$(git clang-format --style=file --extensions c,h --diff "$base" -- 2>&1 || true)
case "$out" in
  "" | *"no modified files to format"* | *"did not modify any files"*)
    echo "check_format: the lines changed since $(git rev-parse --short "$base") follow .clang-format"
    exit 0 ;;
esac
echo "$out"
echo "check_format: the lines above differ from .clang-format (apply with: git clang-format $base)" >&2
exit 1
