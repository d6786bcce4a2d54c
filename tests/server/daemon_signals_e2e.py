"""cuzk-daemon under the signals an operator sends while it proves (see
test_daemon_signals.sh), with 2 KiB PoRep C2 proofs on test parameters:
  - SIGHUP while a proof runs: the daemon stays up, the proof completes and
    verifies;
  - cuzk-bench single --c1 - (the C1 on stdin) proves through the daemon,
    checked by the client against the key;
  - /readyz answers 200 while the daemon accepts work, and 503 while it
    drains after SIGTERM; the running proof still completes for its awaiter;
  - kill -9 during a proof, then a restart on the same unix socket: the same
    request (same request_id) proves and verifies.
Every proof is checked by cuzk-bench verify-seal against the test key."""
import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, bench_run, check, code_of, grpc, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
MINER, SECTOR = 1000, 43
LONG = 1800  # a first proof may have to make the test parameters

c1, c1_curio, curio_bytes = e2e.porep_c1(SECTOR)


def request(rid):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                                 registered_proof=5, vanilla_proof=curio_bytes,
                                 sector_number=SECTOR, miner_id=MINER)


def verified(proof, what):
    e2e.porep_verified(proof, what, e2e.porep_vk_file(CACHE), c1, SECTOR)


config = e2e.daemon_config("signals", CACHE, extra='[logging]\nlevel = "info"\n')
sock = os.path.join(stubs, "signals.sock")
target = "unix://" + sock
started = []


def start():
    d = Daemon(target, config)
    started.append(d)
    return d


def kill_left():  # a failed check must not leave a daemon holding ctest's pipe
    for d in started:
        if d.p.poll() is None:
            d.p.kill()


def wait_running(st, job, timeout=LONG):
    """Until the job's state is running (GetStatus lists it on a worker)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
        if any(g.current_job_id == job for g in s.gpus):
            return True
        time.sleep(0.05)
    return False


def readyz(d):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/readyz" % d.status_port, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")
    except OSError:
        return None, None


def wait_log(d, text, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        d.err.seek(0)
        if text in d.err.read():
            return True
        time.sleep(0.05)
    return False


try:
    # ---- SIGHUP while proving ----------------------------------------------------------
    d = start()
    ch, st = stub_for(target)
    code, js = readyz(d)
    check(code == 200 and js and js.get("ready") is True, "GET /readyz: 200 ready at start (%s %s)" % (code, js))
    st.SubmitProof(request("hup-1"), timeout=60)
    check(wait_running(st, "hup-1"), "hup-1 is running")
    d.p.send_signal(signal.SIGHUP)
    check(wait_log(d, "SIGHUP: logging.level info"), "SIGHUP is taken as a reload")
    c, _ = code_of(lambda: st.GetStatus(pb.GetStatusRequest(), timeout=10))
    check(c == grpc.StatusCode.OK and d.p.poll() is None, "after SIGHUP the daemon answers")
    a = st.AwaitProof(pb.AwaitProofRequest(job_id="hup-1"), timeout=LONG)
    check(a.status == pb.AwaitProofResponse.COMPLETED, "hup-1: COMPLETED after SIGHUP (%s)" % a.error_message)
    verified(a.proof, "hup-1 (SIGHUP during its proof)")
    check(d.p.poll() is None, "the daemon is still running")

    # ---- cuzk-bench single --c1 - -------------------------------------------------------
    vk = e2e.porep_vk_file(CACHE) or "missing-vk"
    with open(c1_curio, "rb") as stdin:
        r = bench_run("single", "-a", target, "-t", "porep", "--c1", "-", "--sector-num", str(SECTOR),
                      "--miner-id", str(MINER), "--id", "stdin-1", "--verify-vk", vk,
                      "--save-proofs", stubs, timeout=LONG, stdin=stdin)
    out = r.stdout.decode(errors="replace")
    check(r.returncode == 0 and " status COMPLETED bytes 192 " in out and "verified valid" in out,
          "single --c1 - proves, verified by the client (%r %r)" % (out[-300:], r.stderr[-200:]))
    p0 = os.path.join(stubs, "proof-0.bin")
    verified(open(p0, "rb").read() if os.path.exists(p0) else b"", "single --c1 -")

    # ---- /readyz while draining after SIGTERM --------------------------------------------
    st.SubmitProof(request("drain-1"), timeout=60)
    check(wait_running(st, "drain-1"), "drain-1 is running")
    answer = {}
    waiter = threading.Thread(target=lambda: answer.update(
        a=st.AwaitProof(pb.AwaitProofRequest(job_id="drain-1"), timeout=LONG)))
    waiter.start()
    code, js = readyz(d)
    check(code == 200, "GET /readyz: 200 while proving (%s)" % code)
    d.p.send_signal(signal.SIGTERM)
    seen = None
    deadline = time.time() + 60
    while time.time() < deadline and d.p.poll() is None:
        code, js = readyz(d)
        if code == 503:
            seen = js
            break
        time.sleep(0.02)
    check(seen is not None and seen.get("ready") is False,
          "GET /readyz: 503 ready false while draining (%s)" % seen)
    c, detail = code_of(lambda: st.SubmitProof(request("late-1"), timeout=30))
    check(c != grpc.StatusCode.OK, "a submit while draining is refused (%s %s)" % (c, detail))
    waiter.join(LONG)
    a = answer.get("a")
    check(a is not None and a.status == pb.AwaitProofResponse.COMPLETED,
          "drain-1: its awaiter gets COMPLETED (%s)" % (a and a.error_message))
    if a is not None:
        verified(a.proof, "drain-1 (proved while draining)")
    rc, log = d.stop()
    check(rc == 0 and "stopped" in log, "SIGTERM: drained and exit 0 (%s)" % rc)
    check(not os.path.exists(sock), "the socket is removed at exit")
    ch.close()

    # ---- kill -9 while proving, then a restart: the same request proves -----------------
    d = start()
    ch, st = stub_for(target)
    st.SubmitProof(request("k9-1"), timeout=60)
    check(wait_running(st, "k9-1"), "k9-1 is running")
    d.p.send_signal(signal.SIGKILL)
    d.p.wait(timeout=30)
    check(d.p.returncode == -signal.SIGKILL, "the daemon was killed (%s)" % d.p.returncode)
    ch.close()
    check(os.path.exists(sock), "kill -9 left the socket behind")
    d = start()  # the stale socket is replaced
    ch, st = stub_for(target)
    r = st.Prove(pb.ProveRequest(submit=request("k9-1")), timeout=LONG)
    check(r.result.status == pb.AwaitProofResponse.COMPLETED,
          "k9-1 after the restart: COMPLETED (%s)" % r.result.error_message)
    verified(r.result.proof, "k9-1 (after kill -9 and a restart)")
    rc, _ = d.stop()
    check(rc == 0, "the restarted daemon exits 0")
    ch.close()
finally:
    kill_left()
e2e.report("test_daemon_signals")
