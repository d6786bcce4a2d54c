"""Shared by the cuzk-daemon end-to-end scripts (see test_daemon.sh): the
python3-grpcio stubs, a daemon process wrapper, the check counters, and
helpers more than one script uses (cuzk-bench runs, refused requests, the
2 KiB PoRep C1, key and verify-seal check, 2 KiB PoSt partitions, their
keys and verify-post check, the 2 KiB SnapDeals update and its
verify-update check).
Imported after sys.argv = [script, daemon, stubs_dir, cuzk-bench, ...]."""
import base64
import glob
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

daemon, stubs, bench = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, stubs)
import grpc  # noqa: E402
from cuzk.v1 import proving_pb2 as pb  # noqa: E402
from cuzk.v1 import proving_pb2_grpc as pbg  # noqa: E402

failures = []
passed = 0
MIB = 1 << 20
OPTS = [("grpc.max_send_message_length", 256 * MIB), ("grpc.max_receive_message_length", 256 * MIB)]


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what, flush=True)


def code_of(fn):
    try:
        fn()
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as e:
        return e.code(), e.details() or ""


class Daemon:
    def __init__(self, listen, config):
        self.err = open(os.path.join(stubs, "daemon-%d.log" % id(self)), "w+")
        args = [daemon, "-l", listen]
        if config:
            args += ["-c", config]
        self.p = subprocess.Popen(args, stderr=self.err)
        self.port = self.status_port = None
        deadline = time.time() + 30
        while time.time() < deadline:
            self.err.seek(0)
            text = self.err.read()
            m = re.search(r"grpc port (\d+)", text)
            if m:
                self.port = int(m.group(1))
            m = re.search(r"status port (\d+)", text)
            if m:
                self.status_port = int(m.group(1))
            if "listening on" in text and (self.port or listen.startswith("unix:")):
                if not config or self.status_port:
                    return
            if self.p.poll() is not None:
                break
            time.sleep(0.05)
        self.err.seek(0)
        if self.p.poll() is None:  # left running it would hold ctest's pipe open
            self.p.kill()
        raise SystemExit("daemon did not start:\n" + self.err.read())

    def stop(self, sig=signal.SIGTERM):
        self.p.send_signal(sig)
        try:
            rc = self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = "hung"
        self.err.seek(0)
        return rc, self.err.read()


def daemon_config(name, test_params, param_cache=None, budget="16GiB", extra="", gpu_workers=1):
    """A daemon config written to stubs/<name>.toml, returned as its path:
    a status listener on a free loopback port, test parameters cached in
    test_params, official files and recorded shapes in param_cache (default:
    an empty stubs/no-official-params), budget memory, gpu_workers per
    device, then the TOML lines extra (in the [gpus] table unless they open
    another)."""
    path = os.path.join(stubs, name + ".toml")
    with open(path, "w") as f:
        f.write('[daemon]\nstatus_listen = "127.0.0.1:0"\n'
                '[srs]\nparam_cache = "%s"\nallow_test_params = true\ntest_param_cache = "%s"\n'
                '[memory]\ntotal_budget = "%s"\n[gpus]\ngpu_workers_per_device = %d\n%s'
                % (param_cache or os.path.join(stubs, "no-official-params"), test_params, budget,
                   gpu_workers, extra))
    return path


def emulated_gpus_config(name, test_params, param_cache, devices, workers=1, faults=""):
    """daemon_config with devices emulated GPUs (TEST ONLY), workers per
    device, self-tests every second and the injected faults (see
    gpus.test_emulated_faults)."""
    return daemon_config(name, test_params, param_cache, "16GiB",
                         'test_emulated_devices = %d\nself_test_interval = "1s"\n'
                         'test_emulated_faults = "%s"\n' % (devices, faults), gpu_workers=workers)


def status_get(port, path):
    """The body of GET path from the daemon's status listener on port (text)."""
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as f:
        return f.read().decode()


def gpu_metric(text, name, device, kind=None):
    """The value of name{device="device"[,kind="kind"]} in the Prometheus
    text, or None when it is absent."""
    lab = 'device="%s"' % device + (',kind="%s"' % kind if kind else "")
    m = re.search(r"^%s\{%s\} (\S+)$" % (name, re.escape(lab)), text, re.M)
    return float(m.group(1)) if m else None


