#!/bin/sh
# Damaged Extra-P inputs (truncations, overwritten bytes, huge counts in
# an Extra-P 3 file), made mechanically from corpus seeds by
# tests/check_extrap_hostile.py: exit 2 with one line or a valid read,
# never a crash or a hang.  Skipped (77) without ../shared.
. "${top_srcdir:-.}/tests/test-lib.sh"
data="$top_srcdir/../shared/corpus/extra-p/extrap/tests/data"
need_corpus "$data"
python3 "$top_srcdir/tests/check_extrap_hostile.py" \
	"$top_builddir/callscope" "$data" "$tmp"
