#!/bin/sh
# The corpus OTF2 trace (pipit's MPI ping-pong, ../shared/corpus/otf2): per
# region and location, the exclusive time and visits of the OTF2 reader
# equal those summed from otf2-print's events (tests/check_otf2.py parses
# them).  Skipped (77) without ../shared or otf2-print.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
exec /usr/bin/python3 "$top_srcdir/tests/check_otf2.py" corpus \
	"$top_builddir/tests/otf2-dump" "$top_srcdir/../shared"
