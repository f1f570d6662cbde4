#!/usr/bin/env python3
"""`callscope model --format json` end to end (readers + fitter) against
Extra-P 4.2.5's own models (../shared/expected/extra-p/ID.json, the set the
run generated).  For every input of INDEX.tsv that v4.2.5 modeled and whose
path is in the corpus (or the IDs given), runs callscope and compares each
(callpath, metric): the model text, the constant, the coefficients and RSS,
AR2, SMAPE, RE within 1e-6 relative.  Prints one line per input and
"N of M models match exactly, K within 1e-6, R rest"; exit 1 when any
model is missing or differs beyond 1e-6.  Model sets stored in a file
(.extra-p, Extra-P 3) are compared too (`model --stored N`: the text).
The Nsight and Extra-Prof sets, which only v4.3.0-beta2 reads, are
checked when their IDs are given: the set from the corpus (inputs.tsv), a single export (mode
dup-beta) as the two-point set the reference run used (the export at p=1
and p=2), and so a single Cube file of mode dup.
    check_extrap_model.py CALLSCOPE EXPECTED_DIR WORK_DIR [ID...]
WORK_DIR is where INDEX.tsv's relative paths (../shared/corpus/...) start."""
import gzip, json, math, os, shutil, subprocess, sys, tempfile

cs, exp_dir, work = sys.argv[1:4]
only = set(sys.argv[4:])


def num(v):
    if isinstance(v, str):
        return float(v)  # "nan", "inf", "-inf"
    return float(v)


def close(a, b):
    a, b = num(a), num(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b)) + 1e-300


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)


# the beta's Nsight and Extra-Prof inputs: ID -> (mode, corpus path)
beta = {}
with open(os.path.join(exp_dir, "inputs.tsv")) as f:
    for line in f:
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 4 and (cols[2] in ("nsight", "extra-prof") or
                               (cols[2], cols[1]) == ("cube", "dup")):
            rel = cols[3]
            pre = "extra-p/extrap/tests/data/"
            ident = (rel[len(pre):] if rel.startswith(pre) else rel)
            beta[ident.replace("/", "__")] = (cols[1], rel)
tmps = []


def beta_path(ident):
    mode, rel = beta[ident]
    path = os.path.abspath(os.path.join(work, "..", "shared", "corpus", rel))
    if mode not in ("dup-beta", "dup"):
        return path
    tmp = tempfile.mkdtemp()
    tmps.append(tmp)
    for k in (1, 2):
        os.mkdir(os.path.join(tmp, "set.p%d" % k))
        os.symlink(path, os.path.join(tmp, "set.p%d" % k,
                                      "profile" + os.path.splitext(path)[1]))
    return tmp


inputs = []
with open(os.path.join(exp_dir, "INDEX.tsv")) as f:
    next(f)
    for line in f:
        ident, version, status, n_models, cmd = line.rstrip("\n").split("\t")
        if status != "0" or n_models == "0":
            continue
        if only and ident not in only:
            continue
        if version != "v4.2.5":
            if ident in beta and ident in only:
                inputs.append((ident, beta_path(ident)))
            continue
        path = os.path.normpath(os.path.join(work, cmd.split()[-1]))
        if not os.path.exists(path) and ident in beta:
            path = beta_path(ident)  # a single Cube file read twice
        if not os.path.exists(path):
            continue  # synthetic sets made for Extra-P only
        inputs.append((ident, path))

tot = exact = near = rest = 0
for ident, path in inputs:
    jpath = os.path.join(exp_dir, ident + ".json")
    if not os.path.exists(jpath):
        jpath += ".gz"
    sets = load(jpath)["model_sets"]
    want = [s for s in sets if s.get("generated_by_this_run")][0]["models"]
    for st in sets:
        if st.get("generated_by_this_run"):
            continue
        r = subprocess.run([cs, "model", "--stored", str(st["index"]), "--format", "json", path],
                           capture_output=True, text=True)
        texts = {} if r.returncode else \
            {(m["callpath"], m["metric"]): m["model"] for m in json.loads(r.stdout)["models"]}
        bad = [m for m in st["models"] if texts.get((m["callpath"], m["metric"])) != m["model"]]
        print(f"{ident}: stored set {st['index']}: {len(st['models']) - len(bad)} of "
              f"{len(st['models'])} model texts equal")
        for m in bad[:5]:
            print(f"  REST {ident}: stored {m['callpath']} / {m['metric']}: want {m['model']}")
        tot += len(st["models"])
        exact += len(st["models"]) - len(bad)
        rest += len(bad)
    r = subprocess.run([cs, "model", "--format", "json", path], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"REST {ident}: callscope exit {r.returncode}: {r.stderr.strip()}")
        tot += len(want)
        rest += len(want)
        continue
    got = {}
    for m in json.loads(r.stdout)["models"]:
        got.setdefault((m["callpath"], m["metric"]), m)
    e = c = x = 0
    for w in want:
        g = got.get((w["callpath"], w["metric"]))
        if g is None:
            x += 1
            print(f"  REST {ident}: {w['callpath']} / {w['metric']}: missing")
            continue
        fn = w["function"]
        nums = close(g["constant"], fn["constant"]) and len(g["terms"]) == len(fn["terms"]) and \
            all(close(a["coefficient"], b["coefficient"]) for a, b in zip(g["terms"], fn["terms"])) and \
            all(close(g[k], w[k]) for k in ("RSS", "AR2", "SMAPE", "RE"))
        if nums and g["model"] == w["model"]:
            e += 1
        elif nums:
            c += 1
        else:
            x += 1
            print(f"  REST {ident}: {w['callpath']} / {w['metric']}:\n    want {w['model']}\n    got  {g['model']}")
    print(f"{ident}: {len(want)} models, {e} exact, {c} close, {x} rest")
    tot += len(want)
    exact += e
    near += c
    rest += x
print(f"{exact} of {tot} models match exactly, {near} within 1e-6, {rest} rest "
      f"({len(inputs)} inputs)")
for tmp in tmps:
    shutil.rmtree(tmp)
sys.exit(1 if rest else 0)
