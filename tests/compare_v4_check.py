#!/usr/bin/env python3
"""compare_v4_check: the truth of `callscope compare RUN...` on gen-v4db
databases, computed from the generator's answers files (never from a
reader): the union of the runs' paths (diff_v4_check's keys), each run's
inclusive value per path (absent where the run has no such path), and
the statistics across the runs that have one -- min, median, mean, max,
the population standard deviation, cv, the count (0 where no run has a value) -- and the outlier: the
run farthest from the median, its modified z-score |x - med| / (1.4826
MAD), or / (1.2533 mean absolute deviation) when the MAD is 0; none
with fewer than three values or when all are equal.

  compare_v4_check.py COMPARE.json A.json B.json ...
  compare_v4_check.py --functions COMPARE.json A.json B.json ...

With --functions (`compare --match function --scope exclusive`): one row
per function under the root, and each run's exclusive value of each of
its ten heaviest functions (the answers' flat_functions) where the
generator lists it; a function a run lists is never absent there.
"""
import json
import math
import statistics
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from diff_v4_check import answers_paths, key, close  # noqa: E402


def truth_stats(vals):
    xs = [v for v in vals if v is not None]
    if not xs:
        return {"runs": 0}
    med = statistics.median(xs)
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    out = {"min": min(xs), "median": med, "mean": mean, "max": max(xs),
           "stddev": sd, "cv": sd / abs(mean) if mean else None,
           "runs": len(xs), "outlier run": None, "outlier z": None}
    dev = [abs(x - med) for x in xs]
    runs = [i + 1 for i, v in enumerate(vals) if v is not None]
    far = max(range(len(xs)), key=lambda i: (dev[i], -i))
    mad = statistics.median(dev)
    scale = 1.4826 * mad if mad > 0 else 1.2533 * (sum(dev) / len(dev))
    if len(xs) >= 3 and dev[far] > 0 and scale > 0:
        out["outlier run"] = runs[far]
        out["outlier z"] = dev[far] / scale
    return out


def main():
    doc = json.load(open(sys.argv[1]))
    truths = [answers_paths(a)[0] for a in sys.argv[2:]]
    n = len(truths)
    cols = doc["columns"]
    runcol = {c["run"]: i for i, c in enumerate(cols) if "run" in c}
    statcol = {c["statistic"]: i for i, c in enumerate(cols)
               if "statistic" in c}
    assert sorted(runcol) == list(range(1, n + 1)), runcol
    assert len(doc["runs"]) == n
    nodes = {x["id"]: x for x in doc["nodes"]}
    paths = {}
    for x in doc["nodes"]:
        p, m = [], x
        while m["parent"] is not None:
            p.append(key(m["kind"], m["name"], m["module"], m["file"],
                         m["line"]))
            m = nodes[m["parent"]]
        p = tuple(reversed(p))
        assert p not in paths, "path twice: %r" % (p,)
        paths[p] = x
    want = set().union(*[set(t) for t in truths])
    if set(paths) != want:
        raise SystemExit("paths differ: %r / %r" % (
            sorted(set(paths) - want)[:3], sorted(want - set(paths))[:3]))
    checked = outliers = 0
    for p, x in paths.items():
        vals = [t.get(p, {}).get("incl") for t in truths]
        absent = [i + 1 for i, v in enumerate(vals) if v is None]
        if x["absent"] != absent:
            raise SystemExit("%r: absent %r, want %r" % (p, x["absent"],
                                                         absent))
        for r, v in enumerate(vals, 1):
            got = x["values"][runcol[r]]
            if (got is None) != (v is None) or \
                    (v is not None and not close(got, v)):
                raise SystemExit("%r run %d: %r, want %r" % (p, r, got, v))
        ts = truth_stats(vals)
        for name, i in statcol.items():
            got = x["values"][i]
            w = ts.get(name)
            if (got is None) != (w is None) or \
                    (w is not None and not close(got, w)):
                raise SystemExit("%r %s: %r, want %r" % (p, name, got, w))
            checked += 1
        outliers += ts.get("outlier run") is not None
    print("compare: %d runs, %d paths, %d statistics (%d outliers) checked"
          % (n, len(paths), checked, outliers))


def functions():
    doc = json.load(open(sys.argv[2]))
    runs = [{f["name"]: f["exclusive"] for f in json.load(open(a))["flat_functions"]}
            for a in sys.argv[3:]]
    runcol = {c["run"]: i for i, c in enumerate(doc["columns"]) if "run" in c}
    assert all(c["kind"] == "exclusive" for c in doc["columns"]), "scope"
    seen, checked = set(), 0
    for x in doc["nodes"][1:]:
        assert x["parent"] == 0 and x["kind"] == "function", x
        assert x["name"] not in seen, "function twice: " + x["name"]
        seen.add(x["name"])
        for r, top in enumerate(runs, 1):
            if x["name"] in top:
                got = x["values"][runcol[r]]
                if got is None or not close(got, top[x["name"]]):
                    raise SystemExit("%s run %d: %r, want %r" %
                                     (x["name"], r, got, top[x["name"]]))
                checked += 1
    want = set().union(*[set(t) for t in runs])
    assert want <= seen, want - seen
    print("compare --match function: %d functions, %d values checked"
          % (len(seen), checked))


if __name__ == "__main__":
    if sys.argv[1] == "--functions":
        functions()
    else:
        main()
