#!/bin/sh
# The statistic columns (Mean, StdDev, CfVar, Min, Max) of the flat view's
# load modules and the bottom-up view's functions, rows that stand for
# several contexts, against tests/check_xml_row_stats.py's computation from
# the per-thread files: each row's per-thread sums, then the statistics
# over threads (they used to be added up over contexts: Min > Mean, CfVar
# 1.31e+03 over 32 ranks in smg2000; critique a3).  Every corpus database
# with statistic metrics and per-thread files: pop, smg2000, lu.C.256 and
# su3_rmd.
. "${top_srcdir:-.}/tests/test-lib.sh"
ex="$shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples"
[ -d "$ex" ] || { echo "no $shared: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
check="$top_srcdir/tests/check_xml_row_stats.py"
HOME=$tmp XDG_CACHE_HOME=$tmp/cache XDG_CONFIG_HOME=$tmp/config
export HOME XDG_CACHE_HOME XDG_CONFIG_HOME

mkdir "$tmp/x"
tar -xzf "$ex/lu.C.256.nosrc.tar.gz" -C "$tmp/x" &&
	tar -xzf "$ex/milc-su3_rmd.nosrc.tar.gz" -C "$tmp/x" ||
	{ echo "FAIL: cannot extract"; exit 1; }
n=0
for xml in "$ex/pop-mpi-8-x86-wallclock/pop-8-trace-db/experiment.xml" \
	"$ex/smg2000-wall-trace.db/smg2000.wall.db/experiment.xml" \
	$(find "$tmp/x" -name experiment.xml | sort); do
	n=$((n + 1))
	python3 "$check" "$cs" "$(dirname "$xml")" || status=1
done
[ "$n" -eq 4 ] || { echo "FAIL: $n databases, expected 4"; status=1; }
exit $status
