#!/usr/bin/env python3
"""The trace pane's legend and statistics checked against shares computed
independently of the pane.

    trace_shares_ref.py TRACE_JSON REPORT_JSON SCREEN [--tolerance P]
    trace_shares_ref.py --rpd RPD FROM TO LINES SCREEN [--tolerance P]

TRACE_JSON is `callscope trace DB --from MIN --to MAX --columns W --depth D
--format json` over the pane's window (every line), REPORT_JSON `callscope
report DB --format json` (the context ids' names).  The reference share of a
name is the fraction of all cells of all non-counter lines whose context
has that name (0: "(idle)"); with W large it is the time-weighted share the
pane defines (views/trace_shares.h).  SCREEN is a headless screen of the
trace pane: its legend line ("x NAME 12.3%  ...") and, when present, the
statistics view's rows ("12.34%  TIME  NAME") are each compared with the
reference; a difference above P percentage points (default 0.1 for the
legend's one decimal, half of it plus 0.05 for the statistics) fails.
With --rpd the reference comes from SQL over an .rpd file instead: per
name, the summed duration of its API calls (rocpd_api, named by apiName)
and GPU operations (rocpd_op, named by description, or by operation type
for copies) clipped to [FROM, TO), over LINES x (TO - FROM); the rest is
idle.  Right when neither API calls of a thread nor operations of a queue
overlap (the file's own; the test checks it).
Prints what it compared; exit 1 on a mismatch or when nothing was found.
"""
import collections
import json
import re
import sys


def reference(trace_path, report_path):
    with open(report_path) as f:
        report = json.load(f)
    names = {n["id"]: n["name"] for n in report["nodes"]}
    with open(trace_path) as f:
        trace = json.load(f)
    count = collections.Counter()
    total = 0
    for line in trace["lines"]:
        if line.get("kind") == "counter":
            continue
        for ctx in line["cells"]:
            name = "(idle)" if ctx == 0 else names.get(ctx, "?%d" % ctx)
            count[name] += 1
            total += 1
    return {k: 100.0 * v / total for k, v in count.items()}, len(trace["lines"])


def reference_rpd(path, t0, t1, lines):
    import sqlite3
    db = sqlite3.connect(path)
    strings = dict(db.execute("SELECT id, string FROM rocpd_string"))
    time = collections.Counter()
    rows = [(strings[a], s, e) for a, s, e in
            db.execute("SELECT apiName_id, start, end FROM rocpd_api")]
    rows += [(strings[d] or strings[o], s, e) for d, o, s, e in
             db.execute("SELECT description_id, opType_id, start, end "
                        "FROM rocpd_op")]
    for name, s, e in rows:
        s, e = max(s, t0), min(e, t1)
        if e > s:
            time[name] += e - s
    total = lines * (t1 - t0)
    ref = {k: 100.0 * v / total for k, v in time.items()}
    ref["(idle)"] = 100.0 - sum(ref.values())
    return ref


LEGEND_ITEM = re.compile(r"(?:^|  )\S (.+?) (\d+\.\d)%(?=  |\s*$)")
STATS_ROW = re.compile(r"^ \S\S\s+(\d+\.\d\d)%\s+\S+ \S+\s\s(.+?)\s*$")


def lookup(ref, name, pct):
    """The reference share of a screen name: exact, or for a name the
    screen cut ("Cijk_Ailk…") the closest of the names it begins; a share
    too small for any cell to show it (missing from the reference) is 0."""
    if name in ref:
        return ref[name]
    if name.endswith("\u2026") or name.endswith("~"):
        cands = [v for k, v in ref.items() if k.startswith(name[:-1])]
        if cands:
            return min(cands, key=lambda v: abs(v - pct))
    return 0.0 if pct < 0.01 else None


def main():
    args = sys.argv[1:]
    tol = 0.1
    if "--tolerance" in args:
        i = args.index("--tolerance")
        tol = float(args[i + 1])
        del args[i:i + 2]
    if args and args[0] == "--rpd" and len(args) == 6:
        ref = reference_rpd(args[1], int(args[2]), int(args[3]),
                            int(args[4]))
        args = args[5:]
    elif len(args) == 3:
        ref, _ = reference(args[0], args[1])
        args = args[2:]
    else:
        sys.exit(__doc__)
    with open(args[0], encoding="utf-8", errors="replace") as f:
        screen = f.read().splitlines()
    checked = 0
    bad = 0
    for row in screen:
        m = STATS_ROW.match(row)
        if m:
            name, pct, t = m.group(2), float(m.group(1)), tol / 2 + 0.05
        else:
            body = re.sub(r"^sampled (from \d+ of \d+ lines|at \d+ times)[^:]*:", "", row)
            if not re.match(r"^\S \S", body) or "%" not in body:
                continue
            items = LEGEND_ITEM.findall(body)
            if not items:
                continue
            for name, p in items:
                want = lookup(ref, name, float(p))
                ok = want is not None and abs(want - float(p)) <= tol + 0.05
                print("legend %-40s screen %6.1f%%  reference %s" %
                      (name[:40], float(p),
                       "-" if want is None else "%.3f%%" % want))
                checked += 1
                bad += not ok
            continue
        want = lookup(ref, name, pct)
        ok = want is not None and abs(want - pct) <= t
        print("stats  %-40s screen %6.2f%%  reference %s" %
              (name[:40], pct, "-" if want is None else "%.3f%%" % want))
        checked += 1
        bad += not ok
    if checked == 0:
        print("FAIL: no legend or statistics row on the screen")
        return 1
    if bad:
        print("FAIL: %d of %d shares differ from the reference" % (bad, checked))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
