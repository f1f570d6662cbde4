#!/bin/sh
# Both passes over a GPU run's files side by side (gpu_run_scan.c, the
# first; gpu_run_provider.c, the second, when a trace window needs every
# line: 1 and 3 threads give the same output) and the index of a GPU run
# (src/formats/gpu_run/gpu_run_index.c): a generated
# rocprofv3 run and a generated Nsight export are opened three ways --
# without the index (--no-cache), writing it, reading it -- and the tree,
# the flat summary, a trace probe, a trace window and an interval's details
# must be the same each time (instants and the lines of both GPU line
# groupings too).  Then the index is damaged (truncated at
# 2/3 and at odd offsets of its headers, bytes flipped, another version's
# header, emptied) and each time the run must open with the same output:
# such an index is ignored.  Interval files whose intervals are garbage
# (their header intact) must give exit 0 and no crash: intervals are
# checked where they are read.  A changed database is read again.  The budget
# ($CALLSCOPE_RUN_INDEX_MAX) removes older runs' indexes.
. "${top_srcdir:-.}/tests/test-lib.sh"
need_corpus "$top_srcdir/../shared/corpus/rocpd-schema"
XDG_CACHE_HOME="$tmp/cache"
export XDG_CACHE_HOME
runs="$XDG_CACHE_HOME/callscope/runs"
python3 "$top_srcdir/tests/gen_rocpd.py" "$tmp/gen" >/dev/null || exit 1
python3 "$top_srcdir/tests/gen_nsight.py" "$tmp/nsys" >/dev/null || exit 1
fail() {
	echo "FAIL: $*"
	exit 1
}

# every view of a run, into $1
views() {
	out=$1
	shift
	{
		"$cs" info "$@" &&
			"$cs" report --depth 6 "$@" &&
			"$cs" report --view flat --metric all --format json "$@" &&
			"$cs" trace --at +0.5ms "$@" &&
			"$cs" trace --from +0s --to +5ms --columns 300 "$@" &&
			"$cs" trace --lines 1 --at +1ms --format json "$@" &&
			"$cs" trace --gpu-lines all --at +0.2ms --span 1ms \
				--format json "$@" &&
			"$cs" trace --gpu-lines all --from +0s --to +5ms \
				--columns 200 --format json "$@"
	} >"$out" 2>&1 || fail "$* exited $? ($(tail -n 1 "$out"))"
}

