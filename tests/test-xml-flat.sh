#!/bin/sh
# The flat view of legacy experiment.xml databases counts inlined code once
# (doc/hpctoolkit-xml.md, "Inlined frames"): for every corpus database with
# alien frames (lu.C.256, su3_rmd, pop, smg2000) tests/check_xml_flat.py
# compares each module row's exclusive Sum with the sum of the module's PF
# exclusive values read from the XML, and checks that modules' exclusive
# values are within their inclusive values and add up to the root's.
. "${top_srcdir:-.}/tests/test-lib.sh"
ex="$shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples"
[ -d "$ex" ] || { echo "no $shared: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
check="$top_srcdir/tests/check_xml_flat.py"
HOME=$tmp XDG_CACHE_HOME=$tmp/cache XDG_CONFIG_HOME=$tmp/config
export HOME XDG_CACHE_HOME XDG_CONFIG_HOME

tar -xzf "$ex/lu.C.256.nosrc.tar.gz" -C "$tmp" &&
	tar -xzf "$ex/milc-su3_rmd.nosrc.tar.gz" -C "$tmp" ||
	{ echo "FAIL: cannot extract"; exit 1; }
n=0
for xml in "$ex/pop-mpi-8-x86-wallclock/pop-8-trace-db/experiment.xml" \
	"$ex/smg2000-wall-trace.db/smg2000.wall.db/experiment.xml" \
	$(find "$tmp" -name experiment.xml | sort); do
	n=$((n + 1))
	python3 "$check" "$cs" "$(dirname "$xml")" || status=1
done
[ "$n" -eq 4 ] || { echo "FAIL: $n databases, expected 4"; status=1; }
exit $status
