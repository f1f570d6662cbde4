#!/bin/sh
# OTF2 markers (issue 29): the marker file beside the anchor (gen_otf2.py
# --markers: markers at calls' enters and ends, at a zero-length call's
# time, two at one time, outside every call, on an idle location, one of
# the whole run) read as instants of their location's line and counted in
# the Marks column at the call running at their time; checked against the
# generator's answers (tests/check_otf2_marks.py), again from the index
# cache, and on an 80x24 screen: the Marks column of the tree and the
# marker cells of the trace pane.  An archive without a marker file has
# no Marks column.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
"$py" -c 'import otf2' 2>/dev/null || exit 77
"$py" "$top_srcdir/tests/gen_otf2.py" --markers "$tmp/m" || exit 1
"$py" "$top_srcdir/tests/check_otf2_marks.py" "$cs" "$tmp/m" ||
	fail "markers differ from the generator's answers"
# the index now comes from the cache: the same answers
"$py" "$top_srcdir/tests/check_otf2_marks.py" "$cs" "$tmp/m" ||
	fail "markers differ from the generator's answers (from the cache)"
# the screen: the time and visits columns hidden (the rows sorted by Marks
# then), the Marks column's root
# and main rows as the generator counts them
"$cs" --headless --no-config --size 80x24 \
	--keys 'c<Enter>j<Enter>j<Enter>j<Enter><Esc>' "$tmp/m" \
	>"$tmp/screen" 2>/dev/null || fail "headless screen: exit $?"
grep -qE '^ *Marks I(▼)? *Marks E Name \(top-down\)' "$tmp/screen" ||
	fail "no Marks columns in the header at 80x24"
want=$("$py" -c 'import json,sys; p=json.load(open(sys.argv[1]))["marks"]["paths"]; print(sum(p.values()), sum(v for k, v in p.items() if k.startswith("main")), p.get("main", 0))' "$tmp/m/expect.json")
got=$(sed -n 's/^ *\([0-9][0-9]*\) .*<program root>.*/\1/p' "$tmp/screen")
got="$got $(sed -n 's/^ *\([0-9][0-9]*\) *[0-9.]*% *\([0-9][0-9]*\) .*─▾ main.*/\1 \2/p' "$tmp/screen")"
[ "$got" = "$want" ] || fail "screen: root, main (I), main (E) '$got', expected '$want'"
# the trace pane: a marker cell on each line with markers, none on the
# line without
"$cs" --headless --no-config --size 80x24 --keys 't' "$tmp/m" \
	>"$tmp/trace" 2>/dev/null || fail "headless trace: exit $?"
for label in "rank 0: thread 0" "rank 0: thread 1" "rank 1: idle"; do
	grep "^$label " "$tmp/trace" | grep -q "◆" ||
		fail "no marker cell on '$label'"
done
grep "^rank 1: thread 0 " "$tmp/trace" | grep -q "◆" &&
	fail "a marker cell on a line without markers"
# without the marker file: no Marks column, no warning about markers
rm "$tmp/m/traces.marker"
"$cs" info "$tmp/m" >"$tmp/info" 2>&1 || fail "info without markers"
grep -q -i 'Marks\|marker' "$tmp/info" &&
	fail "Marks or markers in an archive without a marker file"
[ $status -ne 0 ] && cat "$tmp/screen" "$tmp/trace"
exit $status
