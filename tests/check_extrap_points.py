#!/usr/bin/python3
"""Compare `callscope points --format json` with Extra-P 4.2.5's own
measurements (../shared/expected/extra-p/ID.json, see its README) on every
corpus input of inputs.tsv whose reader callscope supports; for the Nsight
sets (reader nsight, modes beta and dup-beta) v4.3.0-beta2's, a single
export read as the two-point set set.p1, set.p2 of it, as the reference
run read it; the Extra-Prof sets (reader extra-prof, mode beta) against
v4.3.0-beta2's too, the only Extra-P that reads them.

usage: check_extrap_points.py CALLSCOPE SHARED_DIR [READER...]

READER: the inputs.tsv reader column values to check (default: all that
callscope supports).  For each input: a positive one (some INDEX.tsv row
exits 0 and ID.json exists) must open and every (callpath, metric) series
must have the same points with the same statistics (relative 1e-12, NaN
equal to NaN; repetitions exact where the file stores them); a negative one
(every INDEX.tsv row exits != 0) must exit 2 with exactly one line on
stderr.  Prints a line per input and the totals; exits 1 on any
mismatch."""
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

SUPPORTED = ["text", "talpas", "json", "cube", "experiment", "extra-p-3",
             "nsight", "extra-prof"]
STATS = ["mean", "median", "minimum", "maximum", "std"]
# Inputs where callscope's Cube reader reads the file differently from
# pycubexr on purpose (doc/cube.md, "Where callscope and pycubexr
# disagree"): reported, counted apart, not failures.
KNOWN = {
    "cube__pycubexr__data__hw_counter__L2_DCM_negative.cubex":
        "unsigned exclusive values below zero and UINT64 values above "
        "2^64 - 1024: pycubexr clamps / zeroes them, callscope does not",
    "cube__pycubexr__data__hw_counter__L3_DCA_negative.cubex":
        "unsigned exclusive values below zero and UINT64 values above "
        "2^64 - 1024: pycubexr clamps / zeroes them, callscope does not",
    "cube__pycubexr__data__test_only_files__cube-values_example.cubex":
        "Extra-P 4.2.5 cannot read the structured metric dtypes; "
        "callscope's Cube reader can",
}


def num(v):
    if isinstance(v, str):
        return float(v)
    return float(v)


