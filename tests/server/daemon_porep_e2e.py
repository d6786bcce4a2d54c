"""cuzk-daemon proving 2 KiB PoRep C2, driven by python3-grpcio (see
test_daemon_porep.sh): Prove on a loopback port, with its TIMELINE and
CUZK_TIMING lines; SubmitProof + AwaitProof on a unix socket (of a
WinningPoSt: the transport is the point there), and cuzk-bench batch
against it; bad requests answered without harm (malformed JSON, wrong
sector size, wrong miner, a kind without a circuit, a job larger than the
memory budget). Every returned proof is checked by cuzk-bench verify-seal
(verify-post) against the test parameters' key. Priorities, cancels, the
batch collector and the plain synthesis path are
daemon_porep_queue_e2e.py's (make test-e2e)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, bench_run, check, code_of, grpc, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
MINER, SECTOR = e2e.POREP_MINER, 42
LONG = 1800  # the first job may have to make the test parameters

sector = e2e.PorepSector(SECTOR, CACHE)
c1, c1_curio, request, verified = sector.c1, sector.c1_curio, sector.request, sector.verified
winning = e2e.PostPartition("winning-post", 2, 0, "winning", CACHE)


def config(name, budget):
    return e2e.daemon_config(name, CACHE, budget=budget)


# ---- loopback port: Prove, bad requests ------------------------------------------
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

text = st.GetMetrics(pb.GetMetricsRequest(), timeout=10).prometheus_text
m = re.search(r'cuzk_proofs_completed\{proof_kind="porep_c2"\} (\d+)', text)
check(m and int(m.group(1)) == 1, "metrics: 1 PoRep proof completed (%s)" % (m and m.group(1)))
check(d.p.poll() is None, "the daemon is alive")
rc, log = d.stop()
check(rc == 0, "SIGTERM: clean exit")
for ev in ("SYNTH_START", "SYNTH_END", "GPU_QUEUE", "GPU_START", "GPU_END"):
    check(re.search(r"^TIMELINE,\d+,%s,prove-1," % ev, log, re.M), "TIMELINE %s of prove-1" % ev)
check("CUZK_TIMING: msm_h_ms=" in log, "CUZK_TIMING lines in the daemon log")

# ---- unix socket: SubmitProof then AwaitProof ----------------------------------
# of a WinningPoSt: the transport is the point here, not the kind, and it
# proves in a fraction of a second.
sock = os.path.join(stubs, "porep.sock")
d = Daemon("unix://" + sock, config("unix", "16GiB"))
ch, st = stub_for("unix://" + sock)
s = st.SubmitProof(winning.submit(""), timeout=30)
check(len(s.job_id) == 36, "an empty request_id gets a UUID (%r)" % s.job_id)
a = e2e.await_proof(st, s.job_id, 0)
check(a.status == pb.AwaitProofResponse.COMPLETED, "unix: COMPLETED (%s)" % a.error_message)
winning.verified(a.proof, "SubmitProof + AwaitProof on a unix socket")

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

# ---- a job larger than the whole memory budget fails at once, with a reason -----
d = Daemon("127.0.0.1:0", config("small", "64MiB"))
ch, st = stub_for("127.0.0.1:%d" % d.port)
c, detail = code_of(lambda: st.SubmitProof(request("too-big"), timeout=30))
if c == grpc.StatusCode.OK:
    a = e2e.await_proof(st, "too-big", 0)
    check(a.status == pb.AwaitProofResponse.FAILED and re.search("budget|memory", a.error_message, re.I),
          "over the budget: FAILED naming the budget (%s %r)" % (a.status, a.error_message))
else:
    check(c == grpc.StatusCode.RESOURCE_EXHAUSTED, "over the budget: RESOURCE_EXHAUSTED (%s)" % c)
c, _ = code_of(lambda: st.GetStatus(pb.GetStatusRequest(), timeout=10))
check(c == grpc.StatusCode.OK and d.p.poll() is None, "the daemon is alive after it")
rc, _ = d.stop()
check(rc == 0, "small daemon: clean exit")

e2e.report("test_daemon_porep")
