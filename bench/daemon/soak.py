"""The soak driver of bench/daemon/soak.sh: one cuzk-daemon on 2 KiB test
parameters, driven in rounds until --minutes pass, sampled once a minute.

Run as: soak.py DAEMON STUBS BENCH --minutes N --out DIR --params DIR
(STUBS: the python3-grpcio stubs of proving.proto and circom.proto, and the
working files; the arguments e2e_common.py takes, whose helpers make the
requests and verify the proofs).

A round submits a real PoRep C2, WinningPoSt, WindowPoSt, SnapDeals update
and circom proof, a PoRep that it cancels at once, a WinningPoSt whose
Prove call is cut off mid-call (the client closes its channel), a SnapDeals
update whose AwaitProof is cut off, and, while those prove, malformed
requests (each must be refused with its one-line reason), a SIGHUP (a
config reload) and EvictSRS/PreloadSRS of a circuit. Every proof that ends
COMPLETED is verified outside the daemon (cuzk-bench verify-seal,
verify-post, verify-update; cuzk-prove verify for circom). The first round
is the warm-up; the idle fd and thread counts are taken after it.

Writes DIR/soak.csv (a row a minute, at the start, at idle after the
warm-up, at idle after the first round past minute 10 (or a third of a
shorter run: the RSS reference) and at the end), DIR/soak.png (when python3-matplotlib is there),
and prints `name value unit` lines and a PASS/FAIL line per check; exits 1
when a check fails."""
import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "server"))
import e2e_common as e2e  # noqa: E402
from e2e_common import code_of, grpc, pb, stub_for, stubs  # noqa: E402
from cuzk.circom.v1 import circom_pb2 as cpb  # noqa: E402
from cuzk.circom.v1 import circom_pb2_grpc as cpbg  # noqa: E402

CIRCOM = os.path.join(REPO, "tests", "data", "circom", "tiny")
PROVE = os.path.join(os.path.dirname(e2e.bench), "cuzk-prove")
AWAIT_S = 900  # one await's deadline: a first proof may make test parameters
S = pb.AwaitProofResponse
COLUMNS = ["minute", "phase", "rss_kib", "hwm_kib", "fds", "threads", "queue_depth",
           "running_jobs", "pool_idle_bytes", "memory_used_bytes", "proofs_completed"]


