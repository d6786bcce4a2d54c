"""cuzk-daemon end to end, driven by python3-grpcio (see test_daemon.sh).

Starts the daemon on a loopback port and on a unix socket and checks every
RPC answer the daemon can give without proving: status, metrics, SRS
preload/evict, NOT_FOUND, UNIMPLEMENTED for kinds without a prover,
INVALID_ARGUMENT for malformed requests and truncated protobufs, a bounded
load of 200 requests from 8 clients (a fifth malformed), clean SIGTERM.
The proof-returning checks are in daemon_porep_e2e.py (a slow test)."""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import (MIB, Daemon, bench, check, code_of, daemon, grpc, pb,  # noqa: E402,F401
                        raw_call, stub_for, stubs)


def http_metrics(status_port, grpc_text):
    """GET /metrics, /healthz, /readyz; Prometheus's own parser reads /metrics."""
    base = "http://127.0.0.1:%d" % status_port
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        ctype, body = r.headers.get("Content-Type", ""), r.read().decode()
    check(r.status == 200 and ctype.startswith("text/plain; version=0.0.4"), "GET /metrics: 200 %s" % ctype)
    strip = lambda t: [ln for ln in t.splitlines() if not ln.startswith("cuzk_uptime_seconds ")]  # noqa: E731
    check(strip(body) == strip(grpc_text), "GET /metrics answers the GetMetrics text")
    try:
        from prometheus_client.parser import text_string_to_metric_families
    except ImportError:
        print("SKIP: python3-prometheus-client not installed: /metrics not parsed by Prometheus's parser")
    else:
        fams = {f.name: f for f in text_string_to_metric_families(body)}
        want = {"cuzk_proof_latency_seconds": "histogram", "cuzk_prove_phase_seconds": "histogram",
                "cuzk_proof_duration_seconds": "summary", "cuzk_memory_used_bytes": "gauge",
                "cuzk_memory_budget_bytes": "gauge", "cuzk_memory_pool_idle_bytes": "gauge",
                "cuzk_srs_tier_bytes": "gauge", "cuzk_queue_pending": "gauge", "cuzk_ready": "gauge"}
        for name, typ in want.items():
            check(name in fams and fams[name].type == typ, "prometheus_client parses %s as a %s (%s)"
                  % (name, typ, fams[name].type if name in fams else "absent"))
        lat = fams.get("cuzk_proof_latency_seconds")
        kinds = {s.labels.get("proof_kind") for s in lat.samples} if lat else set()
        check(kinds == {"porep_c2", "snap_update", "window_post", "winning_post", "circom"},
              "latency histogram per kind (circom's too)")
        phases = {s.labels.get("phase") for s in fams["cuzk_prove_phase_seconds"].samples} \
            if "cuzk_prove_phase_seconds" in fams else set()
        check({"synthesis", "ntt_h", "msm_h", "msm_l", "msm_a", "msm_b_g2", "total"} <= phases,
              "phase histogram per phase (%s)" % sorted(x for x in phases if x))
        inf = [s for s in lat.samples if s.name.endswith("_bucket") and s.labels.get("le") in ("+Inf", "inf")] if lat else []
        check(len(inf) == 5, "each latency histogram ends with le=+Inf")
    with urllib.request.urlopen(base + "/healthz", timeout=10) as r:
        check(r.status == 200 and r.read() == b"ok\n", "GET /healthz: 200 ok")
    with urllib.request.urlopen(base + "/readyz", timeout=10) as r:
        js = json.loads(r.read())
    check(r.status == 200 and js.get("ready") is True and isinstance(js.get("hot_circuits"), list),
          "GET /readyz: 200 ready (%s)" % js)


