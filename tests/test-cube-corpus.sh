#!/bin/sh
# Every Cube file of ../shared/corpus (68 .cubex) opens, and callscope's
# totals (report --format json --metric all) and per-location values
# (tests/cube-dump) equal ../shared/expected/cube within float tolerance,
# the documented differences counted (tests/check_cube_corpus.py).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
shared="$top_srcdir/../shared"
[ -d "$shared/expected/cube" ] || { echo "no $shared: skipped"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
exec /usr/bin/python3 "$top_srcdir/tests/check_cube_corpus.py" \
	"$top_builddir/callscope" "$top_builddir/tests/cube-dump" "$shared"
