"""The bounded load test (see test_daemon_load.sh): 400 calls from 8 clients
at once, mixing real 2 KiB WinningPoSt proofs, duplicate request ids,
malformed and garbage protobufs, invalid requests, unknown jobs, cancels,
short awaits, status and metrics. Every call must be answered as the
README's request-id rules say:
  - a fresh id proves (COMPLETED);
  - one id with one input, sent by many clients at once, is one job: every
    caller gets COMPLETED and the same proof bytes;
  - a cancelled job answers CANCELLED (or COMPLETED if it had finished);
  - an unknown job is NOT_FOUND, a short await TIMEOUT (or COMPLETED);
  - bytes that are no message are INVALID_ARGUMENT, and so is a request
    that is one but is wrong (a SnapDeals request without its update).
The daemon must never crash, and every proof it returned must verify
(cuzk-bench verify-post, against the test key; the proof under other
randomness must not)."""
import os
import random
import re
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, check, code_of, grpc, pb, raw_call, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
LONG = 900  # the first WinningPoSt may make its test parameters
CLIENTS, CALLS = 8, 50  # 400 calls
OK, S = grpc.StatusCode, pb.AwaitProofResponse

winning = e2e.PostPartition("winning-post", 2, 0, "winning", CACHE)
req, vanilla, submit = winning.req, winning.vanilla, winning.submit


def verify(proof, randomness):
    return winning.verify(proof, vk, randomness).returncode


config = os.path.join(stubs, "load.toml")
with open(config, "w") as f:
    f.write('[daemon]\nstatus_listen = "127.0.0.1:0"\n'
            '[srs]\nparam_cache = "%s"\nallow_test_params = true\ntest_param_cache = "%s"\n'
            '[memory]\ntotal_budget = "8GiB"\n[logging]\nlevel = "info"\n'
            % (os.path.join(stubs, "no-official-params"), CACHE))
d = Daemon("unix://" + os.path.join(stubs, "load.sock"), config)
target = "unix://" + os.path.join(stubs, "load.sock")
ch0, st0 = stub_for(target)
# Warm: parameters made or loaded once, and a job every short await can reach.
r0 = st0.Prove(pb.ProveRequest(submit=submit("warm")), timeout=LONG)
check(r0.result.status == S.COMPLETED, "warm-up proof: COMPLETED (%s)" % r0.result.error_message)
vk = winning.vk()
check(vk is not None, "the WinningPoSt test key is in %s" % CACHE)

lock = threading.Lock()
errors, proofs, dups = [], [], {}
counts = {}
whole = submit("trunc").SerializeToString()


def answer(k, what, got, want, rpc=True):
    """One answer checked; rpc: it is a call's code (else a status in one)."""
    with lock:
        if rpc:
            counts[what] = counts.get(what, 0) + 1
        if got not in want:
            errors.append("call %d (%s): %s, wanted %s" % (k, what, got, want))


