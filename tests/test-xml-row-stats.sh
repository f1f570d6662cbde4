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
. "$top_srcdir/tests/xml-examples.sh"
check_dirs check_xml_row_stats.py
exit $status
