#!/bin/sh
# Extra-P sets of OTF2 runs: tests/gen_otf2.py --extrap writes runs
# app.pP.rR (p = 2 .. 32, three repetitions at 1.0, 1.1 and 0.9 times the
# law) whose call main->solve lasts (3 + 2 p log2 p) us and main 1 us more;
# `callscope compare --model` must fit back exactly those laws (time,
# inclusive: solve 3e-6 + 2e-6 p log2 p, main 4e-6 + 2e-6 p log2 p) with
# the parameters from Extra-P's directory names and from --param, and plain
# `compare` must give each run's time as written.  Skipped (77) without
# python3-otf2.
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${top_builddir:-$top}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-otf2-extrap.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg" XDG_CACHE_HOME="$tmp/cache"
py=/usr/bin/python3
cs="$bin/callscope"
fail() { echo "FAIL: $*"; exit 1; }
$py "$top/tests/gen_otf2.py" --extrap "$tmp/set" || exit $?
"$cs" compare "$tmp"/set/app.p*.r? --metric time --model --format json \
	>"$tmp/m1.json" || fail "compare --model (directory names)"
args=""
i=0
for d in "$tmp"/set/app.p*.r?; do
	i=$((i + 1))
	p=$(basename "$d" | sed 's/app\.p\([0-9]*\)\..*/\1/')
	ln -s "$d" "$tmp/run$i"
	args="$args --param p=$p $tmp/run$i"
done
# shellcheck disable=SC2086 # $args is words on purpose
"$cs" compare $args --metric time --model --format json >"$tmp/m2.json" ||
	fail "compare --model --param"
for m in m1 m2; do
	$py - "$tmp/$m.json" <<'PY' || fail "$m: the laws"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["parameters"] == ["p"], d["parameters"]
want = {"main": 4e-6, "main->solve": 3e-6}
got = {}
for mo in d["models"]:
    t = mo["terms"]
    assert len(t) == 1, mo["model"]
    f = t[0]["factors"]
    assert len(f) == 1 and f[0]["exponent"] == 1 and \
        f[0]["log_exponent"] == 1, mo["model"]
    assert abs(t[0]["coefficient"] - 2e-6) < 1e-15, mo["model"]
    got[mo["callpath"]] = mo["constant"]
assert set(got) == set(want), got
for k, v in want.items():
    assert abs(got[k] - v) < 1e-15, (k, got[k], v)
print("%s: main and main->solve fitted to their laws" % sys.argv[1])
PY
done
"$cs" compare "$tmp"/set/app.p*.r? --metric time --format json \
	>"$tmp/c.json" || fail "compare"
$py - "$tmp/c.json" <<'PY' || fail "per-run values"
import json, re, sys
d = json.load(open(sys.argv[1]))
runs = {r["run"]: r["path"] for r in d["runs"]}
n = 0
def walk(node, path):
    global n
    name = path + [node.get("name", "")]
    if name[-1] == "solve":
        for col, v in zip(d["columns"], node["values"]):
            if "run" not in col or v is None:
                continue
            m = re.search(r"app\.p(\d+)\.r(\d)", runs[col["run"]])
            p, r = int(m.group(1)), int(m.group(2))
            law = 3 + 2 * p * (p.bit_length() - 1)
            want = law * 1e-6 * {1: 1.0, 2: 1.1, 3: 0.9}[r]
            assert abs(v - want) < 1e-12, (runs[col["run"]], v, want)
            n += 1
    for k in node.get("children", []):
        walk(k, name)
for root in d["nodes"] if isinstance(d.get("nodes"), list) else [d["tree"]]:
    walk(root, [])
assert n == 15, n
print("compare: solve's time in each of the 15 runs as written")
PY