def stub_for(target):
    ch = grpc.insecure_channel(target, options=OPTS)
    return ch, pbg.ProvingEngineStub(ch)


def raw_call(ch, method, data):
    return ch.unary_unary("/cuzk.v1.ProvingEngine/" + method)(data, timeout=10)


def await_proof(st, job, timeout_ms=0, deadline=1800):
    """AwaitProof of job (timeout_ms 0: until it ends), the RPC given
    deadline seconds (a first proof may have to make its test parameters)."""
    return st.AwaitProof(pb.AwaitProofRequest(job_id=job, timeout_ms=timeout_ms), timeout=deadline)


def bench_run(*args, timeout=300, stdin=None):
    return subprocess.run([bench] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, stdin=stdin)


def check_refused(st, bad, completed):
    """Each (what, request, pattern) of bad is refused at submit with
    INVALID_ARGUMENT and one line matching pattern; then nothing is queued
    and no job was made of them (completed proofs so far, none failed)."""
    for what, req, pattern in bad:
        c, detail = code_of(lambda: st.SubmitProof(req, timeout=30))
        check(c == grpc.StatusCode.INVALID_ARGUMENT and re.search(pattern, detail, re.I)
              and "\n" not in detail,
              "%s: INVALID_ARGUMENT naming it (%s %r)" % (what, c, detail))
    status = st.GetStatus(pb.GetStatusRequest(), timeout=10)
    check(all(q.pending == 0 and q.in_progress == 0 for q in status.queues),
          "nothing was queued by the bad requests")
    check(status.total_proofs_completed == completed and status.total_proofs_failed == 0,
          "no job was made of them (%d completed, %d failed)"
          % (status.total_proofs_completed, status.total_proofs_failed))


# ---- 2 KiB PoRep C2 (daemon_porep_e2e, daemon_signals_e2e) ------------------------
POREP_MINER = 1000
POREP_PROVER = "e807" + "00" * 30  # miner 1000 as LEB128, zero-padded: Curio's prover id


def porep_c1(sector, prover=POREP_PROVER):
    """gen-vanilla porep's 2 KiB C1 output for sector, as stubs/c1-<sector>.json
    and in Curio's wrapper (stubs/c1-curio-<sector>.json): (the first's
    path, the second's path, the second's bytes)."""
    c1 = os.path.join(stubs, "c1-%d.json" % sector)
    c1_curio = os.path.join(stubs, "c1-curio-%d.json" % sector)
    for path, extra in ((c1, []), (c1_curio, ["--curio"])):
        r = bench_run("gen-vanilla", "porep", "--sector-size", "2KiB", "--sector-id", str(sector),
                      "--prover-id", prover, "--out", path, *extra)
        check(r.returncode == 0, "gen-vanilla %s (%r)" % (os.path.basename(path), r.stderr[-200:]))
    return c1, c1_curio, open(c1_curio, "rb").read()


def vk_file(params, n_ic, name):
    """The verifying key at the head of the parameter file params with n_ic
    IC points (bellperson layout: 6 uncompressed points, a u32 BE IC count,
    the IC points), written to stubs/<name>; its path."""
    out = os.path.join(stubs, name)
    with open(params, "rb") as f:
        head = f.read(868 + 96 * n_ic)
    open(out, "wb").write(head)
    return out


def porep_vk_file(cache):
    """The verifying key at the head of the 2 KiB PoRep test parameter file
    in cache (bellperson layout: 6 uncompressed points, a u32 BE IC count,
    the IC points), written to stubs/vk.bin; None when there is none."""
    files = glob.glob(os.path.join(cache, "cuzk-TEST-ONLY-porep-*-032d3138*.params"))
    if not files:
        return None
    head = open(files[0], "rb").read(868)
    return vk_file(files[0], int.from_bytes(head[864:868], "big"), "vk.bin")


def porep_verified(proof, what, vk, c1, sector, prover=POREP_PROVER):
    """One check: proof is 192 bytes and verify-seal accepts it for c1's
    sector under vk."""
    if not vk or len(proof) != 192:
        check(False, "%s: a 192-byte proof against the test key (%d bytes, key %s)"
              % (what, len(proof), vk))
        return
    path = os.path.join(stubs, "proof.bin")
    open(path, "wb").write(proof)
    r = bench_run("verify-seal", "--vk", vk, "--c1", c1, "--prover-id", prover,
                  "--sector-id", str(sector), "--proof", path)
    check(r.returncode == 0, "%s: the proof verifies (%r %r)" % (what, r.stdout[-100:], r.stderr[-200:]))


