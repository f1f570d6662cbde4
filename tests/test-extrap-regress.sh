#!/bin/sh
# Regressions of the review of the Extra-P readers (2026-11-25), each a
# crash or a memory error before its fix (the sanitizer build in CI
# catches a return): a directory with a dot-subdirectory beside another
# one (the Cube-set bid freed an uninitialised record: SIGSEGV); a text
# file that declares parameters after an empty POINTS line (the point
# buffer was sized for the first count: heap overflow); an unknown
# keyword without a space (the message scanned past the line: heap
# over-read); a point listed twice in POINTS (said as a second DATA
# line).  Each must exit 0 or 2 with at most one line on stderr
# naming the file.
. "${top_srcdir:-.}/tests/test-lib.sh"
check() { # LABEL EXPECTED-EXIT COMMAND...
	label=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne "$want" ] || [ "$lines" -gt 1 ]; then
		echo "FAIL: $label: exit $rc (want $want), stderr:"
		cat "$tmp/err"
		status=1
	fi
}
says() { # LABEL TEXT: the last check's stderr holds TEXT (a basic regex)
	grep -q -- "$2" "$tmp/err" ||
		{ echo "FAIL: $1: $(cat "$tmp/err")"; status=1; }
}
mkdir -p "$tmp/dir/.hidden" "$tmp/dir/a"
check "dot-subdirectory" 2 "$cs" info "$tmp/dir"
grep -q "dir" "$tmp/err" || { echo "FAIL: the error does not name the directory"; status=1; }

printf 'PARAMETER a\nPOINTS\nPARAMETER b c d\nPOINTS ( 1 2 3 4 ) ( 5 6 7 8 )\nREGION main\nDATA 1\nDATA 2\n' >"$tmp/late.txt"
"$cs" points "$tmp/late.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then
	grep -q "a=1 b=2 c=3 d=4" "$tmp/out" ||
		{ echo "FAIL: late parameters: the point (1 2 3 4) is not read"; cat "$tmp/out"; status=1; }
elif [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
	echo "FAIL: late parameters: exit $rc"; cat "$tmp/err"; status=1
fi

printf 'PARAMETER p\nPOINTS 1 2 3\nUNKNOWN_KEYWORD_WITHOUT_A_SPACE\n' >"$tmp/unknown.txt"
check "unknown keyword" 2 "$cs" points "$tmp/unknown.txt"
says "unknown keyword: the message does not name it" \
	'unknown field "UNKNOWN_KEYWORD_WITHOUT_A_SPACE"'
# a point listed twice in POINTS (review finding 14b): the message said
# "a second DATA line for the same point", naming the DATA line
printf 'PARAMETER p\nPOINTS 1 1\nREGION r\nDATA 1\nDATA 2\n' >"$tmp/dup.txt"
check "POINTS 1 1" 2 "$cs" info "$tmp/dup.txt"
says "POINTS 1 1: the message does not say the point is listed twice" \
	'dup.txt: line 2: POINTS lists a point twice (points 1 and 2, the first on line 2)'
printf 'PARAMETER p\nPOINTS 1 2\nPOINTS 1\nREGION r\nDATA 1\nDATA 2\nDATA 3\n' >"$tmp/dup2.txt"
check "POINTS on two lines" 2 "$cs" info "$tmp/dup2.txt"
says "POINTS twice on two lines: wrong message" \
	'line 3: POINTS lists a point twice (points 1 and 3, the first on line 2)'
# a region given twice keeps its own message
printf 'PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1\nDATA 2\nREGION r\nDATA 1\n' >"$tmp/region.txt"
check "REGION twice" 2 "$cs" info "$tmp/region.txt"
says "REGION twice: wrong message" \
	'line 7: a second DATA line for the same point, region and metric'
exit $status
