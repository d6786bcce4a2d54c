"""cuzk-daemon proving the 2 KiB feature kinds, driven by python3-grpcio (see
test_daemon_seal_kinds.sh): a SyntheticPoRep sector (registered proof 10)
through Prove and an NI-PoRep sector (15, 13 partitions) through SubmitProof
+ AwaitProof, each proof checked by cuzk-bench verify-seal (NI: 13 x 192
bytes, in order: two partitions swapped do not verify). Bad C1s of the new
kinds (challenge proofs missing, the wrong challenge or partition count, an
interactive C1 relabelled as synthetic) get one line naming the fault, and
the daemon goes on serving. The NI job's partitions stream: the TIMELINE
shows at most synthesis_concurrency + max_gpu_queue_depth of them alive at
once, both as the pipeline counts them (SYNTH_START in_flight=) and as the
events' order shows (SYNTH_START of an item .. GPU_END of it).
The NI proof, once verified, is left in the build tree for
test_porep_features (ctest fixture ni_porep), named by the C1 and the key
it was checked against, so that the 13 partitions are proved once a suite."""
import copy
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, bench, check, code_of, grpc, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
MINER, SECTOR = 1000, 42
PROVER = e2e.POREP_PROVER
LONG = 1800  # the first job may have to make the test parameters
CONCURRENCY, DEPTH = 2, 1  # the daemon's pipeline: at most 3 partitions alive
SYNTHETIC, NI = 10, 15      # StackedDrg2KiBV1_1_Feat_SyntheticPoRep, ..V1_2_Feat_NonInteractivePoRep
NI_PARTITIONS = 13


def gen(name, *flags):
    path = os.path.join(stubs, name + ".json")
    r = e2e.bench_run("gen-vanilla", "porep", "--sector-size", "2KiB", "--sector-id", str(SECTOR),
                  "--prover-id", PROVER, "--out", path, *flags)
    check(r.returncode == 0, "gen-vanilla %s (%r)" % (name, r.stderr[-200:]))
    return path


def verify_seal(c1, proof):
    """verify-seal's exit status for proof (bytes) against c1 (0 valid, 1 invalid)."""
    vk = e2e.porep_vk_file(CACHE)
    if not vk:
        return "no test parameters in " + CACHE
    path = os.path.join(stubs, "proof.bin")
    open(path, "wb").write(proof)
    r = e2e.bench_run("verify-seal", "--vk", vk, "--c1", c1, "--prover-id", PROVER,
                  "--sector-id", str(SECTOR), "--proof", path)
    return r.returncode


def ni_fixture(c1, proof):
    """Leaves a verified NI proof as build/test-fixtures/ni-porep-<C1>-<key>.proof,
    the name test_porep_features.sh looks for (sha256 prefixes of the C1 file
    and of the verifying key), written whole before it appears."""
    vk = e2e.porep_vk_file(CACHE)
    if not vk:
        return
    digest = [hashlib.sha256(open(f, "rb").read()).hexdigest()[:16] for f in (c1, vk)]
    out = os.path.join(os.path.dirname(bench), "test-fixtures")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "ni-porep-%s-%s.proof" % tuple(digest))
    open(path + ".tmp", "wb").write(proof)
    os.replace(path + ".tmp", path)


def request(rid, c1_bytes, rp, **kw):
    fields = dict(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                  registered_proof=rp, vanilla_proof=c1_bytes, sector_number=SECTOR,
                  miner_id=MINER)
    fields.update(kw)
    return pb.SubmitProofRequest(**fields)


def one_line(text):
    return bool(text) and "\n" not in text.strip()


synthetic_c1, ni_c1 = gen("synthetic", "--synthetic"), gen("ni", "--ni")
interactive_c1 = gen("interactive")
syn = json.load(open(synthetic_c1))
ni = json.load(open(ni_c1))


def edited(doc, edit):
    d = copy.deepcopy(doc)
    edit(next(iter(d["vanilla_proofs"].values())))
    return json.dumps(d).encode()


cfg = e2e.daemon_config("kinds", CACHE, extra='[pipeline]\nsynthesis_concurrency = %d\n'
                       'max_gpu_queue_depth = %d\n' % (CONCURRENCY, DEPTH))
d = Daemon("127.0.0.1:0", cfg)
ch, st = stub_for("127.0.0.1:%d" % d.port)

# ---- bad C1s of the new kinds: refused at submit, one line naming the fault ----
bad = [
    ("synthetic C1 without its challenge proofs",
     request("bad-syn-empty", edited(syn, lambda parts: parts[0].clear()), SYNTHETIC),
     r"vanilla_proofs\[0\]: expected 2 challenges per partition, found 0"),
    ("synthetic C1 with one challenge proof missing",
     request("bad-syn-one", edited(syn, lambda parts: parts[0].pop()), SYNTHETIC),
     r"vanilla_proofs\[0\]: expected 2 challenges per partition, found 1"),
    ("NI C1 with a partition of 1 challenge",
     request("bad-ni-1", edited(ni, lambda parts: parts[5].pop()), NI),
     r"vanilla_proofs\[5\]: expected 2 challenges per partition, found 1"),
    ("NI C1 with a partition of 3 challenges",
     request("bad-ni-3", edited(ni, lambda parts: parts[5].append(parts[5][0])), NI),
     r"vanilla_proofs\[5\]: expected 2 challenges per partition, found more"),
    ("NI C1 with 12 partitions",
     request("bad-ni-12", edited(ni, lambda parts: parts.pop()), NI), r"13 partitions, found 12"),
    ("synthetic C1 sent as StackedDrg2KiBV1_1",
     request("bad-rp", open(synthetic_c1, "rb").read(), 5), r"registered_proof 5 does not match"),
]
for what, req, pattern in bad:
    c, detail = code_of(lambda: st.SubmitProof(req, timeout=30))
    check(c == grpc.StatusCode.INVALID_ARGUMENT and re.search(pattern, detail) and one_line(detail),
          "%s: INVALID_ARGUMENT, one line naming it (%s %r)" % (what, c, detail))

