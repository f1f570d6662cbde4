#!/bin/sh
# Every pre-v4 HPCToolkit binary in ../shared/corpus (tar.gz archives
# extracted into a temporary directory) opens with the legacy readers, and
# what they read equals an independent decoding in Python
# (tests/check_legacy_bins.py).  Skipped (77) without ../shared.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -d "$shared/corpus/hpctoolkit-xml" ] || { echo "no $shared: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
python3 "$top_srcdir/tests/check_legacy_bins.py" \
	"$top_builddir/tests/test-legacy-dump" "$shared" "$tmp"
