"""The shipped Grafana dashboard (packaging/grafana/cuzk.json) and Prometheus
rules (packaging/prometheus/cuzk-alerts.yml) as the monitoring tests read
them: the dashboard's queries with Grafana's variables filled in, and the
metric names a PromQL expression reads."""
import json
import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DASHBOARD = os.path.join(ROOT, "packaging", "grafana", "cuzk.json")
RULES = os.path.join(ROOT, "packaging", "prometheus", "cuzk-alerts.yml")

# The dashboard's own variables and Grafana's built-in ones the queries use,
# with the values the tests give them (instance: "All").
DEFAULTS = {"instance": ".+", "max_pending": "10", "__rate_interval": "30s", "__interval": "1s",
            "__range": "1h"}

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless",
            "bool", "offset", "inf", "nan"}


def load_dashboard(path=DASHBOARD):
    with open(path) as f:
        return json.load(f)


def panels(dash):
    """Every panel, those inside collapsed rows included (rows themselves too)."""
    out = []
    for p in dash.get("panels", []):
        out.append(p)
        out.extend(p.get("panels", []))
    return out


def queries(dash):
    """[(panel title, refId, expr)] of every target with an expression."""
    return [(p.get("title", ""), t.get("refId", ""), t["expr"])
            for p in panels(dash) for t in p.get("targets", []) if t.get("expr")]


def variables(expr):
    """The names of the $name and ${name} variables in expr."""
    return set(re.findall(r"\$\{?(\w+)\}?", expr))


def substitute(expr, values=None):
    """expr with each $name / ${name} replaced by values[name] (DEFAULTS
    for the rest); KeyError for a variable neither knows."""
    vals = dict(DEFAULTS, **(values or {}))
    return re.sub(r"\$\{?(\w+)\}?", lambda m: vals[m.group(1)], expr)


def metric_names(expr):
    """The metric names a PromQL expression reads: its identifiers once
    strings, label matchers, range and subquery brackets, grouping lists
    and function calls are taken out (a name followed by "(" is a function,
    the keywords are operators)."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    e = re.sub(r"\{[^}]*\}", " ", e)
    e = re.sub(r"\[[^\]]*\]", " ", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    e = re.sub(r"\b(offset)\s+\S+", " ", e)
    names = set()
    for m in re.finditer(r"(?<![\w.:$])([a-zA-Z_:][\w:]*)(\s*\()?", e):
        word, call = m.group(1), m.group(2)
        if call or word.lower() in KEYWORDS:
            continue
        names.add(word)
    return names
