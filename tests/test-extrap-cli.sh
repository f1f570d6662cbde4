#!/bin/sh
# `callscope points` end to end on small Extra-P text files written here:
# text and JSON output, --metric, several sets (a JSON array), usage
# errors (exit 1) and a broken set (exit 2, one line naming the line).
top_builddir=${top_builddir:-.}
cs="$top_builddir/callscope"
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() {
	echo "FAIL: $*"
	status=1
}
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
exit $status
