#!/bin/sh
# The rocpd generators find the shared schema wherever the project sits
# (critique b11: bench/gen_rocpd_big.py died with `no such table:
# rocpd_info_node_...` because tests/gen_rocpd.py looked only at
# tests/../../shared and skipped missing schema files silently).  Copies of
# the two scripts are run from a project two levels below the shared
# directory (found by walking up), from one with no shared directory at all
# (exit non-zero with a message naming where it looked, never a SQLite
# error), and with CALLSCOPE_SHARED.  A generated database must hold the
# schema's node table with the row the benchmark generator inserted.
. "${top_srcdir:-.}/tests/test-lib.sh"
shared=$(cd "$top_srcdir/../shared" 2>/dev/null && pwd)
[ -n "$shared" ] && [ -d "$shared/corpus/rocpd-schema" ] || {
	echo "no $top_srcdir/../shared/corpus/rocpd-schema: skipped"
	exit 77
}
[ -x "$py" ] || py=python3
project() { # DIR: a copy of the two generators laid out as in the project
	mkdir -p "$1/tests" "$1/bench" &&
		cp "$top_srcdir/tests/gen_rocpd.py" "$1/tests/" &&
		cp "$top_srcdir/bench/gen_rocpd_big.py" "$1/bench/"
}
nodes() { # DB: the rows of the schema's node table
	"$py" -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
t = [r[0] for r in db.execute(
    "SELECT name FROM sqlite_master WHERE type = \"table\" AND name LIKE \"rocpd_info_node_%\"")]
print(sum(db.execute("SELECT count(*) FROM \"%s\"" % n).fetchone()[0] for n in t))' "$1"
}

# a project two levels below the directory that holds shared/
mkdir -p "$tmp/w/a/b" && ln -s "$shared" "$tmp/w/shared" &&
	project "$tmp/w/a/b/callscope" || exit 1
env -u CALLSCOPE_SHARED "$py" "$tmp/w/a/b/callscope/bench/gen_rocpd_big.py" \
	"$tmp/out1" 1 100 >/dev/null 2>"$tmp/err1" ||
	fail "deep project: $(tail -n 1 "$tmp/err1")"
db=$(ls "$tmp"/out1/*/*_results.db 2>/dev/null | head -n 1)
[ -n "$db" ] && [ "$(nodes "$db")" = 1 ] ||
	fail "deep project: no node row in ${db:-the output}"

# no shared/ anywhere above: a message, not a SQLite error
mkdir -p "$tmp/bare" && project "$tmp/bare/callscope" || exit 1
if env -u CALLSCOPE_SHARED "$py" "$tmp/bare/callscope/bench/gen_rocpd_big.py" \
	"$tmp/out2" 1 100 >/dev/null 2>"$tmp/err2"; then
	fail "no shared: exit 0"
fi
grep -q "no shared/corpus beside the project" "$tmp/err2" ||
	fail "no shared: $(tail -n 1 "$tmp/err2")"
grep -q "OperationalError" "$tmp/err2" && fail "no shared: a SQLite error"

# CALLSCOPE_SHARED names it
CALLSCOPE_SHARED=$shared "$py" "$tmp/bare/callscope/tests/gen_rocpd.py" \
	"$tmp/out3" >/dev/null 2>"$tmp/err3" ||
	fail "CALLSCOPE_SHARED: $(tail -n 1 "$tmp/err3")"
[ -f "$tmp/out3/gen.rpd" ] || fail "CALLSCOPE_SHARED: no gen.rpd"
exit $status