check_run() {
	name=$1
	shift
	rm -rf "$runs"
	views "$tmp/$name.plain" --no-cache "$@"
	# both passes file after file and side by side: the same run
	CALLSCOPE_SCAN_THREADS=1 views "$tmp/$name.serial" --no-cache "$@"
	CALLSCOPE_SCAN_THREADS=3 views "$tmp/$name.threads" --no-cache "$@"
	cmp -s "$tmp/$name.serial" "$tmp/$name.threads" ||
		fail "$name: reading files side by side changed the output: $(diff "$tmp/$name.serial" "$tmp/$name.threads" | head -n 5)"
	[ -d "$runs" ] && [ -n "$(ls "$runs")" ] && fail "$name: --no-cache wrote an index"
	views "$tmp/$name.write" "$@"
	ls "$runs"/*.run >/dev/null 2>&1 || fail "$name: no index written"
	ls "$runs"/*.f0 >/dev/null 2>&1 || fail "$name: no intervals written"
	views "$tmp/$name.read" "$@"
	cmp -s "$tmp/$name.plain" "$tmp/$name.write" || fail "$name: writing the index changed the output"
	cmp -s "$tmp/$name.plain" "$tmp/$name.read" ||
		fail "$name: the index changed the output: $(diff "$tmp/$name.plain" "$tmp/$name.read" | head -n 5)"
	ls "$runs" | grep -q tmp && fail "$name: temporary file left"
	# damaged indexes: ignored, the output unchanged
	for how in truncate flip header empty; do
		for f in "$runs"/*; do
			case $how in
			truncate) head -c $(($(wc -c <"$f") * 2 / 3)) "$f" >"$f.x" ;;
			flip) python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
# the run file is covered by its CRC: flips anywhere; an interval file
# only by its structure: flips in its header and line table, and one
# interval whose context and enclosing links point outside its line
run = sys.argv[1].endswith(".run")
for i in range(40, len(b) if run else min(len(b), 2048), 97):
    b[i] ^= 0x5a
if not run and len(b) > 4096:
    b[-200:-4] = b"\xff" * 196
open(sys.argv[1] + ".x", "wb").write(b)' "$f" ;;
			header) { printf 'CSRUNIX9'; tail -c +9 "$f"; } >"$f.x" ;;
			empty) : >"$f.x" ;;
			esac
			mv "$f.x" "$f"
		done
		views "$tmp/$name.$how" "$@"
		cmp -s "$tmp/$name.plain" "$tmp/$name.$how" ||
			fail "$name: a $how index changed the output: $(diff "$tmp/$name.plain" "$tmp/$name.$how" | head -n 5)"
	done
	# cut inside the headers and line tables, at odd offsets: ignored
	views "$tmp/$name.again" "$@"
	for cut in 9 61 127 131 200 333 517; do
		for f in "$runs"/*; do
			cp "$f" "$f.keep"
			head -c "$cut" "$f.keep" >"$f"
		done
		views "$tmp/$name.cut" "$@"
		cmp -s "$tmp/$name.plain" "$tmp/$name.cut" ||
			fail "$name: an index cut at $cut changed the output"
		for f in "$runs"/*.keep; do
			mv "$f" "${f%.keep}"
		done
	done
	# intervals whose every field is garbage (the header and line table
	# intact): checked where they are read, never a crash or a hang
	views "$tmp/$name.again" "$@"
	for f in "$runs"/*.f*; do
		python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[4096:-4] = b"\xff" * len(b[4096:-4])
open(sys.argv[1], "wb").write(b)' "$f"
	done
	views "$tmp/$name.garbage" "$@"
}

set -- "$tmp"/gen/run/*/*.db
check_run rocpd "$@"
check_run nsight "$tmp"/nsys/*.sqlite
echo "outputs equal with, without and with damaged indexes"

# a stale index: the database changed after the index was written
one=$(ls "$tmp"/nsys/*.sqlite | head -n 1)
rm -rf "$runs"
"$cs" info "$one" >"$tmp/before" 2>&1 || fail "info $one"
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
t = [r[0] for r in c.execute("select name from sqlite_master where name like \"CUPTI_ACTIVITY_KIND_KERNEL\"")]
c.execute("delete from CUPTI_ACTIVITY_KIND_KERNEL where rowid in (select rowid from CUPTI_ACTIVITY_KIND_KERNEL limit 3)")
c.commit()' "$one" || fail "cannot change $one"
"$cs" info "$one" >"$tmp/after" 2>&1 || fail "info after the change"
"$cs" --no-cache info "$one" >"$tmp/fresh" 2>&1 || fail "info --no-cache"
cmp -s "$tmp/after" "$tmp/fresh" || fail "a stale index was used: $(diff "$tmp/after" "$tmp/fresh" | head -n 4)"
cmp -s "$tmp/before" "$tmp/after" && fail "the change did not change the summary (test is void)"
echo "a changed database is scanned again"

# `cache list` names each indexed run by its first file; `cache clear`
# empties the directory
rm -rf "$runs"
"$cs" info "$one" >/dev/null 2>&1
"$cs" cache list >"$tmp/list" || fail "cache list exited $?"
grep -q "$(basename "$one")  (index of a GPU run)" "$tmp/list" ||
	fail "cache list does not show the run: $(cat "$tmp/list")"
"$cs" cache list --format json | python3 -c '
import json, sys
e = [x for x in json.load(sys.stdin) if x["kind"] == "run index"]
assert len(e) == 1 and e[0]["files"] == 1 and e[0]["size"] > 0, e' ||
	fail "cache list --format json"
"$cs" cache clear || fail "cache clear exited $?"
[ -n "$(ls "$runs" 2>/dev/null)" ] && fail "cache clear left run indexes"
echo "cache list shows the run, cache clear removes it"

# the budget: a second run's index pushes the first one's out
rm -rf "$runs"
"$cs" info "$tmp"/gen/run/*/*.db >/dev/null 2>&1
first=$(ls "$runs" | head -n 1 | cut -c1-16)
CALLSCOPE_RUN_INDEX_MAX=1K "$cs" info "$one" >/dev/null 2>&1
ls "$runs" | grep -q "^$first" && fail "the budget kept an older run's index"
ls "$runs" | grep -q '\.run$' || fail "the budget removed the run just opened"
echo "the budget removes older runs first"
exit 0
