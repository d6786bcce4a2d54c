"""cuzk-daemon scheduling 2 KiB PoRep C2 jobs, driven by python3-grpcio (see
test_daemon_porep_queue.sh): a CRITICAL job overtakes queued NORMAL ones;
CancelProof of a queued and of a running job; AwaitProof's timeout, all on
the plain synthesis path (synthesis.pce = false: no shape, no PCE event);
two jobs submitted together proved as one batch (GET /status, TIMELINE:
one BATCH, the second job's synthesis overlapping the first's proving, each
answered when its own proof is done) through the recorded shape, resident.
Every returned proof is checked by cuzk-bench verify-seal against the test
parameters' key. The plain round trips are daemon_porep_e2e.py's (make
test)."""
import json
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, check, pb, stub_for  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
LONG = 1800  # the first job may have to make the test parameters

sector = e2e.PorepSector(42, CACHE)
request, verified = sector.request, sector.verified


def config(name, extra=""):
    return e2e.daemon_config(name, CACHE, extra=extra)


# ---- priorities, cancel, await timeout (one worker), on the plain path -------------
# (synthesis.pce = false: the batch below takes the recorded shape)
d = Daemon("127.0.0.1:0", config("queue", "[synthesis]\npce = false\n"))
ch, st = stub_for("127.0.0.1:%d" % d.port)

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
check(e2e.await_proof(st, "n3", 0).status == pb.AwaitProofResponse.CANCELLED, "n3: CANCELLED")
t0 = time.time()
a = e2e.await_proof(st, "n2", 300)
check(a.status == pb.AwaitProofResponse.TIMEOUT and time.time() - t0 < 10,
      "AwaitProof n2 with a 300 ms timeout: TIMEOUT (%s)" % a.status)
r = st.CancelProof(pb.CancelProofRequest(job_id="n1"), timeout=10)
check(r.was_running, "cancel running n1: was running")
check(e2e.await_proof(st, "n1", 0).status == pb.AwaitProofResponse.CANCELLED, "n1: CANCELLED")
a = e2e.await_proof(st, "crit", 0)
check(a.status == pb.AwaitProofResponse.COMPLETED, "crit: COMPLETED (%s)" % a.error_message)
check(e2e.await_proof(st, "n2", 1).status == pb.AwaitProofResponse.TIMEOUT,
      "n2 had not finished when crit had: CRITICAL went first")
verified(a.proof, "crit")
a = e2e.await_proof(st, "n2", 0)
check(a.status == pb.AwaitProofResponse.COMPLETED, "n2: COMPLETED (%s)" % a.error_message)
verified(a.proof, "n2")

text = st.GetMetrics(pb.GetMetricsRequest(), timeout=10).prometheus_text
m = re.search(r'cuzk_proofs_completed\{proof_kind="porep_c2"\} (\d+)', text)
check(m and int(m.group(1)) == 2, "metrics: 2 PoRep proofs completed (%s)" % (m and m.group(1)))
srs = [x.circuit_id for x in st.GetStatus(pb.GetStatusRequest(), timeout=10).loaded_srs]
check("pce-porep-2k" not in srs, "pce off: no shape entry (%s)" % srs)
rc, log = d.stop()
check(rc == 0, "SIGTERM: clean exit")
check(not re.search(r"^TIMELINE,\d+,PCE,", log, re.M), "pce off: no PCE event")
starts = [m.group(1) for m in re.finditer(r"^TIMELINE,\d+,GPU_START,([^,]+),", log, re.M)]
check("crit" in starts and "n2" in starts and starts.index("crit") < starts.index("n2"),
      "TIMELINE: crit proved before n2 (%s)" % starts)

# ---- the batch collector: two jobs submitted together are proved as one batch ---
# (max_batch_size 2): one BATCH event of size 2, the jobs listed in GET /status
# with batch_size 2 and their partitions, both proofs verify. The recorded
# shape (synthesis.pce, on by default) is resident as pce-porep-2k (its one
# tiled slot, about 38 MB).
d = Daemon("127.0.0.1:0", config("batch",
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
    a = e2e.await_proof(st, rid, 0)
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

e2e.report("test_daemon_porep_queue")
