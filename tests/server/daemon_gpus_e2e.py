"""cuzk-daemon with two emulated GPUs (see test_daemon_gpus.sh): three
WinningPoSt proofs submitted at once are proved on both devices, each proof checked
by cuzk-bench verify-post; GetStatus.gpus, GET /status and GET /metrics
report each device."""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, await_proof, check, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
PARAM_CACHE = os.path.join(stubs, "param-cache")
os.makedirs(PARAM_CACHE, exist_ok=True)

first = e2e.PostPartition("winning-post", 3, 0, "winning3", CACHE)
parts = [e2e.PostPartition("winning-post", n, 0, "winning%d" % n, CACHE) for n in (2, 4, 5)]

cfg = e2e.emulated_gpus_config("gpus", CACHE, PARAM_CACHE, 2)
d = Daemon("127.0.0.1:0", cfg)
ch, st = stub_for("127.0.0.1:%d" % d.port)

# One job first, so that the test parameters and shapes are made once.
job = st.SubmitProof(first.submit("first"), timeout=30).job_id
r = await_proof(st, job)
check(r.status == pb.AwaitProofResponse.COMPLETED, "first: COMPLETED (%s)" % r.error_message)
first.verified(r.proof, "first")

t0 = time.time()
ids = [st.SubmitProof(p.submit("p%d" % i), timeout=30).job_id for i, p in enumerate(parts)]
busy_seen = set()
while time.time() - t0 < 600:
    s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
    busy_seen |= {g.name for g in s.gpus if g.busy}
    if s.total_proofs_completed + s.total_proofs_failed >= 1 + len(parts):
        break
    time.sleep(0.05)
for i, (job, p) in enumerate(zip(ids, parts)):
    r = await_proof(st, job)
    check(r.status == pb.AwaitProofResponse.COMPLETED, "p%d: COMPLETED (%s)" % (i, r.error_message))
    p.verified(r.proof, "p%d" % i)
check(busy_seen == {"emulated:0", "emulated:1"}, "both devices proved at once (%s)" % busy_seen)

s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
check([g.name for g in s.gpus] == ["emulated:0", "emulated:1"], "GetStatus: two devices")
check(all(g.healthy and not g.busy and g.vram_total_bytes == 1 << 30 for g in s.gpus),
      "GetStatus: healthy, idle, 1 GiB each")
check(sum(g.partitions_proved for g in s.gpus) == 1 + len(parts),
      "GetStatus: every partition proved on a device (%s)" % [g.partitions_proved for g in s.gpus])

r = e2e.bench_run("-a", "127.0.0.1:%d" % d.port, "status")
out = r.stdout.decode(errors="replace")
check(r.returncode == 0 and re.search(r"^gpu 1 emulated:1 healthy job - +partition \d+ vram_free "
                                      r"\d+ / 1073741824 proved \d+ faults 0$", out, re.M),
      "cuzk-bench status prints each device (%r)" % out[-400:])
js = json.loads(e2e.status_get(d.status_port, "/status"))
check([g["name"] for g in js["gpus"]] == ["emulated:0", "emulated:1"], "/status: gpus")
check(js["backend"]["name"] == "cuda-emulated" and "TEST ONLY" in js["backend"]["note"],
      "/status: the backend says the devices are emulated (%s)" % js["backend"])
text = e2e.status_get(d.status_port, "/metrics")
for line in ('cuzk_gpu_faults_total{device="emulated:1",kind="bad_proof"} 0',
             'cuzk_gpu_healthy{device="emulated:0"} 1',
             'cuzk_gpu_fallback_partitions_total 0'):
    check(line in text, "/metrics: %s" % line)

rc, log = d.stop()
check(rc == 0, "the daemon stops cleanly (%s)" % rc)
check("proving on 2 device(s)" in log, "the log names the devices")
check(re.search(r"TIMELINE,\d+,GPU_END,p\d,item=0,gpu_ms=\d+,device=emulated:[01]", log),
      "TIMELINE GPU_END names the device")

# ---- 4 devices x 2 workers, faults on three of them ----------------------------------
# emulated:1 fails four launches (then a self-test brings it back), emulated:2
# makes one wrong result (a proof that does not verify: out at once),
# emulated:3 takes no batch over 64 points (retried smaller in the device).
mixed = [e2e.PostPartition("winning-post", n, 0, "mix-winning%d" % n, CACHE) for n in range(2, 9)]
mixed += [e2e.PostPartition("window-post", 2, 0, "mix-window2", CACHE)]
mixed += [e2e.PostPartition("window-post", 3, p, "mix-window3-p%d" % p, CACHE) for p in (0, 1)]
faults = "1:launch@3x4 2:corrupt@5 3:max_points=64"
cfg = e2e.emulated_gpus_config("gpus4", CACHE, PARAM_CACHE, 4, workers=2, faults=faults)
d = Daemon("127.0.0.1:0", cfg)
ch, st = stub_for("127.0.0.1:%d" % d.port)
ids = [st.SubmitProof(p.submit("m%d" % i), timeout=30).job_id for i, p in enumerate(mixed)]
done = 0
for i, (job, p) in enumerate(zip(ids, mixed)):
    r = await_proof(st, job)
    ok = r.status == pb.AwaitProofResponse.COMPLETED
    check(ok, "m%d: COMPLETED (%s)" % (i, r.error_message))
    if ok:
        p.verified(r.proof, "m%d" % i)
        done += 1
check(done == len(mixed), "every mixed job COMPLETED and verified (%d of %d)" % (done, len(mixed)))
text = e2e.status_get(d.status_port, "/metrics")


def metric(name, device, kind=None):
    return e2e.gpu_metric(text, name, device, kind)


check((metric("cuzk_gpu_faults_total", "emulated:1", "device_error") or 0) >= 1,
      "/metrics counts emulated:1's launch errors")
check(metric("cuzk_gpu_faults_total", "emulated:2", "bad_proof") == 1,
      "/metrics counts emulated:2's bad proof")
check((metric("cuzk_gpu_faults_total", "emulated:3", "oom") or 0) >= 1,
      "/metrics counts emulated:3's smaller batches")
check(metric("cuzk_gpu_faults_total", "emulated:0", "oom") == 0, "emulated:0 had no fault")
s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
# the faults were one-off: the self-tests (every second) brought both back
deadline = time.time() + 30
while time.time() < deadline and not all(g.healthy for g in s.gpus):
    time.sleep(0.2)
    s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
check(len(s.gpus) == 4 and all(g.healthy for g in s.gpus),
      "GetStatus: all four healthy again (%s)" % [(g.name, g.unhealthy_reason) for g in s.gpus])
check(s.total_proofs_failed == 0, "no job failed")
rc, log = d.stop()
check(rc == 0, "the daemon with faults stops cleanly (%s)" % rc)
for line in ("emulated:2: unhealthy", "emulated:1: unhealthy", "proving it elsewhere",
             "emulated:2: self-test passed, back in use"):
    check(line in log, "the log says: %s" % line)

# A fault word for no device is refused at start, naming it.
bad = e2e.daemon_config("gpus-bad", CACHE, PARAM_CACHE, "16GiB",
                        'test_emulated_devices = 2\ntest_emulated_faults = "5:oom@1"\n')
r = subprocess.run([e2e.daemon, "-l", "127.0.0.1:0", "-c", bad], capture_output=True, text=True,
                   timeout=60)
check(r.returncode != 0 and "fault 5:oom@1" in r.stderr,
      "a fault for no device stops the start (%d %r)" % (r.returncode, r.stderr[-200:]))
e2e.report("test_daemon_gpus")
