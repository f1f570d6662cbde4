#!/bin/sh
# Cube SCALE_FUNC metrics (issue #29) as the Cube GUI shows them: each
# value the ranking code 1000 b/c + d + a/1000 of the dominant term of the
# scaling function, the function of a call node, a location group or the
# synthetic root being the sum of its cells' (coefficients of equal
# (b, c, d) terms added).  tests/gen_cube.py --scale-func --scale-csv
# writes random functions and the codes computed apart from callscope
# (the metric stored exclusive, or inclusive: --scale-inclusive, whose
# exclusive functions callscope gets by subtracting the children's);
# tests/check_cube_scalefn.py compares the report's totals (JSON, CSV) and
# tests/cube-dump's per-location codes with them, for several seeds and
# byte orders, and with its own decoding of cube-values_example.cubex
# (the first cell 670.6687, the root 840.3433, the first cell's function
# text), and the threads pane (T: each location's code and function; its
# system tree's groups blank).  Flat rows and diff flat rows are blank; damaged cells (31
# terms, c = 0, 11 measurements) make report exit 2 with one line naming
# the file and the metric.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v "$py" >/dev/null || { echo "python3 missing"; exit 1; }
gc="$top_srcdir/tests/gen_cube.py"
check="$top_srcdir/tests/check_cube_scalefn.py"
dump="$top_builddir/tests/cube-dump"
seed=0
for opts in "" "--big-endian" "--cnodes 60 --locs 5 --zlib" \
	"--cnodes 1 --locs 1" "--locs 9 --dense" "--scale-inclusive" \
	"--scale-inclusive --big-endian --cnodes 50"; do
	seed=$((seed + 1))
	f="$tmp/s$seed.cubex"
	# shellcheck disable=SC2086
	"$py" "$gc" "$f" --seed $seed $opts --scale-func \
		--scale-csv "$tmp/s$seed.csv" || { fail "gen $opts"; continue; }
	"$py" "$check" "$cs" "$dump" "$f" scaling "$tmp/s$seed.csv" ||
		fail "codes of seed $seed $opts"
done
# flat rows stand for several call paths: no code
"$cs" report "$tmp/s3.cubex" --metric scaling --view flat --format csv \
	>"$tmp/flat.csv" || fail "report --view flat"
# (the CSV's values from field 9 on, from 10 in a diff: depth 6 before)
blank_rows() {
	awk -F, -v from="$2" 'NR > 1 && $(from - 6) >= 1 {
		rows++; for (i = from; i <= NF; i++) if ($i != "") bad++ }
		END { exit !(rows > 0 && !bad) }' "$1"
}
blank_rows "$tmp/flat.csv" 9 || fail "flat rows are not blank: $(sed -n 2,4p "$tmp/flat.csv")"
"$cs" diff "$tmp/s3.cubex" "$tmp/s3.cubex" --metric scaling --view flat \
	--format csv >"$tmp/diff.csv" || fail "diff --view flat"
blank_rows "$tmp/diff.csv" 10 || fail "diff flat rows are not blank: $(sed -n 2,4p "$tmp/diff.csv")"
# the corpus file: SCALE_FUNC3, decoded by the checker itself
ex="$corpus/cube/pycubexr/data/test_only_files/cube-values_example.cubex"
if [ -f "$ex" ]; then
	"$py" "$check" "$cs" "$dump" "$ex" SCALE_FUNC3 --decode \
		--text "0:E:0=2*x^(2/3)*log2(x)^4 + x^(1/2)*log2(x)^3" ||
		fail "cube-values_example SCALE_FUNC3"
	"$dump" "$ex" | grep -q "^L 0 SCALE_FUNC3 E 0 670.66866" ||
		fail "first cell is not 670.6687"
	"$cs" report "$ex" --metric SCALE_FUNC3 >"$tmp/ex.txt" 2>"$tmp/ex.err" ||
		fail "report cube-values_example"
	grep -q "^ *840.3433 *<program root>" "$tmp/ex.txt" ||
		fail "root is not 840.3433: $(head -3 "$tmp/ex.txt")"
	[ ! -s "$tmp/ex.err" ] || fail "warnings: $(cat "$tmp/ex.err")"
	# the threads pane (T) on main's exclusive codes: each location's
	# code and function; its system tree (O): groups without a value
	"$cs" --headless --size 120x30 --keys ':sort SCALE_FUNC3 (E)<Enter>jT' \
		"$ex" >"$tmp/t.txt" 2>&1 || fail "headless T"
	grep -q "^  670.6687  Process 0: Thread 0  2\*x^(2/3)\*log2(x)^4 + x^(1/2)\*log2(x)^3$" \
		"$tmp/t.txt" || fail "threads pane: $(cat "$tmp/t.txt")"
	grep -q "^ ranking codes, not summed; all contexts: 840.3383 = 5\*x^(5/6)" \
		"$tmp/t.txt" || fail "threads pane sums line: $(sed -n 5p "$tmp/t.txt")"
	"$cs" --headless --size 120x30 --keys ':sort SCALE_FUNC3 (E)<Enter>jTO' \
		"$ex" >"$tmp/o.txt" 2>&1 || fail "headless T O"
	grep -Eq "^ +[^0-9 ]+ Athena \(4\)$" "$tmp/o.txt" ||
		fail "system tree groups are not blank: $(cat "$tmp/o.txt")"
fi
# damaged cells: exit 2, one line naming the file and the metric
for kind in terms zero-c measurements; do
	f="$tmp/d-$kind.cubex"
	"$py" "$gc" "$f" --scale-func --scale-damage $kind ||
		{ fail "gen $kind"; continue; }
	timeout 20 "$cs" report "$f" --metric scaling >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "d-$kind.cubex.*metric scaling" "$tmp/err" ||
		fail "damaged $kind: exit $rc: $(head -c 300 "$tmp/err")"
done
[ $status -eq 0 ] && echo "cube SCALE_FUNC: codes, blanks and damaged cells OK"
exit $status
