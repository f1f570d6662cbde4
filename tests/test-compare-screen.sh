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
. "${top_srcdir:-.}/tests/test-lib.sh"
export XDG_CONFIG_HOME="$tmp/cfg" XDG_CACHE_HOME="$tmp/cache" NO_COLOR=1
cs="$bin/callscope"
fail() { echo "FAIL: $*"; exit 1; }
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

# the compare view against the batch diff
"$bin/tests/gen-v4db" -o "$tmp/c" --seed 11 --contexts 200 --threads 4 --no-trace >/dev/null
at() { size=$1; keys=$2; shift 2; "$cs" "$@" --headless --size "$size" --keys "$keys"; }
status_line() { tail -n 1 "$1"; }
name_line() { grep '^Name  ' "$1" | sed 's/^Name  //; s/^\[[+-]\] //'; }

# every number on the screen, the whole tree expanded
"$cs" diff "$tmp/a" "$tmp/b" --format csv >"$tmp/d.csv"
at 200x280 E "$tmp/a" "$tmp/b" --compare >"$tmp/all"
$py "$top/tests/compare_screen_check.py" "$tmp/d.csv" "$tmp/all"

# :compare PATH is --compare
at 120x30 ":compare $tmp/b<Enter>E" "$tmp/a" >"$tmp/s1"
at 120x30 E "$tmp/a" "$tmp/b" --compare >"$tmp/s2"
cmp -s "$tmp/s1" "$tmp/s2" || { diff "$tmp/s1" "$tmp/s2"; fail ":compare differs from --compare"; }
# without PATH it says what it does; a second time it replaces the new run
at 120x30 ":compare<Enter>" "$tmp/a" >"$tmp/s3"
status_line "$tmp/s3" | grep -q ':compare PATH compares this run (the base) with PATH' ||
	fail ":compare alone: $(status_line "$tmp/s3")"
at 160x30 ":compare<Enter>" "$tmp/a" "$tmp/b" --compare >"$tmp/s3"
status_line "$tmp/s3" | grep -qF ":compare PATH compares $tmp/a (the base) with PATH instead of $tmp/b" ||
	fail ":compare alone on a comparison: $(status_line "$tmp/s3")"
at 120x30 ":compare $tmp/c<Enter>E" "$tmp/a" "$tmp/b" --compare >"$tmp/s4"
at 120x30 E "$tmp/a" "$tmp/c" --compare >"$tmp/s5"
cmp -s "$tmp/s4" "$tmp/s5" || { diff "$tmp/s4" "$tmp/s5"; fail "a second :compare does not replace the first"; }
# which says what it replaced
at 200x30 ":compare $tmp/c<Enter>" "$tmp/a" "$tmp/b" --compare >"$tmp/s4"
status_line "$tmp/s4" | grep -qF "compared with $tmp/c instead of $tmp/b" ||
	fail "a second :compare says: $(status_line "$tmp/s4")"

# errors: one line, and the viewer goes on (j moves, the run stays)
at 120x30 '' "$tmp/a" >"$tmp/e0"
at 120x30 ":compare $tmp/nonexistent<Enter>" "$tmp/a" >"$tmp/e1"
status_line "$tmp/e1" | grep -q "^compare: .*nonexistent" || fail "unreadable run: $(status_line "$tmp/e1")"
head -n 1 "$tmp/e1" | grep -q '(diff)' && fail "the view changed after an error"
at 120x30 ":compare $tmp/nonexistent<Enter>j" "$tmp/a" >"$tmp/e2"
[ "$(name_line "$tmp/e0")" != "$(name_line "$tmp/e2")" ] || fail "j does not move after an error"
$py "$top/tests/gen_cube.py" "$tmp/x.cubex" --seed 3 >/dev/null
at 200x30 ":compare $tmp/x.cubex<Enter>" "$tmp/a" >"$tmp/e3"
status_line "$tmp/e3" | grep -q "^compare: .*share no metric" || fail "nothing matchable: $(status_line "$tmp/e3")"

