#!/bin/sh
# The viewer's :export (headless), csv and json: the row writer of
# `callscope report`, so the same columns (id, parent, depth, kind, name,
# file, line, module, then the shown columns) and the same JSON document
# (format, view, columns with names, nodes); derived columns are written
# with their values, checked against the generator's own per-context sums
# (tests/gen-v4db --answers), never against the viewer's output.  Before
# present/, derived columns exported empty and the JSON had no column
# names (review-2026-11b, "the export bug").
. "${top_srcdir:-.}/tests/test-lib.sh"
mkdir -p "$tmp/home" && export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
	XDG_CACHE_HOME="$tmp/home/.cache"
"$top_builddir/tests/gen-v4db" -o "$tmp/db" --answers "$tmp/answers.json" \
	--seed 3 --contexts 60 --metrics 2 >/dev/null || exit 1
keys=':derive twice = 2 * $1<Enter>:derive ratio = $3 / $1<Enter>'
keys="$keys:depth 50<Enter>:export csv $tmp/e.csv<Enter>:export json $tmp/e.json<Enter>"
"$cs" --headless --no-config --size 100x30 --keys "$keys" "$tmp/db" \
	>"$tmp/screen" 2>"$tmp/err" || { echo "FAIL: viewer: $(cat "$tmp/err")"; exit 1; }
grep -q "exported [0-9]* rows to $tmp/e.json" "$tmp/screen" ||
	{ echo "FAIL: no export message:"; cat "$tmp/screen"; exit 1; }
"$cs" report "$tmp/db" --format csv >"$tmp/report.csv" || exit 1
/usr/bin/python3 - "$tmp" <<'PY'
import csv, json, math, sys
tmp = sys.argv[1]
ans = json.load(open(tmp + "/answers.json"))
INC = "CPUTIME (sec)|execution|$$|sum"
CYC = "cycles|execution|$$|sum"

def sums(i):
    s = ans["global"] if i == 0 else ans["contexts"][str(i)]["summary"]
    if INC not in s and CYC in s:
        return 0.0, s[CYC]
    if CYC not in s and INC in s:
        return s[INC], 0.0
    return s.get(INC), s.get(CYC)

def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))

bad = []
rows = list(csv.reader(open(tmp + "/e.csv")))
report = list(csv.reader(open(tmp + "/report.csv")))
head = rows[0]
# the report's columns, then the derived ones
if head[:len(report[0])] != report[0] or head[len(report[0]):] != ["twice", "ratio"]:
    bad.append("csv header %r, report's %r" % (head, report[0]))
ti, ri = head.index("twice"), head.index("ratio")
seen = 0
for r in rows[1:]:
    inc, cyc = sums(int(r[0]))
    if inc is None:  # no value at all: the derived cells are empty too
        if r[ti] != "" or r[ri] != "":
            bad.append("csv row %s has no values but %r %r" % (r[0], r[ti], r[ri]))
        continue
    seen += 1
    if r[ti] == "" or not close(float(r[ti]), 2 * inc):
        bad.append("csv row %s: twice %r, want %r" % (r[0], r[ti], 2 * inc))
    want = cyc / inc if inc else 0.0  # division by zero gives 0
    if r[ri] == "" or not close(float(r[ri]), want):
        bad.append("csv row %s: ratio %r, want %r" % (r[0], r[ri], want))
if seen < 20:
    bad.append("only %d rows exported (expanded to depth 50)" % seen)
# every exported row is the report's row, value for value
rep = {r[0]: r for r in report[1:]}
for r in rows[1:]:
    if rep.get(r[0]) != r[:len(report[0])]:
        bad.append("csv row %s differs from the report's %r" % (r, rep.get(r[0])))
        break

doc = json.load(open(tmp + "/e.json"))
names = [c["name"] for c in doc["columns"]]
if names[-2:] != ["twice", "ratio"] or doc["columns"][-1].get("formula") != '$"%s" / $"%s"' % (names[2], names[0]):
    bad.append("json columns %r" % doc["columns"][-2:])
if doc["view"] != "top-down" or doc["format"] != "hpctoolkit-v4":
    bad.append("json envelope %r %r" % (doc["view"], doc["format"]))
if len(doc["nodes"]) != len(rows) - 1:
    bad.append("json has %d nodes, csv %d rows" % (len(doc["nodes"]), len(rows) - 1))
for n in doc["nodes"]:
    inc, cyc = sums(n["id"])
    if inc is None:
        if n["values"][-2:] != [None, None]:
            bad.append("json node %s has no values but %r" % (n["id"], n["values"]))
        continue
    v = n["values"]
    if v[-2] is None or not close(v[-2], 2 * inc):
        bad.append("json node %d: twice %r, want %r" % (n["id"], v[-2], 2 * inc))
    if v[-1] is None or not close(v[-1], cyc / inc if inc else 0.0):
        bad.append("json node %d: ratio %r" % (n["id"], v[-1]))
for b in bad[:10]:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