def checks(target, status_port, budget, srs_size):
    ch, st = stub_for(target)
    s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
    check(len(s.gpus) >= 1, "GetStatus lists the proving workers")
    check([q.proof_kind for q in s.queues] == ["porep_c2", "snap_update", "window_post", "winning_post"],
          "GetStatus has one queue per proof kind")
    check(all(q.pending == 0 and q.in_progress == 0 for q in s.queues), "queues idle at start")
    if budget:
        check(s.pinned_memory_limit_bytes == budget, "memory budget from the config: %d" % s.pinned_memory_limit_bytes)
    check(s.pinned_memory_bytes == 0, "nothing reserved at start")

    text = st.GetMetrics(pb.GetMetricsRequest(), timeout=10).prometheus_text
    for name in ["cuzk_proofs_completed_total", "cuzk_proofs_failed_total", "cuzk_uptime_seconds",
                 "cuzk_queue_depth", 'cuzk_proofs_completed{proof_kind="porep_c2"}',
                 'cuzk_proofs_failed{proof_kind="winning_post"}',
                 'cuzk_proof_duration_seconds_count{proof_kind="window_post"}',
                 "# TYPE cuzk_proof_duration_seconds summary", "cuzk_running_jobs", "cuzk_gpu_workers"]:
        check(name in text, "metric " + name)
    label = r'[a-z_]+="([^"\\\n]|\\[\\"n])*"'
    for line in text.splitlines():
        if line and not line.startswith("#"):
            check(re.fullmatch(r"[a-z_]+(\{%s(,%s)*\})? ([0-9.e+-]+|\+Inf)" % (label, label), line) is not None,
                  "prometheus sample line: " + line)

    # Which kinds have a prover: the HTTP status JSON says.
    provers = {"porep_c2": True, "snap_update": True, "window_post": True, "winning_post": True}
    if status_port:
        with urllib.request.urlopen("http://127.0.0.1:%d/status" % status_port, timeout=10) as r:
            js = json.loads(r.read())
        check("workers" in js and "memory" in js and "jobs" in js, "GET /status JSON has jobs, workers, memory")
        provers = {q["proof_kind"]: q["has_prover"] for q in js["jobs"]["queues"]}
        check(isinstance(js["jobs"].get("list"), list), "GET /status lists the jobs (%s)" % js["jobs"].get("list"))
        b = js.get("backend", {})
        check(b.get("name") in ("cpu", "cuda") and isinstance(b.get("note"), str),
              "GET /status names the backend (%s)" % b)
        http_metrics(status_port, text)
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/nothing" % status_port, timeout=10)
            check(False, "GET /nothing answers 404")
        except urllib.error.HTTPError as e:
            check(e.code == 404, "GET /nothing answers 404")

    # NOT_FOUND.
    c, _ = code_of(lambda: st.AwaitProof(pb.AwaitProofRequest(job_id="no-such-job", timeout_ms=10), timeout=10))
    check(c == grpc.StatusCode.NOT_FOUND, "AwaitProof unknown job: NOT_FOUND (%s)" % c)
    c, _ = code_of(lambda: st.CancelProof(pb.CancelProofRequest(job_id="no-such-job"), timeout=10))
    check(c == grpc.StatusCode.NOT_FOUND, "CancelProof unknown job: NOT_FOUND")
    c, _ = code_of(lambda: st.EvictSRS(pb.EvictSRSRequest(circuit_id="never-seen"), timeout=10))
    check(c == grpc.StatusCode.NOT_FOUND, "EvictSRS unknown circuit: NOT_FOUND")
    c, _ = code_of(lambda: st.PreloadSRS(pb.PreloadSRSRequest(circuit_id="no-file-here"), timeout=10))
    check(c == grpc.StatusCode.NOT_FOUND, "PreloadSRS without a file: NOT_FOUND")

    # UNIMPLEMENTED for every kind without a prover, through SubmitProof and Prove.
    kinds = {"porep_c2": pb.POREP_SEAL_COMMIT, "snap_update": pb.SNAP_DEALS_UPDATE,
             "window_post": pb.WINDOW_POST_PARTITION, "winning_post": pb.WINNING_POST}
    missing = [k for k in kinds if not provers.get(k, False)]
    check(not status_port or len(provers) == 5, "status JSON names the five kinds (circom's too)")
    for k in missing:
        req = pb.SubmitProofRequest(proof_kind=kinds[k], vanilla_proof=b"{}", randomness=b"\x01" * 32)
        c, d = code_of(lambda: st.SubmitProof(req, timeout=10))
        check(c == grpc.StatusCode.UNIMPLEMENTED and k in d, "SubmitProof %s: UNIMPLEMENTED (%s %s)" % (k, c, d))
        c, d = code_of(lambda: st.Prove(pb.ProveRequest(submit=req), timeout=10))
        check(c == grpc.StatusCode.UNIMPLEMENTED, "Prove %s: UNIMPLEMENTED" % k)

    # INVALID_ARGUMENT with a reason.
    bad = [
        ("proof_kind unset", lambda: st.SubmitProof(pb.SubmitProofRequest(), timeout=10)),
        ("unknown proof kind", lambda: st.SubmitProof(pb.SubmitProofRequest(proof_kind=9), timeout=10)),
        ("unknown priority", lambda: st.SubmitProof(pb.SubmitProofRequest(proof_kind=1, priority=9), timeout=10)),
        ("randomness of 5 bytes", lambda: st.SubmitProof(
            pb.SubmitProofRequest(proof_kind=4, randomness=b"12345"), timeout=10)),
        ("request_id too long", lambda: st.SubmitProof(
            pb.SubmitProofRequest(proof_kind=1, request_id="x" * 300), timeout=10)),
        ("Prove without submit", lambda: st.Prove(pb.ProveRequest(), timeout=10)),
        ("AwaitProof without job_id", lambda: st.AwaitProof(pb.AwaitProofRequest(), timeout=10)),
        ("CancelProof without job_id", lambda: st.CancelProof(pb.CancelProofRequest(), timeout=10)),
        ("PreloadSRS without circuit_id", lambda: st.PreloadSRS(pb.PreloadSRSRequest(), timeout=10)),
        ("PreloadSRS ../x", lambda: st.PreloadSRS(pb.PreloadSRSRequest(circuit_id="../x"), timeout=10)),
    ]
    for what, fn in bad:
        c, d = code_of(fn)
        check(c == grpc.StatusCode.INVALID_ARGUMENT and d, "%s: INVALID_ARGUMENT with a reason (%s %r)" % (what, c, d))

    # Truncated and garbage protobuf bytes on every method.
    whole = pb.SubmitProofRequest(request_id="trunc", proof_kind=1, vanilla_proof=b"x" * 100,
                                  randomness=b"r" * 32).SerializeToString()
    for cut in (1, 3, 10, len(whole) - 1):
        c, d = code_of(lambda: raw_call(ch, "SubmitProof", whole[:cut]))
        check(c == grpc.StatusCode.INVALID_ARGUMENT and "malformed" in d, "truncated SubmitProof (%d bytes): %s" % (cut, c))
    c, d = code_of(lambda: raw_call(ch, "Prove", b"\x0a\x50" + whole[:20]))
    check(c == grpc.StatusCode.INVALID_ARGUMENT, "truncated ProveRequest: %s" % c)
    for m in ["AwaitProof", "CancelProof", "GetStatus", "GetMetrics", "PreloadSRS", "EvictSRS"]:
        c, d = code_of(lambda: raw_call(ch, m, b"\xff\xff\xff"))
        check(c == grpc.StatusCode.INVALID_ARGUMENT, "garbage %s: INVALID_ARGUMENT (%s)" % (m, c))

    c, d = code_of(lambda: ch.unary_unary("/cuzk.v1.ProvingEngine/Nope")(b"", timeout=10))
    check(c == grpc.StatusCode.UNIMPLEMENTED and "Nope" in d, "unknown method: UNIMPLEMENTED (%s %s)" % (c, d))
    c, d = code_of(lambda: ch.unary_unary("/other.Service/GetStatus")(b"", timeout=10))
    check(c == grpc.StatusCode.UNIMPLEMENTED, "unknown service: UNIMPLEMENTED (%s)" % c)

    # Messages past gRPC's default 4 MiB limit are accepted (the limit is 256 MiB).
    big = pb.SubmitProofRequest(proof_kind=kinds[missing[0]] if missing else 9, vanilla_proof=b"\x00" * (8 * MIB))
    c, d = code_of(lambda: st.SubmitProof(big, timeout=30))
    check(c in (grpc.StatusCode.UNIMPLEMENTED, grpc.StatusCode.INVALID_ARGUMENT), "8 MiB request reaches the engine (%s)" % c)

    # SRS: preload, status, evict.
    if srs_size:
        r = st.PreloadSRS(pb.PreloadSRSRequest(circuit_id="test-srs"), timeout=30)
        check(not r.already_loaded, "first PreloadSRS loads")
        r = st.PreloadSRS(pb.PreloadSRSRequest(circuit_id="test-srs"), timeout=30)
        check(r.already_loaded, "second PreloadSRS: already loaded")
        s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
        e = [x for x in s.loaded_srs if x.circuit_id == "test-srs"]
        check(len(e) == 1 and e[0].tier == pb.SRSStatus.HOT and e[0].size_bytes == srs_size,
              "GetStatus shows test-srs HOT with its size")
        check(s.pinned_memory_bytes == srs_size, "the hot SRS is charged to the budget")
        if status_port:
            with urllib.request.urlopen("http://127.0.0.1:%d/readyz" % status_port, timeout=10) as r:
                check("test-srs" in json.loads(r.read())["hot_circuits"], "GET /readyz lists the hot SRS")
            with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % status_port, timeout=10) as r:
                m = r.read().decode()
            check(('cuzk_srs_tier_bytes{tier="hot"} %d\n' % srs_size) in m
                  and ('cuzk_srs_bytes{circuit_id="test-srs",tier="hot"} %d\n' % srs_size) in m,
                  "GET /metrics: the hot SRS bytes per tier and per circuit")
        r = st.EvictSRS(pb.EvictSRSRequest(circuit_id="test-srs"), timeout=10)
        check(r.was_loaded and r.freed_bytes == srs_size, "EvictSRS frees the SRS (%s)" % r)
        s = st.GetStatus(pb.GetStatusRequest(), timeout=10)
        e = [x for x in s.loaded_srs if x.circuit_id == "test-srs"]
        check(len(e) == 1 and e[0].tier == pb.SRSStatus.COLD, "evicted SRS is COLD")
        check(s.pinned_memory_bytes == 0, "eviction released the budget")
        r = st.EvictSRS(pb.EvictSRSRequest(circuit_id="test-srs"), timeout=10)
        check(not r.was_loaded and r.freed_bytes == 0, "evicting a cold SRS frees nothing")
    ch.close()
    return missing


