#!/bin/sh
# The screen tells the truth about Extra-P models (issue 26): headless at
# 80x24, 120x40 and 200x50, every model cell and value@point cell of the
# tree, the detail line and the plot's legend against `callscope model
# --format json` evaluated independently (tests/check_extrap_screen.py:
# the screen's precision, the growing term first and whole at 80
# columns); `!` names the worst call path after any key; the models start
# on the time metric; the plot's y labels apart; a Cube set's columns
# exclusive, as Extra-P reads them.  Skipped (77) without ../shared.
. "${top_srcdir:-.}/tests/test-lib.sh"
data=${CALLSCOPE_CORPUS:-$shared/corpus}/extra-p/extrap/tests/data
expected=${CALLSCOPE_EXPECTED:-$shared/expected}/extra-p
command -v python3 >/dev/null || exit 77
[ -f "$data/comparison/lulesh-cpu_demangled.extra-p" ] &&
	[ -f "$expected/cubeset__multi_parameter.json" ] || {
	echo "no Extra-P corpus: skipped"
	exit 77
}
"$top_builddir/callscope" formats 2>/dev/null | grep -q extrap-cubeset || {
	echo "no Extra-P readers in the program: skipped"
	exit 77
}
export XDG_CONFIG_HOME="$tmp" XDG_CACHE_HOME="$tmp" HOME="$tmp"
exec python3 "$top_srcdir/tests/check_extrap_screen.py" \
	"$top_builddir/callscope" "$data" "$expected"
