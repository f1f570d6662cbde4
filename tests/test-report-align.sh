#!/bin/sh
# `callscope report` text output keeps its columns aligned when a value is
# wider than the column's default width (critique b9: 11-digit counts
# shifted every later column and the names by a character or two).  A
# generated Cube file (tests/gen_cube.py, 64 locations: byte counts of 11
# digits) is reported as text and as CSV; every text row must start its
# name where the header's "Name" starts, indented by its depth, and its
# cells must end where their titles end, holding the generator's own
# totals.
. "${top_srcdir:-.}/tests/test-lib.sh"
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
/usr/bin/python3 "$top_srcdir/tests/gen_cube.py" "$tmp/p.cubex" --seed 1 \
	--cnodes 3000 --locs 64 --answers "$tmp/answers.json" >/dev/null || exit 1
for f in text csv; do
	"$cs" report "$tmp/p.cubex" --metric bytes --metric visits --depth 3 \
		--format $f >"$tmp/out.$f" || exit 1
done
"$cs" hotpath "$tmp/p.cubex" --metric bytes >"$tmp/hot.txt" || exit 1
/usr/bin/python3 - "$tmp" <<'PY'
import csv, json, sys
tmp = sys.argv[1]
ans = json.load(open(tmp + "/answers.json"))
bad = []

def check(text, rows, what):
    lines = text.rstrip("\n").split("\n")
    head, body = lines[0], lines[1:]
    name_at = head.index("Name")
    cells = {}
    for t, col in (("bytes (I)", 0), ("bytes (E)", 1),
                   ("visits (I)", 2), ("visits (E)", 3)):
        if t in head:
            cells[t] = head.index(t) + len(t)
    if len(body) != len(rows):
        bad.append("%s: %d text rows, %d csv rows" % (what, len(body), len(rows)))
    wide = False
    for line, row in zip(body, rows):
        want = "  " * (int(row["depth"]) - int(rows[0]["depth"])) + row["name"]
        if line[name_at:] != want:
            bad.append("%s: %r: the name is not at column %d" % (what, line, name_at))
            continue
        a = ans.get(row["id"])
        if a is None:  # a row without a call node (the root)
            continue
        start = 0
        for t, end in sorted(cells.items(), key=lambda c: c[1]):
            metric, k = t.split(" ")[0], 0 if "(I)" in t else 1
            cell, first = line[start:end], start == 0
            start = end
            if (not first and cell[:1] != " ") or line[end:end + 2] != "  ":
                bad.append("%s: %r: %s is not within its column" % (what, line, t))
                continue
            tok = cell.split()
            if not tok:
                continue  # no value
            if int(tok[0]) != a[metric][k]:
                bad.append("%s: %r: %s is %s, the generator says %d" %
                           (what, line, t, tok[0], a[metric][k]))
            wide = wide or len(tok[0]) > 10
    if not wide:
        bad.append("%s: no value wider than 10 characters: not a test" % what)

rows = list(csv.DictReader(open(tmp + "/out.csv")))
check(open(tmp + "/out.text").read(), rows, "report")
for b in bad[:10]:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
status=$?
# hotpath's text rows line up too: every row's name starts under "Name"
awk 'NR == 1 { at = index($0, "Name"); next }
	{ s = substr($0, at); if (s !~ /^ *[^ ]/ || substr($0, at - 2, 2) != "  ") bad = 1 }
	END { exit bad }' "$tmp/hot.txt" || { echo "FAIL: hotpath text not aligned:"; cat "$tmp/hot.txt"; status=1; }
exit $status
