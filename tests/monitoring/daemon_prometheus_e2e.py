"""A real Prometheus scraping a real cuzk-daemon (see
test_daemon_prometheus.sh).

1. The daemon (one emulated GPU, as many as the rules' default
   cuzk_alert:gpus_expected, so that no alert fires however long the first
   proofs take to make their test parameters; a status listener on a free
   loopback port)
   and Prometheus (its own config, data folder and free loopback port,
   scraping the daemon every second as job "cuzk", with the shipped rules
   evaluated every second) start; Prometheus sees the target up.
2. Two 2 KiB WinningPoSt and one 2 KiB PoRep C2 are proved and verified.
3. Every metric name the dashboard and the rules read is in the daemon's
   /metrics (up is Prometheus's own, for each scrape).
4. Every dashboard query, with the dashboard's variables filled in, returns
   a finite value through /api/v1/query_range over the run; the instance
   variable's label_values lists the daemon.
5. Prometheus loaded every rule of the file and evaluates each without
   error; none fires on this healthy daemon."""
import json
import math
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
sys.path.insert(0, HERE)
import e2e_common as e2e  # noqa: E402
import monitoring as mon  # noqa: E402
from e2e_common import Daemon, check, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
PARAM_CACHE = os.path.join(stubs, "param-cache")  # no official files; shapes are kept here
os.makedirs(PARAM_CACHE, exist_ok=True)
LONG = 900  # a first proof of a kind may make its test parameters


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Prometheus:
    """prometheus on a free loopback port with its own config and data
    folder under stubs, scraping target every second as job cuzk, with the
    shipped rules evaluated every second."""

    def __init__(self, target):
        self.cfg = os.path.join(stubs, "prometheus.yml")
        with open(self.cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                    "rule_files:\n  - %s\n"
                    "scrape_configs:\n  - job_name: cuzk\n    static_configs:\n"
                    "      - targets: ['%s']\n" % (json.dumps(mon.RULES), target))
        self.log = open(os.path.join(stubs, "prometheus.log"), "w+")
        for _ in range(3):  # another process may take the free port first
            self.port = free_port()
            self.p = subprocess.Popen(
                ["prometheus", "--config.file=" + self.cfg,
                 "--storage.tsdb.path=" + os.path.join(stubs, "prometheus-data"),
                 "--web.listen-address=127.0.0.1:%d" % self.port], stderr=self.log)
            if self.ready():
                return
            self.stop()
        self.log.seek(0)
        raise SystemExit("prometheus did not start:\n" + self.log.read()[-3000:])

    def ready(self):
        deadline = time.time() + 60
        while time.time() < deadline and self.p.poll() is None:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/-/ready" % self.port, timeout=2) as r:
                    if r.status == 200:
                        return True
            except OSError:
                pass
            time.sleep(0.2)
        return False

    def api(self, path, **params):
        url = "http://127.0.0.1:%d/api/v1/%s?%s" % (self.port, path, urllib.parse.urlencode(params))
        with urllib.request.urlopen(url, timeout=30) as r:
            body = json.load(r)
        if body.get("status") != "success":
            raise RuntimeError("%s: %s" % (path, body))
        return body["data"]

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


def finite_values(data):
    """The finite values of a query_range answer (a matrix)."""
    return [float(v) for s in data["result"] for _, v in s["values"] if math.isfinite(float(v))]


def wait_scraped(prom, instance):
    """Until Prometheus has scraped the daemon (up == 1 and its uptime stored)."""
    deadline = time.time() + 60
    while time.time() < deadline:
        up = prom.api("query", query='up{job="cuzk",instance="%s"}' % instance)["result"]
        seen = prom.api("query", query="cuzk_uptime_seconds")["result"]
        if up and up[0]["value"][1] == "1" and seen:
            return True
        time.sleep(0.5)
    return False


