# tests/xml-examples.sh: the four legacy experiment.xml databases of the
# corpus that have statistic metrics, alien frames and per-thread files,
# for the tests of tests/check_xml_*.py; sourced after tests/test-lib.sh.
# Skips (77) without ../shared, needs python3, sets HOME inside $tmp, and
# extracts lu.C.256 and su3_rmd into $tmp/x.  Defines
#   ex                  the corpus's HPCToolkit examples folder
#   pop_xml, smg_xml    the two databases stored unpacked (pop, smg2000)
#   xml_unpacked        the experiment.xml files extracted, one a line
#   each_xml CMD...     runs CMD... XML for the four experiment.xml files
#                       (status 1 when one fails; $n counts them), then
#                       fails unless there were four
#   check_dirs CHECK    each_xml with tests/CHECK CALLSCOPE DIR, DIR the
#                       folder of each experiment.xml
ex="$shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples"
[ -d "$ex" ] || { echo "no $shared: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
HOME=$tmp
export HOME
pop_xml="$ex/pop-mpi-8-x86-wallclock/pop-8-trace-db/experiment.xml"
smg_xml="$ex/smg2000-wall-trace.db/smg2000.wall.db/experiment.xml"
mkdir "$tmp/x"
tar -xzf "$ex/lu.C.256.nosrc.tar.gz" -C "$tmp/x" &&
	tar -xzf "$ex/milc-su3_rmd.nosrc.tar.gz" -C "$tmp/x" ||
	{ echo "FAIL: cannot extract"; exit 1; }
xml_unpacked=$(find "$tmp/x" -name experiment.xml | sort)
each_xml() {
	n=0
	for xml in "$pop_xml" "$smg_xml" $xml_unpacked; do
		n=$((n + 1))
		"$@" "$xml" || status=1
	done
	[ "$n" -eq 4 ] || fail "$n databases, expected 4"
}
check_dirs() {
	check="$top_srcdir/tests/$1"
	each_xml check_dir
}
check_dir() { python3 "$check" "$cs" "$(dirname "$1")"; }
