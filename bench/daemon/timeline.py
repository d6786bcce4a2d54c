#!/usr/bin/python3
"""Figures of one cuzk-daemon benchmark run, and the medians of several.

  timeline.py run NAME DAEMON_LOG BATCH_OUT [KEY=VALUE ...]
      Reads the daemon's TIMELINE lines (stderr) and cuzk-bench batch's
      stdout; prints `NAME.<figure> <value> <unit>` lines. KEY=VALUE pairs
      (peak RSS, budget...) are passed through as `NAME.KEY VALUE UNIT`
      when VALUE is "number:unit".
  timeline.py summary A B FILE...
      Reads the lines printed by `run` (one run per file, any names of the
      form MODE.figure); prints the median of each figure per mode, the
      number of runs, and ratio.<figure> B/A for the throughput.

Overlap: for each pair of different jobs, the time where one job's
synthesis (SYNTH_START..SYNTH_END) runs while the other's proving
(GPU_START..GPU_END) runs. The union of those intervals over all pairs,
divided by the wall time of the batch (first QUEUED to last END), is
overlap_fraction. Within a job, synthesis of item i+1 overlapping proving
of item i is counted separately (intra_job_overlap_fraction); 2 KiB PoRep
has one partition, so it is 0 there.
"""
import statistics
import sys