# An interactive C1 relabelled as synthetic parses, but its proofs open the
# seed's interactive challenges: the vanilla check before proving fails it.
relabelled = open(interactive_c1, "rb").read().replace(
    b'"StackedDrg2KiBV1_1"', b'"StackedDrg2KiBV1_1_Feat_SyntheticPoRep"')
r = st.Prove(pb.ProveRequest(submit=request("relabelled", relabelled, SYNTHETIC, sector_number=0,
                                            miner_id=0)), timeout=LONG)
check(r.result.status == pb.AwaitProofResponse.FAILED and not r.result.proof
      and one_line(r.result.error_message) and re.search("challenge", r.result.error_message),
      "interactive C1 as synthetic: FAILED, one line, no proof (%s %r)"
      % (r.result.status, r.result.error_message))

# ---- SyntheticPoRep through Prove ----------------------------------------------
r = st.Prove(pb.ProveRequest(submit=request("syn-1", open(synthetic_c1, "rb").read(), SYNTHETIC)),
             timeout=LONG)
check(r.result.status == pb.AwaitProofResponse.COMPLETED,
      "synthetic: COMPLETED (%s %r)" % (r.result.status, r.result.error_message))
check(len(r.result.proof) == 192, "synthetic: 192 bytes (%d)" % len(r.result.proof))
check(verify_seal(synthetic_c1, r.result.proof) == 0, "synthetic: verify-seal valid")

# ---- NI-PoRep through SubmitProof + AwaitProof (13 partitions) -----------------
s = st.SubmitProof(request("ni-1", open(ni_c1, "rb").read(), NI), timeout=30)
a = st.AwaitProof(pb.AwaitProofRequest(job_id=s.job_id, timeout_ms=0), timeout=LONG)
check(a.status == pb.AwaitProofResponse.COMPLETED, "NI: COMPLETED (%s %r)" % (a.status, a.error_message))
check(len(a.proof) == NI_PARTITIONS * 192, "NI: 13 x 192 bytes (%d)" % len(a.proof))
ni_valid = verify_seal(ni_c1, a.proof) == 0
check(ni_valid, "NI: verify-seal valid")
if ni_valid and len(a.proof) == NI_PARTITIONS * 192:
    ni_fixture(ni_c1, a.proof)
if len(a.proof) == NI_PARTITIONS * 192:
    swapped = a.proof[192:384] + a.proof[:192] + a.proof[384:]
    check(verify_seal(ni_c1, swapped) == 1, "NI: partitions 0 and 1 swapped: invalid")

c, _ = code_of(lambda: st.GetStatus(pb.GetStatusRequest(), timeout=10))
check(c == grpc.StatusCode.OK and d.p.poll() is None, "the daemon is serving after the bad C1s")
text = st.GetMetrics(pb.GetMetricsRequest(), timeout=10).prometheus_text
m = re.search(r'cuzk_proofs_completed\{proof_kind="porep_c2"\} (\d+)', text)
check(m and int(m.group(1)) == 2, "metrics: 2 PoRep proofs completed (%s)" % (m and m.group(1)))
rc, log = d.stop()
check(rc == 0, "SIGTERM: clean exit")

# ---- the NI job's partitions streamed: never more than the window alive ---------
bound = CONCURRENCY + DEPTH
ev = re.findall(r"^TIMELINE,\d+,(SYNTH_START|GPU_END),ni-1,item=(\d+)(?:,in_flight=(\d+))?", log, re.M)
starts = [(int(i), int(n)) for e, i, n in ev if e == "SYNTH_START" and n]
ends = [int(i) for e, i, _ in ev if e == "GPU_END"]
check(sorted(i for i, _ in starts) == list(range(NI_PARTITIONS)) and ends == list(range(NI_PARTITIONS)),
      "TIMELINE: 13 partitions synthesized, proved in order (%s %s)" % (starts, ends))
peak = max((n for _, n in starts), default=0)
check(2 <= peak <= bound, "pipeline in_flight peak %d: partitions overlap, at most %d" % (peak, bound))
alive = seen = 0
for e, _, _ in ev:  # the log's order is the events' order
    alive += 1 if e == "SYNTH_START" else -1
    seen = max(seen, alive)
check(seen <= bound, "events: at most %d partitions between SYNTH_START and GPU_END (%d)" % (bound, seen))

e2e.report("test_daemon_seal_kinds")