def call(st, ch, k, rng):
    kind = k % 20
    if kind == 0:  # a real proof under a fresh id
        c, _ = code_of(lambda: proofs.append(st.Prove(pb.ProveRequest(submit=submit("real-%d" % k)),
                                                      timeout=LONG).result))
        answer(k, "prove", c, [OK.OK])
    elif kind in (1, 11):  # one id, one input, many clients: one job
        rid = "dup-%d" % (k % 3)
        res = {}
        c, _ = code_of(lambda: res.update(r=st.Prove(pb.ProveRequest(submit=submit(rid)), timeout=LONG).result))
        answer(k, "duplicate id", c, [OK.OK])
        if "r" in res:
            with lock:
                dups.setdefault(rid, []).append(res["r"])
    elif kind in (2, 12):  # a message cut short
        m = ["SubmitProof", "Prove", "AwaitProof"][k % 3]
        data = whole[:rng.randrange(1, len(whole) - 1)] if m != "Prove" else b"\x0a\x50" + whole[:20]
        c, _ = code_of(lambda: raw_call(ch, m, data))
        answer(k, "malformed", c, [OK.INVALID_ARGUMENT])
    elif kind in (3, 13):  # garbage: a wire type 7 tag cannot start any message
        m = ["SubmitProof", "Prove", "AwaitProof", "CancelProof", "GetStatus", "PreloadSRS"][k % 6]
        data = b"\x07" + bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        c, _ = code_of(lambda: raw_call(ch, m, data))
        answer(k, "garbage", c, [OK.INVALID_ARGUMENT])
    elif kind in (4, 14):
        c, _ = code_of(lambda: st.AwaitProof(pb.AwaitProofRequest(job_id="nope-%d" % k, timeout_ms=5), timeout=30))
        answer(k, "await unknown", c, [OK.NOT_FOUND])
    elif kind in (5, 15):
        c, _ = code_of(lambda: st.CancelProof(pb.CancelProofRequest(job_id="nope-%d" % k), timeout=30))
        answer(k, "cancel unknown", c, [OK.NOT_FOUND])
    elif kind == 6:  # submit, cancel, await: CANCELLED (or COMPLETED when it won the race)
        rid = "cancel-%d" % k
        c, _ = code_of(lambda: st.SubmitProof(submit(rid), timeout=30))
        answer(k, "submit to cancel", c, [OK.OK])
        c, _ = code_of(lambda: st.CancelProof(pb.CancelProofRequest(job_id=rid), timeout=30))
        answer(k, "cancel", c, [OK.OK])
        res = {}
        c, _ = code_of(lambda: res.update(a=st.AwaitProof(pb.AwaitProofRequest(job_id=rid), timeout=LONG)))
        answer(k, "await cancelled", c, [OK.OK])
        if "a" in res:
            answer(k, "cancelled status", res["a"].status, [S.CANCELLED, S.COMPLETED], rpc=False)
    elif kind in (7, 17):  # a short await of a known job
        c, _ = code_of(lambda: st.AwaitProof(pb.AwaitProofRequest(job_id="warm", timeout_ms=1), timeout=30))
        answer(k, "short await", c, [OK.OK])
        res = {}
        c, _ = code_of(lambda: res.update(a=st.AwaitProof(
            pb.AwaitProofRequest(job_id="short-%d" % (k % 2), timeout_ms=rng.randrange(1, 20)), timeout=30)))
        answer(k, "short await of a queued or running job", c, [OK.OK])
        if "a" in res:
            answer(k, "short await status", res["a"].status, [S.TIMEOUT, S.COMPLETED], rpc=False)
    elif kind in (8, 18):
        c, _ = code_of(lambda: st.GetStatus(pb.GetStatusRequest(), timeout=30))
        answer(k, "status", c, [OK.OK])
    elif kind in (9, 19):
        c, _ = code_of(lambda: st.GetMetrics(pb.GetMetricsRequest(), timeout=30))
        answer(k, "metrics", c, [OK.OK])
    elif kind == 10:  # a message, but a wrong request: refused at submit
        bad = [submit("bad-%d" % k, randomness=b"\x01" * 5), submit("bad-%d" % k, vanilla_proofs=[vanilla[0][:-1]]),
               submit("bad-%d" % k, partition_index=1)][k % 3]
        c, _ = code_of(lambda: st.SubmitProof(bad, timeout=30))
        answer(k, "invalid request", c, [OK.INVALID_ARGUMENT])
    elif kind == 16:
        c, _ = code_of(lambda: st.SubmitProof(pb.SubmitProofRequest(
            request_id="snap-%d" % k, proof_kind=pb.SNAP_DEALS_UPDATE, randomness=b"\x01" * 32), timeout=30))
        answer(k, "update without commitments", c, [OK.INVALID_ARGUMENT])


# Two jobs the short awaits reach while they queue or run.
for rid in ("short-0", "short-1"):
    st0.SubmitProof(submit(rid), timeout=30)


def client(n):
    ch, st = stub_for(target)
    rng = random.Random(n)
    for i in range(CALLS):
        k = n + CLIENTS * i  # interleaved: every client meets every kind
        try:
            call(st, ch, k, rng)
        except Exception as ex:  # noqa: BLE001
            with lock:
                errors.append("call %d: %r" % (k, ex))
    ch.close()


ts = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
for t in ts:
    t.start()
for t in ts:
    t.join()
n_calls = sum(counts.values())
check(not errors, "every call answered as the rules say (%d errors): %s" % (len(errors), errors[:5]))
check(counts.get("prove") == 20 and counts.get("duplicate id") == 40 and counts.get("garbage") == 40
      and counts.get("malformed") == 40, "the mix ran whole (%s)" % counts)
check(d.p.poll() is None, "the daemon never exited under load")

# Every proof returned is valid; one id's callers share one proof.
check(len(proofs) == 20 and all(p.status == S.COMPLETED and len(p.proof) == 192 for p in proofs),
      "20 fresh ids: 20 COMPLETED proofs (%s)" % [(p.status, p.error_message) for p in proofs if p.status != S.COMPLETED][:3])
for rid, rs in sorted(dups.items()):
    same = len({x.proof for x in rs}) == 1 and all(x.status == S.COMPLETED for x in rs)
    check(same, "%s: %d callers, one COMPLETED proof" % (rid, len(rs)))
to_verify = [p.proof for p in proofs] + [rs[0].proof for rs in dups.values()] + [r0.result.proof]
bad = [i for i, p in enumerate(to_verify) if len(p) != 192 or verify(p, req["randomness"]) != 0]
check(vk is not None and not bad, "all %d distinct proofs verify (bad: %s)" % (len(to_verify), bad))
other = bytearray(bytes.fromhex(req["randomness"]))
other[0] ^= 1
check(vk is not None and verify(to_verify[0], other.hex()) == 1, "a proof under other randomness is refused")

s = st0.GetStatus(pb.GetStatusRequest(), timeout=10)
check(s.total_proofs_failed == 0, "no job failed (%d)" % s.total_proofs_failed)
check(all(q.pending == 0 and q.in_progress == 0 for q in s.queues), "the queues are empty at the end")
ch0.close()
rc, log = d.stop()
check(rc == 0, "SIGTERM after the load: exit 0 (%s)" % rc)
check(not re.search(r"(AddressSanitizer|runtime error|Segmentation|Assertion)", log), "no crash in the log")
print("load: %d mixed operations, %d calls, from %d clients: %s"
      % (CLIENTS * CALLS, n_calls, CLIENTS, sorted(counts.items())))
e2e.report("test_daemon_load")
