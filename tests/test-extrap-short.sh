#!/bin/sh
# An .extra-p experiment whose call paths are measured at fewer points
# than the others (series of Extra-P's own output for extra_prof/test2):
# read, every point and every model equal to Extra-P's, one warning
# counting the short series that are not tagged
# validation__ignore__num_measurements (tests/check_extrap_short.py), on
# stderr in batch and on the viewer's message line.
# Skipped (77) without ../shared/expected, as in a tarball's build.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
exp=$top_srcdir/../shared/expected/extra-p
command -v python3 >/dev/null || exit 77
[ -f "$exp/extra_prof__test2.json" ] || { echo "no $exp: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
python3 "$top_srcdir/tests/check_extrap_short.py" \
	"$top_builddir/callscope" "$exp" "$tmp" || exit 1
# the viewer says it on its message line
XDG_CONFIG_HOME=$tmp XDG_CACHE_HOME=$tmp "$top_builddir/callscope" \
	--headless --size 120x14 --keys '' "$tmp/short.extra-p" \
	>"$tmp/screen" 2>/dev/null || exit 1
grep -q "8 series measured at fewer points than the 5 of the set" \
	"$tmp/screen" || { echo "FAIL: no warning on the screen"; exit 1; }
echo "the viewer's message line names the short series"
