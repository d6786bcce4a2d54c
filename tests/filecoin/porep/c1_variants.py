"""The C1 reader against independent writers of the same document: Python's
json writes the serde layout of one real C1 (cuzk-bench gen-vanilla) in many
equivalent forms -- key orders (registered_proof after vanilla_proofs
included), separators, indentation, \\u escapes in keys and strings, Curio's
base64 wrapper -- and every form must read back to the same C1, which
`cuzk-bench c1-parse --canonical` writes out again. That canonical text must
itself equal Python's compact dump, and an NI-PoRep C1 (13 partitions) must
read in either key order. Invalid variants are each refused with their own
message. Go's encoding/json as a writer is test_c1_go.sh's.

Usage: c1_variants.py path/to/cuzk-bench"""
import base64
import json
import os
import subprocess
import sys
import tempfile

BENCH = sys.argv[1]
tmp = tempfile.mkdtemp()
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def bench(*args):
    return subprocess.run([BENCH] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def canonical(text, name):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    r = bench("c1-parse", "--canonical", path)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def reorder(x, rev):
    """Every object's keys reversed (rev) or sorted."""
    if isinstance(x, dict):
        keys = list(x.keys())
        keys = keys[::-1] if rev else sorted(keys)
        return {k: reorder(x[k], rev) for k in keys}
    if isinstance(x, list):
        return [reorder(v, rev) for v in x]
    return x


for flag, name in (("", "interactive"), ("--ni", "ni")):
    path = os.path.join(tmp, name + ".json")
    args = ["--quiet", "gen-vanilla", "porep", "--sector-size", "2KiB", "--out", path]
    if flag:
        args.insert(3 + 2, flag)
    r = bench(*args)
    check(r.returncode == 0, "%s: gen-vanilla (%s)" % (name, r.stderr.decode()[-200:]))
    src = open(path).read()
    doc = json.loads(src)
    rc, ref, err = canonical(src, name + "-as-is.json")
    check(rc == 0, "%s: reads (%s)" % (name, err))
    check(ref == json.dumps(doc, separators=(",", ":")),
          "%s: our layout is Python's compact dump of the same document" % name)
    variants = {
        "spaced": json.dumps(doc),
        "indent 2": json.dumps(doc, indent=2),
        "tabs, spaced separators": json.dumps(doc, indent="\t", separators=(" , ", " : ")),
        "sorted keys": json.dumps(reorder(doc, False)),
        "reversed keys (vanilla_proofs first)": json.dumps(reorder(doc, True)),
        "CRLF and blanks": json.dumps(doc, indent=1).replace("\n", " \r\n  "),
        "escaped keys and strings": json.dumps(doc, separators=(",", ":"))
            .replace('"seed"', '"\\u0073eed"').replace('"comm_d"', '"comm\\u005fd"')
            .replace("V1_1", "V1\\u005f1").replace("V1_2", "V1\\u005F2"),
    }
    for what, text in variants.items():
        rc, out, err = canonical(text, "v.json")
        check(rc == 0 and out == ref, "%s, %s: the same C1 (%d %s)" % (name, what, rc, err[:120]))
    wrapped = json.dumps({"SectorNum": 1, "Phase1Out": base64.b64encode(
        json.dumps(reorder(doc, True), indent=2).encode()).decode(), "SectorSize": 2048})
    rc, out, err = canonical(wrapped, "w.json")
    check(rc == 0 and out == ref, "%s: Curio's wrapper of a reordered form (%s)" % (name, err[:120]))

src = open(os.path.join(tmp, "interactive.json")).read()
doc = json.loads(src)
bad = [
    ("duplicate key", src.replace('"ticket":', '"seed":%s,"ticket":' % json.dumps(doc["seed"]), 1),
     "duplicate field `seed`"),
    ("missing field", json.dumps({k: v for k, v in doc.items() if k != "ticket"}),
     "missing field `ticket`"),
    ("a byte of 256", src.replace('"seed":[13,', '"seed":[256,', 1), "out of range 0..255"),
    ("a negative byte", src.replace('"seed":[13,', '"seed":[-1,', 1), "expected an integer 0..255"),
    ("a float byte", src.replace('"seed":[13,', '"seed":[13.0,', 1), "found a float"),
    ("trailing garbage", src + " x", "trailing characters"),
    ("33 seed bytes", src.replace('"seed":[13,', '"seed":[13,13,', 1), "seed"),
    ("an unknown field", src[:-1] + ',"extra":1}', "unknown field `extra`"),
    ("a truncated document", src[: len(src) // 2], "end|truncat|unexpected"),
]
import re
for what, text, want in bad:
    rc, out, err = canonical(text, "bad.json")
    check(rc == 1 and re.search(want, err) and out == "" and err.count("\n") == 1,
          "%s: refused with one line naming it (%d %r)" % (what, rc, err[:160]))
print("c1_variants: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
