#!/bin/sh
# Marks (instants) in the tree views (issue 29): the Marks column of GPU
# runs counts each NVTX mark, .rpd UserMarker instant and rocpd v3
# roctxMark at its context (tests/check_marks.py: plain SQL over the same
# files, generated with marks at interval boundaries); the viewer shows
# the column at 80x24 with a thread's marks as SQL counts them; a run
# without marks has no Marks column (its columns as before).
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/nsys" --kernels 300 --ranks 2 ||
	exit 1
"$py" "$top_srcdir/tests/gen_rocpd.py" "$tmp/rocpd" >/dev/null || exit 1
"$py" "$top_srcdir/tests/check_marks.py" "$cs" "$tmp"/nsys/rank*.sqlite \
	"$tmp/rocpd/gen.rpd" "$tmp/rocpd/merged.db" "$tmp/rocpd/hostile.db" \
	"$(find "$tmp/rocpd/run" -name '*_results.db' | sort | head -1)" ||
	fail "marks per context differ from SQL"
# both files as one run: the root holds every mark of both
both=$("$cs" report "$tmp"/nsys/rank*.sqlite --format json --metric 'Marks (I)' --depth 0 |
	"$py" -c 'import json,sys; print(int(json.load(sys.stdin)["nodes"][0]["values"][0]))')
sql=$("$py" - "$tmp"/nsys/rank*.sqlite <<'PY'
import sqlite3, sys
print(sum(sqlite3.connect("file:%s?mode=ro" % p, uri=True).execute(
    "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34").fetchone()[0]
    for p in sys.argv[1:]))
PY
)
[ "$both" = "$sql" ] || fail "two files as one run: $both marks, SQL $sql"
# the screen: every column but the marks hidden in the chooser; thread
# 4001's row shows its marks (inclusive) as SQL counts them
one="$tmp/nsys/rank0.sqlite"
"$cs" --headless --no-config --size 80x24 \
	--keys 'c<Enter>j<Enter>j<Enter>j<Enter>j<Enter>j<Enter>j<Enter>j<Enter><Esc>' \
	"$one" >"$tmp/screen" || fail "headless screen: exit $?"
grep -q '^ *Marks I *Marks E Name (top-down)' "$tmp/screen" ||
	fail "no Marks columns in the header at 80x24"
want=$("$py" - "$one" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34 "
                 "AND globalTid % 16777216 = 4001").fetchone()[0])
PY
)
got=$(sed -n 's/^ *\([0-9][0-9]*\) .*thread 4001 .*/\1/p' "$tmp/screen")
[ -n "$want" ] && [ "$got" = "$want" ] ||
	fail "thread 4001 shows '$got' marks, SQL $want"
# no marks: no Marks column
cp "$one" "$tmp/nomarks.sqlite"
"$py" -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('DELETE FROM NVTX_EVENTS WHERE eventType = 34'); c.commit()" "$tmp/nomarks.sqlite"
"$cs" info "$tmp/nomarks.sqlite" >"$tmp/info" || fail "info without marks"
grep -q 'Marks' "$tmp/info" && fail "a Marks column in a run without marks"
[ $status -ne 0 ] && cat "$tmp/screen"
exit $status
