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
# database $n: the per-thread files of XML linked, its inline values cut
check_db() {
	src=$(cd "$(dirname "$1")" && pwd)
	db="$tmp/db$n"
	mkdir "$db"
	for f in "$src"/*.metric-db "$src"/experiment-1.mdb; do
		[ -e "$f" ] && ln -s "$f" "$db/"
	done
	sed 's/<M n="[0-9]*" v="[^"]*"\/>//g' "$1" >"$db/experiment.xml"
	python3 "$check" "$cs" "$db" "$1" || { echo "  ($1)"; return 1; }
}
each_xml check_db
exit $status
