#!/bin/sh
# Marks (instants) in the tree views (issue 29): the Marks column of GPU
# runs counts each NVTX mark, .rpd UserMarker instant and rocpd v3
# roctxMark or rocpd_sample instant at its context (tests/check_marks.py:
# SQL and a sweep of its own over the same files, generated with marks at
# interval boundaries, linked and unlinked v3 samples, rocprof-sys CPU
# samples and a checkpoint); the viewer shows the column at 80x24 with a
# thread's marks as SQL counts them (Nsight and v3); a run without marks
# has no Marks column (its columns as before).
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/nsys" --kernels 300 --ranks 2 ||
	exit 1
# gen_rocpd.py and gen_rocprof_sys.py read the shared corpus's rocpd
# schema: without it, skipped (77), as the other rocpd tests
schema="$shared/corpus/rocpd-schema/rocm-systems@2025-08-09/projects/rocprofiler-systems/source/lib/core/rocpd/data_storage/schema"
[ -d "$schema" ] || { echo "no shared corpus (rocpd schema): skipped"; exit 77; }
"$py" "$top_srcdir/tests/gen_rocpd.py" "$tmp/rocpd" >/dev/null || exit 1
# rocprof-sys: CPU samples (regions plus a sample: not marks), a
# checkpoint in no region and a mark inside a CPU sample's frames
"$py" "$top_srcdir/tests/gen_rocprof_sys.py" "$schema" "$tmp/sys.db" \
	"$tmp/sys.json" || exit 1
"$py" "$top_srcdir/tests/check_marks.py" "$cs" "$tmp"/nsys/rank*.sqlite \
	"$tmp/rocpd/gen.rpd" "$tmp/rocpd/merged.db" "$tmp/rocpd/hostile.db" \
	"$(find "$tmp/rocpd/run" -name '*_results.db' | sort | head -1)" \
	"$tmp/sys.db" || fail "marks per context differ from SQL"
# a v3 run at 80x24: the thread's row counts its samples and roctxMark
# regions (inclusive), as SQL counts them
v3="$(find "$tmp/rocpd/run" -name '*_results.db' | sort | head -1)"
"$cs" --headless --no-config --size 80x24 \
	--keys 'c<Enter>j<Enter>j<Enter>j<Enter>j<Enter>j<Enter>j<Enter>j<Enter><Esc>' \
	"$v3" >"$tmp/screen-v3" || fail "headless v3 screen: exit $?"
want=$("$py" - "$v3" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
t = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
x = min(n[len("rocpd_region"):] for n in t if n.startswith("rocpd_region_"))
pid = db.execute('SELECT pid FROM "rocpd_info_process%s"' % x).fetchone()[0]
print(db.execute('SELECT count(*) FROM "rocpd_sample%s" s JOIN "rocpd_track%s" '
                 'k ON k.id = s.track_id WHERE k.tid = ?' % (x, x), (pid,)).fetchone()[0] +
      db.execute('SELECT count(*) FROM "rocpd_region%s" r JOIN "rocpd_string%s" n '
                 'ON n.id = r.name_id WHERE r.tid = ? AND r.start = r."end" AND '
                 "n.string LIKE 'roctxMark%%'" % (x, x), (pid,)).fetchone()[0])
PY
)
got=$(sed -n 's/^ *\([0-9][0-9]*\) .*thread [0-9]* (main)$/\1/p' "$tmp/screen-v3")
[ -n "$want" ] && [ "$got" = "$want" ] ||
	fail "v3 main thread shows '$got' marks, SQL $want"
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
grep -q '^ *Marks I[^ ]* *Marks E Name (top-down)' "$tmp/screen" ||
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
[ $status -ne 0 ] && cat "$tmp/screen" "$tmp/screen-v3"
exit $status