class PorepSector:
    """A 2 KiB PoRep sector of POREP_MINER for the daemon tests: its C1
    (porep_c1), SubmitProofRequests for it (StackedDrg2KiBV1_1, the C1 in
    Curio's wrapper; kw replaces any field), and the check of a proof of it
    against the key of the test parameters in cache."""

    def __init__(self, sector, cache):
        self.sector, self.cache = sector, cache
        self.c1, self.c1_curio, self.curio_bytes = porep_c1(sector)

    def request(self, rid, priority=pb.PRIORITY_UNSPECIFIED, **kw):
        fields = dict(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                      registered_proof=5, vanilla_proof=self.curio_bytes,
                      sector_number=self.sector, miner_id=POREP_MINER, priority=priority)
        fields.update(kw)
        return pb.SubmitProofRequest(**fields)

    def verified(self, proof, what):
        vk = porep_vk_file(self.cache)
        check(vk is not None, "%s: test parameters are in %s" % (what, self.cache))
        porep_verified(proof, what, vk, self.c1, self.sector)


# ---- 2 KiB PoSt partitions (daemon_post_e2e, daemon_load_e2e, daemon_signals_e2e) --
POST_IC = {"winning-post": 133, "window-post": 23}  # each 2 KiB circuit's key: IC points


def leb128(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


class PostPartition:
    """One partition of a 2 KiB WinningPoSt or WindowPoSt over test sectors
    sealed by cuzk-bench gen-vanilla (stubs/<name>/): its request.json
    fields (req, path), its bincode vanilla proofs (vanilla), the
    SubmitProofRequest Curio would send (kw replaces any field), and the
    check of a proof with verify-post against the key of the test
    parameters in cache, which computes the public inputs itself."""

    def __init__(self, kind, sectors, partition, name, cache):
        out = os.path.join(stubs, name)
        r = bench_run("gen-vanilla", kind, "--sector-size", "2KiB", "--sectors", str(sectors),
                      "--partition", str(partition), "--out", out)
        check(r.returncode == 0, "gen-vanilla %s (%r)" % (name, r.stderr[-300:]))
        self.path = os.path.join(out, "request.json")
        self.req = json.load(open(self.path))
        self.vanilla = [base64.b64decode(v) for v in
                        json.load(open(os.path.join(out, self.req["vanilla"])))]
        self.n_ic, self.cache = POST_IC[kind], cache

    def submit(self, rid, **kw):
        q = self.req
        fields = dict(request_id=rid,
                      proof_kind=pb.WINNING_POST if q["proof_kind"] == "winning-post"
                      else pb.WINDOW_POST_PARTITION,
                      registered_proof=q["registered_proof"], vanilla_proofs=self.vanilla,
                      randomness=bytes.fromhex(q["randomness"]), miner_id=q["miner_id"],
                      partition_index=q["partition"])
        fields.update(kw)
        return pb.SubmitProofRequest(**fields)

    def vk(self):
        """The verifying key at the head of the test parameter file with this
        circuit's IC count (bellperson layout: 6 uncompressed points, a u32 BE
        count, the IC points), as stubs/vk-<n>.bin; None when there is none."""
        for f in glob.glob(os.path.join(self.cache, "cuzk-TEST-ONLY-post-*proof-of-spacetime*.params")):
            head = open(f, "rb").read(868)
            if len(head) == 868 and int.from_bytes(head[864:868], "big") == self.n_ic:
                return vk_file(f, self.n_ic, "vk-%d.bin" % self.n_ic)
        return None

    def verify(self, proof, vk, randomness=None):
        """verify-post of proof (bytes) under vk and randomness (hex; default
        the request's), its completed process: returncode 0 valid, 1
        invalid. Thread-safe."""
        q = self.req
        path = os.path.join(stubs, "proof-%d.bin" % threading.get_ident())
        open(path, "wb").write(proof)
        sectors = ",".join("%d:%s" % (s["sector_id"], s["comm_r"]) for s in q["sectors"])
        r = bench_run("verify-post", "--vk", vk, "--registered-proof", str(q["registered_proof"]),
                      "--randomness", randomness or q["randomness"],
                      "--prover-id", leb128(q["miner_id"]).hex().ljust(64, "0"),
                      "--sectors", sectors, "--partition", str(q["partition"]), "--proof", path)
        return r

    def verified(self, proof, what):
        """Checks: proof is 192 bytes, verifies, and does not under other randomness."""
        vk = self.vk()
        check(vk is not None, "%s: test parameters with %d IC points are in %s"
              % (what, self.n_ic, self.cache))
        if not vk or len(proof) != 192:
            check(False, "%s: a 192-byte proof (%d bytes)" % (what, len(proof)))
            return
        r = self.verify(proof, vk)
        check(r.returncode == 0, "%s: the proof verifies (%r %r)" % (what, r.stdout[-100:], r.stderr[-200:]))
        other = bytearray(bytes.fromhex(self.req["randomness"]))
        other[0] ^= 1
        r = self.verify(proof, vk, other.hex())
        check(r.returncode == 1, "%s: refused under other randomness (%d)" % (what, r.returncode))


# ---- the 2 KiB SnapDeals update (daemon_snap_e2e, daemon_gpus_mixed_e2e) -----------
class SnapUpdate:
    """A 2 KiB SnapDeals update from cuzk-bench gen-vanilla snap-prove
    (stubs/<name>/: a sealed CC sector with new data encoded into it): its
    request.json (req, path), bincode partition proofs (vanilla) and
    commitments (comm, bytes), the SubmitProofRequest Curio would send (kw
    replaces any field), and verify-update against the key of the test
    parameters in cache, from the commitments alone."""

    def __init__(self, name, cache):
        out = os.path.join(stubs, name)
        r = bench_run("gen-vanilla", "snap-prove", "--sector-size", "2KiB", "--out", out)
        check(r.returncode == 0, "gen-vanilla snap-prove 2KiB (%r)" % r.stderr[-300:])
        self.path = os.path.join(out, "request.json")
        self.req = json.load(open(self.path))
        self.vanilla = [base64.b64decode(v) for v in
                        json.load(open(os.path.join(out, self.req["vanilla"])))]
        self.comm = {k: bytes.fromhex(self.req[k]) for k in ("comm_r_old", "comm_r_new", "comm_d_new")}
        self.cache = cache

    def submit(self, rid, **kw):
        fields = dict(request_id=rid, proof_kind=pb.SNAP_DEALS_UPDATE,
                      registered_proof=self.req["registered_proof"], vanilla_proofs=self.vanilla,
                      **self.comm)
        fields.update(kw)
        return pb.SubmitProofRequest(**fields)

    def verify(self, proof, comm_r_new):
        """verify-update's exit status for proof under comm_r_new (hex), with
        the test parameters' key (None, after a failed check, when there is
        none). Thread-safe."""
        # 8 MiB's are 8-0-0 too: the name's hash picks the 2 KiB circuit's.
        params = glob.glob(os.path.join(self.cache, "cuzk-TEST-ONLY-snap-*empty-sector-update"
                                        "*8-0-0-fb9e095b*.params"))
        check(len(params) == 1, "the 2 KiB update test parameters are in %s (%s)" % (self.cache, params))
        if len(params) != 1:
            return None
        tag = threading.get_ident()
        vk = vk_file(params[0], 5, "update-vk-%d.bin" % tag)  # the update circuit's 5 IC points
        path = os.path.join(stubs, "update-proof-%d.bin" % tag)
        open(path, "wb").write(proof)
        r = bench_run("verify-update", "--vk", vk, "--registered-proof", str(self.req["registered_proof"]),
                      "--comm-r-old", self.req["comm_r_old"], "--comm-d-new", self.req["comm_d_new"],
                      "--comm-r-new", comm_r_new, "--proof", path)
        return r.returncode

    def verified(self, proof, what):
        """Checks: proof is 192 bytes, verifies, and does not under another comm_r_new."""
        check(len(proof) == 192, "%s: a 192-byte proof (%d bytes)" % (what, len(proof)))
        check(self.verify(proof, self.req["comm_r_new"]) == 0, "%s: verify-update accepts it" % what)
        other = bytearray(self.comm["comm_r_new"])
        other[0] ^= 1
        check(self.verify(proof, other.hex()) == 1,
              "%s: refused under another comm_r_new" % what)


def report(name):
    print("%s: %d passed, %d failed" % (name, passed, len(failures)))
    sys.exit(1 if failures else 0)
