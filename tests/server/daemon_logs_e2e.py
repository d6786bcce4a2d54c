"""The daemon's log lines (see test_daemon_logs.sh): timestamps, levels and
components on every line, refusals at warn with the peer, JSON format,
FIL_PROOFS_PARAMETER_CACHE, the missing parameter directory warning and
the unused gpus.devices one."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import *  # noqa: F401,F403,E402

LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARN|ERROR|DEBUG) [a-z]+: ")
missing = os.path.join(stubs, "no-such-params")
os.environ["FIL_PROOFS_PARAMETER_CACHE"] = missing

d = Daemon("127.0.0.1:0", None)
ch, stub = stub_for("127.0.0.1:%d" % d.port)
code, _ = code_of(lambda: stub.AwaitProof(pb.AwaitProofRequest(job_id=""), timeout=10))
check(code == grpc.StatusCode.INVALID_ARGUMENT, "empty job_id refused")
ch.close()
rc, log = d.stop()
lines = [l for l in log.splitlines() if not l.startswith(("TIMELINE,", "CUZK_TIMING"))]
bad = [l for l in lines if not LINE.match(l)]
check(lines and not bad, "every line has a timestamp, level and component (%r)" % bad[:3])
check(re.search(r"WARN grpc: AwaitProof refused \(INVALID_ARGUMENT\) peer=ipv4:127\.0\.0\.1:\d+ .*job_id is empty", log),
      "a refusal is a warn line with its reason and peer")
check(re.search(r"INFO daemon: listening on .*params %s from FIL_PROOFS_PARAMETER_CACHE" % re.escape(missing), log),
      "FIL_PROOFS_PARAMETER_CACHE is honoured and named")
check(re.search(r"WARN daemon: parameter directory %s: " % re.escape(missing), log), "missing directory warned")

cfg = os.path.join(stubs, "json.toml")
with open(cfg, "w") as f:
    f.write('[logging]\nformat = "json"\n[srs]\nparam_cache = "%s"\n'
            '[gpus]\nbackend = "cpu"\ndevices = [3]\n' % stubs)
import subprocess, signal, time  # noqa: E401,E402
err = open(os.path.join(stubs, "json.log"), "w+")
p = subprocess.Popen([daemon, "-l", "127.0.0.1:0", "-c", cfg], stderr=err)
time.sleep(1.5)
p.send_signal(signal.SIGTERM)
p.wait(timeout=30)
err.seek(0)
objs = []
for l in err.read().splitlines():
    try:
        objs.append(json.loads(l))
    except ValueError:
        check(False, "json line parses (%r)" % l)
check(objs and all(set(o) == {"ts", "level", "component", "msg"} for o in objs), "json objects have ts, level, component, msg")
check(any(o["level"] == "warn" and "holds no v28-" in o["msg"] for o in objs), "no v28 file: warned (json); config value wins over the env")
check(any(o["level"] == "warn" and o["msg"] == "gpus.devices = [3] is not used: proving on the CPU"
          for o in objs), "a device with the CPU backend: warned, not silently accepted")
report("daemon_logs")
