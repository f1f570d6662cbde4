#!/bin/sh
# The column chooser (c) as the metric tree: a Cube file written by
# tests/gen_cube.py whose anchor is rewritten here to nest min_time and
# bytes under time lists time closed (as the Cube GUI does); Right opens
# it: its sub-metrics below it, indented, in model order (inclusive under
# inclusive, exclusive under exclusive), and time's column shows it less
# its sub-metrics (time/own) in its place; Left closes it again; Left on a
# sub-metric goes to its parent, Space still shows or hides.  The values
# are tests/test-cube-metric-tree.sh's.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v "$py" >/dev/null || { echo "python3 missing"; exit 1; }
"$py" "$top_srcdir/tests/gen_cube.py" "$tmp/flat.cubex" --cnodes 20 \
	--locs 4 >/dev/null || fail "gen_cube"
"$py" - "$tmp/flat.cubex" "$tmp/nested.cubex" <<'PY' || fail "nesting"
import io, re, sys, tarfile
src = tarfile.open(sys.argv[1])
out = tarfile.open(sys.argv[2], "w")
for m in src.getmembers():
    data = src.extractfile(m).read()
    if m.name == "anchor.xml":
        a = data.decode()
        # time's </metric> moves after bytes': min_time and bytes nest
        a, n = re.subn(r'(<uniq_name>time</uniq_name>.*?)</metric>\n'
                       r'(<metric id="2".*?</metric>\n<metric id="3".*?'
                       r'</metric>\n)', r'\1\n\2</metric>\n', a, flags=re.S)
        assert n == 1, "anchor layout changed"
        data = a.encode()
        m.size = len(data)
    out.addfile(m, io.BytesIO(data))
out.close()
PY
screen() {
	"$cs" --headless --size 100x20 --keys "$1" "$tmp/nested.cubex" \
		2>/dev/null | sed -n '4,13p'
}
# " [x] $N  title": the indentation before the mark or "[" is the level.
# A Cube metric with sub-metrics opens closed (the Cube GUI's metric tree):
# its stored values, which hold its sub-metrics'
want_closed=' [x] $1  visits (I)  (inclusive)
 [x] $2  visits (E)  (exclusive)
 ▸ [x] $3  time (I)  (inclusive)
 ▸ [x] $4  time (E)  (exclusive)'
got=$(screen c | sed 's/ *$//' | sed '/^$/d')
[ "$got" = "$want_closed" ] || fail "closed tree:
$got"
# Right on time (I) and on time (E): their sub-metrics below them, and
# time shown less its sub-metrics (time/own, the columns after the stored
# ones) in their place
open='cjj<Right>jjj<Right>'
want_open=' [x] $1  visits (I)  (inclusive)
 [x] $2  visits (E)  (exclusive)
 ▾ [x] $9  time/own (I)  (inclusive, less its sub-metrics)
   [x] $5  min_time (I)  (inclusive)
   [x] $7  bytes (I)  (inclusive)
 ▾ [x] $10  time/own (E)  (exclusive, less its sub-metrics)
   [x] $6  min_time (E)  (exclusive)
   [x] $8  bytes (E)  (exclusive)'
got=$(screen "$open" | sed 's/ *$//' | sed '/^$/d')
[ "$got" = "$want_open" ] || fail "open tree:
$got"
# Left on time (I): its sub-metrics leave, its stored column is back;
# Right brings them back
got=$(screen "${open}kkk<Left>" | sed 's/ *$//' | sed '/^$/d')
want=' [x] $1  visits (I)  (inclusive)
 [x] $2  visits (E)  (exclusive)
 ▸ [x] $3  time (I)  (inclusive)
 ▾ [x] $10  time/own (E)  (exclusive, less its sub-metrics)
   [x] $6  min_time (E)  (exclusive)
   [x] $8  bytes (E)  (exclusive)'
[ "$got" = "$want" ] || fail "closed time (I):
$got"
got=$(screen "${open}kkk<Left><Right>" | sed 's/ *$//' | sed '/^$/d')
[ "$got" = "$want_open" ] || fail "reopened:
$got"
# the chooser closed and opened again: time still open (its open form is
# the column shown)
got=$(screen "${open}<Esc>c" | sed 's/ *$//' | sed '/^$/d')
[ "$got" = "$want_open" ] || fail "chooser reopened:
$got"
# the tree's header names the open form where the stored column was
"$cs" --headless --size 100x20 --keys "cjj<Right><Esc>" "$tmp/nested.cubex" \
	2>/dev/null | sed -n 3p >"$tmp/head"
grep -q 'visits I *visits E *time/own I' "$tmp/head" ||
	fail "header after opening time (I): $(cat "$tmp/head")"
# Left on a sub-metric: to its parent, and Left there closes it
got=$(screen "${open}k<Left><Left>" | sed 's/ *$//' | sed '/^$/d' | sed -n 3p)
case $got in *'▸ [x] $3'*) ;; *) fail "Left Left from bytes (I): $got" ;; esac
# Space still hides a column; on an open metric, its open form
got=$(screen 'cjj<Right>j ' | sed -n 4p)
case $got in *'[ ] $5'*) ;; *) fail "Space on min_time (I): $got" ;; esac
got=$(screen 'cjj<Right> ' | sed -n 3p)
case $got in *'[ ] $9  time/own'*) ;; *) fail "Space on time (I): $got" ;; esac
exit $status
