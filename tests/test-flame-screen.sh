#!/bin/sh
# The flame pane (x) in the headless viewer: its title names the column the
# tree is sorted by, its top box is the selection and its status line gives
# the box's value as `callscope report` computes it; the first row below
# the root starts with the child the report lists first; Enter zooms into
# the selected box and Backspace zooms back; o closes it and selects the
# box in the tree; Esc closes it; a column that does not add up (a mean) is
# refused with a message; hostile names reach the screen sanitized; the
# sandwich (y) counts the function's outermost instances and their value as
# the report's whole tree does; two
# compared runs give a differential flame graph (widths from the new run,
# boxes signed + or - by their delta, the root's delta on the bottom line
# as `callscope diff` computes it).
# (The layout itself is tests/test-flame.c.)
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
screen() { # KEYS DB
	"$cs" --headless --no-config --size 100x30 --keys "$1" "$2"
}
gen_db --seed 5 --contexts 200
"$cs" report "$tmp/db" --format json --depth 3 \
	--metric 'CPUTIME (sec) (I)' >"$tmp/r.json" || exit 1
# the root's value and the names down the first children, from the report
"$py" - "$tmp/r.json" >"$tmp/want" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
nodes = d['nodes']
print(nodes[0]['values'][0])
kids = {}
for n in nodes:
    kids.setdefault(n['parent'], []).append(n)
at = nodes[0]
for _ in range(3):
    k = kids[at['id']]
    at = k[0]
    print(at['name'])
PY
root=$(sed -n 1p "$tmp/want")
first=$(sed -n 2p "$tmp/want")
second=$(sed -n 3p "$tmp/want")

screen 'x' "$tmp/db" >"$tmp/s1" || fail "x: exit $?"
grep -q 'Flame graph of CPUTIME (sec) (I)  Enter zoom' "$tmp/s1" ||
	fail "x: no title: $(sed -n 3p "$tmp/s1")"
sed -n 4p "$tmp/s1" | grep -q '^ <program root>' || fail "x: root box: $(sed -n 4p "$tmp/s1")"
sed -n 5p "$tmp/s1" | grep -q "^ $first" || fail "x: first child '$first': $(sed -n 5p "$tmp/s1")"
# the status line: the root's value in seconds, 100% of the graph
shown=$(grep '% of the graph' "$tmp/s1" | sed 's/^ *\([0-9.]*\) s .*/\1/')
"$py" -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 0.0006 * b)" \
	"$shown" "$root" || fail "status value $shown, report $root"

screen 'xjj<Enter>' "$tmp/db" >"$tmp/s2"
grep -q 'Flame graph of CPUTIME (sec) (I), zoomed' "$tmp/s2" || fail "Enter: not zoomed"
sed -n 4p "$tmp/s2" | grep -q "^ $second" || fail "Enter: top box is not '$second': $(sed -n 4p "$tmp/s2")"
screen 'xjj<Enter><Backspace>' "$tmp/db" >"$tmp/s3"
grep -q 'zoomed' "$tmp/s3" && fail "Backspace: still zoomed"
sed -n 4p "$tmp/s3" | grep -q '^ <program root>' || fail "Backspace: root not back"
screen 'x<Esc>' "$tmp/db" >"$tmp/s4"
grep -q 'Flame graph' "$tmp/s4" && fail "Esc: the pane is still open"
screen 'xjjo' "$tmp/db" >"$tmp/s5"
grep -q 'Flame graph' "$tmp/s5" && fail "o: the pane is still open"
grep -q "^Name  $second" "$tmp/s5" || fail "o: the tree's selection is not '$second'"

"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/ns" --kernels 50 --ranks 1 \
	>/dev/null || exit 1
screen ':sort Duration (ns):Mean (E)<Enter>x' "$tmp/ns/rank0.sqlite" >"$tmp/s6"
grep -q 'flame: Duration (ns):Mean (E) does not add up' "$tmp/s6" ||
	fail "a mean: not refused: $(tail -1 "$tmp/s6")"

"$gen" -o "$tmp/h" --seed 4 --contexts 300 --hostile >/dev/null || exit 1
screen 'xjjj' "$tmp/h" >"$tmp/s7" || fail "hostile: exit $?"
if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/s7"; then
	fail "hostile: a control character on the screen"
fi

