#!/bin/sh
# A rocpd run of many files under a small limit of open files: one
# generated rocprofv3 file copied 120 times (one directory, one run), read
# with `ulimit -n 40`.  The first open used to keep every file's SQLite
# connection open at once (1,000 files: 711 MB of schemas and caches, and
# "cannot open as SQLite" past the descriptor limit), and a trace read
# every file's lines into connections it kept.  Now a file is opened for
# its scan or its lines and closed after: every command gives exactly what
# it gives without the limit (the oracle), with and without the run's
# index, and the title counts the 120 files.
. "${top_srcdir:-.}/tests/test-lib.sh"
need_corpus "$corpus/rocpd-schema"
export HOME="$tmp"
python3 "$top_srcdir/tests/gen_rocpd.py" "$tmp/gen" >/dev/null || exit 1
one=$(ls "$tmp"/gen/run/*/*_results.db | head -n 1)
mkdir "$tmp/many"
i=0
while [ $i -lt 120 ]; do
	cp "$one" "$tmp/many/$((5000 + i))_results.db" || exit 1
	i=$((i + 1))
done
# the window: the run's whole time range, as info --format json gives it
span=$("$cs" --no-cache info --format json "$tmp/many" 2>/dev/null |
	python3 -c 'import json,sys; t=json.load(sys.stdin)["trace"]; print(t["min"], t["max"])') ||
	fail "no time range"
set -- $span
from=$1
to=$2
run() { # NAME LIMIT ARGS...: the command's output and exit code
	name=$1 limit=$2
	shift 2
	(
		[ "$limit" = none ] || ulimit -n "$limit"
		"$cs" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
		echo "exit $?" >>"$tmp/$name.out"
	)
}
for cache in --no-cache ""; do
	rm -rf "$tmp/cache"
	for c in info "report --format csv" \
		"trace --from $from --to $to --columns 40"; do
		# shellcheck disable=SC2086
		run free none $cache $c "$tmp/many"
		# shellcheck disable=SC2086
		run limited 40 $cache $c "$tmp/many"
		cmp -s "$tmp/free.out" "$tmp/limited.out" ||
			fail "${cache:-indexed}: $c differs under ulimit -n 40: $(grep -m1 -i cannot "$tmp/limited.err")"
		grep -q "^exit 0" "$tmp/limited.out" ||
			fail "${cache:-indexed}: $c failed: $(head -c 300 "$tmp/limited.err")"
	done
done
"$cs" --no-cache info "$tmp/many" 2>/dev/null | grep -q "^Title: *120 ROCm profile files" ||
	fail "the title does not count 120 files"
exit $status