# ^: the biggest regressions, computed here from the CSV
$py - "$tmp/d.csv" >"$tmp/want" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
col = [k for k in rows[0] if k.endswith(":delta (I)")][0]
d = lambda r: float(r[col]) if r[col] else 0.0
own = {r["id"]: d(r) for r in rows}
for r in rows:
    if r["parent"]:
        own[r["parent"]] -= d(r)
total = float(rows[0][col.replace("delta (I)", "base (I)")])
grew = sorted((r for r in rows if own[r["id"]] > 1e-12 * total),
              key=lambda r: (-own[r["id"]], int(r["id"])))
print(len(grew))
for r in grew[:3]:
    print(r["name"])
PY
n=$(sed -n 1p "$tmp/want")
for k in 1 2 3; do
	keys=$(printf '%*s' $k '' | tr ' ' '^')
	at 160x30 "$keys" "$tmp/a" "$tmp/b" --compare >"$tmp/r"
	want=$(sed -n "$((k + 1))p" "$tmp/want")
	[ "$(name_line "$tmp/r")" = "$want" ] || fail "^ x$k selects '$(name_line "$tmp/r")', want '$want'"
	status_line "$tmp/r" | grep -q "^regression $k of $n: +" || fail "^ x$k says: $(status_line "$tmp/r")"
done
# elsewhere the key starts from the biggest again
at 160x30 '^^j^' "$tmp/a" "$tmp/b" --compare >"$tmp/r"
[ "$(name_line "$tmp/r")" = "$(sed -n 2p "$tmp/want")" ] || fail "^ after a move is not the biggest"
at 120x30 '^' "$tmp/a" >"$tmp/r"
status_line "$tmp/r" | grep -q "no runs compared" || fail "^ on one run: $(status_line "$tmp/r")"

# s: delta% by its value, by |delta%|, base, new, delta, then |delta| again
at 120x30 '' "$tmp/a" "$tmp/b" --compare | sed -n 3p | grep -q '±delta I▼' || fail "not sorted by |delta| at start"
at 120x30 's' "$tmp/a" "$tmp/b" --compare | sed -n 3p | grep -q ' delta I .*▼' || fail "s does not leave |delta|"
at 120x30 'ssssss' "$tmp/a" "$tmp/b" --compare >"$tmp/s6"
sed -n 3p "$tmp/s6" | grep -q '±delta I▼' || fail "s does not come back to |delta|: $(sed -n 3p "$tmp/s6")"
status_line "$tmp/s6" | grep -q 'sorted by |' || fail "s says: $(status_line "$tmp/s6")"
# r: |delta| smallest first (still by magnitude)
at 120x30 'r' "$tmp/a" "$tmp/b" --compare | sed -n 3p | grep -q '±delta I▲' || fail "r leaves |delta|"
# the title names both runs at 80 columns (their last parts, not the
# start of the base's path: main showed "callscope  /tmp/…/runs-with-a-lo…")
mkdir -p "$tmp/runs-with-a-long-directory-name-to-cut"
ln -s "$tmp/a" "$tmp/runs-with-a-long-directory-name-to-cut/base-run.d"
ln -s "$tmp/b" "$tmp/runs-with-a-long-directory-name-to-cut/new-run.d"
long="$tmp/runs-with-a-long-directory-name-to-cut"
at 80x24 '' "$long/base-run.d" "$long/new-run.d" --compare | head -1 >"$tmp/t1"
at 80x24 ":compare $long/new-run.d<Enter>" "$long/base-run.d" | head -1 >"$tmp/t2"
for t in "$tmp/t1" "$tmp/t2"; do
	grep -q '/base-run.d -> .*/new-run.d ' "$t" ||
		fail "the title does not name both runs: $(cat "$t")"
done
echo "compare view: screen = CSV, :compare (same view, errors, replace), ^ x3 = truth, s cycle"
