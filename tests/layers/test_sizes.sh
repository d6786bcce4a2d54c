#!/usr/bin/env bash
# The size rules of the project guide, checked on the tree:
#   - no function longer than 80 lines (from its opening brace to its
#     closing one, comments and blank lines included) in the library, the
#     tools, the benchmarks, the tests or the fuzz targets;
#   - no public function (declared in include/cuzk/) with more than 8
#     parameters: a longer list becomes a struct (cz_prove_ctx, ...).
# Prints every offender and fails when there is one.
# Usage: test_sizes.sh [ignored]   (run from anywhere in the repository)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
exec python3 - "$@" <<'PY'
import glob, os, re, sys

MAX_LINES, MAX_PARAMS = 80, 8

def blank_out(src):
    """src with comments and string / char literals blanked (newlines kept)."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src[i] in "\"'":
            q, j = src[i], i + 1
            while j < n and src[j] != q:
                j += 2 if src[j] == "\\" else 1
            j += 1
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", src[i:j]))
        i = j
    return "".join(out)

SIG = re.compile(r"(\w+)\s*\([^;{}]*\)\s*$", re.S)

def long_functions(path):
    text = blank_out(open(path, errors="replace").read())
    depth, start, name = 0, 0, None
    for pos, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                m = SIG.search(text[max(0, pos - 600):pos])
                name = m.group(1) if m and m.group(1) not in ("if", "for", "while", "switch") else None
                start = text.count("\n", 0, pos) + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and name:
                lines = text.count("\n", 0, pos) + 1 - start + 1
                if lines > MAX_LINES:
                    yield "%s:%d: %s is %d lines (at most %d)" % (path, start, name, lines, MAX_LINES)

def wide_declarations(path):
    text = blank_out(open(path).read())
    keep_lines = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r"(?m)^[ \t]*#.*(\\\n.*)*", keep_lines, text)
    prev = None
    while prev != text:  # struct, enum and union bodies hold no declarations we count
        prev, text = text, re.sub(r"\{[^{}]*\}", keep_lines, text)
    for m in re.finditer(r"(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?;",
                         text, re.S):
        if re.search(r"\(\s*\*\s*$", text[max(0, m.start() - 80):m.start()]):
            continue  # a function pointer member or typedef
        args = m.group(2).strip()
        n, depth = (0 if args in ("", "void") else 1), 0
        for ch in args:
            depth += ch == "("
            depth -= ch == ")"
            n += ch == "," and depth == 0
        if n > MAX_PARAMS:
            line = text.count("\n", 0, m.start()) + 1
            yield "%s:%d: %s takes %d parameters (at most %d)" % (path, line, m.group(1), n, MAX_PARAMS)

bad = []
CODE_DIRS = ("src", "include", "tools", "bench", "tests", "fuzz")
for root, _, files in (w for d in CODE_DIRS for w in os.walk(d)):
    for f in sorted(files):
        if f.endswith((".c", ".h", ".cu")):
            bad += long_functions(os.path.join(root, f))
for h in sorted(glob.glob("include/cuzk/*.h")):
    bad += wide_declarations(h)
for b in bad:
    print("test_sizes:", b)
if bad:
    sys.exit(1)
print("test_sizes: no function in %s over %d lines, no public function over %d parameters"
      % ("/, ".join(CODE_DIRS) + "/", MAX_LINES, MAX_PARAMS))
PY