def load(target, missing):
    """200 requests from 8 clients, a fifth malformed: each gets its answer."""
    errors = []
    lock = threading.Lock()
    kinds = {"porep_c2": 1, "snap_update": 2, "window_post": 3, "winning_post": 4}

    def client(n):
        ch, st = stub_for(target)
        for i in range(25):
            k = n * 25 + i
            try:
                if k % 5 == 0:  # malformed
                    c, _ = code_of(lambda: raw_call(ch, ["SubmitProof", "AwaitProof", "Prove"][k % 3],
                                                    b"\x12\x05\x01"))
                    want = grpc.StatusCode.INVALID_ARGUMENT
                elif k % 5 == 1:
                    c, _ = code_of(lambda: st.GetStatus(pb.GetStatusRequest(), timeout=10))
                    want = grpc.StatusCode.OK
                elif k % 5 == 2 and missing:
                    req = pb.SubmitProofRequest(request_id="load-%d" % k, proof_kind=kinds[missing[k % len(missing)]])
                    c, _ = code_of(lambda: st.SubmitProof(req, timeout=10))
                    want = grpc.StatusCode.UNIMPLEMENTED
                elif k % 5 == 3:
                    c, _ = code_of(lambda: st.AwaitProof(pb.AwaitProofRequest(job_id="nope-%d" % k, timeout_ms=5),
                                                         timeout=10))
                    want = grpc.StatusCode.NOT_FOUND
                else:
                    c, _ = code_of(lambda: st.GetMetrics(pb.GetMetricsRequest(), timeout=10))
                    want = grpc.StatusCode.OK
                if c != want:
                    with lock:
                        errors.append("request %d: %s, wanted %s" % (k, c, want))
            except Exception as ex:  # noqa: BLE001
                with lock:
                    errors.append("request %d: %r" % (k, ex))
        ch.close()

    ts = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check(not errors, "load: every one of 200 requests answered as expected %s" % errors[:5])


