#!/bin/sh
# The flat view of legacy experiment.xml databases counts inlined code once
# (doc/hpctoolkit-xml.md, "Inlined frames"): for every corpus database with
# alien frames (lu.C.256, su3_rmd, pop, smg2000) tests/check_xml_flat.py
# compares each module row's exclusive Sum with the sum of the module's PF
# exclusive values read from the XML, and checks that modules' exclusive
# values are within their inclusive values and add up to the root's.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/xml-examples.sh"
check_dirs check_xml_flat.py
exit $status
