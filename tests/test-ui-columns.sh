#!/bin/sh
# Column headers of the viewer on a database whose metrics have several
# variants (LU.C.256 of the corpus, experiment.xml: Sum, Mean, StdDev,
# CfVar, Min, Max of WALLCLOCK): too narrow for "WALLCLOCK (us):Mean", each
# header keeps what tells it apart (the variant), not the same cut name.
. "${top_srcdir:-.}/tests/test-lib.sh"
db="$top_srcdir/../shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples/lu.C.256.nosrc.tar.gz"
[ -f "$db" ] || { echo "no ../shared corpus: skipped"; exit 77; }
export HOME="$tmp" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"
screen=$("$top_builddir/callscope" --headless --size 160x10 --no-config "$db") || {
	echo "FAIL: the viewer did not draw $db"
	exit 1
}
header=$(printf '%s\n' "$screen" | grep -F 'Name (top-down)')
for want in "WALLCLOCK" "Mean I" "StdDev I" "CfVar I" "Min I" "Max I" "Mean E"; do
	printf '%s\n' "$header" | grep -qF -- "$want" || {
		echo "FAIL: header lacks '$want': $header"
		status=1
	}
done
# the text report's header too
report=$("$top_builddir/callscope" report "$db" --depth 0 | head -1)
for want in "Mean (I)" "StdDev (I)" "Min (E)" "Max (E)"; do
	printf '%s\n' "$report" | grep -qF -- "$want" || {
		echo "FAIL: report header lacks '$want': $report"
		status=1
	}
done
exit $status
