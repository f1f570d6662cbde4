#!/usr/bin/env python3
"""check_xml_stats: the statistic columns (Sum, Mean, StdDev, CfVar, Min,
Max and their hidden num-src / accum2 parts) of an experiment.xml database
WITHOUT inline <M> values, computed by callscope from the per-thread files,
against two independent answers:

1. a computation here from the per-thread files (*.metric-db or the mdb,
   decoded with `struct` by check_xml_corpus.thread_files) with hpcprof's
   rules: N = number of threads; Sum = sum, Mean = sum / N, StdDev =
   sqrt(sumsq / N - mean^2), CfVar = StdDev / Mean, Min / Max over the
   non-zero values, num-src = N where any thread has a value; the root of
   an inclusive metric is, per thread, the sum of the top-level contexts;
2. for inclusive metrics, the inline <M> values hpcprof wrote into the
   ORIGINAL experiment.xml (6 significant digits), wherever it wrote one.

Usage: check_xml_stats.py CALLSCOPE STRIPPED_DB ORIGINAL_XML
Prints FAIL lines and exits 1 on a mismatch."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_xml_corpus as cx  # noqa: E402


def near(a, b, rel):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def thread_stats(files, dbi, kind, ctx, top):
    """(sum, sum of squares, min, max) over threads of MetricDB column
    `dbi` at `ctx`, min and max over non-zero values; None when no thread
    has a value."""
    xs = []
    for (nn, nm, v) in files:
        if ctx == 0:
            t = sum(v[(c - 1) * nm + dbi] for c in top
                    if 0 < c <= nn) if kind == "inclusive" else 0
        else:
            t = v[(ctx - 1) * nm + dbi] if ctx <= nn else 0
        xs.append(t)
    nz = [t for t in xs if t != 0]
    if not nz:
        return None
    return sum(xs), sum(t * t for t in xs), min(nz), max(nz)


def main():
    cs, db, orig = sys.argv[1], sys.argv[2], sys.argv[3]
    x = cx.Xml(os.path.join(db, "experiment.xml"))
    if x.values:
        cx.fail("%s: the stripped copy still has inline values" % db)
        return 1
    o = cx.Xml(orig)
    rep = cx.run(cs, "report", db, "--format", "json", "--metric", "all")
    if rep is None:
        return 1
    files = cx.thread_files(db)
    nthreads = len(files)
    dbs = {d["n"]: int(d["db-id"]) for d in x.dbs}
    cols = rep["columns"]
    values = {n["id"]: n["values"] for n in rep["nodes"]}
    top = [n["id"] for n in rep["nodes"] if n["parent"] == 0]
    checked = against_xml = 0
    stats = {}
    for m in x.metrics:
        base, var, kind = cx.split_name(m["n"])
        kind = kind or ("exclusive" if m.get("t") == "exclusive"
                        else "inclusive")
        ci = [i for i, c in enumerate(cols) if c["metric"] == base and
              c["variant"] == var and c["kind"] == kind]
        dbi = dbs.get(base + (" (E)" if kind == "exclusive" else " (I)"))
        if not ci or dbi is None:
            cx.fail("%s: no column or MetricDB for %s" % (db, m["n"]))
            continue
        ci = ci[0]
        mid = int(m["i"])
        frm = m["formulas"].get("finalize")
        for ctx in [0] + x.order:
            if ctx < 0:
                continue
            st = stats.get((dbi, kind, ctx))
            if st is None:
                st = stats[(dbi, kind, ctx)] = thread_stats(
                    files, dbi, kind, ctx, top)
            if st is None:
                want = None
            else:
                s, sq, lo, hi = st
                mean = s / nthreads
                sd = math.sqrt(max(sq / nthreads - mean * mean, 0))
                want = {"Sum": s, "": s, "Mean": mean, "StdDev": sd,
                        "CfVar": sd / mean if mean else 0,
                        "Min": lo, "Max": hi}.get(var)
                if var.endswith(":num-src"):
                    want = nthreads
                elif var.endswith(":accum2"):
                    want = sq
            got = values[ctx][ci]
            if want is None and got is None:
                checked += 1
            elif want is None or got is None or \
                    not near(got, want, 1e-6 if var != "StdDev" and
                             var != "CfVar" else 1e-4):
                cx.fail("%s: %s at context %d: callscope %r, computed %r" %
                        (db, m["n"], ctx, got, want))
                return 1
            else:
                checked += 1
            # hpcprof's own numbers (inclusive only: its exclusive
            # num-src and Min have artifacts where a thread has no value)
            w = o.values.get((ctx, mid))
            if kind == "inclusive" and w is not None and got is not None \
                    and frm in (None, "$%d" % mid):
                if not near(got, w, 2e-5):
                    cx.fail("%s: %s at context %d: callscope %r, hpcprof's "
                            "<M> %r" % (db, m["n"], ctx, got, w))
                    return 1
                against_xml += 1
    # the flat and bottom-up views add up the same sums (the provider's
    # one-pass summary_all on the stripped copy, the inline values on the
    # original): equal to the XML's 6 digits
    for view in ("flat", "bottom-up"):
        a = cx.run(cs, "report", db, "--format", "json", "--view", view)
        b = cx.run(cs, "report", os.path.dirname(orig), "--format", "json",
                   "--view", view)
        if a is None or b is None:
            return 1
        for ra, rb in zip(a["nodes"], b["nodes"]):
            for ci, c in enumerate(a["columns"]):
                if c["variant"] != "Sum":
                    continue
                ga, gb = ra["values"][ci], rb["values"][ci]
                if (ga is None) != (gb is None) or \
                        (ga is not None and not near(ga, gb, 1e-5)):
                    cx.fail("%s: %s view, row %s %s: %r, from the inline "
                            "values %r" % (db, view, ra["id"], c["name"],
                                           ga, gb))
                    return 1
                checked += 1
    if not cx.failures:
        print("ok: %s: %d statistic cells (%d threads), %d equal to "
              "hpcprof's inline values" % (db, checked, nthreads,
                                           against_xml))
    return 1 if cx.failures else 0


if __name__ == "__main__":
    sys.exit(main())
