"""cuzk-daemon with emulated GPUs under mixed work (see
test_daemon_gpus_mixed.sh).

1. 2 devices x 1 worker: three 2 KiB PoRep jobs, then a WinningPoSt once
   PoRep partitions hold both devices. The WinningPoSt starts on the first
   device that frees, ahead of the PoRep partitions still queued, so its
   wait for a device is at most one partition's time (TIMELINE).
2. 4 devices x 2 workers, faults injected on two of them: 40 jobs of every
   kind (PoRep C2, WinningPoSt, WindowPoSt, SnapDeals) submitted at once.
   Every job ends COMPLETED with a proof its cuzk-bench verifier accepts
   (and refuses under other public inputs): no wrong proof, no lost job.
   /metrics counts each fault; the daemon stays up and stops cleanly.
3. 2 devices that never work (every result wrong; every launch fails):
   the jobs are proved on the CPU, verified, and counted as fallbacks; the
   devices stay out (their self-tests fail)."""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, await_proof, check, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
PARAM_CACHE = os.path.join(stubs, "param-cache")  # no official files; shapes are kept here
os.makedirs(PARAM_CACHE, exist_ok=True)


def gpu_config(name, devices, workers, faults=""):
    return e2e.emulated_gpus_config(name, CACHE, PARAM_CACHE, devices, workers, faults)


def timeline(log):
    """{(job, event): [ms since start, ...]} from the log's TIMELINE lines."""
    t = {}
    for ms, ev, job in re.findall(r"^TIMELINE,(\d+),(\w+),([^,]+),", log, re.M):
        t.setdefault((job, ev), []).append(int(ms))
    return t


porep = [e2e.PorepSector(s, CACHE) for s in range(101, 104)]
winning = e2e.PostPartition("winning-post", 2, 0, "gm-winning2", CACHE)

# ---- 1. a WinningPoSt overtakes queued PoRep partitions --------------------------------
d = Daemon("127.0.0.1:0", gpu_config("gm-priority", 2, 1))
ch, st = stub_for("127.0.0.1:%d" % d.port)
# the test parameters, shapes and keys once, so that the timed part proves only
for i, job in enumerate([porep[0].request("warm-porep"), winning.submit("warm-winning")]):
    r = await_proof(st, st.SubmitProof(job, timeout=30).job_id)
    check(r.status == pb.AwaitProofResponse.COMPLETED, "warm-up %d: COMPLETED (%s)" % (i, r.error_message))
ids = [st.SubmitProof(s.request("r%d" % i), timeout=30).job_id for i, s in enumerate(porep)]
deadline = time.time() + 600
while time.time() < deadline:
    s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
    if sum(1 for g in s.gpus if g.busy and g.current_job_id in ids) == 2:
        break
    time.sleep(0.02)
check(time.time() < deadline, "PoRep partitions hold both devices")
wid = st.SubmitProof(winning.submit("w-critical"), timeout=30).job_id
r = await_proof(st, wid)
check(r.status == pb.AwaitProofResponse.COMPLETED, "the WinningPoSt: COMPLETED (%s)" % r.error_message)
winning.verified(r.proof, "the WinningPoSt")
for i, (job, s) in enumerate(zip(ids, porep)):
    r = await_proof(st, job)
    check(r.status == pb.AwaitProofResponse.COMPLETED, "r%d: COMPLETED (%s)" % (i, r.error_message))
    s.verified(r.proof, "r%d" % i)
rc, log = d.stop()
check(rc == 0, "the daemon stops cleanly (%s)" % rc)
t = timeline(log)
# GPU_START: the partition's prover took it; DEVICE: it got a device.
queued, w_start, w_dev = (t[(wid, ev)][0] for ev in ("QUEUED", "GPU_START", "DEVICE"))
held = [t[(j, "GPU_END")][0] - t[(j, "DEVICE")][0] for j in ids]
later = [j for j in ids if t[(j, "DEVICE")][0] > queued]
check(later and all(w_dev < t[(j, "DEVICE")][0] for j in later),
      "the WinningPoSt got a device before the %d PoRep partition(s) still waiting" % len(later))
check(w_dev - w_start <= max(held),
      "its wait for a device (%d ms) is within one PoRep partition's device time (%s ms)"
      % (w_dev - w_start, held))
print("priority: WinningPoSt submitted to proved in %d ms, waited %d ms for a device; "
      "PoRep partitions held a device %s ms" % (t[(wid, "END")][0] - queued, w_dev - w_start, held))

