#!/bin/sh
# Nsight Systems exports: every corpus export against the plain-SQL
# summaries of ../shared/expected/nsight/, generated exports (three ranks,
# class-67 duplicates, OS runtime calls inside API calls) against the
# generator's own answers, alone and as one run, names with control
# characters (sanitized), and hostile inputs (truncated, not SQLite,
# another program's SQLite, a layout without StringIds or without a
# column): exit 2 with one line, never a crash.
. "${top_srcdir:-.}/tests/test-lib.sh"
expected="$top_srcdir/../shared/expected/nsight"
[ -x "$py" ] || exit 77
if [ -d "$expected" ] && [ -d "$corpus" ]; then
	"$py" "$top_srcdir/tests/check_nsight.py" "$cs" "$corpus" "$expected" ||
		status=1
fi
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/gen" --kernels 2000 --ranks 3 ||
	exit 1
"$py" "$top_srcdir/tests/check_nsight.py" "$cs" "$tmp/gen" "$tmp/gen/expected" ||
	status=1
# several exports as one run: the root's calls are the sum of the files'
root_calls() {
	"$cs" report "$@" --view flat --format json --metric Calls |
		"$py" -c 'import json,sys; print(int(json.load(sys.stdin)["nodes"][0]["values"][0]))'
}
sum=0
for f in "$tmp"/gen/rank*.sqlite; do
	sum=$((sum + $(root_calls "$f")))
done
[ "$(root_calls "$tmp"/gen/rank*.sqlite)" = "$sum" ] || fail "three files as one run"
[ "$(root_calls "$tmp/gen")" = "$sum" ] || fail "a directory as one run"
"$cs" info "$tmp/gen" | grep -q '^Title: *3 Nsight Systems export files' ||
	fail "the title of a three-file run"
# control characters in names: sanitized everywhere
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/evil" --kernels 40 --hostile-names ||
	exit 1
for cmd in info "report --depth 9" "report --view flat --format json" \
	"report --format csv" "trace --at 5000" "trace --at 5000 --format json" \
	hotpath stats "stats --format csv" "stats --format json"; do
	# shellcheck disable=SC2086
	"$cs" $cmd "$tmp/evil/rank0.sqlite" >"$tmp/out" 2>&1 || fail "$cmd on control characters: exit $?"
	if tr -d '\n' <"$tmp/out" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		fail "$cmd prints control characters"
	fi
done
# hostile inputs: one line on stderr, exit 2
one="$tmp/gen/rank0.sqlite"
size=$(wc -c <"$one")
head -c $((size / 2)) "$one" >"$tmp/truncated.sqlite"
head -c 100 "$one" >"$tmp/header-only.sqlite"
printf 'not sqlite at all\n' >"$tmp/text.sqlite"
"$py" -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table foo (a)'); c.commit()" "$tmp/other.sqlite"
"$py" -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table CUPTI_ACTIVITY_KIND_KERNEL (start, end)'); c.commit()" "$tmp/no-strings.sqlite"
"$py" -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table StringIds (id, value)'); c.execute('create table CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId)'); c.commit()" "$tmp/no-column.sqlite"
"$py" -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table StringIds (id, value)'); c.execute('create table EXPORT_META_DATA (name, value)'); c.commit()" "$tmp/no-activity.sqlite"
refused sqlite truncated header-only text other no-strings no-column \
	no-activity
grep -q 'StringIds' "$tmp/err" 2>/dev/null || true
"$cs" info "$tmp/no-strings.sqlite" 2>&1 | grep -q 'StringIds is missing' ||
	fail "the missing StringIds is not named"
"$cs" info "$tmp/no-column.sqlite" 2>&1 | grep -q 'no column shortName' ||
	fail "the missing shortName column is not named"
# a bad file among good ones fails the run with one line
"$cs" info "$one" "$tmp/truncated.sqlite" >/dev/null 2>"$tmp/err"
if [ $? -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
	fail "a truncated file among good ones"
	cat "$tmp/err"
fi
exit $status
