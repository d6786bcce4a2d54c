#!/usr/bin/env bash
# The repository stands alone: nothing in it names the folder that sat
# beside the first checkouts (the parent directory's "shared", with the
# upstream spec and the test vectors). A clone made elsewhere has no such
# folder, so a test, script or document that reads it would fail or mislead
# there. The vectors live in tests/vectors/ (one README per folder, giving
# the source) and the contract in docs/interface.md.
#
# In a git checkout whose top level is this tree: git grep over tracked and
# untracked files (ignored build output left out). Anywhere else (a release
# tarball): grep -r over the tree, build folders left out. Either way the
# pattern is first shown to catch a planted line, so a broken pattern cannot
# pass by finding nothing.
# Usage: test_standalone.sh [ignored]   (run from the repository root)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# Two dots, then /shared; or the old folder's subfolders by name. Written
# with brackets so that this file does not match itself.
PATTERN='[.][.]/shared|shared/(vectors|spec|hooks)([/`" ]|$)'
EXCLUDE_DIRS=(.git 'build*' node_modules .cache __pycache__)

grep_tree() { # grep_tree DIR: matching lines (path:line:text), none when clean
  local excl=()
  for d in "${EXCLUDE_DIRS[@]}"; do excl+=(--exclude-dir="$d"); done
  (cd "$1" && grep -rnIE "${excl[@]}" -- "$PATTERN" . | sed 's#^\./##')
}

in_git_toplevel() {
  command -v git >/dev/null 2>&1 || return 1
  local top
  top=$(git rev-parse --show-toplevel 2>/dev/null) || return 1
  [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]
}

fail=0
planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
printf 'V=%s/vectors/x\n' "..""/shared" >"$planted/a.sh"
printf 'see %s\n' "shared""/spec/cuzk-interface.md" >"$planted/b.md"
printf 'shared lib, shared/ memory\n' >"$planted/c.txt"
caught=$(grep_tree "$planted" | cut -d: -f1 | sort | tr '\n' ' ')
if [ "$caught" != "a.sh b.md " ]; then
  echo "FAIL: the pattern caught '$caught' in the planted files, expected 'a.sh b.md '"
  fail=1
fi

if in_git_toplevel; then
  how="git grep (tracked and untracked files)"
  found=$(git grep --untracked -nIE -- "$PATTERN")
else
  how="grep -r over the tree (not a git checkout)"
  found=$(grep_tree .)
fi
if [ -n "$found" ]; then
  echo "FAIL: files name the old outside folder ($how); use tests/vectors/ or docs/interface.md:"
  echo "$found"
  fail=1
fi

# Nor does anything point at the issue tracker by number: a reader of the
# code has none, so the text says what it refers to. Vectors are data.
ISSUE='\b[Ii]ssues? #?[0-9]+'
if [ "$(printf 'as %s 15 says\n' issue | grep -cE "$ISSUE")" != 1 ]; then
  echo "FAIL: the issue pattern misses a planted line"
  fail=1
fi
if in_git_toplevel; then
  issues=$(git grep --untracked -nIE -- "$ISSUE" -- . ':!tests/vectors')
else
  issues=$(cd . && grep -rnIE --exclude-dir=.git --exclude-dir='build*' --exclude-dir=vectors -- "$ISSUE" . || true)
fi
if [ -n "$issues" ]; then
  echo "FAIL: files name an issue number; say what it refers to:"
  echo "$issues"
  fail=1
fi

# Every vector folder says where its data comes from.
for d in tests/vectors/*/; do
  [ -f "$d/README.md" ] || { echo "FAIL: ${d%/} has no README.md"; fail=1; }
done

[ "$fail" -eq 0 ] && echo "test_standalone: no outside folder and no issue number named ($how); every tests/vectors folder has a README"
exit "$fail"
