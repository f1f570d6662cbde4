#!/usr/bin/python3
"""An Extra-P experiment (.extra-p) in which some call paths are measured
at fewer points than the others: callscope must model what can be
modelled, as Extra-P does (it loads an experiment without validating it),
and warn about the short series it does not tag.

The experiment is written here from Extra-P's own output for the
Extra-Prof set extra_prof/test2 (../shared/expected/extra-p/
extra_prof__test2.json, v4.3.0-beta2): its 18 series measured at 1 to 4
of the 5 points and its first 40 complete ones, with their stored
aggregates; half of the short call paths carry the tag
validation__ignore__num_measurements in the "callpaths" map, as Extra-P
saves them.  Checked against that same file: every point's statistics
(`points --format json`) and every model (`model --format json`: the
constant, the coefficients, RSS, AR2, SMAPE, RE within 1e-6, the model
text) equal Extra-P's; one warning line on stderr counts the untagged
short series.

usage: check_extrap_short.py CALLSCOPE EXPECTED_DIR TMPDIR"""
import json
import math
import os
import re
import subprocess
import sys
import zipfile


def num(v):
    return float(v)


def close(a, b, rel):
    a, b = num(a), num(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-300


def main():
    cs, exp_dir, tmp = sys.argv[1:4]
    with open(os.path.join(exp_dir, "extra_prof__test2.json")) as f:
        exp = json.load(f)
    n_points = len(exp["coordinates"])
    short = [m for m in exp["measurements"] if len(m["points"]) < n_points]
    full = [m for m in exp["measurements"]
            if len(m["points"]) == n_points][:40]
    assert short and full
    short_cps = sorted({m["callpath"] for m in short})
    tagged = set(short_cps[::2])
    want_warned = sum(1 for m in short if m["callpath"] not in tagged)
    series = short + full
    doc = {"Extra-P": "4.3.0", "parameters": exp["parameters"],
           "measurements": {},
           "callpaths": {cp: {"tags": {
               "validation__ignore__num_measurements": True}}
               for cp in sorted(tagged)}}
    for m in series:
        doc["measurements"].setdefault(m["callpath"], {})[m["metric"]] = [
            {k: p[k] for k in ("coordinate", "mean", "median", "minimum",
                               "maximum", "std", "repetitions")}
            for p in m["points"]]
    path = os.path.join(tmp, "short.extra-p")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("experiment.json", json.dumps(doc))
    bad = []

    p = subprocess.run([cs, "points", "--format", "json", path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL points: exit %d: %s" % (p.returncode, p.stderr.strip()))
        return 1
    warn = [ln for ln in p.stderr.splitlines()
            if "fewer points" in ln]
    got_n = int(re.search(r"(\d+) series measured at fewer points",
                          warn[0]).group(1)) if len(warn) == 1 else None
    if got_n != want_warned:
        bad.append("warning: %r, want %d short series named" %
                   (p.stderr, want_warned))
    got = {(s["callpath"], s["metric"]): s for s in
           json.loads(p.stdout)["measurements"]}
    n_pts = 0
    for m in series:
        g = got.get((m["callpath"], m["metric"]))
        gp = {tuple(x["coordinate"]): x for x in g["points"]} if g else {}
        ep = {tuple(num(c) for c in x["coordinate"]): x for x in m["points"]}
        if set(gp) != set(ep):
            bad.append("%s %s: points %r, Extra-P %r" %
                       (m["callpath"], m["metric"], sorted(gp), sorted(ep)))
            continue
        for c, e in ep.items():
            n_pts += 1
            for k in ("mean", "median", "minimum", "maximum", "std"):
                if not close(gp[c][k], e[k], 1e-12):
                    bad.append("%s %s at %r: %s %r, Extra-P %r" %
                               (m["callpath"], m["metric"], c, k, gp[c][k],
                                e[k]))

    p = subprocess.run([cs, "model", "--format", "json", path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL model: exit %d: %s" % (p.returncode, p.stderr.strip()))
        return 1
    got = {(m["callpath"], m["metric"]): m
           for m in json.loads(p.stdout)["models"]}
    want = [s for s in exp["model_sets"]
            if s.get("generated_by_this_run")][0]["models"]
    keys = {(m["callpath"], m["metric"]) for m in series}
    n_models = exact = 0
    for w in want:
        k = (w["callpath"], w["metric"])
        if k not in keys:
            continue
        n_models += 1
        g = got.get(k)
        if g is None:
            bad.append("%s %s: no model" % k)
            continue
        fn = w["function"]
        ok = close(g["constant"], fn["constant"], 1e-6) and \
            len(g["terms"]) == len(fn["terms"]) and \
            all(close(a["coefficient"], b["coefficient"], 1e-6)
                for a, b in zip(g["terms"], fn["terms"])) and \
            all(close(g[x], w[x], 1e-6)
                for x in ("RSS", "AR2", "SMAPE", "RE"))
        if not ok:
            bad.append("%s %s: model %r, Extra-P %r" %
                       (k[0], k[1], g["model"], w["model"]))
        elif g["model"] == w["model"]:
            exact += 1
    if n_models != len(series):
        bad.append("%d models of Extra-P's for %d series" %
                   (n_models, len(series)))
    for b in bad[:10]:
        print("FAIL " + b)
    print("short series: %d (%d warned about), %d points, %d of %d models "
          "equal to Extra-P's (%d with the same text)" %
          (len(short), want_warned, n_pts, n_models - len(
              [b for b in bad if "model" in b]), n_models, exact))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
