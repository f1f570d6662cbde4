#!/bin/sh
# The threads pane's system tree (T, then O) of an OTF2 trace names its
# groups as Score-P and Vampir do: the system tree nodes' names (machine,
# node), then each location group's ("MPI Rank 0"), sanitized.  Expected
# names come from elsewhere: the corpus's ping-pong trace through
# otf2-print -G, the generated case (tests/gen_otf2.py --systree: a tab,
# CSI sequences, a C1 control) from the generator's own definitions, shown
# as tests/check_system_tree.py's shown() writes a name to a terminal.
. "${top_srcdir:-.}/tests/test-lib.sh"
$py -c 'import otf2' 2>/dev/null || { echo "python3-otf2 missing"; exit 77; }

# check SCREEN NAMES: the tree's group rows are the names in file NAMES
# (each ended by a NUL), in this order, each one level below the one
# before up to the last two (the ranks, side by side, in either order:
# the pane sorts them by value).
check() {
	$py - "$top_srcdir/tests" "$1" "$2" <<'PY' || fail "$1"
import re, sys
sys.path.insert(0, sys.argv[1])
from check_system_tree import shown
rows = []
for line in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r"^ *\S+(?: [a-zµ]+)? +\S+%  ( *)[\u25b8\u25be] (.*) \(\d+\)$", line)
    if m:
        rows.append((len(m.group(1)) // 2, m.group(2)))
names = open(sys.argv[3], "rb").read().decode().split("\0")[:-1]
want = [(min(i, len(names) - 2), shown(n)) for i, n in enumerate(names)]
# the ranks are siblings, drawn by value (largest first): any order
if rows[:-2] != want[:-2] or sorted(rows[-2:]) != sorted(want[-2:]):
    print("rows %r\nwant %r" % (rows, want))
    sys.exit(1)
PY
}

pingpong="$corpus/otf2/pipit/pipit/tests/data/ping-pong-otf2/traces.otf2"
if [ -f "$pingpong" ] && command -v otf2-print >/dev/null; then
	otf2-print -G "$pingpong" >"$tmp/defs.txt" || fail "otf2-print"
	# the names of the system tree nodes, then the location groups
	sed -n 's/^\(SYSTEM_TREE_NODE\|LOCATION_GROUP\)  *[0-9]*  Name: "\([^"]*\)".*/\2/p' \
		"$tmp/defs.txt" | tr '\n' '\0' >"$tmp/pp-names"
	[ "$(tr -cd '\0' <"$tmp/pp-names" | wc -c)" = 4 ] ||
		fail "ping-pong: not 4 names in otf2-print -G"
	"$cs" --headless --size 80x24 --keys 'TO' "$pingpong" \
		>"$tmp/pingpong.txt" || fail "ping-pong: exit $?"
	check "$tmp/pingpong.txt" "$tmp/pp-names"
else
	echo "ping-pong trace or otf2-print missing: that case skipped"
fi

$py "$top_srcdir/tests/gen_otf2.py" --systree "$tmp/gen" || fail "generator"
"$cs" --headless --size 80x24 --keys 'TO' "$tmp/gen/traces.otf2" \
	>"$tmp/gen.txt" || fail "generated: exit $?"
grep -q "$(printf '\033')" "$tmp/gen.txt" && fail "generated: a raw ESC shown"
$py - "$top_srcdir/tests" >"$tmp/gen-names" <<'PY' || fail "names"
import sys
sys.path.insert(0, sys.argv[1])
from gen_otf2 import SYSTREE
for name, _ in SYSTREE["systree"]:
    sys.stdout.buffer.write(name.encode() + b"\0")
for name in SYSTREE["groups"]:
    sys.stdout.buffer.write(name.encode() + b"\0")
PY
check "$tmp/gen.txt" "$tmp/gen-names"
exit $status
