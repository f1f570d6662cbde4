#!/bin/sh
# `callscope points` end to end on small Extra-P text files written here:
# text and JSON output, --metric, several sets (a JSON array), usage
# errors (exit 1) and a broken set (exit 2, one line naming the line).
# The text's repetition counts against two .extra-p files of the corpus
# (read here with zipfile): the counts the file stores (4.2), "-" for
# a file that stores none (4.0: it printed 0 before, issue 26).
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v python3 >/dev/null || exit 77
cat >"$tmp/a.txt" <<'T'
# two metrics, a nested callpath
PARAMETER p
POINTS 1 2 4
METRIC time
REGION main->solve
DATA 1 2 3
DATA 2 4
DATA 4 8 6 2
METRIC bytes
REGION main->solve
DATA 10
DATA 20
DATA 40
T
printf 'PARAMETER n\nPOINTS 8 16\nREGION r\nDATA 1\nDATA 2\n' >"$tmp/b.txt"
printf 'PARAMETER n\nPOINTS 8 16\nREGION r\nDATA 1\nDATA 2\nDATA 3\n' >"$tmp/bad.txt"
"$cs" points "$tmp/a.txt" >"$tmp/out" || fail "points text"
grep -q "^main->solve  \[time\]" "$tmp/out" || fail "text names the series"
"$cs" points --format json --metric time "$tmp/a.txt" >"$tmp/out" ||
	fail "points --metric"
python3 - "$tmp/out" <<'P' || fail "points --metric time JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["parameters"] == ["p"] and d["format"] == "extrap-text"
(s,) = d["measurements"]
assert s["callpath"] == "main->solve" and s["metric"] == "time"
p = {tuple(x["coordinate"]): x for x in s["points"]}
assert p[(4.0,)]["mean"] == 5.0 and p[(4.0,)]["median"] == 5.0
assert p[(2.0,)]["std"] == 1.0 and p[(1.0,)]["repetitions"] == 3
assert p[(4.0,)]["minimum"] == 2.0 and p[(4.0,)]["maximum"] == 8.0
P
"$cs" points --format json "$tmp/a.txt" "$tmp/b.txt" >"$tmp/out" ||
	fail "points two sets"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [x['parameters'] for x in d] == [['p'], ['n']]" "$tmp/out" ||
	fail "two sets give an array"
"$cs" points >/dev/null 2>&1
[ $? -eq 1 ] || fail "points without a set: exit 1"
"$cs" points --format csv "$tmp/a.txt" >/dev/null 2>&1
[ $? -eq 1 ] || fail "points --format csv: exit 1"
"$cs" points "$tmp/bad.txt" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "bad.txt: line 6: too many DATA lines" "$tmp/err" ||
	fail "broken set: exit $rc, $(cat "$tmp/err")"
# ---- repetitions: what the .extra-p file stores, "-" when nothing ------
data=${CALLSCOPE_CORPUS:-${top_srcdir:-.}/../shared/corpus}/extra-p/extrap/tests/data
for f in comparison/lulesh-cpu_demangled.extra-p \
	experiments/two_parameter3.txt.extra-p; do
	[ -f "$data/$f" ] || continue
	"$cs" points "$data/$f" >"$tmp/reps.txt" 2>/dev/null ||
		fail "points $f"
	python3 - "$data/$f" "$tmp/reps.txt" <<'P' || fail "points $f: reps"
import json, re, sys, zipfile
doc = json.loads(zipfile.ZipFile(sys.argv[1]).read("experiment.json"))
# the file's counts by (callpath, metric, coordinate text as printed)
want = {}
for cp, metrics in doc["measurements"].items():
    for metric, points in metrics.items():
        for pt in points:
            coord = " ".join("%s=%.10g" % (n, v) for n, v in
                             zip(doc["parameters"], pt["coordinate"]))
            want[(cp, metric, coord)] = pt.get("repetitions")
seen = 0
head = None
for line in open(sys.argv[2]):
    m = re.match(r"^(\S.*)  \[(.*)\]$", line.rstrip("\n"))
    if m:
        head = m.groups()
        continue
    f = line.split()
    if head is None or len(f) < 7 or f[0] == "mean":
        continue
    reps, coord = f[5], " ".join(f[6:])
    w = want[(head[0], head[1], coord)]
    expect = "-" if w is None else str(w)
    if reps != expect:
        sys.exit("%s [%s] %s: reps %s, the file says %r" %
                 (head[0], head[1], coord, reps, w))
    seen += 1
if seen != len(want):
    sys.exit("%d rows for %d measurements" % (seen, len(want)))
P
done
exit $status
