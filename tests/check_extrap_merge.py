#!/usr/bin/python3
"""Extra-P's unification of a Cube set's call trees, against answers
computed here: two Cube files written by tests/gen_cube.py with the same
seed, the second with more call nodes (its extra callpaths exist at one
point only), are read as the set DIR/s.p1, DIR/s.p2; each file alone is
also read as a two-point set (the same file at both points), which gives
its unmerged statistics.  The merge is done here as Extra-P's
cube_file_reader2.py does it (incomplete (callpath, metric) pairs in the
order first measured, each into its nearest remaining ancestor: mean,
median, minimum, maximum added, std the root of the summed squares) and
compared with callscope's set.

usage: check_extrap_merge.py CALLSCOPE GEN_CUBE TMPDIR"""
import json
import math
import os
import subprocess
import sys


def points(cs, path):
    p = subprocess.run([cs, "points", "--format", "json", path],
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def close(a, b):
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def main():
    cs, gen, tmp = sys.argv[1:4]
    files = {}
    for name, cnodes in (("small", 5), ("big", 9)):
        f = os.path.join(tmp, name + ".cubex")
        subprocess.run([sys.executable, gen, f, "--seed", "7", "--cnodes",
                        str(cnodes), "--locs", "3"], check=True,
                       stdout=subprocess.DEVNULL)
        files[name] = f
    for d, a, b in (("set", "small", "big"), ("small_dup", "small", "small"),
                    ("big_dup", "big", "big")):
        for k, f in ((1, a), (2, b)):
            os.makedirs(os.path.join(tmp, d, "s.p%d" % k))
            os.symlink(files[f], os.path.join(tmp, d, "s.p%d" % k, "f.cubex"))
    small = points(cs, os.path.join(tmp, "small_dup"))
    big = points(cs, os.path.join(tmp, "big_dup"))
    got = points(cs, os.path.join(tmp, "set"))
    # measurements per point: p1 from the small file, p2 from the big one
    meas = {}
    order = []
    for pt, doc in ((1.0, small), (2.0, big)):
        for s in doc["measurements"]:
            k = (s["callpath"], s["metric"])
            if k not in meas:
                meas[k] = {}
                order.append(k)
            meas[k][pt] = dict(s["points"][0])
    # Extra-P's order: point by point, then metric, then call node; the
    # dup sets list callpath-major, so order by (first point, metric
    # order, callpath order in the file)
    metrics = [s["metric"] for s in big["measurements"]]
    metric_rank = {m: i for i, m in enumerate(dict.fromkeys(metrics))}
    cp_rank = {s["callpath"]: i for i, s in
               enumerate(big["measurements"])}
    first = {k: min(v) for k, v in meas.items()}
    order.sort(key=lambda k: (first[k], metric_rank[k[1]], cp_rank[k[0]]))
    for k in [k for k in order if len(meas[k]) < 2]:
        cp, metric = k
        up = cp
        while True:
            if "->" not in up:
                up = None
                break
            up = up.rsplit("->", 1)[0]
            if (up, metric) in meas:
                break
        if up is not None:
            target = meas[(up, metric)]
            for pt, m in meas[k].items():
                if pt in target:
                    t = target[pt]
                    for s in ("mean", "median", "minimum", "maximum"):
                        t[s] += m[s]
                    t["std"] = math.sqrt(t["std"] ** 2 + m["std"] ** 2)
                else:
                    target[pt] = m
        del meas[k]
    want = {k: v for k, v in meas.items()}
    have = {(s["callpath"], s["metric"]): {p["coordinate"][0]: p
                                           for p in s["points"]}
            for s in got["measurements"]}
    bad = 0
    merged = sum(1 for k in order if k not in want)
    if set(want) != set(have):
        print("FAIL: series %r != %r" % (sorted(have), sorted(want)))
        return 1
    for k, pts in want.items():
        for pt, m in pts.items():
            for s in ("mean", "median", "minimum", "maximum", "std"):
                if not close(float(m[s]), float(have[k][pt][s])):
                    bad += 1
                    print("FAIL %r at %g: %s %r != %r" %
                          (k, pt, s, have[k][pt][s], m[s]))
    print("%d series, %d incomplete pairs merged, %d mismatches" %
          (len(want), merged, bad))
    return 1 if bad or merged == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