def close(a, b):
    a, b = num(a), num(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if a == b:
        return True
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def key_of(coord):
    return tuple(num(c) for c in coord)


def series_map(doc):
    out = {}
    for s in doc["measurements"]:
        out[(s["callpath"], s["metric"])] = {
            key_of(p["coordinate"]): p for p in s["points"]}
    return out


def compare_point(exp, got, stored):
    for k in STATS:
        if not close(exp[k], got[k]):
            return "%s %r != %r" % (k, got[k], exp[k])
    er, gr = exp.get("repetitions"), got.get("repetitions")
    if not stored and er is not None and int(er) != int(gr):
        return "repetitions %r != %r" % (gr, er)
    return None


def compare_models(exp, got):
    """The stored model sets (.extra-p, Extra-P 3) against Extra-P's
    model_sets read from the file (all but the one it generated): the
    constant, each term's coefficient (times its factors' coefficients),
    each factor's parameter and exponents, and the fit numbers the file
    stores.  Returns (models compared, problems)."""
    sets = [s for s in exp.get("model_sets", [])
            if not s.get("generated_by_this_run")]
    ours = got.get("stored_model_sets", [])
    bad = []
    n = 0
    if len(sets) != len(ours):
        return 0, ["%d stored model sets, Extra-P has %d" %
                   (len(ours), len(sets))]
    for es, gs in zip(sets, ours):
        gm = {(m["callpath"], m["metric"]): m for m in gs["models"]}
        for em in es["models"]:
            k = (em["callpath"], em["metric"])
            m = gm.get(k)
            n += 1
            if m is None:
                bad.append("set %r %r: no stored model" % (es["name"], k))
                continue
            f = em["function"]
            why = None
            if not close(f["constant"], m["constant"]):
                why = "constant %r != %r" % (m["constant"], f["constant"])
            elif len(f["terms"]) != len(m["terms"]):
                why = "%d terms, Extra-P %d" % (len(m["terms"]),
                                                len(f["terms"]))
            else:
                for et, gt in zip(f["terms"], m["terms"]):
                    c = num(et["coefficient"])
                    for ef in et["factors"]:
                        c *= num(ef["factor_coefficient"])
                    if not close(c, gt["coefficient"]):
                        why = "coefficient %r != %r" % (gt["coefficient"], c)
                        break
                    if len(et["factors"]) != len(gt["factors"]):
                        why = "factors differ"
                        break
                    # callscope keeps factors in parameter order; an
                    # Extra-P 3 file may list them otherwise
                    efs = sorted(et["factors"],
                                 key=lambda f: f["parameter_index"])
                    for ef, gf in zip(efs, gt["factors"]):
                        pe = le = 0.0
                        for st in ef["simple_terms"]:
                            if st["type"] == "polynomial":
                                pe = num(st["exponent_float"])
                            else:
                                le = num(st["exponent_float"])
                        if (ef["parameter_index"] != gf["parameter_index"]
                                or not close(pe, gf["exponent"])
                                or not close(le, gf["log_exponent"])):
                            why = "factor %r != %r" % (gf, ef)
                            break
                    if why:
                        break
            for key in ("RSS", "rRSS", "SMAPE", "RE", "AR2"):
                if why is None and not math.isnan(num(m[key])) and \
                        not close(em[key], m[key]):
                    why = "%s %r != %r" % (key, m[key], em[key])
            if why:
                bad.append("set %r %r: %s" % (es["name"], k, why))
    return n, bad


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cs, shared = sys.argv[1], sys.argv[2]
    readers = sys.argv[3:] or SUPPORTED
    exp_dir = os.path.join(shared, "expected", "extra-p")
    corpus = os.path.join(shared, "corpus")
    status = {}
    with open(os.path.join(exp_dir, "INDEX.tsv")) as f:
        for line in f.read().splitlines()[1:]:
            cols = line.split("\t")
            status.setdefault(cols[0], []).append(int(cols[2]))
    inputs = []
    skipped = {}
    with open(os.path.join(exp_dir, "inputs.tsv")) as f:
        for line in f.read().splitlines():
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            mode, reader, path = cols[1], cols[2], cols[3]
            if mode == "dup" and reader == "cube" and "cube" in readers:
                mode = "auto"
                path = "dup:" + path
            # Nsight sets: Extra-P's reference ran the v4.3.0-beta2 reader
            # (the only one); a single export was read as a two-point set
            if reader in ("nsight", "extra-prof") and mode == "beta":
                mode = "auto"
            if reader == "nsight" and mode == "dup-beta":
                mode = "auto"
                path = "dup:" + path
            if mode != "auto" or reader not in readers:
                skipped[(mode, reader)] = skipped.get((mode, reader), 0) + 1
                continue
            rel = path
            for pre in ("extra-p/extrap/tests/data/", ""):
                if path.startswith(pre):
                    rel = path[len(pre):]
                    break
            if path.startswith("dup:"):
                rel = path[4:]
                for pre in ("extra-p/extrap/tests/data/", ""):
                    if rel.startswith(pre):
                        rel = rel[len(pre):]
                        break
                path = "dup:" + os.path.join(corpus, path[4:])
            else:
                path = os.path.join(corpus, path)
            inputs.append((reader, path, rel.replace("/", "__")))
    totals = {"series": 0, "match": 0, "inputs": 0, "inputs_ok": 0,
              "negative": 0, "negative_ok": 0, "models": 0,
              "models_all": 0, "known": 0}
    failed = False
    for reader, path, ident in inputs:
        rows = status.get(ident, [])
        exp_json = os.path.join(exp_dir, ident + ".json")
        if not os.path.exists(exp_json) and os.path.exists(exp_json + ".gz"):
            exp_json += ".gz"
        positive = any(r == 0 for r in rows) and os.path.exists(exp_json)
        tmp = None
        if path.startswith("dup:"):
            # mode dup: one Cube file read as a two-point set, the same
            # file at p=1 and p=2 (as Extra-P's reference run did)
            tmp = tempfile.mkdtemp()
            ext = os.path.splitext(path)[1]
            for k in (1, 2):
                os.mkdir(os.path.join(tmp, "set.p%d" % k))
                os.symlink(os.path.abspath(path[4:]),
                           os.path.join(tmp, "set.p%d" % k, "profile" + ext))
            path = tmp
        p = subprocess.run([cs, "points", "--format", "json", path],
                           capture_output=True, text=True)
        if tmp:
            subprocess.run(["rm", "-rf", tmp])
        if not positive:
            totals["negative"] += 1
            lines = p.stderr.splitlines()
            if ident in KNOWN:
                totals["known"] += 1
                print("known negative %s: exit %d (%s)" %
                      (ident, p.returncode, KNOWN[ident]))
            elif p.returncode == 2 and len(lines) == 1:
                totals["negative_ok"] += 1
                print("ok   negative %s: %s" % (ident, lines[0]))
            else:
                failed = True
                print("FAIL negative %s: exit %d, stderr %r" %
                      (ident, p.returncode, p.stderr[:300]))
            continue
        totals["inputs"] += 1
        if p.returncode != 0:
            failed = True
            print("FAIL %s: exit %d: %s" % (ident, p.returncode,
                                           p.stderr.strip()[:300]))
            continue
        got = json.loads(p.stdout)
        with (gzip.open(exp_json, "rt") if exp_json.endswith(".gz")
              else open(exp_json)) as f:
            exp = json.load(f)
        stored = reader in ("experiment", "extra-p-3")
        es, gs = series_map(exp), series_map(got)
        bad = []
        if exp["parameters"] != got["parameters"]:
            bad.append("parameters %r != %r" % (got["parameters"],
                                                exp["parameters"]))
        n_match = 0
        for k, epts in es.items():
            gpts = gs.get(k)
            if gpts is None:
                bad.append("%r: missing" % (k,))
                continue
            if set(epts) != set(gpts):
                bad.append("%r: points %r != %r" %
                           (k, sorted(gpts), sorted(epts)))
                continue
            why = None
            for c, ep in epts.items():
                why = compare_point(ep, gpts[c], stored)
                if why:
                    why = "%r at %r: %s" % (k, c, why)
                    break
            if why:
                bad.append(why)
            else:
                n_match += 1
        for k in gs:
            if k not in es:
                bad.append("%r: not in Extra-P's output" % (k,))
        if stored:
            n_models, mbad = compare_models(exp, got)
            totals["models"] += n_models - len(mbad)
            totals["models_all"] += n_models
            bad += mbad
        totals["series"] += len(es)
        totals["match"] += n_match
        if bad and ident in KNOWN:
            totals["known"] += 1
            print("known %s: %d of %d series match (%s); first: %s"
                  % (ident, n_match, len(es), KNOWN[ident], bad[0]))
        elif bad:
            failed = True
            print("FAIL %s: %d of %d series match; %d problems, first: %s"
                  % (ident, n_match, len(es), len(bad), "; ".join(bad[:3])))
        else:
            totals["inputs_ok"] += 1
            print("ok   %s: %d of %d series match" %
                  (ident, n_match, len(es)))
    print("inputs: %d of %d match; series: %d of %d match; negative "
          "inputs refused with one line: %d of %d" %
          (totals["inputs_ok"], totals["inputs"], totals["match"],
           totals["series"], totals["negative_ok"], totals["negative"]))
    if totals["known"]:
        print("known differences (not failures): %d inputs" %
              totals["known"])
    if totals["models_all"]:
        print("stored models: %d of %d match" % (totals["models"],
                                                  totals["models_all"]))
    for (mode, reader), n in sorted(skipped.items()):
        print("skipped: %d inputs of mode %s, reader %s" % (n, mode, reader))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
