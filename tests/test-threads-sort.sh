#!/bin/sh
# The threads pane (T), headless, on a generated database of 24 ranks (12 nodes):
# `s` sorts the execution contexts by label in natural order ("RANK 2"
# before "RANK 10"; it was byte order, RANK 0, 1, 10, 11, 2, ...), and the
# line above says which sort is on and what `s` does next ("by label (s:
# by index)").  The expected order is the labels sorted here, by number.
. "${top_srcdir:-.}/tests/test-lib.sh"
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" \
	LANG=C.UTF-8
"$top_builddir/tests/gen-v4db" -o "$tmp/db" --seed 3 --contexts 60 \
	--threads 1 --ranks 24 --samples 1200 >/dev/null || exit 1
"$cs" --headless --no-config --size 120x60 --keys 'Ts' "$tmp/db" >"$tmp/label" ||
	fail "the threads pane did not draw"
"$cs" --headless --no-config --size 120x60 --keys 'T' "$tmp/db" >"$tmp/value" ||
	fail "the threads pane did not draw"
grep -q "execution contexts by label (s: by index)" "$tmp/label" ||
	fail "the hint does not say the sort is by label: $(sed -n 4p "$tmp/label")"
grep -q "execution contexts by value (s: by label)" "$tmp/value" ||
	fail "the hint does not say the sort is by value: $(sed -n 4p "$tmp/value")"
python3 - "$tmp/label" <<'PY' || status=1
import re, sys
labels = [m.group(1) for line in open(sys.argv[1])
          for m in [re.search(r"%\s+(NODE \d+ RANK \d+.*?)\s*$", line)] if m]
ranks = [int(re.search(r"RANK (\d+)", l).group(1)) for l in labels]
if len(labels) != 24:
    print("FAIL: %d labelled rows, not 24: %r" % (len(labels), labels))
    sys.exit(1)
def natural(s):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s)]
if labels != sorted(labels, key=natural) or ranks != sorted(ranks):
    print("FAIL: labels not in natural order: %r" % labels)
    sys.exit(1)
PY
exit $status
