#!/bin/sh
# The threads pane's system tree (T, then O) on headless screens at 80x24
# and 200x50: every group and context row against sums (and maxima) computed
# apart by tests/check_system_tree.py from the database's own files: a
# generated HPCToolkit v4 database of 3 ranks x 4 threads on 2 nodes
# (NODE > RANK > THREAD) and Cube's blast.p64.r1 (64 ranks under a Blue
# Gene machine > rack > midplane > nodeboard > nodecard) and
# time.p4.n2000.x1.r0 (4 ranks on 4 nodes of a machine), pycubexr's incl.csv
# and the anchor's system tree, each group named as Cube names it, and
# tests/gen_cube.py's --system shapes (named: names holding a tab, CSI,
# markup, wide characters, a blank one, which must read sanitized); and
# z there: the call tree over the largest node, each row's CPUTIME (I) the
# sum over its profiles, ~ back to every context.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v "$py" >/dev/null || { echo "python3 missing"; exit 1; }
"$gen" -o "$tmp/v4" --ranks 3 --threads 4 --contexts 40 >/dev/null ||
	fail "gen-v4db"
"$py" "$top_srcdir/tests/check_system_tree.py" "$cs" v4 "$tmp/v4" ||
	fail "v4 system tree"
# generated: 2 machines of 2 nodes, plainly and hostilely named; Cube 3's
# element names (no classes); processes right under <system> (no node level)
for k in nodes named cube3 flat; do
	"$py" "$top_srcdir/tests/gen_cube.py" "$tmp/$k.cubex" --locs 14 \
		--system $k --incl-csv "$tmp/$k.csv" || fail "gen_cube $k"
	"$py" "$top_srcdir/tests/check_system_tree.py" "$cs" cube \
		"$tmp/$k.cubex" || fail "cube system tree: generated $k"
done
for d in blast.p64.r1 time.p4.n2000.x1.r0; do
	f="$corpus/cube/pycubexr/data/$d/profile.cubex"
	if [ -f "$f" ]; then
		"$py" "$top_srcdir/tests/check_system_tree.py" "$cs" cube "$f" ||
			fail "cube system tree: $d"
	else
		echo "no $f: Cube part skipped"
	fi
done
exit $status
