#!/bin/sh
# The viewer, headless: first frame, hot path, search, views, thread view,
# resize, help, derived columns, ASCII fallback (tests/ui_headless_check.py).
. "${top_srcdir:-.}/tests/test-lib.sh"
mkdir -p "$tmp/home" && export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
"$top_builddir/tests/gen-v4db" -o "$tmp/db" --answers "$tmp/answers.json" \
	--seed 11 --contexts 400 --threads 3 --ranks 2 --yaml >/dev/null || exit 1
export TERM=xterm-256color LANG=C.UTF-8
python3 "$top_srcdir/tests/ui_headless_check.py" "$top_builddir/callscope" \
	"$tmp/db" "$tmp/answers.json" || status=1

# the thread view names its 100%: the sum over threads, beside the summary
# the database stores; where they differ (hpcprof's lex_aware values at
# outer loops: --short-summary writes 3/4 of the thread sum) it says so
# instead of showing 100% of more than the Sum column (issue 19)
"$top_builddir/tests/gen-v4db" -o "$tmp/short" --seed 11 --contexts 400 \
	--threads 3 --ranks 2 --short-summary >/dev/null || exit 1
for db in db short; do
	"$top_builddir/callscope" --headless --no-config --size 120x40 \
		--keys ':threshold 0<Enter>HT' "$tmp/$db" >"$tmp/$db.screen" ||
		status=1
done
python3 - "$tmp" <<'PY' || status=1
import re, sys
tmp = sys.argv[1]
UNIT = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
V = r"(-?[0-9.,]+(?:e[+-]?[0-9]+)?(?: (?:ms|us|ns|s))?)"
def val(text):  # "4.000 ms" (a CPUTIME (sec) value) in seconds
    num, _, unit = text.partition(" ")
    return float(num.replace(",", "")) * UNIT.get(unit, 1)
def sums(db):
    s = open("%s/%s.screen" % (tmp, db)).read()
    m = re.search(r" thread sum " + V + r" \(100%\) (=|>|<|!=) stored "
                  r"summary " + V + r"(?: \(by [0-9.]+%\))?(: the "
                  r"database's summary is not the sum of these values)?$",
                  s, re.M)
    assert m, "%s: no thread sum line in\n%s" % (db, s)
    return val(m.group(1)), m.group(2), val(m.group(3)), m.group(4)
t, rel, summ, note = sums("db")
assert rel == "=" and t == summ and not note, (t, rel, summ, note)
t, rel, summ, note = sums("short")
assert rel == ">" and note and abs(summ - 0.75 * t) <= 0.01 * t, \
    (t, rel, summ, note)
PY
# an Extra-P set's thread pane lists the measurement points: their means
# are no decomposition of the column's value (the mean at the last point),
# so no "thread sum > stored summary" warning (review, parametric sets)
printf 'PARAMETER p\nPOINTS 1 2 4\nREGION main\nDATA 1 2\nDATA 3 4\nDATA 5 6\nREGION main->f\nDATA 1\nDATA 2\nDATA 10\n' >"$tmp/points.txt"
"$top_builddir/callscope" --headless --no-config --size 100x30 \
	--keys ':threshold 0<Enter>HT' "$tmp/points.txt" >"$tmp/points.screen" ||
	status=1
if grep -q 'stored summary' "$tmp/points.screen" ||
	! grep -q ' rows: the measurement points (each the mean of its repetitions)' "$tmp/points.screen" ||
	! grep -q ' 3 measurement points ' "$tmp/points.screen"; then
	echo "FAIL: the thread pane of an Extra-P set:"
	cat "$tmp/points.screen"
	status=1
fi
# T on a row with no value (the set's program root, blank in the tree):
# a message, not a list of points at 0 ("min 0 max 0", main)
"$top_builddir/callscope" --headless --no-config --size 100x30 --keys T \
	"$tmp/points.txt" >"$tmp/root.screen" || status=1
if ! tail -n 1 "$tmp/root.screen" | grep -qx 'threads: the selection has no value in this column (s sorts by another)' ||
	grep -q ' min 0 ' "$tmp/root.screen"; then
	echo "FAIL: T on the set's blank root:"
	cat "$tmp/root.screen"
	status=1
fi
# a set with no title: the title bar has no empty field between two gaps
# (main: "callscope    points.txt")
head -n 1 "$tmp/root.screen" | grep -q '^callscope  [^ ]*points.txt (extrap-text)' ||
	{ echo "FAIL: title: $(head -n 1 "$tmp/root.screen")"; status=1; }
# one execution context: "1 context", not "1 contexts" (main)
"$top_builddir/tests/gen-v4db" -o "$tmp/one" --seed 5 --contexts 30 \
	--threads 1 --ranks 1 >/dev/null || exit 1
"$top_builddir/callscope" --headless --no-config --size 100x30 --keys T \
	"$tmp/one" >"$tmp/one.screen" || status=1
grep -qE ' 1 (execution )?context by value ' "$tmp/one.screen" ||
	{ echo "FAIL: one context: $(sed -n 4p "$tmp/one.screen")"; status=1; }
exit $status
