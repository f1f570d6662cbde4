#!/bin/sh
# test-compare: `callscope compare RUN...` and `check` with several runs
# per side, on gen-v4db databases, against truths computed outside
# callscope: tests/compare_v4_check.py recomputes the union, every run's
# value and every statistic and outlier from the generator's answers
# files, and with --match function each run's heaviest functions; runs whose values follow a known law (gen-v4db --scale with
# 3 + 2 p log2(p), repetitions at 1.1x and 0.9x so that their mean is
# the law) must give back that law from `compare --model`, with the
# parameters from Extra-P's directory names and from --param; check's
# exit codes on planted regressions (every value x1.3, the ranges
# apart), on identical sides, and on a 10% change whose ranges overlap.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${top_builddir:-$top}
. "${top_srcdir:-.}/tests/test-lib.sh"
fail() { echo "FAIL: $*"; exit 1; }

# four runs with shared and private subtrees
for i in 1 2 3 4; do gen_run s$i --seed 11 --contexts $((150 + i * 30)) --threads $i; done
"$cs" compare "$tmp/s1" "$tmp/s2" "$tmp/s3" "$tmp/s4" --metric 'CPUTIME (sec)' --format json >"$tmp/c.json"
$py "$top/tests/compare_v4_check.py" "$tmp/c.json" "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json" "$tmp/s4.json"
"$cs" compare "$tmp/s1" "$tmp/s2" "$tmp/s3" --match function --scope exclusive --metric 'CPUTIME (sec)' --format json >"$tmp/f.json"
$py "$top/tests/compare_v4_check.py" --functions "$tmp/f.json" "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json"
# text and CSV carry the same rows; the header names every run
"$cs" compare "$tmp/s1" "$tmp/s2" "$tmp/s3" --metric 'CPUTIME (sec)' >"$tmp/c.txt"
grep -q "^  run 3 .*hpctoolkit-v4" "$tmp/c.txt" || fail "no run table: $(head -5 "$tmp/c.txt")"
"$cs" compare "$tmp/s1" "$tmp/s2" "$tmp/s3" --metric 'CPUTIME (sec)' --format csv >"$tmp/c.csv"
head -1 "$tmp/c.csv" | grep -q '^runs,.*run 1.*median.*outlier z' || fail "CSV header: $(head -1 "$tmp/c.csv")"
[ "$(grep -c '^[0-9]/3' "$tmp/c.txt")" = "$(($(wc -l <"$tmp/c.csv") - 1))" ] || fail "text and CSV rows differ"
rc=0; "$cs" compare "$tmp/s1" "$tmp/nonexistent" >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "an unreadable run exits $rc"
rc=0; "$cs" compare "$tmp/s1" --param p=1 >/dev/null 2>&1 || rc=$?
[ $rc = 1 ] || fail "a --param with no run after it exits $rc"

# a known law: 3 + 2 p log2(p), three repetitions per point
mkdir "$tmp/law" "$tmp/named"
args=""
for p in 2 4 8 16 32; do
	for r in 1 2 3; do
		f=$($py -c "import math; p=$p; print(repr((3 + 2*p*math.log2(p)) * [1, 1.1, 0.9][$r - 1]))")
		"$bin/tests/gen-v4db" -o "$tmp/law/app.p$p.r$r" --seed 7 --contexts 60 --threads 2 --no-trace --scale "$f" >/dev/null
		ln -s "$tmp/law/app.p$p.r$r" "$tmp/named/run-$p-$r"
		args="$args --param p=$p $tmp/named/run-$p-$r"
	done
done
gen_run ref --seed 7 --contexts 60 --threads 2
"$cs" compare "$tmp"/law/app.p*.r? --metric 'CPUTIME (sec)' --model --format json >"$tmp/m1.json"
"$cs" compare $args --metric 'CPUTIME (sec)' --model --format json >"$tmp/m2.json"
for m in m1 m2; do
$py - "$tmp/$m.json" "$tmp/ref.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ref = json.load(open(sys.argv[2]))
# the reference run (scale 1): the value of "main thread"
main = [c for c in ref["contexts"].values()
        if c["lexical"] == "entry" and c["name"] == "main thread"]
