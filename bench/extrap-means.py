#!/usr/bin/env python3
"""Per-point means of an Extra-P text-format set, for bench/bench-fit (the
fitter alone, without callscope's readers).  Handles what
../shared/bench/extrap-bigset.py writes: PARAMETER, POINTS ( a b ), METRIC,
REGION, DATA lines in point order.
    extrap-means.py IN.txt OUT.means"""
import sys

params, points, series = [], [], []
metric, region, cur = "", None, None
with open(sys.argv[1]) as f:
    for line in f:
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "PARAMETER":
            params += w[1:]
        elif w[0] == "POINTS":
            nums = [float(t) for t in w[1:] if t not in "()"]
            points += [nums[i:i + len(params)] for i in range(0, len(nums), len(params))]
        elif w[0] == "METRIC":
            metric = " ".join(w[1:])
        elif w[0] == "REGION":
            cur = [f"{' '.join(w[1:])}/{metric}".replace(" ", "_"), []]
            series.append(cur)
        elif w[0] == "DATA":
            vals = [float(t) for t in w[1:]]
            s = 0.0
            for v in vals:  # numpy's pairwise sum is sequential below 8
                s += v
            cur[1].append(s / len(vals))
with open(sys.argv[2], "w") as o:
    o.write(f"{len(params)} {len(points)} {len(series)}\n{' '.join(params)}\n")
    for p in points:
        o.write(" ".join(repr(c) for c in p) + "\n")
    for label, vals in series:
        o.write(label + " " + " ".join(repr(v) for v in vals) + "\n")
