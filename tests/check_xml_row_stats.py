#!/usr/bin/env python3
"""check_xml_row_stats: the statistic columns (Mean, StdDev, CfVar, Min,
Max, inclusive and exclusive) of the rows that stand for several contexts
-- the flat view's load modules and the bottom-up view's functions --
computed from the per-thread files, not added up over contexts.

Computed here, independently of callscope: the tree is read from
experiment.xml with expat (frames PF and Pr, their procedure `n` and load
module `lm`, alien frames `a="1"`), the per-thread values from the
*.metric-db files or the mdb (check_xml_corpus.thread_files).  A row's
value for thread t is the sum of thread t's values at the contexts the row
counts:
  - flat, load module M: inclusive, the frames of M with no ancestor frame
    of M (recursion counted once); exclusive, the non-alien frames of M
    (an alien frame's exclusive value is inside its enclosing PF's);
  - bottom-up, function f: inclusive, the frames of f with no ancestor
    frame of f; exclusive, every frame of f.
Then, with N the number of threads (hpcprof's rules, as for a context:
doc/hpctoolkit-xml.md): Mean = sum / N (within 1e-5: callscope divides
the sum of the inline values, as the Sum column shows it), StdDev = sqrt(sumsq / N - mean^2),
CfVar = StdDev / Mean, Min / Max over the threads with a non-zero value;
absent when no thread has one.  Also checked on callscope's numbers
alone: Min <= Max, Mean <= Max, CfVar <= sqrt(N - 1), and Min <= Mean
where every thread has a value.

Usage: check_xml_row_stats.py CALLSCOPE DB_DIR
Prints FAIL lines and exits 1 on a mismatch."""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_xml_corpus as cx  # noqa: E402

STATS = ("Mean", "StdDev", "CfVar", "Min", "Max")


def fail(msg):
    print("FAIL: " + msg)


def read_tree(path):
    """(frames, modules, procs, dbs): frames is a list of (ctx id,
    procedure id, load module id, alien, ancestor frame indexes)."""
    frames, modules, procs, dbs = [], {}, {}, {}
    stack = []  # per open tree element: frame index or None

    def start(name, a):
        if name == "LoadModule":
            modules[a["i"]] = a["n"]
        elif name == "Procedure":
            procs[a["i"]] = a["n"]
        elif name == "MetricDB":
            dbs[a["n"]] = int(a["db-id"])
        if name in ("PF", "Pr"):
            up = [f for f in stack if f is not None]
            frames.append((int(a["i"]), a.get("n"), a.get("lm"),
                           a.get("a") == "1", up))
            stack.append(len(frames) - 1)
        elif name in ("C", "L", "S", "SecCallPathProfileData"):
            stack.append(None)

    def end(name):
        if name in ("PF", "Pr", "C", "L", "S", "SecCallPathProfileData"):
            stack.pop()

    cx.expat_walk(path, start, end)
    return frames, modules, procs, dbs


def stats(xs, n):
    nz = [x for x in xs if x != 0]
    if not nz:
        return None
    s = sum(xs)
    mean = s / n
    sd = math.sqrt(max(sum(x * x for x in xs) / n - mean * mean, 0))
    return {"Mean": mean, "StdDev": sd, "CfVar": sd / mean if mean else 0,
            "Min": min(nz), "Max": max(nz), "all": len(nz) == n}


def row_threads(files, ctxs, dbi):
    """Per thread, the sum of column `dbi` over the contexts `ctxs`."""
    out = []
    for (nn, nm, v) in files:
        out.append(sum(v[(c - 1) * nm + dbi] for c in ctxs if 0 < c <= nn))
    return out