def prove(st, winning, porep):
    for i in range(2):
        r = st.Prove(pb.ProveRequest(submit=winning.submit("winning-%d" % i)), timeout=LONG)
        check(r.result.status == pb.AwaitProofResponse.COMPLETED,
              "WinningPoSt %d: COMPLETED (%s)" % (i, r.result.error_message))
        winning.verified(r.result.proof, "WinningPoSt %d" % i)
    r = st.Prove(pb.ProveRequest(submit=porep.request("porep")), timeout=LONG)
    check(r.result.status == pb.AwaitProofResponse.COMPLETED,
          "PoRep C2: COMPLETED (%s)" % r.result.error_message)
    porep.verified(r.result.proof, "PoRep C2")


def exposed_names(text):
    """The sample names of a Prometheus text exposition."""
    names = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            names.add(line.split("{", 1)[0].split(" ", 1)[0])
    return names


def check_dashboard(prom, exposed, instance, t0):
    dash = mon.load_dashboard()
    span = int(time.time() - t0) + 60
    values = {"__range": "%ds" % span}
    for title, ref, expr in mon.queries(dash):
        q = mon.substitute(expr, values)
        missing = mon.metric_names(q) - exposed
        check(not missing, "%s %s: reads only metrics in /metrics (%s are not)" % (title, ref, missing))
        data = prom.api("query_range", query=q, start="%.3f" % t0, end="%.3f" % time.time(), step="1")
        got = finite_values(data)
        check(got, "%s %s: data from Prometheus (%s -> %d series, none finite)"
              % (title, ref, q, len(data["result"])))
    var = [v for v in dash["templating"]["list"] if v.get("type") == "query"]
    for v in var:  # label_values(metric, label): Grafana asks the label values API
        metric, label = v["definition"][len("label_values("):-1].split(",")
        vals = prom.api("label/%s/values" % label.strip(), **{"match[]": metric.strip()})
        check(instance in vals, "variable %s: label_values lists %s (%s)" % (v["name"], instance, vals))
    return len(mon.queries(dash))


def check_rules(prom, exposed):
    groups = prom.api("rules")["groups"]
    rules = [r for g in groups for r in g["rules"]]
    recorded = {r["name"] for r in rules if r["type"] == "recording"}
    with open(mon.RULES) as f:
        text = f.read()
    in_file = text.count("- record:") + text.count("- alert:")
    check(len(rules) == in_file, "Prometheus loaded the file's %d rules (%d)" % (in_file, len(rules)))
    for r in rules:
        check(r.get("health") == "ok" and not r.get("lastError"),
              "rule %s: evaluated without error (%s %s)" % (r["name"], r.get("health"), r.get("lastError")))
        missing = mon.metric_names(r["query"]) - exposed - recorded - {"up"}
        check(not missing, "rule %s: reads only metrics in /metrics (%s are not)" % (r["name"], missing))
        if r["type"] == "alerting":
            firing = [a["labels"] for a in r.get("alerts", []) if a["state"] == "firing"]
            check(not firing, "alert %s: quiet on a healthy daemon (%s)" % (r["name"], firing))
    return len(rules)


def main():
    winning = e2e.PostPartition("winning-post", 2, 0, "winning", CACHE)
    porep = e2e.PorepSector(1, CACHE)
    d = Daemon("127.0.0.1:0", e2e.emulated_gpus_config("prom", CACHE, PARAM_CACHE, 1))
    instance = "127.0.0.1:%d" % d.status_port
    prom = None
    try:
        prom = Prometheus(instance)
        t0 = time.time()
        check(wait_scraped(prom, instance), "Prometheus scrapes the daemon (up{job=\"cuzk\"} == 1)")
        ch, st = stub_for("127.0.0.1:%d" % d.port)
        prove(st, winning, porep)
        time.sleep(5)  # a few scrapes after the last proof, and the rules evaluated on them
        exposed = exposed_names(e2e.status_get(d.status_port, "/metrics"))
        n_q = check_dashboard(prom, exposed, instance, t0)
        n_r = check_rules(prom, exposed)
        print("dashboard queries: %d, rules: %d, run: %.0f s" % (n_q, n_r, time.time() - t0))
    finally:
        if prom:
            prom.stop()
        rc, log = d.stop()
    check(rc == 0, "daemon exits 0 on SIGTERM (%s)" % rc)
    e2e.report("daemon_prometheus_e2e")


main()
