#!/bin/sh
# The source pane (o) on the demo database (gen-v4db --demo, which copies
# its sources into src/): each value beside a line reads as the tree and
# the batch report show the column (a time with its unit, "146.0 ms"), and
# equals the sum over the report's line contexts of that file and line
# (computed here from `report --format json`).  Main's pane printed the
# raw "%.2e" seconds ("1.46e-01") beside a tree reading "146.0 ms".
. "${top_srcdir:-.}/tests/test-lib.sh"
export LANG=C.UTF-8 TERM=xterm-256color
"$gen" --demo -o "$tmp/demo" >/dev/null || exit 1
"$cs" --headless --no-config --size 160x40 --keys Hko "$tmp/demo" \
	>"$tmp/screen" || fail "the viewer failed"
"$cs" report "$tmp/demo" --format json --depth 64 >"$tmp/report.json" ||
	fail "report failed"
$py - "$tmp/screen" "$tmp/report.json" <<'PY' || fail "see above"
import json, re, sys
screen = open(sys.argv[1]).read().split("\n")
rep = json.load(open(sys.argv[2]))
head = next((l for l in screen if "(values: " in l), None)
if head is None:
    sys.exit("no source pane:\n" + "\n".join(screen))
path = head.split()[0]
col = re.search(r"\(values: (.*?);", head).group(1)
ci = [c["name"] for c in rep["columns"]].index(col)
want = {}
for n in rep["nodes"]:
    f = n.get("file") or ""
    if n["kind"] == "line" and f and path.endswith(f) and \
       n["values"][ci] is not None:
        want[n["line"]] = want.get(n["line"], 0) + n["values"][ci]
UNIT = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
seen = 0
for l in screen:
    m = re.match(r"^ +(\d+) +(\S+(?: (?:s|ms|us|ns))?)  ", l)
    if not m or not re.match(r"[0-9]", m.group(2)):
        continue
    line, cell = int(m.group(1)), m.group(2)
    num, _, unit = cell.partition(" ")
    if not unit:
        sys.exit("line %d: %r has no unit:\n%s" % (line, cell, l))
    got = float(num) * UNIT[unit]
    half = 0.5 * 10 ** -len(num.partition(".")[2]) * UNIT[unit]
    if line not in want or abs(got - want[line]) > half * 1.001:
        sys.exit("line %d: screen %r, report %r" % (line, cell,
                                                     want.get(line)))
    seen += 1
if not seen:
    sys.exit("no line with a value:\n" + "\n".join(screen))
print("%d source lines checked" % seen)
PY
exit $status
