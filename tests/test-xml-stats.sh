#!/bin/sh
# Statistic columns computed from the per-thread files: every corpus
# database whose experiment.xml declares Mean/StdDev/CfVar/Min/Max metrics
# and has per-thread files (pop and smg2000 with *.metric-db, lu.C.256 with
# a 256-rank experiment-1.mdb, su3_rmd) is copied without its inline <M>
# values (binaries linked), and tests/check_xml_stats.py compares what
# callscope computes with its own computation and with the inline values
# hpcprof wrote.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/xml-examples.sh"
check="$top_srcdir/tests/check_xml_stats.py"
n=0
for xml in "$pop_xml" "$smg_xml" $xml_unpacked; do
	n=$((n + 1))
	src=$(cd "$(dirname "$xml")" && pwd)
	db="$tmp/db$n"
	mkdir "$db"
	for f in "$src"/*.metric-db "$src"/experiment-1.mdb; do
		[ -e "$f" ] && ln -s "$f" "$db/"
	done
	sed 's/<M n="[0-9]*" v="[^"]*"\/>//g' "$xml" >"$db/experiment.xml"
	python3 "$check" "$cs" "$db" "$xml" || { echo "  ($xml)"; status=1; }
done
[ "$n" -eq 4 ] || { echo "FAIL: $n databases, expected 4"; status=1; }
exit $status
