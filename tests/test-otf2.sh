#!/bin/sh
# The OTF2 reader against the archives of tests/gen_otf2.py (answers
# computed by the generator: call paths' time and visits in total and per
# location, trace lines, the call running at given times) and its damaged
# archives (exit 2, one line naming the archive): tests/check_otf2.py.
# Skipped (77) without python3-otf2 or otf2-print; .ci/deps installs both.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/test-otf2.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
/usr/bin/python3 "$top_srcdir/tests/check_otf2.py" generated \
	"$top_builddir/callscope" "$top_builddir/tests/otf2-dump" \
	"$top_srcdir" "$work/gen"