def events(path):
    """TIMELINE lines -> [(ms, event, job, detail)]."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("TIMELINE,"):
                continue
            parts = line.rstrip("\n").split(",", 4)
            if len(parts) < 4:
                continue
            try:
                ms = int(parts[1])
            except ValueError:
                continue
            out.append((ms, parts[2], parts[3], parts[4] if len(parts) > 4 else ""))
    return out


def item_of(detail):
    for kv in detail.split(","):
        if kv.startswith("item="):
            return kv[5:]
    return "0"


def intervals(evs, start, end):
    """{(job, item): (t0, t1)} for matching start/end events."""
    open_, done = {}, {}
    for ms, ev, job, detail in evs:
        key = (job, item_of(detail))
        if ev == start:
            open_[key] = ms
        elif ev == end and key in open_:
            done[key] = (open_.pop(key), ms)
    return done


def union_length(spans):
    total, cur0, cur1 = 0, None, None
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if cur1 is None or a > cur1:
            if cur1 is not None:
                total += cur1 - cur0
            cur0, cur1 = a, b
        else:
            cur1 = max(cur1, b)
    if cur1 is not None:
        total += cur1 - cur0
    return total


def overlaps(synth, prove, same_job):
    spans = []
    for (sj, si), (s0, s1) in synth.items():
        for (pj, pi), (p0, p1) in prove.items():
            if (sj == pj) != same_job or (same_job and si == pi):
                continue
            a, b = max(s0, p0), min(s1, p1)
            if b > a:
                spans.append((a, b))
    return union_length(spans)


def run(name, log, batch_out, extra):
    evs = events(log)
    ends = {job: ms for ms, ev, job, _ in evs if ev == "END"}
    queued = {job: ms for ms, ev, job, _ in evs if ev == "QUEUED"}
    # Only the batch's jobs: the ids cuzk-bench batch printed.
    jobs, summary = set(), {}
    with open(batch_out, errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) > 3 and w[0] == "proof" and w[2] == "job":
                jobs.add(w[3])
            elif w and w[0] == "summary":
                summary = dict(zip(w[1::2], w[2::2]))
    evs = [e for e in evs if e[2] in jobs]
    lines = []

    def put(fig, value, unit):
        lines.append("%s.%s %s %s" % (name, fig, value, unit))

    put("proofs_completed", summary.get("completed", "0"), "proofs")
    put("proofs_failed", summary.get("failed", "?"), "proofs")
    put("client_wall", summary.get("wall_s", "nan"), "s")
    put("throughput", summary.get("throughput_proofs_per_min", "nan"), "proofs/min")
    t0 = min((queued[j] for j in jobs if j in queued), default=None)
    t1 = max((ends[j] for j in jobs if j in ends), default=None)
    if t0 is None or t1 is None or t1 <= t0:
        put("timeline_wall", "nan", "s")
    else:
        wall = t1 - t0
        synth = intervals(evs, "SYNTH_START", "SYNTH_END")
        prove = intervals(evs, "GPU_START", "GPU_END")
        cross = overlaps(synth, prove, False)
        intra = overlaps(synth, prove, True)
        busy = union_length(list(prove.values()))
        put("timeline_wall", "%.3f" % (wall / 1000), "s")
        put("synth_total", "%.3f" % (sum(b - a for a, b in synth.values()) / 1000), "s")
        put("prove_total", "%.3f" % (sum(b - a for a, b in prove.values()) / 1000), "s")
        put("prove_busy_fraction", "%.3f" % (busy / wall), "fraction")
        put("overlap", "%.3f" % (cross / 1000), "s")
        put("overlap_fraction", "%.3f" % (cross / wall), "fraction")
        put("intra_job_overlap_fraction", "%.3f" % (intra / wall), "fraction")
        # Two proofs proving at once (the CPU prover's threads then share cores).
        both = []
        pv = sorted(prove.items())
        for i, (k1, (a0, a1)) in enumerate(pv):
            for k2, (b0, b1) in pv[i + 1:]:
                if k1[0] != k2[0] and min(a1, b1) > max(a0, b0):
                    both.append((max(a0, b0), min(a1, b1)))
        put("concurrent_prove_fraction", "%.3f" % (union_length(both) / wall), "fraction")
    for kv in extra:
        k, _, v = kv.partition("=")
        value, _, unit = v.partition(":")
        put(k, value, unit or "-")
    print("\n".join(lines))


def summary(a, b, files):
    runs = {}  # (mode, figure) -> [values]
    units = {}
    for path in files:
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) != 3 or "." not in w[0]:
                    continue
                mode, fig = w[0].split(".", 1)
                try:
                    v = float(w[1])
                except ValueError:
                    continue
                runs.setdefault((mode, fig), []).append(v)
                units[(mode, fig)] = w[2]
    med = {}
    for (mode, fig), vals in sorted(runs.items()):
        vals = [v for v in vals if v == v]  # drop nan
        if not vals:
            continue
        m = statistics.median(vals)
        med[(mode, fig)] = m
        shown = ("%d" % m) if m == int(m) and abs(m) >= 1000 else ("%.3f" % m)
        print("%s.%s_median %s %s" % (mode, fig, shown, units[(mode, fig)]))
        if fig == "throughput":
            print("%s.runs %d runs" % (mode, len(vals)))
    ta, tb = med.get((a, "throughput")), med.get((b, "throughput"))
    if ta and tb:
        print("ratio.throughput_%s_over_%s %.3f x" % (b, a, tb / ta))
    ca, cb = med.get((a, "daemon_cpu_per_proof")), med.get((b, "daemon_cpu_per_proof"))
    if ca and cb:
        # Work per proof: above 1 when b spends less CPU per proof than a.
        print("ratio.cpu_per_proof_%s_over_%s %.3f x" % (a, b, ca / cb))
    # The same ratio per run pair, so its spread is visible too.
    pa, pb = runs.get((a, "throughput"), []), runs.get((b, "throughput"), [])
    pairs = [y / x for x, y in zip(pa, pb) if x and x == x and y == y]
    if pairs:
        print("ratio.throughput_%s_over_%s_median_of_pairs %.3f x" % (b, a, statistics.median(pairs)))


def main(argv):
    if len(argv) >= 4 and argv[1] == "run":
        run(argv[2], argv[3], argv[4], argv[5:])
    elif len(argv) >= 4 and argv[1] == "summary":
        summary(argv[2], argv[3], argv[4:])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
