#!/usr/bin/env bash
# The path of a proof request as docs/ARCHITECTURE.md draws it ("A proof
# request, end to end"), checked against the code: each line of that
# section's first code block is one hop,
#   [layer] <file> <caller> -> <callee> [(note)]   the caller is defined in
#       file and its body names the callee (a call, a table entry called
#       through a pointer such as ops->synthesize, or a thread's function);
#   [layer] <file> <table>[<row>].<field> = <function> [(note)]
#       the table's initializer in file gives field (or row) that function;
# and each hop continues the chain: its caller is the first of the chain
# or a callee of a line above (a table line continues the line that calls
# through that field). A line starting with "---" starts a new chain.
# Usage: test_path.sh [ignored]   (run from the repository root)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }

python3 - docs/ARCHITECTURE.md <<'EOF'
import re, sys

doc = open(sys.argv[1]).read()
sec = doc.index("## A proof request, end to end")
start = doc.index("```\n", sec) + 4
block = doc[start:doc.index("```", start)]
LAYERS = {"server", "engine", "provers", "filecoin", "groth16", "tools"}
CALL = re.compile(r"^(\S+)\s+(\w+)\s+->\s+(\S+)(\s+\(.*\))?$")
TABLE = re.compile(r"^(\S+)\s+(\w+)(?:\[(\w+)\])?\.(\w+)\s+=\s+(\w+)(\s+\(.*\))?$")
sources, fails, hops = {}, [], 0


def source(path):
    if path not in sources:
        try:
            sources[path] = open(path).read().split("\n")
        except OSError:
            sources[path] = None
    return sources[path]


def body(lines, name):
    """The text of function name's definition, or None."""
    head = re.compile(r"^\S.*\b%s\(" % re.escape(name))
    for i, line in enumerate(lines):
        if not head.match(line) or line.startswith(("#", "/", " ")):
            continue
        j = i
        while "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
            j += 1
        if "{" not in lines[j]:
            continue  # a prototype
        k = j
        while lines[k] != "}":
            k += 1
        return "\n".join(lines[i : k + 1])
    return None


def names(text, callee):
    if re.fullmatch(r"\w+", callee):
        return re.search(r"\b%s\b" % callee, text) is not None
    return callee + "(" in text  # ops->synthesize(, methods[c->m].handle(


def table_has(lines, table, row, field, fn):
    text = "\n".join(lines)
    m = re.search(r"\b%s\b(\[\w*\])?\s*=\s*\{" % table, text) or re.search(
        r"\}\s*%s\[\w*\]\s*=\s*\{" % table, text)
    if not m:
        return "no initializer of %s" % table
    init = text[m.end() : text.index("};", m.end())]
    if row:
        at = init.find("[%s]" % row)
        if at < 0:
            w = re.search(r"\b%s\b" % row, init)
            at = w.start() if w else -1
        if at < 0:
            return "no row %s in %s" % (row, table)
        entry = init[at : init.index("}", at)]
        return None if re.search(r"\b%s\b" % fn, entry) else "%s[%s] is not %s" % (table, row, fn)
    if re.search(r"\.%s\s*=\s*%s\b" % (field, fn), init):
        return None
    return "%s.%s is not %s" % (table, field, fn)


reached = set()
for n, raw in enumerate(block.split("\n"), 1):
    line = raw.strip()
    if not line:
        continue
    if line.startswith("---"):
        reached = set()
        continue
    words = line.split(None, 1)
    if words[0] in LAYERS:
        line = words[1].strip()
    where = "hop %d (%s)" % (n, line)
    m, t = CALL.match(line), TABLE.match(line)
    if m:
        path, caller, callee = m.group(1), m.group(2), m.group(3)
    elif t:
        path, caller = t.group(1), t.group(2)
    else:
        fails.append("%s: not a hop line" % where)
        continue
    lines = source(path)
    if lines is None:
        fails.append("%s: no file %s" % (where, path))
        continue
    hops += 1
    if m:
        if reached and caller not in reached:
            fails.append("%s: %s is not reached by a hop above" % (where, caller))
        text = body(lines, caller)
        if text is None:
            fails.append("%s: no function %s in %s" % (where, caller, path))
        elif not names(text, callee):
            fails.append("%s: %s does not call %s" % (where, caller, callee))
        reached |= {caller, callee}
    else:
        field, fn = t.group(4), t.group(5)
        if not any(c.endswith(("." + field, "->" + field)) for c in reached):
            fails.append("%s: no hop above calls through .%s" % (where, field))
        why = table_has(lines, t.group(2), t.group(3), field, fn)
        if why:
            fails.append("%s: %s" % (where, why))
        reached.add(fn)

for f in fails:
    print("FAIL " + f)
if hops < 20:
    print("FAIL only %d hops read from docs/ARCHITECTURE.md" % hops)
    sys.exit(1)
print("%d hops checked, %d failed" % (hops, len(fails)))
sys.exit(1 if fails else 0)
EOF
