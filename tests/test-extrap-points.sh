#!/bin/sh
# Extra-P measurement sets against Extra-P 4.2.5 itself: `callscope points
# --format json` on every corpus input of ../shared/expected/extra-p
# (inputs.tsv) whose reader callscope has, every point's statistics
# compared with Extra-P's (tests/check_extrap_points.py); the negative
# examples must exit 2 with one line.  Skipped (77) without ../shared, as
# in a tarball's build.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
shared="$top_srcdir/../shared"
command -v python3 >/dev/null || exit 77
[ -f "$shared/expected/extra-p/inputs.tsv" ] || {
	echo "no $shared/expected/extra-p: skipped"
	exit 77
}
exec python3 "$top_srcdir/tests/check_extrap_points.py" \
	"$top_builddir/callscope" "$shared"
