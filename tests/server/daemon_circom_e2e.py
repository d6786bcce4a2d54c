"""cuzk-daemon proving circom circuits through cuzk.circom.v1.CircomProver,
driven by python3-grpcio (see test_daemon_circom.sh). The keys and
witnesses are the committed ones of tests/data/circom (small circuits);
every proof is checked by `cuzk-prove verify` against the committed
verification_key.json, its public.json compared byte for byte with
snarkjs's, and, when tests/circom/node_modules holds snarkjs, verified by
`snarkjs groth16 verify` too."""
import hashlib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, check, code_of, pb, stub_for, stubs  # noqa: E402
from cuzk.circom.v1 import circom_pb2 as cpb  # noqa: E402
from cuzk.circom.v1 import circom_pb2_grpc as cpbg  # noqa: E402
import grpc  # noqa: E402

DATA = os.path.abspath("tests/data/circom")
PROVE = os.path.join(os.path.dirname(e2e.bench), "cuzk-prove")
SNARKJS = os.path.abspath("tests/circom/node_modules/.bin/snarkjs")
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
LONG = 120


def path(name, f):
    return os.path.join(DATA, name, f)


def key_id(name):
    with open(path(name, "circuit.zkey"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def witness(name):
    with open(path(name, "witness.wtns"), "rb") as f:
        return f.read()


def verified(name, resp, what):
    """The answer's texts are a proof snarkjs and cuzk-prove accept."""
    check(len(resp.proof) == 192, "%s: a 192-byte proof (%d)" % (what, len(resp.proof)))
    with open(path(name, "snarkjs_public.json")) as f:
        check(resp.public_json == f.read(), "%s: public.json is snarkjs's, byte for byte" % what)
    d = os.path.join(stubs, re.sub(r"\W", "_", what))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "proof.json"), "w") as f:
        f.write(resp.proof_json)
    with open(os.path.join(d, "public.json"), "w") as f:
        f.write(resp.public_json)
    vk = path(name, "verification_key.json")
    r = subprocess.run([PROVE, "verify", vk, d + "/public.json", d + "/proof.json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check(r.returncode == 0 and r.stdout.strip() == b"OK",
          "%s: cuzk-prove verify says OK (%d %s)" % (what, r.returncode, r.stdout + r.stderr))
    if os.access(SNARKJS, os.X_OK):
        r = subprocess.run([SNARKJS, "groth16", "verify", vk, d + "/public.json", d + "/proof.json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        check(r.returncode == 0 and b"OK" in r.stdout,
              "%s: snarkjs groth16 verify says OK (%d %s)" % (what, r.returncode, r.stdout))


def refused(fn, code, pattern, what):
    got, details = code_of(fn)
    check(got == code and re.search(pattern, details) and "\n" not in details,
          "%s: %s with one line matching %r (%s: %r)" % (what, code, pattern, got, details))


print("snarkjs:", "used" if os.access(SNARKJS, os.X_OK) else "not installed (cuzk-prove verify only)")
config = os.path.join(stubs, "circom.toml")
with open(config, "w") as f:
    f.write('[daemon]\nstatus_listen = "127.0.0.1:0"\n[memory]\ntotal_budget = "4GiB"\n[gpus]\ngpu_workers_per_device = 1\n'
            '[[circom.keys]]\nname = "tiny"\npath = "%s"\n' % path("tiny", "circuit.zkey"))
d = Daemon("127.0.0.1:0", config)
ch, st = stub_for("127.0.0.1:%d" % d.port)
cs = cpbg.CircomProverStub(ch)

# ---- keys ------------------------------------------------------------------------------
keys = {k.name: k for k in cs.ListKeys(cpb.ListKeysRequest(), timeout=10).keys}
check(set(keys) == {"tiny"}, "the config's key is listed (%s)" % list(keys))
tiny = keys.get("tiny")
check(tiny and tiny.key_id == key_id("tiny"), "its key_id is the zkey's SHA-256")
check(tiny and tiny.tier == cpb.KeyInfo.HOT and tiny.resident_bytes > 5000,
      "it is hot and charged (%s)" % tiny)
ids = {}
for name in ("many_public", "dense_chain"):
    r = cs.LoadKey(cpb.LoadKeyRequest(name=name, zkey_path=path(name, "circuit.zkey")), timeout=LONG)
    ids[name] = r.key_id
    check(r.key_id == key_id(name) and not r.already_loaded, "LoadKey %s: its SHA-256" % name)
    check(r.circuit_id == "circom-" + r.key_id[:16], "LoadKey %s: SRS entry %s" % (name, r.circuit_id))
    check(r.resident_bytes >= os.path.getsize(path(name, "circuit.zkey")),
          "LoadKey %s: resident_bytes %d cover the file" % (name, r.resident_bytes))
check(cs.LoadKey(cpb.LoadKeyRequest(name="again", zkey_path=path("many_public", "circuit.zkey")),
                 timeout=LONG).already_loaded, "LoadKey of a loaded file: already_loaded")
r = cs.LoadKey(cpb.LoadKeyRequest(name="mp", zkey_path=path("many_public", "circuit.zkey")), timeout=10)
with open(path("many_public", "snarkjs_public.json")) as f:
    n_pub = f.read().count('"')//2
check(r.n_public == n_pub == 601, "many_public: 601 public signals, as snarkjs's public.json (%d)"
      % r.n_public)
ids["tiny"] = key_id("tiny")

status = st.GetStatus(pb.GetStatusRequest(), timeout=10)
srs = {s.circuit_id: s for s in status.loaded_srs}
for name, kid in ids.items():
    s = srs.get("circom-" + kid[:16])
    check(s is not None and s.tier == pb.SRSStatus.HOT, "GetStatus: %s's SRS entry is hot" % name)
check("circom" not in [q.proof_kind for q in status.queues], "GetStatus: cuzk.v1's queues only")

# ---- proofs ------------------------------------------------------------------------------
for name in ("tiny", "many_public", "dense_chain"):
    r = cs.Prove(cpb.ProveRequest(request_id="p-" + name, key_id=ids[name], witness=witness(name)),
                 timeout=LONG)
    check(r.status == cpb.ProveResponse.COMPLETED, "%s: COMPLETED (%s)" % (name, r.error_message))
    verified(name, r, "Prove " + name)
j = cs.Submit(cpb.ProveRequest(request_id="s-tiny", key_id=ids["tiny"], witness=witness("tiny")),
              timeout=10).job_id
check(j == "s-tiny", "Submit: the job id is the request_id")
r = cs.Await(cpb.AwaitRequest(job_id=j), timeout=LONG)
check(r.status == cpb.ProveResponse.COMPLETED, "Await: COMPLETED (%s)" % r.error_message)
verified("tiny", r, "Submit and Await tiny")
n = {k.name: k.proofs for k in cs.ListKeys(cpb.ListKeysRequest(), timeout=10).keys}
check(n.get("tiny") == 2 and n.get("dense_chain") == 1, "ListKeys counts proofs (%s)" % n)

# ---- errors ------------------------------------------------------------------------------
wt = witness("tiny")
refused(lambda: cs.Prove(cpb.ProveRequest(key_id=ids["tiny"], witness=wt[:-1]), timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT, "", "a truncated witness")
refused(lambda: cs.Prove(cpb.ProveRequest(key_id=ids["many_public"], witness=wt), timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT, "nVars", "another circuit's witness")
bad = bytearray(wt)
bad[-32:] = ((int.from_bytes(bad[-32:], "little") + 1) % R).to_bytes(32, "little")
refused(lambda: cs.Prove(cpb.ProveRequest(key_id=ids["tiny"], witness=bytes(bad)), timeout=LONG),
        grpc.StatusCode.FAILED_PRECONDITION, "does not satisfy", "a witness the circuit refuses")
refused(lambda: cs.Prove(cpb.ProveRequest(key_id="ab" * 32, witness=wt), timeout=10),
        grpc.StatusCode.NOT_FOUND, "LoadKey", "an unknown key")
refused(lambda: cs.Prove(cpb.ProveRequest(key_id="xyz", witness=wt), timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT, "hex", "a malformed key_id")
refused(lambda: cs.LoadKey(cpb.LoadKeyRequest(name="bn", zkey_path=path("tiny_bn128", "circuit.zkey")),
                           timeout=10), grpc.StatusCode.INVALID_ARGUMENT, "bn128", "a bn128 key")
refused(lambda: cs.LoadKey(cpb.LoadKeyRequest(name="none", zkey_path=path("tiny", "missing.zkey")),
                           timeout=10), grpc.StatusCode.NOT_FOUND, "missing", "a missing file")
refused(lambda: cs.Cancel(cpb.CancelRequest(job_id="nobody"), timeout=10),
        grpc.StatusCode.NOT_FOUND, "nobody", "Cancel of an unknown job")
refused(lambda: st.SubmitProof(pb.SubmitProofRequest(proof_kind=5), timeout=10),
        grpc.StatusCode.INVALID_ARGUMENT, "proof_kind", "cuzk.v1 does not take the circom kind")
check(not any(k.name in ("bn", "none") for k in cs.ListKeys(cpb.ListKeysRequest(), timeout=10).keys),
      "refused keys are not kept")

# ---- priorities: a CRITICAL proof does not wait for the NORMAL ones queued before it --------
wd = witness("dense_chain")
for i in range(4):
    cs.Submit(cpb.ProveRequest(request_id="n%d" % i, key_id=ids["dense_chain"], witness=wd), timeout=10)
cs.Submit(cpb.ProveRequest(request_id="crit", key_id=ids["tiny"], witness=wt,
                           priority=pb.CRITICAL), timeout=10)
for j in ("n0", "n1", "n2", "n3", "crit"):
    r = cs.Await(cpb.AwaitRequest(job_id=j), timeout=LONG)
    check(r.status == cpb.ProveResponse.COMPLETED, "%s: COMPLETED (%s)" % (j, r.error_message))
d.err.seek(0)
starts = re.findall(r"TIMELINE,\d+,START,(\w+),", d.err.read())
order = [s for s in starts if s in ("n0", "n1", "n2", "n3", "crit")]
check(len(order) == 5 and order.index("crit") < order.index("n3"),
      "the CRITICAL proof starts before the last NORMAL one queued before it (%s)" % order)

# ---- unload --------------------------------------------------------------------------------
r = cs.UnloadKey(cpb.UnloadKeyRequest(key_id=ids["dense_chain"]), timeout=10)
check(r.was_loaded and r.freed_bytes > 0, "UnloadKey: was loaded, freed %d bytes" % r.freed_bytes)
refused(lambda: cs.Prove(cpb.ProveRequest(key_id=ids["dense_chain"], witness=wd), timeout=10),
        grpc.StatusCode.NOT_FOUND, "", "a proof with an unloaded key")
refused(lambda: cs.UnloadKey(cpb.UnloadKeyRequest(key_id=ids["dense_chain"]), timeout=10),
        grpc.StatusCode.NOT_FOUND, "", "UnloadKey twice")
status = st.GetStatus(pb.GetStatusRequest(), timeout=10)
check("circom-" + ids["dense_chain"][:16] not in [s.circuit_id for s in status.loaded_srs],
      "GetStatus: the unloaded key's SRS entry is gone")
rc, log = d.stop()
check(rc == 0, "the daemon stops cleanly (%s)" % rc)

# ---- a key larger than the budget ------------------------------------------------------------
config = os.path.join(stubs, "small.toml")
with open(config, "w") as f:
    f.write('[daemon]\nstatus_listen = "127.0.0.1:0"\n[memory]\ntotal_budget = "1MiB"\n')
d = Daemon("127.0.0.1:0", config)
ch, st = stub_for("127.0.0.1:%d" % d.port)
cs = cpbg.CircomProverStub(ch)
refused(lambda: cs.LoadKey(cpb.LoadKeyRequest(name="big", zkey_path=path("dense_chain", "circuit.zkey")),
                           timeout=LONG), grpc.StatusCode.RESOURCE_EXHAUSTED, "budget",
        "a key larger than the budget")
d.stop()
e2e.report("test_daemon_circom")
