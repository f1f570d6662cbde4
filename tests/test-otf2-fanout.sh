#!/bin/sh
# Key `A` in the trace pane walks the messages of an MPI call with
# several (gen_otf2.py --fanout: rank 0's MPI_Waitall holds three sends
# to rank 1, each received by an MPI_Recv of its own).  From the
# Waitall, `a` lands on the first message's receive and says "message 1
# of 3"; each `A` goes on to the next receive, after the third back to
# the first; `a` from a receive comes back to the Waitall; a call of one
# message says no count.  The receives' times are the generator's
# (expect.json "messages": each end's call and its begin in ns).
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
"$py" -c 'import otf2' 2>/dev/null || exit 77
"$py" "$top_srcdir/tests/gen_otf2.py" --fanout "$tmp/f" || exit 1
# the receives of tags 1, 2, 3 on rank 1 and the Waitall's begin, in ns
recv=$("$py" -c '
import json, sys
m = json.load(open(sys.argv[1]))["messages"]
r = sorted(x for x in m if x[0] == "rank 1: thread 0" and
           x[3] == "MPI receive" and "tag 4" not in x[4])
w = [x for x in m if x[0] == "rank 0: thread 0" and "tag 1," in x[4]]
print(" ".join(str(x[2]) for x in r + w))' "$tmp/f/expect.json")
set -- $recv
[ $# -eq 4 ] || { echo "FAIL: expect.json: '$recv'"; exit 1; }
r1=$1 r2=$2 r3=$3 waitall=$4
screen() {
	"$cs" --headless --no-config --size 100x24 --keys "$1" "$tmp/f" \
		>"$tmp/screen" 2>/dev/null || fail "keys '$1': exit $?"
}
# keys: the trace, one level deeper, to the Waitall, then links
check() { # KEYS CURSOR-LINE MESSAGE (empty: none)
	screen "t).$1"
	grep -qF "Cursor $2" "$tmp/screen" ||
		fail "keys '$1': no 'Cursor $2' in: $(grep '^Cursor' "$tmp/screen")"
	if [ -n "$3" ]; then
		grep -qF "$3" "$tmp/screen" || fail "keys '$1': no '$3'"
	elif grep -q ' of [0-9]* (A: the next)' "$tmp/screen"; then
		fail "keys '$1': a message count for a single link"
	fi
}
check '' "+$waitall ns  line 0 of 2 rank 0: thread 0: MPI_Waitall" ''
check 'a' "+$r1 ns  line 1 of 2 rank 1: thread 0: MPI_Recv" "message 1 of 3 (A: the next)"
check 'aA' "+$r2 ns  line 1 of 2 rank 1: thread 0: MPI_Recv" "message 2 of 3 (A: the next)"
check 'aAA' "+$r3 ns  line 1 of 2 rank 1: thread 0: MPI_Recv" "message 3 of 3 (A: the next)"
check 'aAAA' "+$r1 ns  line 1 of 2 rank 1: thread 0: MPI_Recv" "message 1 of 3 (A: the next)"
# `A` on the Waitall itself starts at its first message
check 'A' "+$r1 ns  line 1 of 2 rank 1: thread 0: MPI_Recv" "message 1 of 3 (A: the next)"
# back from the second receive (a call of one message): the Waitall
check 'aAa' "+$waitall ns  line 0 of 2 rank 0: thread 0: MPI_Waitall" ''
[ $status -ne 0 ] && cat "$tmp/screen"
exit $status