# ---- TCP with a config file ----------------------------------------------------
params = os.path.join(stubs, "params")
os.mkdir(params)
srs_size = 3 * 4096 + 17
with open(os.path.join(params, "test-srs.params"), "wb") as f:
    f.write(bytes(i % 251 for i in range(srs_size)))
config = os.path.join(stubs, "cuzk.toml")
with open(config, "w") as f:
    f.write('[daemon]\nstatus_listen = "127.0.0.1:0"\n[srs]\nparam_cache = "%s"\n'
            '[memory]\ntotal_budget = "1GiB"\neviction_min_idle = "0s"\n[logging]\nlevel = "info"\n' % params)

d = Daemon("127.0.0.1:0", config)
target = "127.0.0.1:%d" % d.port
missing = checks(target, d.status_port, 1 << 30, srs_size)
load(target, missing)

# cuzk-bench's client commands against the same daemon.
def bench_run(*args):
    return subprocess.run([bench] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


r = bench_run("status", "-a", "http://" + target)
check(r.returncode == 0 and b"queue porep_c2 pending 0" in r.stdout, "cuzk-bench status")
r = bench_run("metrics", "-a", target)
check(r.returncode == 0 and b"cuzk_proofs_completed_total" in r.stdout, "cuzk-bench metrics")
r = bench_run("preload", "-a", target, "-c", "test-srs")
check(r.returncode == 0 and b"test-srs already_loaded false" in r.stdout, "cuzk-bench preload (%r)" % r.stdout)
r = bench_run("evict", "-a", target, "-c", "test-srs")
check(r.returncode == 0 and (b"freed_bytes %d" % srs_size) in r.stdout, "cuzk-bench evict (%r)" % r.stdout)
r = bench_run("preload", "-a", target, "-c", "nope")
check(r.returncode == 1 and b"NOT_FOUND" in r.stderr, "cuzk-bench preload of a missing SRS fails")
if missing:
    kind = {"porep_c2": "porep", "snap_update": "snap", "window_post": "wpost", "winning_post": "winning"}[missing[0]]
    r = bench_run("batch", "-a", target, "-t", kind, "-c", "4", "-j", "2")
    check(r.returncode == 1 and r.stdout.count(b"UNIMPLEMENTED") == 4 and b"summary proofs 4 completed 0 failed 4" in r.stdout,
          "cuzk-bench batch: a line per proof and a summary (%r)" % r.stdout[-300:])
c, _ = code_of(lambda: stub_for(target)[1].GetStatus(pb.GetStatusRequest(), timeout=10))
check(c == grpc.StatusCode.OK, "the daemon is alive after the load")
check(d.p.poll() is None, "the daemon process never exited")
rc, log = d.stop()
check(rc == 0, "SIGTERM: clean exit (rc %s)" % rc)
check("stopped" in log, "SIGTERM: the daemon drained and said so")

# ---- unix socket: a stale socket is replaced, the parent directory made -------
sock_dir = os.path.join(stubs, "run", "curio")
os.makedirs(sock_dir)
sock = os.path.join(sock_dir, "cuzk.sock")
stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
stale.bind(sock)
stale.close()  # leaves the socket file behind, with nobody listening
check(os.path.exists(sock), "a stale socket is in place")
d = Daemon("unix://" + sock, None)
checks("unix://" + sock, None, None, None)
# A second daemon must not steal a live socket.
r = subprocess.run([daemon, "-l", "unix://" + sock], stderr=subprocess.PIPE, timeout=30)
check(r.returncode != 0 and b"another daemon" in r.stderr, "a live socket is not taken over (%r)" % r.stderr[-200:])
c, _ = code_of(lambda: stub_for("unix://" + sock)[1].GetStatus(pb.GetStatusRequest(), timeout=10))
check(c == grpc.StatusCode.OK, "the first daemon still answers on its socket")
rc, log = d.stop()
check(rc == 0, "unix daemon: clean exit")
check(not os.path.exists(sock), "unix daemon: socket removed at exit")
deep = os.path.join(stubs, "a", "b", "c.sock")
d = Daemon("unix://" + deep, None)
check(os.path.exists(deep), "the socket's parent directories were created")
rc, _ = d.stop(signal.SIGINT)
check(rc == 0, "SIGINT: clean exit")

# Refusals at start-up: exit status, a message, nothing removed.
plain = os.path.join(stubs, "not-a-socket")
with open(plain, "w") as f:
    f.write("keep me")
r = subprocess.run([daemon, "-l", "unix://" + plain], stderr=subprocess.PIPE, timeout=30)
check(r.returncode != 0 and b"not a socket" in r.stderr, "a regular file is not replaced by the socket")
check(open(plain).read() == "keep me", "the regular file is intact")
r = subprocess.run([daemon, "-l", "256.0.0.1:1"], stderr=subprocess.PIPE, timeout=30)
check(r.returncode != 0 and b"cannot listen" in r.stderr, "an unusable address is refused")
badcfg = os.path.join(stubs, "bad.toml")
with open(badcfg, "w") as f:
    f.write("[memory]\ntotal_budget = \"plenty\"\n")
r = subprocess.run([daemon, "-c", badcfg, "-l", "127.0.0.1:0"], stderr=subprocess.PIPE, timeout=30)
check(r.returncode == 2 and b"line 2" in r.stderr, "a bad config names its line (%r)" % r.stderr[-200:])
r = subprocess.run([daemon, "--log-level", "loud"], stderr=subprocess.PIPE, timeout=30)
check(r.returncode == 2, "a bad --log-level is refused")
r = subprocess.run([daemon, "--backend", "opencl"], stderr=subprocess.PIPE, timeout=30)
check(r.returncode == 2 and b"cpu, cuda or auto" in r.stderr, "a bad --backend is refused (%r)" % r.stderr[-200:])
# A build without the CUDA backend (ctest says which) has no device for
# --backend cuda: the daemon refuses to start rather than prove on the CPU.
if os.environ.get("CUZK_CUDA_BUILT") == "OFF":
    r = subprocess.run([daemon, "--backend", "cuda", "-l", "127.0.0.1:0"], stderr=subprocess.PIPE,
                       timeout=30)
    check(r.returncode == 1 and b"gpus.backend cuda: no usable CUDA device: " in r.stderr,
          "--backend cuda without a device is refused (%r)" % r.stderr[-200:])

e2e.report("test_daemon")
