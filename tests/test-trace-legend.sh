#!/bin/sh
# The trace legend's colours tell its functions apart (headless: a colour
# is a letter): on a database of each trace format, at depths 0 to 3 and
# 80 and 200 columns, no two legend entries share a letter, and where the
# grid writes a function's name inside its interval ("cMPI_Initccc") the
# letters around it are that function's letter in the legend.  Main
# hashed each name onto 26 letters (24 colours in a 256-colour terminal):
# the .rpd's legend read "h hipMemcpyWithStream 1.7%  h CopyHostToDevice".
# The depth view's legend names its depth.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -d "$corpus" ] || { echo "no $corpus: skipped"; exit 77; }
export LANG=C.UTF-8 TERM=xterm-256color
n=0
for rel in \
	rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result.rpd \
	nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite \
	hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/issue-233 \
	otf2/pipit/pipit/tests/data/ping-pong-otf2/traces.otf2; do
	[ -e "$corpus/$rel" ] || continue
	for size in 80x30 200x40; do
		for keys in t 't)' 't))' 't)))'; do
			n=$((n + 1))
			"$cs" --headless --no-config --size "$size" --keys "$keys" \
				"$corpus/$rel" >"$tmp/s" 2>/dev/null ||
				{ fail "$rel $size $keys: exit $?"; continue; }
			$py - "$tmp/s" "$rel $size $keys" <<'PY' || status=1
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
what = sys.argv[2]
axis = next((i for i, l in enumerate(lines) if "\u25b2" in l), None)
if axis is None or axis + 1 >= len(lines):
    print("FAIL: %s: no trace axis" % what)
    sys.exit(1)
legend = lines[axis + 1]
entries = re.findall(r"(?:^|  )(\S) (.+?) \d+\.\d%", legend)
letters = {}
bad = []
for letter, name in entries:
    if letter == ".":
        continue
    if letter in letters and letters[letter] != name:
        bad.append("%r and %r share %r" % (letters[letter], name, letter))
    letters[letter] = name
of = {name: letter for letter, name in letters.items()}
head = next(i for i, l in enumerate(lines) if l.startswith(" Trace ["))
for row in lines[head + 1:axis]:
    for name, letter in of.items():
        for m in re.finditer(re.escape(name), row):
            a, b = m.start() - 1, m.end()
            if a >= 0 and b < len(row) and row[a] == row[b] and \
               row[a].isalpha() and row[a] != letter:
                bad.append("%r drawn in %r, the legend's %r" %
                           (name, row[a], letter))
for b in bad[:5]:
    print("FAIL: %s: %s\n  %s" % (what, b, legend))
sys.exit(1 if bad else 0)
PY
		done
	done
done
[ "$n" -gt 0 ] || { echo "no trace in the corpus: skipped"; exit 77; }
# the depth view (V) draws every depth of the cursor's line: its legend
# says which depth it is of (main: unlabelled, the depth-0 names only)
db="$corpus/hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/issue-233"
if [ -d "$db" ]; then
	for keys in tV 'tV))'; do
		"$cs" --headless --no-config --size 100x40 --keys "$keys" "$db" \
			>"$tmp/d" 2>/dev/null || fail "depth view: exit $?"
		d=$(sed -n 's/^ Trace \[Depth\]  depth \([0-9]*\)\/.*/\1/p' "$tmp/d")
		grep -A1 '▲' "$tmp/d" | tail -n 1 | grep -q "^depth $d: " ||
			fail "depth view $keys: legend $(grep -A1 '▲' "$tmp/d" | tail -n 1)"
	done
fi
exit $status
