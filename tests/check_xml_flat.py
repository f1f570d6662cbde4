#!/usr/bin/env python3
"""check_xml_flat: the flat view of a legacy experiment.xml database counts
inlined code once.  hpcprof's exclusive value of a procedure frame (PF)
already holds the statements inlined into it (the alien frames, Pr a="1",
carry them too), so the exclusive Sum of a load module's flat row must be
the sum of the exclusive values of the PF elements of that module, read
here from the XML's inline <M> values with expat.  Also checked, from
callscope's own output: every module's exclusive value is at most its
inclusive value, and the modules' exclusive values add up to the root's
inclusive value.

Usage: check_xml_flat.py CALLSCOPE DB_DIR
Prints FAIL lines and exits 1 on a mismatch."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_xml_corpus as cx  # noqa: E402


def fail(msg):
    print("FAIL: " + msg)


def near(a, b, rel=1e-5):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1.0)


def pf_sums(path):
    """{metric name: {module name: sum of PF exclusive values}} for the
    exclusive Sum metrics, and the {id: name} table of load modules."""
    modules, metrics = {}, {}
    stack = []  # (element, module id)
    sums = {}

    def start(name, a):
        if name == "LoadModule":
            modules[a["i"]] = a["n"]
        elif name == "Metric":
            metrics[a["i"]] = (a["n"], a.get("t"))
        parent_lm = stack[-1][1] if stack else None
        stack.append((name, a.get("lm", parent_lm)))
        if name == "M" and len(stack) > 1 and stack[-2][0] == "PF":
            mn, kind = metrics.get(a["n"], ("", None))
            if kind == "exclusive" and mn.endswith(":Sum (E)"):
                per = sums.setdefault(mn[:-len(":Sum (E)")], {})
                lm = modules.get(stack[-2][1], "")
                per[lm] = per.get(lm, 0.0) + float(a["v"])

    def end(name):
        stack.pop()

    cx.expat_walk(path, start, end)
    return sums


def main():
    cs, db = sys.argv[1], sys.argv[2]
    expect = pf_sums(db + "/experiment.xml")
    if not expect:
        fail("%s: no exclusive Sum metric with PF values" % db)
        return 1
    out = subprocess.run([cs, "report", db, "--view", "flat", "--depth",
                          "1", "--format", "json", "--metric", "all"],
                         stdout=subprocess.PIPE, check=False)
    if out.returncode != 0:
        fail("%s: callscope report exited %d" % (db, out.returncode))
        return 1
    rep = json.loads(out.stdout)
    cols = rep["columns"]
    bad = 0
    checked = 0
    for metric, per_module in sorted(expect.items()):
        idx = {}
        for i, c in enumerate(cols):
            if c["metric"] == metric and c["variant"] == "Sum":
                idx[c["kind"]] = i
        if "inclusive" not in idx or "exclusive" not in idx:
            fail("%s: no Sum columns for %s" % (db, metric))
            bad += 1
            continue
        ie, ii = idx["exclusive"], idx["inclusive"]
        root = rep["nodes"][0]["values"][ii] or 0.0
        total = 0.0
        seen = set()
        for n in rep["nodes"]:
            if n["kind"] != "module":
                continue
            seen.add(n["name"])
            excl = n["values"][ie] or 0.0
            incl = n["values"][ii] or 0.0
            total += excl
            want = per_module.get(n["name"], 0.0)
            checked += 1
            if not near(excl, want):
                fail("%s: %s: module %s exclusive %r, PF sum %r"
                     % (db, metric, n["name"], excl, want))
                bad += 1
            if excl > incl * (1 + 1e-9) + 1e-9:
                fail("%s: %s: module %s exclusive %r > inclusive %r"
                     % (db, metric, n["name"], excl, incl))
                bad += 1
        for lm, v in per_module.items():
            if lm not in seen and v != 0:
                fail("%s: %s: no module row for %s (PF sum %r)"
                     % (db, metric, lm, v))
                bad += 1
        if not near(total, root):
            fail("%s: %s: modules' exclusive sum %r, root inclusive %r"
                 % (db, metric, total, root))
            bad += 1
    print("%s: %d module rows checked" % (db, checked))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