def options():
    ap = argparse.ArgumentParser(prog="soak.py")
    ap.add_argument("--minutes", type=float, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--params", required=True, help="the cached 2 KiB test parameters")
    ap.add_argument("--budget", default="8GiB")
    ap.add_argument("--sample-seconds", type=float, default=60.0)
    return ap.parse_args(sys.argv[4:])


# ---- outcomes ---------------------------------------------------------------------------
class Tally:
    """Counts of what the soak saw, thread-safe."""

    NAMES = ["submitted", "completed", "valid", "wrong", "lost", "cancelled",
             "refused", "misanswered", "sighup", "srs_cycles", "disconnects"]

    def __init__(self):
        self.lock = threading.Lock()
        self.n = dict.fromkeys(self.NAMES, 0)

    def add(self, name, why=None):
        with self.lock:
            self.n[name] += 1
        if why:
            print("soak: %s: %s" % (name, why), flush=True)


def quietly_checked(fn, *args):
    """Whether fn(*args), an e2e_common check (it counts a failed check
    into e2e.failures), passed."""
    before = len(e2e.failures)
    fn(*args)
    return len(e2e.failures) == before


def circom_verified(resp, what):
    """The answer is a 192-byte proof, its public.json is snarkjs's, and
    cuzk-prove verify accepts it against the committed verification key."""
    if len(resp.proof) != 192:
        return False
    with open(os.path.join(CIRCOM, "snarkjs_public.json")) as f:
        if resp.public_json != f.read():
            return False
    d = os.path.join(stubs, "circom-proof")
    os.makedirs(d, exist_ok=True)
    for name, text in (("proof.json", resp.proof_json), ("public.json", resp.public_json)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    r = subprocess.run([PROVE, "verify", os.path.join(CIRCOM, "verification_key.json"),
                        d + "/public.json", d + "/proof.json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return r.returncode == 0 and r.stdout.strip() == b"OK"


# ---- the daemon's figures -----------------------------------------------------------------
def proc_figures(pid):
    """VmRSS and VmHWM (KiB), open fds and threads of process pid."""
    status = open("/proc/%d/status" % pid).read()
    kib = {k: int(re.search(r"^%s:\s+(\d+)" % k, status, re.M).group(1)) for k in ("VmRSS", "VmHWM")}
    return (kib["VmRSS"], kib["VmHWM"], len(os.listdir("/proc/%d/fd" % pid)),
            len(os.listdir("/proc/%d/task" % pid)))


def metric(text, name):
    m = re.search(r"^%s (\S+)$" % name, text, re.M)
    return int(float(m.group(1))) if m else -1


class Sampler:
    """The CSV rows: one per sample(phase), written to path as they come."""

    def __init__(self, daemon, path, t0):
        self.d, self.t0, self.rows = daemon, t0, []
        self.f = open(path, "w")
        self.f.write(",".join(COLUMNS) + "\n")
        self.lock = threading.Lock()

    def metrics(self):
        return e2e.status_get(self.d.status_port, "/metrics")

    def sample(self, phase):
        row = dict(zip(COLUMNS, ["%.2f" % ((time.time() - self.t0) / 60), phase]
                       + list(proc_figures(self.d.p.pid))))
        text = self.metrics()  # after /proc: its connection is no fd of the figures
        for col, name in (("queue_depth", "cuzk_queue_depth"), ("running_jobs", "cuzk_running_jobs"),
                          ("pool_idle_bytes", "cuzk_memory_pool_idle_bytes"),
                          ("memory_used_bytes", "cuzk_memory_used_bytes"),
                          ("proofs_completed", "cuzk_proofs_completed_total")):
            row[col] = metric(text, name)
        with self.lock:
            self.rows.append(row)
            self.f.write(",".join(str(row[c]) for c in COLUMNS) + "\n")
            self.f.flush()
        return row

    def every(self, seconds, stop):
        """sample("run") every seconds from t0 until stop is set."""
        k = 1
        while not stop.wait(max(0, self.t0 + k * seconds - time.time())):
            self.sample("run")
            k += 1

    def wait_idle(self, timeout=300):
        """Until nothing is queued or running (False when timeout passes)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.metrics()
            if metric(text, "cuzk_queue_depth") == 0 and metric(text, "cuzk_running_jobs") == 0:
                return True
            time.sleep(0.5)
        return False

    def settled(self, limit=None, timeout=30):
        """Poll fds and threads once a second until they are at most limit
        (fds, threads), or without a limit until they stop changing; then
        sample("idle" or "end")."""
        deadline, last = time.time() + timeout, None
        while time.time() < deadline:
            now = proc_figures(self.d.p.pid)[2:]
            if (limit and now[0] <= limit[0] and now[1] <= limit[1]) or (not limit and now == last):
                break
            last = now
            time.sleep(1)
        return self.sample("end" if limit else "idle")


# ---- the work -----------------------------------------------------------------------------
class Work:
    """The inputs of every kind (made once) and the calls of one daemon."""

    def __init__(self, cache):
        self.porep = e2e.PorepSector(1, cache)
        self.winning = e2e.PostPartition("winning-post", 2, 0, "soak-winning", cache)
        self.window = e2e.PostPartition("window-post", 2, 0, "soak-window", cache)
        self.snap = e2e.SnapUpdate("soak-snap", cache)
        with open(os.path.join(CIRCOM, "witness.wtns"), "rb") as f:
            self.witness = f.read()
        self.tally = Tally()

    def connect(self, d, target):
        self.d, self.target = d, target
        self.ch, self.st = stub_for(target)
        self.cs = cpbg.CircomProverStub(self.ch)
        self.circom_key = self.cs.ListKeys(cpb.ListKeysRequest(), timeout=10).keys[0].key_id

    def kinds(self, r):
        """(request id, request, verifier) of each cuzk.v1 kind in round r."""
        w = self
        return [("r%d-porep" % r, w.porep.request("r%d-porep" % r), w.porep.verified),
                ("r%d-winning" % r, w.winning.submit("r%d-winning" % r), w.winning.verified),
                ("r%d-window" % r, w.window.submit("r%d-window" % r), w.window.verified),
                ("r%d-snap" % r, w.snap.submit("r%d-snap" % r), w.snap.verified)]

    def submit(self, rid, req):
        """SubmitProof; the job id, or None after counting the refusal."""
        c, detail = code_of(lambda: self.st.SubmitProof(req, timeout=60))
        if c != grpc.StatusCode.OK:
            self.tally.add("misanswered", "%s: submit refused: %s %s" % (rid, c, detail))
            return None
        self.tally.add("submitted")
        return rid

    def settle(self, rid, verifier, may_cancel=False):
        """Await job rid to its end and count the outcome: a COMPLETED proof
        verified (valid or wrong), CANCELLED when it was cancelled, else lost."""
        c, r = grpc.StatusCode.OK, None
        try:
            r = e2e.await_proof(self.st, rid, deadline=AWAIT_S)
        except grpc.RpcError as ex:
            c = ex.code()
        if c == grpc.StatusCode.OK and r.status == S.COMPLETED:
            self.tally.add("completed")
            ok = quietly_checked(verifier, r.proof, rid)
            self.tally.add("valid" if ok else "wrong", None if ok else "%s: does not verify" % rid)
        elif c == grpc.StatusCode.OK and r.status == S.CANCELLED and may_cancel:
            self.tally.add("cancelled")
        else:
            self.tally.add("lost", "%s: %s %s" % (rid, c, r and (S.Status.Name(r.status), r.error_message)))

    def circom_round(self, r):
        """A circom proof: Submit, Await, verify."""
        rid = "r%d-circom" % r
        req = cpb.ProveRequest(request_id=rid, key_id=self.circom_key, witness=self.witness)
        c, detail = code_of(lambda: self.cs.Submit(req, timeout=60))
        if c != grpc.StatusCode.OK:
            self.tally.add("misanswered", "%s: submit refused: %s %s" % (rid, c, detail))
            return
        self.tally.add("submitted")
        try:
            a = self.cs.Await(cpb.AwaitRequest(job_id=rid), timeout=AWAIT_S)
        except grpc.RpcError as ex:
            self.tally.add("lost", "%s: %s" % (rid, ex.code()))
            return
        if a.status != cpb.ProveResponse.COMPLETED:
            self.tally.add("lost", "%s: %s %s" % (rid, a.status, a.error_message))
            return
        self.tally.add("completed")
        ok = circom_verified(a, rid)
        self.tally.add("valid" if ok else "wrong", None if ok else "%s: does not verify" % rid)

    # ---- cut-off clients, cancels, refusals, signals, SRS ----------------------------------
    def known(self, rid, timeout=10):
        """Whether the daemon has job rid (an AwaitProof of 1 ms finds it)
        within timeout seconds."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            c, _ = code_of(lambda: self.st.AwaitProof(pb.AwaitProofRequest(job_id=rid, timeout_ms=1),
                                                      timeout=10))
            if c == grpc.StatusCode.OK:
                return True
            time.sleep(0.05)
        return False

    def cut_off(self, rid, call, req, wait_for_job):
        """Start call (a method name) with req on a channel of its own and
        close that channel mid-call: once the daemon has job rid
        (wait_for_job) or at once."""
        ch, st = stub_for(self.target)
        fut = getattr(st, call).future(req, timeout=AWAIT_S)
        seen = self.known(rid) if wait_for_job else None
        ch.close()
        fut.cancel()
        self.tally.add("disconnects")
        return seen

    def cut_clients(self, r):
        """Three cut-off clients; the jobs they leave, as (rid, verifier):
        a Prove cut once its job is queued (the job must run on), a
        SubmitProof cut at once, then the same request resubmitted (it joins
        the job when the first arrived), an AwaitProof cut mid-wait."""
        jobs = []
        rid = "r%d-cut-prove" % r
        self.tally.add("submitted")
        if self.cut_off(rid, "Prove", pb.ProveRequest(submit=self.winning.submit(rid)), True):
            jobs.append((rid, self.winning.verified))
        else:
            self.tally.add("lost", "%s: the Prove cut off mid-call made no job in 10 s" % rid)
        rid = "r%d-cut-submit" % r
        self.cut_off(rid, "SubmitProof", self.window.submit(rid), False)
        if self.submit(rid, self.window.submit(rid)):
            jobs.append((rid, self.window.verified))
        rid = "r%d-cut-await" % r
        if self.submit(rid, self.snap.submit(rid)):
            self.cut_off(rid, "AwaitProof", pb.AwaitProofRequest(job_id=rid), True)
            jobs.append((rid, self.snap.verified))
        return jobs

    def cancelled_porep(self, r):
        """A PoRep cancelled right after its submit; its rid, or None."""
        rid = "r%d-cancel" % r
        if not self.submit(rid, self.porep.request(rid)):
            return None
        c, detail = code_of(lambda: self.st.CancelProof(pb.CancelProofRequest(job_id=rid), timeout=30))
        if c != grpc.StatusCode.OK:
            self.tally.add("misanswered", "%s: CancelProof %s %s" % (rid, c, detail))
        return rid

    def refusals(self, r):
        """(what, call, gRPC code, pattern of its one-line reason) of the
        malformed requests of round r."""
        w, t, bad = self, "r%d-bad" % r, grpc.StatusCode.INVALID_ARGUMENT
        wb = w.winning.vanilla[0]
        sub = w.st.SubmitProof
        return [
            ("garbage bytes", lambda: e2e.raw_call(w.ch, "SubmitProof", b"\xff\xffgarbage"), bad, "."),
            ("a PoRep of another sector size",
             lambda: sub(w.porep.request(t + "1", sector_size=8 << 20), timeout=30), bad, "sector_size"),
            ("a truncated WinningPoSt vanilla proof",
             lambda: sub(w.winning.submit(t + "2", vanilla_proofs=[wb[:-1]]), timeout=30), bad,
             "end of input|truncat"),
            ("a WindowPoSt with 31 bytes of randomness",
             lambda: sub(w.window.submit(t + "3", randomness=b"\x01" * 31), timeout=30), bad, "randomness"),
            ("an update without comm_d_new",
             lambda: sub(w.snap.submit(t + "4", comm_d_new=b""), timeout=30), bad, "comm_d_new"),
            ("a truncated circom witness",
             lambda: w.cs.Submit(cpb.ProveRequest(request_id=t + "5", key_id=w.circom_key,
                                                  witness=w.witness[:-1]), timeout=30), bad, "."),
            ("AwaitProof of an unknown job",
             lambda: w.st.AwaitProof(pb.AwaitProofRequest(job_id=t + "-none"), timeout=30),
             grpc.StatusCode.NOT_FOUND, "."),
            ("PreloadSRS ../x",
             lambda: w.st.PreloadSRS(pb.PreloadSRSRequest(circuit_id="../x"), timeout=30), bad, "."),
        ]

    def refuse_all(self, r):
        for what, fn, code, pattern in self.refusals(r):
            c, detail = code_of(fn)
            if c == code and re.search(pattern, detail, re.I) and "\n" not in detail:
                self.tally.add("refused")
            else:
                self.tally.add("misanswered", "%s: %s %r (want %s /%s/)" % (what, c, detail, code, pattern))

    def sighup(self):
        """SIGHUP: the daemon says it re-read its config and answers on."""
        start = self.d.err.seek(0, os.SEEK_END)

        def reloaded():
            self.d.err.seek(start)
            return "SIGHUP: logging.level" in self.d.err.read()
        self.d.p.send_signal(signal.SIGHUP)
        deadline = time.time() + 10
        while not reloaded() and time.time() < deadline:
            time.sleep(0.05)
        c, _ = code_of(lambda: self.st.GetStatus(pb.GetStatusRequest(), timeout=10))
        if reloaded() and c == grpc.StatusCode.OK:
            self.tally.add("sighup")
        else:
            self.tally.add("misanswered", "SIGHUP: no reload said, or GetStatus %s" % c)

    def srs_cycle(self, r):
        """EvictSRS of a circuit (in use: FAILED_PRECONDITION), PreloadSRS of it."""
        cid = ("winning-2k", "snap-2k", "wpost-2k")[r % 3]
        c, detail = code_of(lambda: self.st.EvictSRS(pb.EvictSRSRequest(circuit_id=cid), timeout=60))
        if c not in (grpc.StatusCode.OK, grpc.StatusCode.FAILED_PRECONDITION):
            self.tally.add("misanswered", "EvictSRS %s: %s %s" % (cid, c, detail))
        c, detail = code_of(lambda: self.st.PreloadSRS(pb.PreloadSRSRequest(circuit_id=cid), timeout=300))
        if c == grpc.StatusCode.OK:
            self.tally.add("srs_cycles")
        else:
            self.tally.add("misanswered", "PreloadSRS %s: %s %s" % (cid, c, detail))

    def round(self, r):
        """One round: submit every kind, the cancel and the cut-off clients;
        while they prove, the refusals, SIGHUP and the SRS cycle; then
        await and verify each."""
        jobs = [(rid, v) for rid, req, v in self.kinds(r) if self.submit(rid, req)]
        cancel = self.cancelled_porep(r)
        jobs += self.cut_clients(r)
        circom = threading.Thread(target=self.circom_round, args=(r,))
        circom.start()
        self.refuse_all(r)
        self.sighup()
        self.srs_cycle(r)
        for rid, verifier in jobs:
            self.settle(rid, verifier)
        if cancel:
            self.settle(cancel, self.porep.verified, may_cancel=True)
        circom.join()


# ---- the checks and the plot --------------------------------------------------------------
def reference_minute(minutes):
    """When the RSS the end is held against is taken: minute 10, or for a
    run shorter than 10 minutes a third of the run; (minute, why)."""
    if minutes >= 10:
        return 10.0, "minute 10"
    return minutes / 3, "a third of a %.4g-minute run" % minutes


def reference_row(rows, minutes):
    """The sample the end's RSS is held against: the idle one taken at the
    first round's end past reference_minute ("ref"), else the sample
    nearest that minute from the idle one after the warm-up on (the RSS
    grows to its working size in the warm-up); (row, why)."""
    at, why = reference_minute(minutes)
    refs = [x for x in rows if x["phase"] == "ref"]
    if refs:
        return refs[0], "minute %s, idle at the first round's end past %s" % (refs[0]["minute"], why)
    first = next(i for i, x in enumerate(rows) if x["phase"] == "idle")
    row = min((x for x in rows[first:] if x["phase"] != "end"), key=lambda x: abs(float(x["minute"]) - at))
    return row, "minute %s, the sample nearest %s" % (row["minute"], why)


def figures(ref, idle, end, tally):
    """Print the counts and the figures as `name value unit` lines."""
    for name in Tally.NAMES:
        print("soak.%s %d count" % (name, tally.n[name]))
    growth = 100.0 * (end["rss_kib"] - ref["rss_kib"]) / ref["rss_kib"]
    for name, value, unit in (
            ("rss.reference", ref["rss_kib"], "KiB"), ("rss.end", end["rss_kib"], "KiB"),
            ("rss.growth", "%.2f" % growth, "%"), ("hwm.end", end["hwm_kib"], "KiB"),
            ("fds.idle", idle["fds"], "count"), ("fds.end", end["fds"], "count"),
            ("threads.idle", idle["threads"], "count"), ("threads.end", end["threads"], "count"),
            ("pool_idle.end", end["pool_idle_bytes"], "bytes"),
            ("memory_used.end", end["memory_used_bytes"], "bytes")):
        print("soak.%s %s %s" % (name, value, unit))
    return growth


def checks(rows, idle, end, tally, minutes, stop_rc):
    """Print the figures and one PASS/FAIL line per check; whether all passed."""
    ref, why = reference_row(rows, minutes)
    growth, n = figures(ref, idle, end, tally), tally.n
    results = [
        (growth <= 5.0, "rss: %d KiB at the end, %+.2f%% against %d KiB at %s (limit +5%%)"
         % (end["rss_kib"], growth, ref["rss_kib"], why)),
        (end["fds"] <= idle["fds"], "fds: %d at the end, %d idle after the warm-up"
         % (end["fds"], idle["fds"])),
        (end["threads"] <= idle["threads"], "threads: %d at the end, %d idle after the warm-up"
         % (end["threads"], idle["threads"])),
        (n["lost"] == 0 and n["submitted"] == n["completed"] + n["cancelled"] + n["lost"],
         "lost: %d proofs accepted and never completed (%d submitted, %d completed, %d cancelled)"
         % (n["lost"], n["submitted"], n["completed"], n["cancelled"])),
        (n["wrong"] == 0, "wrong: %d completed proofs that do not verify" % n["wrong"]),
        (n["valid"] > 0 and n["valid"] == n["completed"], "valid: %d of %d completed proofs verified"
         % (n["valid"], n["completed"])),
        (n["misanswered"] == 0, "answers: %d requests answered otherwise than documented"
         % n["misanswered"]),
        (stop_rc == 0, "stop: the daemon drained and exited on SIGTERM (%s)" % stop_rc),
    ]
    for ok, text in results:
        print("%s %s" % ("PASS" if ok else "FAIL", text))
    return all(ok for ok, _ in results)


def plot(rows, path):
    """The CSV's series against the minute, as a PNG; skipped (said why)
    without python3-matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as ex:
        print("soak: no plot (%s; apt-get install python3-matplotlib)" % ex)
        return
    x = [float(r["minute"]) for r in rows]
    panels = [("memory (MiB)", [("rss_kib", 1024, "VmRSS"), ("hwm_kib", 1024, "VmHWM"),
                                ("pool_idle_bytes", 1 << 20, "pool idle"),
                                ("memory_used_bytes", 1 << 20, "budget in use")]),
              ("count", [("fds", 1, "open fds"), ("threads", 1, "threads")]),
              ("jobs", [("queue_depth", 1, "queue depth"), ("running_jobs", 1, "running")]),
              ("proofs", [("proofs_completed", 1, "completed")])]
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 10), sharex=True)
    for ax, (label, series) in zip(axes, panels):
        for col, scale, name in series:
            ax.plot(x, [int(r[col]) / scale for r in rows], marker=".", label=name)
        ax.set_ylabel(label)
        ax.legend(loc="upper left", fontsize="small")
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("minute")
    fig.suptitle("cuzk-daemon soak, 2 KiB test parameters")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    print("soak: plot %s" % path)


# ---- the run ------------------------------------------------------------------------------
def config(opt):
    extra = ('[logging]\nlevel = "info"\n[[circom.keys]]\nname = "tiny"\npath = "%s"\n'
             % os.path.join(CIRCOM, "circuit.zkey"))
    return e2e.daemon_config("soak", opt.params, budget=opt.budget, extra=extra)


def soak(opt, work, d, t0):
    """The warm-up round, the idle sample, rounds until opt.minutes pass
    (none started that would end past them by more than half a round), the
    end sample; whether every check passed."""
    work.connect(d, "127.0.0.1:%d" % d.port)
    smp = Sampler(d, os.path.join(opt.out, "soak.csv"), t0)
    smp.sample("start")
    stop = threading.Event()
    ticker = threading.Thread(target=smp.every, args=(opt.sample_seconds, stop), daemon=True)
    ticker.start()
    work.round(0)
    smp.wait_idle()
    idle = smp.settled()
    rounds, last, ref_at = 1, 0.0, reference_minute(opt.minutes)[0] * 60
    while time.time() - t0 + last / 2 < opt.minutes * 60:
        start = time.time()
        work.round(rounds)
        last, rounds = time.time() - start, rounds + 1
        if ref_at is not None and time.time() - t0 >= ref_at and smp.wait_idle():
            smp.sample("ref")  # idle, as the end is: the RSS of work in flight varies
            ref_at = None
    stop.set()
    ticker.join()
    if not smp.wait_idle():
        work.tally.add("misanswered", "the daemon is still busy 300 s after the last round")
    end = smp.settled(limit=(idle["fds"], idle["threads"]))
    rc, log = d.stop()
    print("soak.rounds %d rounds\nsoak.wall %.2f min" % (rounds, (time.time() - t0) / 60))
    with open(smp.f.name) as f:
        print("soak: %s:\n%s" % (smp.f.name, f.read()), end="")
    plot(smp.rows, os.path.join(opt.out, "soak.png"))
    return checks(smp.rows, idle, end, work.tally, opt.minutes, rc)


def main():
    opt = options()
    os.makedirs(opt.out, exist_ok=True)
    work = Work(opt.params)  # the inputs, before the daemon and its clock start
    if e2e.failures:
        raise SystemExit("soak: could not make the inputs: %s" % e2e.failures)
    d = e2e.Daemon("127.0.0.1:0", config(opt))
    print("soak: daemon pid %d, log %s" % (d.p.pid, d.err.name), flush=True)
    try:
        ok = soak(opt, work, d, time.time())
    finally:
        if d.p.poll() is None:
            d.p.kill()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
