#!/usr/bin/python3
"""Extra-Prof sets written here, their values computed here by hand from
the rules of Extra-P's reader (extra_prof.py, v4.3.0-beta2; doc/extrap.md
"Extra-Prof sets"), for what the corpus does not exercise: a subtree
dropped at a point where the children's time exceeds the node's, kernels
and async copies not subtracted from their parent, a node met twice,
per-thread lists (their mean; NaN for none), names (demangled, prefixed,
template arguments removed), GPU metric repetitions, an exclusive
additional metric, bytes only where not 0, and the warning naming the
short series.

usage: check_extrap_prof.py CALLSCOPE TMPDIR"""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_extrap_hostile import mp  # noqa: E402


def node(name, children=(), typ=0, flags=0, dur=0, vis=1, byt=0, extra=()):
    return [name, list(children), typ, flags, dur, vis, byt] + list(extra)


def write_set(top, points):
    for coord, files in points.items():
        d = os.path.join(top, "app.s%d" % coord)
        os.makedirs(d)
        for i, doc in enumerate(files):
            with open(os.path.join(d, "p%d.extra-prof.msgpack" % i),
                      "wb") as f:
                f.write(mp(doc))


def profile(children, gpu=None, add=None):
    doc = ["EXTRA PROF", "1.0", node("", children, dur=0, vis=0)]
    if gpu is not None or add is not None:
        doc.append(gpu or [])
    if add is not None:
        doc.append(add)
    return doc


def main():
    cs, tmp = sys.argv[1:3]
    top = os.path.join(tmp, "set")
    kern = "_ZN2ns4kernEPKdS1_"  # c++filt: ns::kern(double const*, ...)
    k_name = "ns::kern(double const*, double const*)"
    # s1: two files (two repetitions); s2: one file whose child f
    # exceeds main, so f's subtree is not measured at s2
    s1a = profile([node("main", [
        node("f", [node("g", dur=10)], dur=30),
        node(kern, [node(kern, typ=2, dur=70, extra=[[2.5]])], typ=1, dur=5),
        node("Memcpy", typ=3, flags=1, dur=4, byt=64),
        node("Memcpy sync", typ=3, flags=0, dur=6, byt=32),
        node("std::vector<int, alloc<int> >::size()", dur=1),
        node("f", dur=20)], dur=100)],
        gpu=["m1"])
    s1b = profile([node("main", [node("f", [node("g", dur=[])], dur=[8, 12])],
                        dur=[50, 70])])
    s2 = profile([node("main", [node("f", [node("g", dur=1)], dur=150,
                                     extra=[[], [[40]]])],
                       dur=100, extra=[[], [[100]]])],
                 add=[["energy", 1]])
    write_set(top, {1: [s1a, s1b], 2: [s2]})
    p = subprocess.run([cs, "points", "--format", "json", top],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL: exit %d: %s" % (p.returncode, p.stderr.strip()))
        return 1
    got = {}
    for s in json.loads(p.stdout)["measurements"]:
        for pt in s["points"]:
            got[(s["callpath"], s["metric"], pt["coordinate"][0])] = pt
    nan = float("nan")
    L = "main->LAUNCH " + k_name
    want = {
        # s1, file 0: main 100 - (f 30 + f 20 merged = 50) - launch 5
        #   - sync copy 6 - size() 1 = 38 (kernel 70, async copy 4 not
        #   subtracted); file 1: 60 (the mean of 50, 70) - f (8+12)/2
        ("main", "time", 1): [38e-9, 50e-9],
        ("main->f", "time", 1): [(50 - 10) * 1e-9, nan],  # g: 10, nan
        ("main->f->g", "time", 1): [10e-9, nan],
        ("main->f", "visits", 1): [2, 1],
        (L, "time", 1): [5e-9, 0],  # the kernel is not subtracted
        (L + "->GPU " + k_name, "time", 1): [70e-9, 0],
        (L + "->GPU " + k_name, "m1", 1): [2.5],  # one occurrence
        ("main->GPU Memcpy", "bytes", 1): [64, 0],
        ("main->GPU Memcpy sync", "time", 1): [6e-9, 0],
        ("main->std::vector::size()", "time", 1): [1e-9, 0],
        # s2: f (150) exceeds main (100): main keeps its own, f's
        # subtree is not measured; energy: 100 - 40
        ("main", "time", 2): [100e-9],
        ("main", "energy", 2): [60],
    }
    bad = []
    for (cp, metric, c), vals in want.items():
        g = got.get((cp, metric, float(c)))
        if g is None:
            bad.append("%s %s at s=%d: missing" % (cp, metric, c))
            continue
        mean = sum(vals) / len(vals)
        ok = g["repetitions"] == len(vals) and (
            (math.isnan(mean) and g["mean"] in ("nan", None) or
             isinstance(g["mean"], float) and math.isnan(g["mean"]))
            if math.isnan(mean) else
            abs(g["mean"] - mean) <= 1e-12 * abs(mean) + 1e-300)
        if not ok:
            bad.append("%s %s at s=%d: %r, want mean of %r" %
                       (cp, metric, c, g, vals))
    for cp, metric, c in (("main->f", "time", 2), ("main->f->g", "time", 2),
                          ("main", "bytes", 1)):
        if (cp, metric, float(c)) in got:
            bad.append("%s %s at s=%d: measured, Extra-P has none" %
                       (cp, metric, c))
    warn = [ln for ln in p.stderr.splitlines() if "fewer points" in ln]
    if len(warn) != 1 or '"main->f" time (1 of 2)' not in warn[0]:
        bad.append("warning %r" % p.stderr)
    for b in bad:
        print("FAIL " + b)
    print("extra-prof rules: %d of %d values as computed here" %
          (len(want) + 3 - len(bad), len(want) + 3))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
