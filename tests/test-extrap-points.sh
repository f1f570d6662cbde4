#!/bin/sh
# Extra-P measurement sets against Extra-P 4.2.5 itself: `callscope points
# --format json` on every corpus input of ../shared/expected/extra-p
# (inputs.tsv) whose reader callscope has, every point's statistics
# compared with Extra-P's (tests/check_extrap_points.py); the negative
# examples must exit 2 with one line.  Skipped (77) without ../shared, as
# in a tarball's build.
. "${top_srcdir:-.}/tests/test-lib.sh"
need_corpus "$shared/expected/extra-p/inputs.tsv"
python3 "$top_srcdir/tests/check_extrap_points.py" "$cs" "$shared"