v = main[0]["summary"]["CPUTIME (sec)|execution|$$|sum"]
assert d["parameters"] == ["p"], d["parameters"]
n = 0
for mo in d["models"]:
    c, t = mo["constant"], mo["terms"]
    assert len(t) == 1, mo["model"]
    f = t[0]["factors"]
    assert len(f) == 1 and f[0]["exponent"] == 1 and f[0]["log_exponent"] == 1, mo["model"]
    assert abs(c / t[0]["coefficient"] - 1.5) < 1e-9, mo["model"]
    if mo["callpath"] == "main thread":
        assert abs(c - 3 * v) < 1e-9 * v and abs(t[0]["coefficient"] - 2 * v) < 1e-9 * v, (mo["model"], v)
        n += 1
    n += 1
assert n > 2, "no models"
print("model: %d call paths follow 3 + 2 p log2(p) (main thread: %g)" % (n - 1, v))
PY
done
ln -s "$tmp/s1" "$tmp/alpha"; ln -s "$tmp/s2" "$tmp/beta"
rc=0; "$cs" compare "$tmp/alpha" "$tmp/beta" --model >/dev/null 2>"$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q "no parameters" "$tmp/err" || fail "--model without parameters: $rc $(cat "$tmp/err")"

# check with several runs per side
for s in 1.0 1.02 0.98 1.3 1.32 1.28 0.8 1.2 1.1 0.9 1.25; do
	"$bin/tests/gen-v4db" -o "$tmp/k$s" --seed 5 --contexts 120 --threads 2 --no-trace --scale $s >/dev/null
done
gen_run kref --seed 5 --contexts 120 --threads 2
B="$tmp/k1.0 $tmp/k1.02 $tmp/k0.98"
rc=0; "$cs" check $B -- $B >"$tmp/out" || rc=$?
[ $rc = 0 ] && grep -q '^OK: 0 of' "$tmp/out" || fail "identical sides exit $rc: $(cat "$tmp/out")"
rc=0; "$cs" check --base $B --new "$tmp/k1.3" "$tmp/k1.32" "$tmp/k1.28" --format json >"$tmp/k.json" || rc=$?
[ $rc = 1 ] || fail "planted regression exits $rc"
$py - "$tmp/k.json" "$top/tests" "$tmp/kref.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
from diff_v4_check import answers_paths
d = json.load(open(sys.argv[1]))
paths, total = answers_paths(sys.argv[3])
# every value x1.28..x1.32 against x0.98..x1.02: each path above 1% of
# the base total (its median, the scale-1 run's) regressed
want = sorted(round(v["incl"], 9) for p, v in paths.items()
              if v["incl"] and v["incl"] * 1.3 / total * 100 >= 1)
got = sorted(round(r["base"], 9) for r in d["regressions"])
assert d["result"] == "regressed" and got == want, (got[:5], want[:5])
for r in d["regressions"]:
    b = r["base"]
    assert abs(r["base_min"] - 0.98 * b) < 1e-9 * b and abs(r["base_max"] - 1.02 * b) < 1e-9 * b, r
    assert abs(r["new"] - 1.3 * b) < 1e-9 * b and abs(r["new_min"] - 1.28 * b) < 1e-9 * b, r
assert d["base_runs"] == 3 and d["new_runs"] == 3
print("check: %d planted regressions, ranges as planted" % len(got))
PY
# medians 10% apart but the ranges overlap: no change counted
rc=0; "$cs" check "$tmp/k1.0" "$tmp/k0.8" "$tmp/k1.2" -- "$tmp/k1.1" "$tmp/k0.9" "$tmp/k1.25" >"$tmp/out" || rc=$?
[ $rc = 0 ] || fail "overlapping ranges exit $rc: $(head -3 "$tmp/out")"
# the same gate with one run per side does see the 10%
rc=0; "$cs" check "$tmp/k1.0" "$tmp/k1.1" >/dev/null || rc=$?
[ $rc = 1 ] || fail "one run per side, +10%, exits $rc"
rc=0; "$cs" check $B -- "$tmp/nonexistent" >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "an unreadable run exits $rc"
n=$($py -c "import json,sys; print(len(json.load(open(sys.argv[1]))['regressions']))" "$tmp/k.json")
"$cs" check --base $B --new "$tmp/k1.3" "$tmp/k1.32" "$tmp/k1.28" --format markdown >"$tmp/k.md" || true
[ "$(grep -c '^| +' "$tmp/k.md")" = "$n" ] || fail "markdown rows: $(grep -c '^| +' "$tmp/k.md") of $n"
"$cs" check --base $B --new "$tmp/k1.3" "$tmp/k1.32" "$tmp/k1.28" --format junit >"$tmp/k.xml" || true
grep -q "failures=\"$n\"" "$tmp/k.xml" || fail "junit: $(head -3 "$tmp/k.xml")"
echo "test-compare: ok"
