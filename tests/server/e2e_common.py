"""Shared by the cuzk-daemon end-to-end scripts (see test_daemon.sh): the
python3-grpcio stubs, a daemon process wrapper and the check counters.
Imported after sys.argv = [script, daemon, stubs_dir, cuzk-bench, ...]."""
import os
import re
import signal
import subprocess
import sys
import time

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


def stub_for(target):
    ch = grpc.insecure_channel(target, options=OPTS)
    return ch, pbg.ProvingEngineStub(ch)


def raw_call(ch, method, data):
    return ch.unary_unary("/cuzk.v1.ProvingEngine/" + method)(data, timeout=10)




def report(name):
    print("%s: %d passed, %d failed" % (name, passed, len(failures)))
    sys.exit(1 if failures else 0)