# search from the pane: the first matching box is selected (the bottom
# line names it), n goes on to the next one; the pane stays open
screen 'x/dot<Enter>' "$tmp/db" >"$tmp/s9"
grep -q 'Flame graph' "$tmp/s9" || fail "search: the pane closed"
grep '% of the graph' "$tmp/s9" | grep -q 'dot' ||
	fail "search: the selection is not a match: $(grep '% of the graph' "$tmp/s9")"
screen 'x/dot<Enter>n' "$tmp/db" >"$tmp/s10"
grep '% of the graph' "$tmp/s10" | grep -q 'dot' || fail "n: not a match"
grep "% of the graph" "$tmp/s9" >"$tmp/sel9"
grep "% of the graph" "$tmp/s10" >"$tmp/sel10"
cmp -s "$tmp/sel9" "$tmp/sel10" && fail "n: the same box"
screen 'x/nosuchname<Enter>n' "$tmp/db" >"$tmp/s11"
grep -q 'flame: no box drawn matches the search' "$tmp/s11" ||
	fail "n without a match: no message"

# the sandwich of linalg::dot (y): its outermost instances and their
# summed inclusive value, counted here from the report's whole tree; y
# again is the flame graph
"$cs" report "$tmp/db" --format json --metric 'CPUTIME (sec) (I)' >"$tmp/all.json" ||
	exit 1
screen 'x/linalg::dot<Enter>y' "$tmp/db" >"$tmp/s12"
grep -q 'Sandwich: callers above, callees below' "$tmp/s12" ||
	fail "y: no sandwich: $(sed -n 3p "$tmp/s12")"
"$py" - "$tmp/all.json" "$tmp/s12" <<'PY' || fail "sandwich: instances or value"
import json, re, sys
nodes = json.load(open(sys.argv[1]))['nodes']
by = {n['id']: n for n in nodes}
def inside(n):
    p = n['parent']
    while p is not None:
        if by[p]['name'] == 'linalg::dot' and by[p]['kind'] == 'function':
            return True
        p = by[p]['parent']
    return False
outer = [n for n in nodes if n['name'] == 'linalg::dot'
         and n['kind'] == 'function' and not inside(n)]
want = sum(n['values'][0] for n in outer)
line = [l for l in open(sys.argv[2]) if 'instance' in l][0]
m = re.search(r'([0-9.]+) (ms|s) in (\d+) instances?\s+linalg::dot', line)
got = float(m.group(1)) * (1e-3 if m.group(2) == 'ms' else 1)
sys.exit(int(m.group(3)) != len(outer) or abs(got - want) > 0.0006 * want)
PY
screen 'x/linalg::dot<Enter>yy' "$tmp/db" >"$tmp/s13"
grep -q 'Flame graph of' "$tmp/s13" || fail "y again: not the flame graph"

# compared runs: the new run's widths, signed boxes, the delta
"$gen" -o "$tmp/a" --seed 11 --contexts 200 --threads 2 --no-trace >/dev/null &&
	"$gen" -o "$tmp/b" --seed 11 --contexts 260 --threads 3 --no-trace >/dev/null ||
	exit 1
"$cs" --headless --no-config --size 100x30 --keys 'x' "$tmp/a" "$tmp/b" \
	--compare >"$tmp/s8" || fail "compare: exit $?"
grep -q 'Flame graph of CPUTIME (sec):new (I)' "$tmp/s8" ||
	fail "compare: not the new run's column: $(sed -n 3p "$tmp/s8")"
sed -n 4p "$tmp/s8" | grep -q '^ [+]<program root>' ||
	fail "compare: the root box is not signed +: $(sed -n 4p "$tmp/s8")"
"$cs" diff "$tmp/a" "$tmp/b" --format csv --depth 0 >"$tmp/d.csv" || exit 1
"$py" - "$tmp/d.csv" "$tmp/s8" <<'PY' || fail "compare: the delta on the bottom line"
import csv, re, sys
row = list(csv.DictReader(open(sys.argv[1])))[0]
want = float(row['CPUTIME (sec):delta (I)'])
line = [l for l in open(sys.argv[2]) if '% of the graph' in l][0]
m = re.search(r'delta \+([0-9.]+) (ms|s)', line)
got = float(m.group(1)) * (1e-3 if m.group(2) == 'ms' else 1)
sys.exit(abs(got - want) > 0.0006 * abs(want))
PY
exit $status
