#!/bin/sh
# Derived (CubePL) metrics: tests/gen_cube_derived.py writes small .cubex
# files whose derived metrics cover every kind (PREDERIVED_EXCLUSIVE,
# PREDERIVED_INCLUSIVE, POSTDERIVED) and the language real files use, with
# the values computed apart in Python; tests/check_cube_derived.py compares
# callscope's totals (report), flat and bottom-up rows (a POSTDERIVED
# metric's: its expression over the row's call paths) and per-location
# values (tests/cube-dump).
# Then the hostile kinds: each file opens, the bad metric is blank with a
# one-line warning (or, when it loops only on data, exit 2 with one line),
# and the other metrics are still right; "aggr": CubeLib's unquoted
# <cubeplaggr cubeplaggrtype=...> and <cubepl rowwise=false> open, the own
# aggregation applied; "own-aggr": each kind of own aggregation on both
# prederived kinds and POSTDERIVED aggr, values against the generator's:
# totals, per-location values, the threads pane, flat and bottom-up rows
# (call paths folded by aggr) and the system-first focus (z: locations
# folded by aggr); aggr-*: own aggregations that cannot run.  Last, Score-P's own CubePL
# (remapping.spec of the corpus file time.p4: 105 derived metrics) on that
# profile (tests/check_cube_remap.py), when ../shared is there.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
HOME=$tmp XDG_CACHE_HOME=$tmp/cache XDG_CONFIG_HOME=$tmp/config
export HOME XDG_CACHE_HOME XDG_CONFIG_HOME
check() {
	/usr/bin/python3 "$top_srcdir/tests/check_cube_derived.py" \
		"$top_builddir/callscope" "$top_builddir/tests/cube-dump" \
		"$top_srcdir/tests/gen_cube_derived.py" "$tmp" "$@"
}
status=0
check || status=1
check syntax unknown-func deep chain unary loop self regex \
	regex-backtrack string reserved empty index comment runtime runtime-ref \
	datadep aggr own-aggr aggr-syntax aggr-word aggr-loop aggr-datadep ||
	status=1
if [ -d "$top_srcdir/../shared/expected/cube" ]; then
	/usr/bin/python3 "$top_srcdir/tests/check_cube_remap.py" \
		"$top_builddir/callscope" "$top_srcdir/../shared" "$tmp" ||
		status=1
else
	echo "no ../shared: remapping.spec check skipped"
fi
exit $status