def near(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def report(cs, db, view):
    out = subprocess.run([cs, "report", db, "--view", view, "--depth", "1",
                          "--format", "json", "--metric", "all"],
                         stdout=subprocess.PIPE, check=False)
    if out.returncode != 0:
        fail("%s: callscope report --view %s exited %d" %
             (db, view, out.returncode))
        return None
    return json.loads(out.stdout)


def main():
    cs, db = sys.argv[1], sys.argv[2]
    frames, modules, procs, dbs = read_tree(os.path.join(db,
                                                         "experiment.xml"))
    files = cx.thread_files(db)
    n = len(files)
    if n < 2:
        fail("%s: %d per-thread files" % (db, n))
        return 1
    # the rows: key -> (inclusive contexts, exclusive contexts)
    rows = {"flat": {}, "bottom-up": {}}
    for (ctx, proc, lm, alien, up) in frames:
        mod = modules.get(lm, "")
        name = procs.get(proc, proc)
        for view, key, same in (
                ("flat", mod, lambda f: modules.get(f[2], "") == mod),
                ("bottom-up", (name, mod),
                 lambda f: f[1] == proc)):
            inc, exc = rows[view].setdefault(key, ([], []))
            if not any(same(frames[u]) for u in up):
                inc.append(ctx)
            if view == "bottom-up" or not alien:
                exc.append(ctx)
    # bottom-up rows are matched by (name, module): leave out the pairs
    # that several procedures share
    seen = {}
    for (ctx, proc, lm, alien, up) in frames:
        key = (procs.get(proc, proc), modules.get(lm, ""))
        seen.setdefault(key, set()).add(proc)
    for key, ps in seen.items():
        if len(ps) > 1:
            rows["bottom-up"].pop(key, None)
    checked = bad = 0
    for view in ("flat", "bottom-up"):
        rep = report(cs, db, view)
        if rep is None:
            return 1
        cols = rep["columns"]
        want_cols = []
        for i, c in enumerate(cols):
            if c["variant"] in STATS:
                dbn = c["metric"] + (" (I)" if c["kind"] == "inclusive"
                                     else " (E)")
                if dbn in dbs:
                    want_cols.append((i, c, dbs[dbn]))
        if not want_cols:
            fail("%s: no statistic columns with a MetricDB" % db)
            return 1
        cache = {}
        for node in rep["nodes"]:
            if node["depth"] != 1:
                continue
            key = node["name"] if view == "flat" else \
                (node["name"], node["module"] or "")
            if key not in rows[view]:
                continue
            inc, exc = rows[view][key]
            got = {}
            for (i, c, dbi) in want_cols:
                ctxs = inc if c["kind"] == "inclusive" else exc
                ck = (c["kind"], dbi)
                if ck not in cache or cache[ck][0] != key:
                    cache[ck] = (key, stats(row_threads(files, ctxs, dbi),
                                            n))
                want = cache[ck][1]
                g = node["values"][i]
                got[(c["metric"], c["kind"], c["variant"])] = g
                w = None if want is None else want[c["variant"]]
                # Min and Max are thread values; Mean divides the sum
                # of the contexts' values, which hpcprof wrote inline with
                # 6 significant digits (the Sum column shows the same)
                rel = 1e-6 if c["variant"] in ("Min", "Max") else 1e-5
                checked += 1
                if (w is None) != (g is None) or \
                        (w is not None and not near(g, w, rel)):
                    fail("%s: %s view, %s, %s: callscope %r, from the "
                         "per-thread files %r" % (db, view, key, c["name"],
                                                  g, w))
                    bad += 1
            # callscope's own numbers must be possible
            for (metric, kind) in sorted({k[:2] for k in got}):
                def other(v):
                    return got.get((metric, kind, v))
                mx, mn, mean = other("Max"), other("Min"), other("Mean")
                cv = other("CfVar")
                if mn is not None and mx is not None and mn > mx * (1 + 1e-9):
                    fail("%s: %s view, %s: %s %s Min %r > Max %r" %
                         (db, view, key, metric, kind, mn, mx))
                    bad += 1
                if mean is not None and mx is not None and \
                        mean > mx * (1 + 1e-9):
                    fail("%s: %s view, %s: %s %s Mean %r > Max %r" %
                         (db, view, key, metric, kind, mean, mx))
                    bad += 1
                if cv is not None and cv > math.sqrt(n - 1) * (1 + 1e-9):
                    fail("%s: %s view, %s: %s %s CfVar %r > sqrt(%d - 1)"
                         % (db, view, key, metric, kind, cv, n))
                    bad += 1
                want = cache.get((kind, dbs.get(metric + (
                    " (I)" if kind == "inclusive" else " (E)"))))
                if want and want[0] == key and want[1] and \
                        want[1]["all"] and mn is not None and \
                        mean is not None and mn > mean * (1 + 1e-9):
                    fail("%s: %s view, %s: %s %s Min %r > Mean %r with "
                         "every thread counted" % (db, view, key, metric,
                                                   kind, mn, mean))
                    bad += 1
    if checked == 0:
        fail("%s: no row checked" % db)
        return 1
    if not bad:
        print("ok: %s: %d statistic cells of flat and bottom-up rows "
              "(%d threads)" % (db, checked, n))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
