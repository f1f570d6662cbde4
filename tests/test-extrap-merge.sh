#!/bin/sh
# Cube sets whose call trees differ between points: Extra-P's merge of
# incomplete callpaths into their nearest ancestor, on Cube files written
# by tests/gen_cube.py, against answers computed by
# tests/check_extrap_merge.py from each file read alone.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v python3 >/dev/null || exit 77
python3 "$top_srcdir/tests/check_extrap_merge.py" "$top_builddir/callscope" \
	"$top_srcdir/tests/gen_cube.py" "$tmp"
