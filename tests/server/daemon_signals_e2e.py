"""cuzk-daemon under the signals an operator sends while it proves (see
test_daemon_signals.sh):
  - SIGHUP while proofs run: the daemon stays up and reloads, every proof
    completes and verifies, and one ended after the reload;
  - /readyz answers 200 while the daemon accepts work, and 503 while it
    drains after SIGTERM; the running proof still completes for its
    awaiter, cuzk-bench single --c1 - (a 2 KiB PoRep C2, its C1 on stdin),
    which checks it against the key;
  - kill -9 during a proof, then a restart on the same unix socket: the same
    request (same request_id) proves and verifies.
Where the proof kind is not the point (SIGHUP, kill -9) the proofs are 2 KiB
WinningPoSt, a fraction of a second each, queued four at a time so that one
is still running when the signal comes. The drain needs a proof that runs
for seconds after SIGTERM: the PoRep. Every proof is checked by cuzk-bench
(verify-post, verify-seal) against the test parameters' key."""
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, bench, bench_run, check, code_of, grpc, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
SECTOR = 43
LONG = 1800  # a first proof may have to make the test parameters

porep = e2e.PorepSector(SECTOR, CACHE)
winning = e2e.PostPartition("winning-post", 2, 0, "winning", CACHE)
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


def wait_running(st, jobs, submitted=True, timeout=LONG):
    """The first of jobs seen running (GetStatus lists it on a worker);
    None when none was before timeout passed or, once they are submitted
    (by another process: when the queues have held work), the queues
    emptied."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
        running = [g.current_job_id for g in s.gpus if g.current_job_id in jobs]
        if running:
            return running[0]
        idle = all(q.pending == 0 and q.in_progress == 0 for q in s.queues)
        if idle and submitted:
            return None
        submitted = submitted or not idle
        time.sleep(0.02)
    return None


def submit_winning(st, prefix, n=4):
    """n WinningPoSt jobs <prefix>-1..n queued at once: their ids."""
    ids = ["%s-%d" % (prefix, i) for i in range(1, n + 1)]
    for rid in ids:
        st.SubmitProof(winning.submit(rid), timeout=60)
    return ids


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


def porep_key():
    """The PoRep test key for single --verify-vk; when no test made the
    parameters yet (this test run alone on a fresh build), one in-process
    proof makes them, as test_porep_c2 does in the suite."""
    vk = e2e.porep_vk_file(CACHE)
    if vk is None:
        bench_run("--quiet", "prove", "--c1", porep.c1, "--cache-dir", CACHE, timeout=LONG)
        vk = e2e.porep_vk_file(CACHE)
    check(vk is not None, "the PoRep test parameters are in %s" % CACHE)
    return vk or "missing-vk"


try:
    # ---- SIGHUP while proving ----------------------------------------------------------
    d = start()
    ch, st = stub_for(target)
    code, js = readyz(d)
    check(code == 200 and js and js.get("ready") is True, "GET /readyz: 200 ready at start (%s %s)" % (code, js))
    hup = submit_winning(st, "hup")
    check(wait_running(st, hup), "a WinningPoSt is running (%s)" % hup)
    d.p.send_signal(signal.SIGHUP)
    check(wait_log(d, "SIGHUP: logging.level info"), "SIGHUP is taken as a reload")
    c, _ = code_of(lambda: st.GetStatus(pb.GetStatusRequest(), timeout=10))
    check(c == grpc.StatusCode.OK and d.p.poll() is None, "after SIGHUP the daemon answers")
    for rid in hup:
        a = e2e.await_proof(st, rid)
        check(a.status == pb.AwaitProofResponse.COMPLETED, "%s: COMPLETED after SIGHUP (%s)" % (rid, a.error_message))
        winning.verified(a.proof, rid + " (SIGHUP during the queue)")
    d.err.seek(0)
    log = d.err.read()
    reload_at = log.find("SIGHUP: logging.level info")
    ends = [m.start() for m in re.finditer(r"^TIMELINE,\d+,END,hup-\d,status=completed", log, re.M)]
    check(reload_at >= 0 and ends and max(ends) > reload_at,
          "a proof ended after the reload: SIGHUP came while the daemon proved")
    check(d.p.poll() is None, "the daemon is still running")

    # ---- /readyz while draining after SIGTERM; single --c1 - awaits the running proof --
    vk = porep_key()
    with open(porep.c1_curio, "rb") as stdin:
        single = subprocess.Popen([bench, "single", "-a", target, "-t", "porep", "--c1", "-",
                                   "--sector-num", str(SECTOR), "--miner-id", str(e2e.POREP_MINER),
                                   "--id", "drain-1", "--verify-vk", vk, "--save-proofs", stubs],
                                  stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(wait_running(st, ["drain-1"], submitted=False) == "drain-1", "drain-1 is running")
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
    c, detail = code_of(lambda: st.SubmitProof(porep.request("late-1"), timeout=30))
    check(c != grpc.StatusCode.OK, "a submit while draining is refused (%s %s)" % (c, detail))
    out, err = single.communicate(timeout=LONG)
    out = out.decode(errors="replace")
    check(single.returncode == 0 and " status COMPLETED bytes 192 " in out and "verified valid" in out,
          "drain-1: its awaiter, single --c1 -, gets the proof, verified by the client (%r %r)"
          % (out[-300:], err[-200:]))
    p0 = os.path.join(stubs, "proof-0.bin")
    porep.verified(open(p0, "rb").read() if os.path.exists(p0) else b"", "drain-1 (proved while draining)")
    rc, log = d.stop()
    check(rc == 0 and "stopped" in log, "SIGTERM: drained and exit 0 (%s)" % rc)
    check(not os.path.exists(sock), "the socket is removed at exit")
    ch.close()

    # ---- kill -9 while proving, then a restart: the same request proves -----------------
    d = start()
    ch, st = stub_for(target)
    k9 = submit_winning(st, "k9")
    killed = wait_running(st, k9)
    check(killed, "a WinningPoSt is running (%s)" % k9)
    d.p.send_signal(signal.SIGKILL)
    d.p.wait(timeout=30)
    check(d.p.returncode == -signal.SIGKILL, "the daemon was killed (%s)" % d.p.returncode)
    ch.close()
    check(os.path.exists(sock), "kill -9 left the socket behind")
    d = start()  # the stale socket is replaced
    ch, st = stub_for(target)
    killed = killed or k9[0]
    r = st.Prove(pb.ProveRequest(submit=winning.submit(killed)), timeout=LONG)
    check(r.result.status == pb.AwaitProofResponse.COMPLETED,
          "%s after the restart: COMPLETED (%s)" % (killed, r.result.error_message))
    winning.verified(r.result.proof, killed + " (after kill -9 and a restart)")
    rc, _ = d.stop()
    check(rc == 0, "the restarted daemon exits 0")
    ch.close()
finally:
    kill_left()
e2e.report("test_daemon_signals")
