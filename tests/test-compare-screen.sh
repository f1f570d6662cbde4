#!/bin/sh
# test-compare-screen: the viewer on two runs (`callscope BASE NEW
# --compare`), headless, without colour (NO_COLOR): the tree pane shows the
# merged tree with the base, new, delta and delta% columns, sorted by the
# delta (its header carries the sort mark); a new function is found by
# searching its marker "[+] " and has no base value, a gone one "[-] " no
# new value (the runs swapped); H (the hot path) follows the delta: the
# path it shows is the one the batch diff's JSON gives when each step takes
# the child with the largest inclusive delta (view_hotpath's rule, 50%).
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${top_builddir:-$top}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg" XDG_CACHE_HOME="$tmp/cache" NO_COLOR=1
cs="$bin/callscope"
"$bin/tests/gen-v4db" -o "$tmp/a" --seed 11 --contexts 200 --threads 2 --no-trace >/dev/null
"$bin/tests/gen-v4db" -o "$tmp/b" --seed 11 --contexts 260 --threads 3 --no-trace >/dev/null
scr() { "$cs" "$1" "$2" --compare --headless --size 120x30 --keys "$3"; }
scr "$tmp/a" "$tmp/b" '' >"$tmp/s0"
head -3 "$tmp/s0" | grep -q 'base I.*new I.*delta I▼' ||
	{ echo "FAIL: columns or sort"; head -3 "$tmp/s0"; exit 1; }
for dir in "a b +" "b a -"; do
	set -- $dir
	scr "$tmp/$1" "$tmp/$2" "/^\\[\\$3\\] <Enter>" >"$tmp/s1"
	grep -q "^Name  \[$3\] " "$tmp/s1" || { echo "FAIL: no [$3] row found"; cat "$tmp/s1"; exit 1; }
	# the selected row: its base (new) column is blank
	row=$(grep "\[$3\] " "$tmp/s1" | grep -v '^Name\|^Path' | head -1)
	case $3 in
	+) blank=$(printf '%s' "$row" | cut -c1-9) ;;
	-) blank=$(printf '%s' "$row" | cut -c11-19) ;;
	esac
	[ -z "$(printf '%s' "$blank" | tr -d ' ')" ] ||
		{ echo "FAIL: a [$3] row with a value in the other run: $row"; exit 1; }
done
scr "$tmp/a" "$tmp/b" 'H' >"$tmp/s2"
"$cs" diff "$tmp/a" "$tmp/b" --format json >"$tmp/d.json"
/usr/bin/python3 - "$tmp/d.json" "$tmp/s2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
delta = [i for i, c in enumerate(d["columns"])
         if c.get("role") == "delta" and c["kind"] == "inclusive"][0]
kids = {}
for n in d["nodes"]:
    kids.setdefault(n["parent"], []).append(n)
val = lambda n: n["values"][delta] if n["values"][delta] is not None else 0
node = [n for n in d["nodes"] if n["parent"] is None][0]
path = []
while kids.get(node["id"]):
    best = max(kids[node["id"]], key=val)
    if val(best) < 0.5 * val(node):
        break
    node = best
    path.append(node["name"])
screen = open(sys.argv[2]).read().splitlines()
name = [l for l in screen if l.startswith("Name  ")][0][6:].strip()
assert name == path[-1], (name, path)
print("hot path over the delta: %d levels, ends at %s" % (len(path), name))
PY
echo "compare screen: columns, sort, [+]/[-] markers, H over the delta"
