#!/bin/sh
# The minimum and maximum metrics of Cube profiles (min_time, max_time,
# MINDOUBLE, MAXDOUBLE) in the bottom-up view's function rows, which stand
# for several call paths: the minimum (maximum) over those call paths of
# pycubexr's values (tests/check_cube_rows.py), not their sum.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -d "$shared/expected/cube" ] || { echo "no $shared: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
HOME=$tmp XDG_CACHE_HOME=$tmp/cache XDG_CONFIG_HOME=$tmp/config
export HOME XDG_CACHE_HOME XDG_CONFIG_HOME
d=cube/pycubexr/data
python3 "$top_srcdir/tests/check_cube_rows.py" "$cs" "$shared" \
	$d/blast.p64.r1/profile.cubex \
	$d/time.p4.n2000.x1.r0/profile.cubex \
	$d/call_tree_test/call_tree_test.cubex \
	$d/test_only_files/cube-values_example.cubex 2>"$tmp/err"
status=$?
grep -v 'is not shown$' "$tmp/err"
exit $status
