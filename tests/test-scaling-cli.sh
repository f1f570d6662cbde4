#!/bin/sh
# `callscope model` end to end on inputs the fitter must survive (review
# findings 1, 3, 4, 5): sets of 8 parameters (modeled) and of 9 and 20
# (refused by model and report --at with one line, exit 2); coordinates
# that make design matrices non-finite (negative, 1e300, inf: nothing on
# stderr, a model); measured NaN values (a warning naming the call path);
# and the JSON numbers, which are the model text's doubles exactly.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v python3 >/dev/null || exit 77

# ---- 8, 9, 20 parameters (JSON Lines: no parameter limit in the reader)
for np in 8 9 20; do
	python3 - "$np" "$tmp/p$np.jsonl" <<'P'
import json, sys
n = int(sys.argv[1]); names = ["p%d" % i for i in range(n)]
pts = [[2] * n]
for p in range(n):
    for v in (4, 8, 16, 32):
        c = [2] * n; c[p] = v; pts.append(c)
with open(sys.argv[2], "w") as f:
    for c in pts:
        y = 1 + sum((i + 1) * x for i, x in enumerate(c))
        f.write(json.dumps({"params": dict(zip(names, c)),
                            "callpath": "main->work", "metric": "time",
                            "value": y}) + "\n")
P
	at=$(python3 -c "print(','.join('p%d=3' % i for i in range($np)))")
	"$cs" model "$tmp/p$np.jsonl" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	"$cs" report "$tmp/p$np.jsonl" --at "$at" >/dev/null 2>"$tmp/err2"
	rc2=$?
	if [ "$np" -le 8 ]; then
		[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] &&
			grep -q " \* p7^(1)$" "$tmp/out" ||
			fail "$np parameters: exit $rc, $(cat "$tmp/err")"
		[ $rc2 -eq 0 ] && [ ! -s "$tmp/err2" ] ||
			fail "report --at, $np parameters: exit $rc2"
	else
		[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
			grep -q "$np parameters (at most 8" "$tmp/err" ||
			fail "$np parameters: exit $rc, $(cat "$tmp/err")"
		[ $rc2 -eq 2 ] && [ "$(wc -l <"$tmp/err2")" -eq 1 ] &&
			grep -q "$np parameters (at most 8" "$tmp/err2" ||
			fail "report --at, $np parameters: exit $rc2, $(cat "$tmp/err2")"
	fi
done

# ---- non-finite design matrices: nothing from LAPACK on stderr
for x in -4 1e300 inf; do
	printf 'PARAMETER p\nPOINTS 2 4 8 16 32 %s\nREGION r\nDATA 5\nDATA 9\nDATA 17\nDATA 33\nDATA 65\nDATA 100\n' \
		"$x" >"$tmp/x.txt"
	"$cs" model "$tmp/x.txt" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "Model: " "$tmp/out" ||
		fail "coordinate $x: exit $rc, $(head -c 300 "$tmp/err")"
done

# ---- measured NaN values: left out, with a warning naming the call path
cat >"$tmp/nan.txt" <<'T'
PARAMETER p
POINTS 2 4 8 16 32 64
METRIC time
REGION main->solve
DATA 5
DATA 9
DATA nan
DATA 33
DATA 65
DATA 129
REGION main->io
DATA nan
DATA nan
DATA nan
DATA nan
DATA nan
DATA nan
T
"$cs" model --format json "$tmp/nan.txt" >"$tmp/out" 2>"$tmp/err" ||
	fail "NaN values: exit $?"
grep -q "^callscope model: warning: .*nan.txt: main->solve \[time\]: 1 of 6 measured values are NaN, left out of the model$" \
	"$tmp/err" || fail "no warning for main->solve: $(cat "$tmp/err")"
grep -q "main->io \[time\]: all 6 measured values are NaN, the model is NaN$" \
	"$tmp/err" || fail "no warning for main->io: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'P' || fail "NaN values: models"
import json, sys
m = {x["callpath"]: x for x in json.load(open(sys.argv[1]))["models"]}
s = m["main->solve"]
assert abs(s["terms"][0]["coefficient"] - 2) < 1e-9, s
assert m["main->io"]["constant"] == "nan", m["main->io"]
P

# ---- the JSON numbers are the doubles of the model text (17 digits in
# the JSON, the shortest repr in the text: json.loads gives the same double)
data=$top_srcdir/../shared/corpus/extra-p/extrap/tests/data
for f in "$data"/text/*.txt "$data"/jsonlines/*.jsonl; do
	[ -e "$f" ] || continue
	"$cs" model --format json "$f" >"$tmp/out" 2>/dev/null || continue
	python3 - "$tmp/out" <<'P' || fail "JSON numbers of $f"
import json, sys
n = 0
for m in json.load(open(sys.argv[1]))["models"]:
    nums = [m["constant"]] + [t["coefficient"] for t in m["terms"]]
    for v in nums:
        if isinstance(v, float) and v not in (0.0, 1.0, -1.0):
            assert repr(v) in m["model"], (v, m["model"])
            n += 1
print("JSON numbers round-trip:", n, sys.argv[1])
P
done
exit $status
