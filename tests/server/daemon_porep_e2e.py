"""cuzk-daemon proving 2 KiB PoRep C2, driven by python3-grpcio (see
test_daemon_porep.sh): Prove on a loopback port; SubmitProof + AwaitProof on
a unix socket; a CRITICAL job overtakes queued NORMAL ones; CancelProof of a
queued and of a running job; AwaitProof's timeout; bad requests answered
without harm (malformed JSON, wrong sector size, wrong miner, a kind without
a circuit, a job larger than the memory budget). Every returned proof is
checked by cuzk-bench verify-seal against the test parameters' key."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, bench_run, check, code_of, grpc, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
MINER, SECTOR = 1000, 42
LONG = 1800  # the first job may have to make the test parameters

c1, c1_curio, curio_bytes = e2e.porep_c1(SECTOR)


def request(rid, priority=pb.PRIORITY_UNSPECIFIED, **kw):
    fields = dict(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                  registered_proof=5, vanilla_proof=curio_bytes, sector_number=SECTOR,
                  miner_id=MINER, priority=priority)
    fields.update(kw)
    return pb.SubmitProofRequest(**fields)


def verified(proof, what):
    vk = e2e.porep_vk_file(CACHE)
    check(vk is not None, "%s: test parameters are in %s" % (what, CACHE))
    e2e.porep_verified(proof, what, vk, c1, SECTOR)


def config(name, budget, extra=""):
    return e2e.daemon_config(name, CACHE, budget=budget, extra=extra)


def await_status(st, job, timeout_ms):
    return st.AwaitProof(pb.AwaitProofRequest(job_id=job, timeout_ms=timeout_ms), timeout=LONG)


# ---- loopback port: Prove, bad requests, priorities, cancel, timeout -------------
d = Daemon("127.0.0.1:0", config("tcp", "16GiB"))
target = "127.0.0.1:%d" % d.port
ch, st = stub_for(target)

r = st.Prove(pb.ProveRequest(submit=request("prove-1")), timeout=LONG)
check(r.result.status == pb.AwaitProofResponse.COMPLETED,
      "Prove: COMPLETED (%s %s)" % (r.result.status, r.result.error_message))
check(r.result.total_ms > 0 and r.result.synthesis_ms > 0, "Prove: timings reported")
verified(r.result.proof, "Prove")

bad = [
    ("malformed JSON", request("bad-json", vanilla_proof=b'{"SectorNum":42,"Phase1Out":'), "json|parse|Phase1Out"),
    ("wrong sector size", request("bad-size", sector_size=8 << 20), "sector_size"),
    ("wrong registered proof", request("bad-rp", registered_proof=6), "registered_proof"),
    ("another miner's sector", request("bad-miner", miner_id=MINER + 1), "replica_id"),
    ("empty vanilla proof", request("bad-empty", vanilla_proof=b""), "empty"),
]
for what, req, pattern in bad:
    c, detail = code_of(lambda: st.SubmitProof(req, timeout=30))
    check(c == grpc.StatusCode.INVALID_ARGUMENT and re.search(pattern, detail, re.I),
          "%s: INVALID_ARGUMENT naming it (%s %r)" % (what, c, detail))
c, detail = code_of(lambda: st.SubmitProof(
    pb.SubmitProofRequest(proof_kind=pb.SNAP_DEALS_UPDATE, randomness=b"\x01" * 32), timeout=30))
check(c == grpc.StatusCode.INVALID_ARGUMENT and "comm_r_old" in detail,
      "another kind's request is its prover's to refuse: INVALID_ARGUMENT (%s %r)" % (c, detail))

# One worker: n1 runs; n2, n3 queue; then a CRITICAL job arrives.
st.SubmitProof(request("n1", pb.NORMAL), timeout=30)
deadline = time.time() + 60
while time.time() < deadline:
    q = [x for x in st.GetStatus(pb.GetStatusRequest(), timeout=10).queues if x.proof_kind == "porep_c2"]
    if q and q[0].in_progress == 1:
        break
    time.sleep(0.1)
check(q and q[0].in_progress == 1, "n1 is running")
for rid in ("n2", "n3"):
    st.SubmitProof(request(rid, pb.NORMAL), timeout=30)
s = st.SubmitProof(request("crit", pb.CRITICAL), timeout=30)
check(s.queue_position == 0, "the CRITICAL job is first in the queue (position %d)" % s.queue_position)
r = st.CancelProof(pb.CancelProofRequest(job_id="n3"), timeout=10)
check(not r.was_running, "cancel queued n3: was not running")
check(await_status(st, "n3", 0).status == pb.AwaitProofResponse.CANCELLED, "n3: CANCELLED")
t0 = time.time()
a = await_status(st, "n2", 300)
check(a.status == pb.AwaitProofResponse.TIMEOUT and time.time() - t0 < 10,
      "AwaitProof n2 with a 300 ms timeout: TIMEOUT (%s)" % a.status)
r = st.CancelProof(pb.CancelProofRequest(job_id="n1"), timeout=10)
check(r.was_running, "cancel running n1: was running")
check(await_status(st, "n1", 0).status == pb.AwaitProofResponse.CANCELLED, "n1: CANCELLED")
a = await_status(st, "crit", 0)
check(a.status == pb.AwaitProofResponse.COMPLETED, "crit: COMPLETED (%s)" % a.error_message)
check(await_status(st, "n2", 1).status == pb.AwaitProofResponse.TIMEOUT,
      "n2 had not finished when crit had: CRITICAL went first")
verified(a.proof, "crit")
a = await_status(st, "n2", 0)
check(a.status == pb.AwaitProofResponse.COMPLETED, "n2: COMPLETED (%s)" % a.error_message)
verified(a.proof, "n2")

text = st.GetMetrics(pb.GetMetricsRequest(), timeout=10).prometheus_text
m = re.search(r'cuzk_proofs_completed\{proof_kind="porep_c2"\} (\d+)', text)
check(m and int(m.group(1)) == 3, "metrics: 3 PoRep proofs completed (%s)" % (m and m.group(1)))
check(d.p.poll() is None, "the daemon is alive")
rc, log = d.stop()
check(rc == 0, "SIGTERM: clean exit")
starts = [m.group(1) for m in re.finditer(r"^TIMELINE,\d+,GPU_START,([^,]+),", log, re.M)]
check("crit" in starts and "n2" in starts and starts.index("crit") < starts.index("n2"),
      "TIMELINE: crit proved before n2 (%s)" % starts)
for ev in ("SYNTH_START", "SYNTH_END", "GPU_QUEUE", "GPU_START", "GPU_END"):
    check(re.search(r"^TIMELINE,\d+,%s,prove-1," % ev, log, re.M), "TIMELINE %s of prove-1" % ev)
check("CUZK_TIMING: msm_h_ms=" in log, "CUZK_TIMING lines in the daemon log")

# ---- unix socket: SubmitProof then AwaitProof ----------------------------------
sock = os.path.join(stubs, "porep.sock")
d = Daemon("unix://" + sock, config("unix", "16GiB"))
ch, st = stub_for("unix://" + sock)
s = st.SubmitProof(request(""), timeout=30)
check(len(s.job_id) == 36, "an empty request_id gets a UUID (%r)" % s.job_id)
a = await_status(st, s.job_id, 0)
check(a.status == pb.AwaitProofResponse.COMPLETED, "unix: COMPLETED (%s)" % a.error_message)
verified(a.proof, "SubmitProof + AwaitProof on a unix socket")

# cuzk-bench batch against it: a per-proof line, progress on stderr while the
# proof runs, the summary in proofs/min, the client's own check of the proof
# (--verify-vk) and the proof saved where verify-seal can read it.
vk = e2e.porep_vk_file(CACHE)
saved = os.path.join(stubs, "saved")
os.makedirs(saved)
r = bench_run("batch", "-a", "unix://" + sock, "-t", "porep", "--c1", c1_curio, "--sector-num",
              str(SECTOR), "--miner-id", str(MINER), "-c", "1", "--progress", "0.5",
              "--verify-vk", vk or "missing-vk", "--save-proofs", saved, timeout=LONG)
out, err = r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")
check(r.returncode == 0, "cuzk-bench batch: exit 0 (%r %r)" % (out[-300:], err[-300:]))
check(re.search(r"^proof 0 job \S+ status COMPLETED bytes 192 .* done 1/1 verified valid$", out, re.M),
      "cuzk-bench batch: the proof's line, verified by the client (%r)" % out[-300:])
check(re.search(r"^summary proofs 1 completed 1 failed 0 wall_s [0-9.]+ throughput_proofs_per_min [0-9.]+$",
                out, re.M), "cuzk-bench batch: the summary in proofs/min (%r)" % out[-200:])
check("verify valid 1 invalid 0" in out, "cuzk-bench batch: the verification summary")
check(len(re.findall(r"^progress batch: 0/1 proofs 0\.0% elapsed [0-9.]+s \(ok 0 failed 0 in_flight 1\)$",
                     err, re.M)) >= 2,
      "cuzk-bench batch: progress lines while the proof runs (%r)" % err[-300:])
check(re.search(r"^progress batch: 1/1 proofs 100\.0% \S+ proofs/s elapsed \S+ \(ok 1 failed 0 in_flight 0\)$",
                err, re.M), "cuzk-bench batch: the last progress line at 100%% (%r)" % err[-300:])
path = os.path.join(saved, "proof-0.bin")
verified(open(path, "rb").read() if os.path.exists(path) else b"", "cuzk-bench batch --save-proofs")
bad_vk = os.path.join(stubs, "bad-vk.bin")
open(bad_vk, "wb").write(open(vk, "rb").read()[:500] if vk else b"")
r = bench_run("single", "-a", "unix://" + sock, "-t", "porep", "--c1", c1_curio, "--sector-num",
              str(SECTOR), "--miner-id", str(MINER), "--verify-vk", bad_vk)
check(r.returncode == 2 and b"not a verifying key" in r.stderr,
      "cuzk-bench single --verify-vk with a truncated key: refused before proving (%r)" % r.stderr[-200:])
rc, _ = d.stop()
check(rc == 0, "unix daemon: clean exit")

# ---- the batch collector: two jobs submitted together are proved as one batch ---
# (max_batch_size 2): one BATCH event of size 2, the jobs listed in GET /status
# with batch_size 2 and their partitions, both proofs verify. The recorded
# shape (synthesis.pce, on by default) is resident as pce-porep-2k.
import json  # noqa: E402
import urllib.request  # noqa: E402

d = Daemon("127.0.0.1:0", config("batch", "16GiB",
                                 "[scheduler]\nmax_batch_size = 2\nmax_batch_wait_ms = 60000\n"))
ch, st = stub_for("127.0.0.1:%d" % d.port)
for rid in ("b1", "b2"):
    st.SubmitProof(request(rid), timeout=30)
seen = None
deadline = time.time() + LONG
while time.time() < deadline and not seen:
    doc = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/status" % d.status_port,
                                            timeout=10).read())
    jobs = {j["job_id"]: j for j in doc["jobs"]["list"]}
    if (all(jobs.get(r, {}).get("state") == "running" for r in ("b1", "b2"))
            and jobs["b1"]["n_partitions"] == 1 and jobs["b1"]["partitions"]):
        seen = jobs
    elif "b1" not in jobs and "b2" not in jobs:
        break
    time.sleep(0.05)
check(seen and seen["b1"]["batch_size"] == 2 and seen["b2"]["batch_size"] == 2,
      "GET /status: b1 and b2 run as one batch (%s)" % (seen and list(seen.values())))
check(seen and seen["b1"]["partitions"][0]["index"] == 0
      and seen["b1"]["partitions"][0]["state"] in ("queued", "synthesizing", "synthesized", "proving", "done"),
      "GET /status: b1's partition 0 with its state")
check("backend" in doc and doc["backend"]["name"] == "cpu", "GET /status: the backend (%s)" % doc.get("backend"))
for rid in ("b1", "b2"):
    a = await_status(st, rid, 0)
    check(a.status == pb.AwaitProofResponse.COMPLETED, "%s: COMPLETED (%s)" % (rid, a.error_message))
    verified(a.proof, rid + " (batched)")
srs = {x.circuit_id: x for x in st.GetStatus(pb.GetStatusRequest(), timeout=10).loaded_srs}
check("pce-porep-2k" in srs and srs["pce-porep-2k"].tier == 0 and srs["pce-porep-2k"].size_bytes > (16 << 20),
      "GetStatus: the recorded 2 KiB shape is hot (%s)" % srs.get("pce-porep-2k"))
rc, log = d.stop()
check(rc == 0, "batch daemon: clean exit")
batches = re.findall(r"^TIMELINE,\d+,BATCH,(b1|b2),size=(\d+),ts=\S+$", log, re.M)
check(batches == [("b1", "2")], "TIMELINE: one BATCH of size 2 (%s)" % batches)
check(re.search(r"^TIMELINE,\d+,PCE,b1,shape=pce-porep-2k,ts=\S+$", log, re.M),
      "TIMELINE: b1 synthesized through the recorded shape")
# b2's synthesis starts before b1's proof is done: the pipeline spans the batch.
ev = [(int(m.group(1)), m.group(2), m.group(3)) for m in
      re.finditer(r"^TIMELINE,(\d+),(SYNTH_START|GPU_END),(b1|b2),", log, re.M)]
b2_synth = [t for t, e, j in ev if e == "SYNTH_START" and j == "b2"]
b1_end = [t for t, e, j in ev if e == "GPU_END" and j == "b1"]
check(b2_synth and b1_end and b2_synth[0] <= b1_end[0],
      "TIMELINE: b2's synthesis overlaps b1's proving (%s)" % ev)
# Each job is answered once its own partitions are done, not at the batch's end.
ends = {m.group(2): int(m.group(1)) for m in re.finditer(r"^TIMELINE,(\d+),END,(b1|b2),status=completed", log, re.M)}
b2_end = [t for t, e, j in ev if e == "GPU_END" and j == "b2"]
check("b1" in ends and b2_end and ends["b1"] <= b2_end[0],
      "TIMELINE: b1 answered before b2's proof was done (%s %s)" % (ends, b2_end))

# ---- the plain path (synthesis.pce = false) still proves ---------------------------
d = Daemon("127.0.0.1:0", config("plain", "16GiB", "[synthesis]\npce = false\n"))
ch, st = stub_for("127.0.0.1:%d" % d.port)
r = st.Prove(pb.ProveRequest(submit=request("plain-1")), timeout=LONG)
check(r.result.status == pb.AwaitProofResponse.COMPLETED,
      "pce off: COMPLETED (%s)" % r.result.error_message)
verified(r.result.proof, "pce off")
srs = [x.circuit_id for x in st.GetStatus(pb.GetStatusRequest(), timeout=10).loaded_srs]
check("pce-porep-2k" not in srs, "pce off: no shape entry (%s)" % srs)
rc, log = d.stop()
check(rc == 0 and not re.search(r"^TIMELINE,\d+,PCE,", log, re.M), "pce off: no PCE event, clean exit")

# ---- a job larger than the whole memory budget fails at once, with a reason -----
d = Daemon("127.0.0.1:0", config("small", "64MiB"))
ch, st = stub_for("127.0.0.1:%d" % d.port)
c, detail = code_of(lambda: st.SubmitProof(request("too-big"), timeout=30))
if c == grpc.StatusCode.OK:
    a = await_status(st, "too-big", 0)
    check(a.status == pb.AwaitProofResponse.FAILED and re.search("budget|memory", a.error_message, re.I),
          "over the budget: FAILED naming the budget (%s %r)" % (a.status, a.error_message))
else:
    check(c == grpc.StatusCode.RESOURCE_EXHAUSTED, "over the budget: RESOURCE_EXHAUSTED (%s)" % c)
c, _ = code_of(lambda: st.GetStatus(pb.GetStatusRequest(), timeout=10))
check(c == grpc.StatusCode.OK and d.p.poll() is None, "the daemon is alive after it")
rc, _ = d.stop()
check(rc == 0, "small daemon: clean exit")

e2e.report("test_daemon_porep")
