#!/bin/sh
# The flat view of legacy experiment.xml databases counts inlined code once
# (doc/hpctoolkit-xml.md, "Inlined frames"): for every corpus database with
# alien frames (lu.C.256, su3_rmd, pop, smg2000) tests/check_xml_flat.py
# compares each module row's exclusive Sum with the sum of the module's PF
# exclusive values read from the XML, and checks that modules' exclusive
# values are within their inclusive values and add up to the root's.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/xml-examples.sh"
check="$top_srcdir/tests/check_xml_flat.py"
n=0
for xml in "$pop_xml" "$smg_xml" $xml_unpacked; do
	n=$((n + 1))
	python3 "$check" "$cs" "$(dirname "$xml")" || status=1
done
[ "$n" -eq 4 ] || { echo "FAIL: $n databases, expected 4"; status=1; }
exit $status