# ---- 2. 40 mixed jobs on 4 devices x 2 workers, faults on two devices ---------------------
# emulated:1 fails three launches in a row (unhealthy, then back by its
# self-test) and takes no batch over 64 points; emulated:3 runs out of
# memory twice (smaller batches, then another device), returns one wrong
# result (a proof that does not verify: out at once, re-proved elsewhere)
# and is slow.
FAULTS = "1:launch@4x3 1:max_points=64 3:oom@6x2 3:corrupt@15 3:slow=20"
update = e2e.SnapUpdate("gm-snap", CACHE)
post = [e2e.PostPartition("winning-post", n, 0, "gm-winning%d" % n, CACHE) for n in (3, 4, 5, 6)]
post += [e2e.PostPartition("window-post", 2, 0, "gm-window2", CACHE)]
post += [e2e.PostPartition("window-post", 3, p, "gm-window3-p%d" % p, CACHE) for p in (0, 1)]
jobs = []  # (request, checker, what)
for i in range(40):
    if i % 5 == 0:
        s = porep[i // 5 % len(porep)]
        jobs.append((s.request("m%d" % i), s.verified))
    elif i % 5 == 3:
        jobs.append((update.submit("m%d" % i), update.verified))
    else:
        p = post[i % len(post)]
        jobs.append((p.submit("m%d" % i), p.verified))
kinds = {}
for req, _ in jobs:
    kinds[req.proof_kind] = kinds.get(req.proof_kind, 0) + 1
check(len(jobs) == 40 and len(kinds) == 4, "40 jobs of all four kinds (%s)" % kinds)

d = Daemon("127.0.0.1:0", gpu_config("gm-mixed", 4, 2, FAULTS))
ch, st = stub_for("127.0.0.1:%d" % d.port)
t0 = time.time()
ids = [st.SubmitProof(req, timeout=30).job_id for req, _ in jobs]
check(len(set(ids)) == 40, "40 jobs accepted")
completed = failed = 0
for i, (job, (req, verified)) in enumerate(zip(ids, jobs)):
    r = await_proof(st, job)
    if r.status == pb.AwaitProofResponse.COMPLETED:
        completed += 1
        verified(r.proof, "m%d" % i)
    else:
        failed += 1
        check(r.status == pb.AwaitProofResponse.FAILED and r.error_message,
              "m%d: FAILED with its reason (%s %r)" % (i, r.status, r.error_message))
wall = time.time() - t0
# With a CPU fallback and one-off faults every job can be proved: none may fail.
check(completed == 40 and failed == 0, "every job COMPLETED and verified (%d, %d failed)"
      % (completed, failed))
s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
check(s.total_proofs_completed == 40 and s.total_proofs_failed == 0,
      "GetStatus: 40 completed, 0 failed, no job lost (%d, %d)"
      % (s.total_proofs_completed, s.total_proofs_failed))
check(all(q.pending == 0 and q.in_progress == 0 for q in s.queues), "nothing left queued")
proved = {g.name: g.partitions_proved for g in s.gpus}
check(len(proved) == 4 and all(proved.values()), "every device proved partitions (%s)" % proved)
text = e2e.status_get(d.status_port, "/metrics")
m = {(dev, k): e2e.gpu_metric(text, "cuzk_gpu_faults_total", dev, k)
     for dev in ("emulated:%d" % i for i in range(4)) for k in ("oom", "device_error", "bad_proof")}
check(m[("emulated:1", "device_error")] >= 3, "/metrics counts emulated:1's launch errors (%s)" % m)
check(m[("emulated:1", "oom")] >= 1, "/metrics counts emulated:1's smaller batches (%s)" % m)
check(m[("emulated:3", "oom")] >= 2, "/metrics counts emulated:3's out-of-memory (%s)" % m)
check(m[("emulated:3", "bad_proof")] == 1, "/metrics counts emulated:3's wrong proof (%s)" % m)
check(all(m[("emulated:%d" % i, k)] == 0 for i in (0, 2) for k in ("oom", "device_error", "bad_proof")),
      "no fault counted on the devices without any (%s)" % m)
deadline = time.time() + 30
while time.time() < deadline and not all(g.healthy for g in s.gpus):
    time.sleep(0.2)
    s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
check(all(g.healthy for g in s.gpus),
      "all four healthy again after their self-tests (%s)" % [(g.name, g.unhealthy_reason) for g in s.gpus])
js = json.loads(e2e.status_get(d.status_port, "/status"))
check(sum(g["partitions_proved"] for g in js["gpus"]) + js["fallback_partitions_proved"] >= 40,
      "/status: every partition proved on a device or the CPU")
rc, log = d.stop()
check(rc == 0, "the daemon with faults stops cleanly (%s)" % rc)
for line in ("emulated:1: unhealthy", "emulated:3: unhealthy", "proving it elsewhere"):
    check(line in log, "the log says: %s" % line)
print("mixed: 40 jobs (%s) in %.1f s, faults %s" % (kinds, wall,
      {k: v for k, v in m.items() if v}))
# ---- 3. no device works: the CPU proves ---------------------------------------------
d = Daemon("127.0.0.1:0", gpu_config("gm-fallback", 2, 1, "0:corrupt@all 1:launch@1x1000000"))
ch, st = stub_for("127.0.0.1:%d" % d.port)
jobs = [(p.submit("f%d" % i), p.verified) for i, p in enumerate(post[:4])]
jobs.append((update.submit("f-snap"), update.verified))
ids = [st.SubmitProof(req, timeout=30).job_id for req, _ in jobs]
for i, (job, (req, verified)) in enumerate(zip(ids, jobs)):
    r = await_proof(st, job)
    check(r.status == pb.AwaitProofResponse.COMPLETED, "f%d: COMPLETED on the CPU (%s)" % (i, r.error_message))
    if r.status == pb.AwaitProofResponse.COMPLETED:
        verified(r.proof, "f%d" % i)
text = e2e.status_get(d.status_port, "/metrics")
m = re.search(r"^cuzk_gpu_fallback_partitions_total (\S+)$", text, re.M)
check(m and float(m.group(1)) >= len(jobs), "/metrics: every partition proved by the fallback (%s)"
      % (m and m.group(1)))
s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
check(len(s.gpus) == 2 and not any(g.healthy for g in s.gpus) and all(g.unhealthy_reason for g in s.gpus),
      "GetStatus: both devices out, with their reasons (%s)" % [(g.name, g.unhealthy_reason) for g in s.gpus])
check(s.total_proofs_completed == len(jobs) and s.total_proofs_failed == 0,
      "no job failed (%d, %d)" % (s.total_proofs_completed, s.total_proofs_failed))
rc, log = d.stop()
check(rc == 0, "the daemon without a working device stops cleanly (%s)" % rc)
check("self-test failed" in log, "the log says the self-tests failed")
e2e.report("test_daemon_gpus_mixed")
