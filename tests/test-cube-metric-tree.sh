#!/bin/sh
# Cube's metric tree with the Cube GUI's semantics: tests/gen_cube.py
# --metric-tree writes a file whose metrics nest (time > execution > mpi >
# comm, execution > io (derived, CubePL), time > overhead; bytes >
# bytes_sent; MAXDOUBLE max_time > max_mpi;
# MINDOUBLE min_time > min_mpi; stored INCLUSIVE and EXCLUSIVE) and, apart
# from callscope, the value of each call node, metric, call-tree flavour and
# metric-tree state (collapsed: stored; expanded: less the sub-metrics, as
# CubeLib computes it).  tests/check_cube_metric_tree.py opens and closes
# the metrics in the column chooser on headless screens at 80x24 and
# 200x50 and reads every row back, and reads the batch report's columns;
# tests/check_cube_metric_threads.py reads the threads pane (T) of the
# own columns against the generator's per-location values.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v "$py" >/dev/null || { echo "python3 missing"; exit 1; }
"$py" "$top_srcdir/tests/gen_cube.py" "$tmp/tree.cubex" --cnodes 24 \
	--locs 4 --metric-tree "$tmp/tree.csv" || fail "gen_cube --metric-tree"
"$py" "$top_srcdir/tests/check_cube_metric_tree.py" "$cs" "$tmp/tree.cubex" \
	"$tmp/tree.csv" 80x24 200x50 || fail "metric tree values"
# the threads pane (T) of an own column: each location's value less its
# sub-metrics' there (CSV.threads, the generator's)
"$py" "$top_srcdir/tests/check_cube_metric_threads.py" "$cs" "$tmp/tree.cubex" \
	"$tmp/tree.csv" 80x24 200x50 || fail "metric tree per-thread values"
exit $status
