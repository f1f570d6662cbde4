#!/bin/sh
# Mechanically corrupted variants of real and generated v4 databases exit 2
# with one line, never crash or hang (see tests/corrupt_v4.py).
. "${top_srcdir:-.}/tests/test-lib.sh"
shared="$top_srcdir/../shared/corpus/hpctoolkit-v4"
"$top_builddir/tests/gen-v4db" -o "$tmp/gen" --contexts 300 --threads 3 --samples 500 --seed 7 >/dev/null || exit 1
python3 "$top_srcdir/tests/corrupt_v4.py" "$top_builddir/callscope" "$tmp/gen" "$tmp" --flips 60 || status=1
if [ -d "$shared" ]; then
	python3 "$top_srcdir/tests/corrupt_v4.py" "$top_builddir/callscope" \
		"$shared/hpctoolkit/tests/data/dbase/small.d" "$tmp" --flips 30 || status=1
fi
exit $status
