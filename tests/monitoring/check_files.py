"""The shipped dashboard and alert rules against what they promise, without
a daemon (test_monitoring_files.sh; the daemon and a real Prometheus are
test_daemon_prometheus.sh's):
- the dashboard is Grafana's JSON model with one Prometheus data source
  variable that every panel and query uses, unique panel ids, and only
  variables it defines or Grafana provides;
- every metric a dashboard query or a rule reads is one docs/interface.md
  lists (a histogram's or summary's _bucket, _sum, _count included);
- every row of docs/operating.md's "Metrics to alert on" names alerts of
  the rules file that read each metric of the row;
- every alert has a severity, a summary and a description, and a unit test
  in cuzk_alerts_test.yml where it fires."""
import os
import re
import sys

import yaml

import monitoring as mon

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def documented_metrics():
    text = open(os.path.join(mon.ROOT, "docs", "interface.md")).read()
    section = text.split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(cuzk_\w+)", section))


def known(name, documented):
    base = re.sub(r"_(bucket|sum|count)$", "", name)
    return name in documented or base in documented


def check_dashboard(documented):
    dash = mon.load_dashboard()
    ds_vars = [v for v in dash["templating"]["list"] if v.get("type") == "datasource"]
    check(len(ds_vars) == 1 and ds_vars[0].get("query") == "prometheus",
          "one Prometheus data source variable (%s)" % ds_vars)
    ds = {"type": "prometheus", "uid": "${%s}" % (ds_vars[0]["name"] if ds_vars else "?")}
    names = {v["name"] for v in dash["templating"]["list"]}
    ids = [p.get("id") for p in mon.panels(dash)]
    check(len(ids) == len(set(ids)) and None not in ids, "panel ids are unique (%s)" % ids)
    for p in mon.panels(dash):
        if p.get("type") == "row":
            continue
        title = p.get("title", "?")
        check(p.get("datasource") == ds, "%s: the panel's data source is %s" % (title, ds))
        check(p.get("targets") and all(t.get("datasource") == ds and t.get("expr")
                                       for t in p["targets"]),
              "%s: queries, each with an expression, on %s" % (title, ds))
    for title, ref, expr in mon.queries(dash):
        unknown = {v for v in mon.variables(expr) if v not in names and not v.startswith("__")}
        check(not unknown, "%s %s: variables the dashboard defines (%s)" % (title, ref, unknown))
        for n in mon.metric_names(mon.substitute(expr)):
            check(known(n, documented), "%s %s: %s is in docs/interface.md" % (title, ref, n))
    var = [v for v in dash["templating"]["list"] if v.get("type") == "query"]
    for v in var:
        m = re.match(r"label_values\((\w+),\s*(\w+)\)$", v["definition"])
        check(m and known(m.group(1), documented), "variable %s reads a documented metric" % v["name"])
    return len(mon.queries(dash))


def check_rules(documented):
    rules = [r for g in yaml.safe_load(open(mon.RULES))["groups"] for r in g["rules"]]
    recorded = {r["record"] for r in rules if "record" in r}
    alerts = {r["alert"]: r for r in rules if "alert" in r}
    reads = {}
    for name, r in alerts.items():
        reads[name] = mon.metric_names(r["expr"])
        for n in reads[name]:
            check(n in recorded or n == "up" or known(n, documented),
                  "%s: %s is recorded in the file, up, or in docs/interface.md" % (name, n))
        check(r.get("labels", {}).get("severity") in ("warning", "critical"), "%s: a severity" % name)
        check(r.get("annotations", {}).get("summary") and r["annotations"].get("description"),
              "%s: a summary and a description" % name)
    tests = yaml.safe_load(open(os.path.join(os.path.dirname(__file__), "cuzk_alerts_test.yml")))
    fired = {c["alertname"] for t in tests["tests"] for c in t.get("alert_rule_test", [])
             if c.get("exp_alerts")}
    for name in alerts:
        check(name in fired, "%s: a unit test where it fires" % name)
    return alerts, reads


def check_operating_table(alerts, reads):
    text = open(os.path.join(mon.ROOT, "docs", "operating.md")).read()
    table = text.split("\n## Metrics to alert on\n", 1)[1].split("| Metric |", 1)[1]
    rows = [ln for ln in table.split("\n")[2:] if ln.startswith("|")]
    check(len(rows) >= 10, "the table has its rows (%d)" % len(rows))
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        metrics = set(re.findall(r"cuzk_\w+", cells[0]))
        named = set(re.findall(r"`(Cuzk\w+)`", cells[-1]))
        check(named and named <= set(alerts), "row %s: names alerts of the rules (%s)" % (cells[0], named))
        read = set().union(*(reads.get(a, set()) for a in named)) if named else set()
        check(metrics and metrics <= read, "row %s: its alerts read %s (they read %s)"
              % (cells[0], metrics, read))


documented = documented_metrics()
n_queries = check_dashboard(documented)
alerts, reads = check_rules(documented)
check_operating_table(alerts, reads)
print("dashboard: %d queries; rules: %d alerts; %d failures" % (n_queries, len(alerts), len(failures)))
sys.exit(1 if failures else 0)
