#!/bin/sh
# A GPU run opened for the first time shows a partial model at once and the
# complete one when its scan ends (issue 28).  The scan is slowed by the
# test-only knob CALLSCOPE_TEST_SCAN_DELAY_MS (each file's scan waits that
# long first), so that the viewer's first frames come before its end; the
# headless key <Scan> waits for the end.  Checked against what Python reads
# from the generated files and what the batch report (which opens the run
# whole) gives:
#  - the first screen says the totals are partial and shows every process,
#    thread and kernel name of the run, the root's Calls the number of
#    kernel dispatches in the files (Python's count);
#  - keys work during the scan: a process row selected and collapsed; the
#    timeline (t) says it comes with the complete run;
#  - once scanned: the root's and that process's Calls equal the batch
#    report's, the process still collapsed and selected;
#  - a file whose region table is damaged (read by the scan, not the
#    sketch): the scan's one-line error on the status line, no crash;
#  - quitting during the scan stops it (the scan is cancelled, its thread
#    joined) long before it would end.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
[ -d "${CALLSCOPE_SHARED:-$shared}/corpus/rocpd-schema" ] || {
	echo "no rocpd-schema in the shared corpus: skipped"
	exit 77
}
"$py" "$top_srcdir/tests/gen_rocpd.py" "$tmp/gen" >/dev/null || exit 99
run="$tmp/gen/run"

# what the files hold, read here: pids, thread names, kernel names, count
"$py" - "$run" >"$tmp/facts" <<'PY' || exit 99
import glob, sqlite3, sys
pids, threads, kernels, n = set(), set(), set(), 0
for f in glob.glob(sys.argv[1] + "/*/*.db"):
    db = sqlite3.connect("file:%s?mode=ro" % f, uri=True)
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type='table'")]
    for t in tables:
        if t.startswith("rocpd_kernel_dispatch"):
            n += db.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0]
        if t.startswith("rocpd_info_process"):
            pids |= {r[0] for r in db.execute('SELECT pid FROM "%s"' % t)}
        if t.startswith("rocpd_info_thread"):
            threads |= {"%d thread %d%s" % (pid, tid, " (main)" if tid == pid else "")
                        for pid, tid in db.execute('SELECT pid, tid FROM "%s"' % t)}
        if t.startswith("rocpd_info_kernel_symbol"):
            kernels |= {r[0] for r in db.execute(
                'SELECT display_name FROM "%s"' % t)}
print("count", n)
for p in sorted(pids): print("pid", p)
for t in sorted(threads): print("thread", t)
for k in sorted(kernels): print("kernel", k)
PY
count=$(sed -n 's/^count //p' "$tmp/facts")
[ "$count" -gt 0 ] || fail "the generated run has no dispatches"

CALLSCOPE_TEST_SCAN_DELAY_MS=300 "$cs" --headless --no-config --size 200x200 \
	--dump-each --keys '<Down><Left><Scan>' "$run" >"$tmp/screens" 2>/dev/null ||
	fail "the viewer failed"
# the screens: the partial model's start, Down, Left, then the complete
# model's start
export tmp
awk '/^--- /{n++} {f = ENVIRON["tmp"] "/s" n; print > f}' "$tmp/screens"
first="$tmp/s1" left="$tmp/s3" done="$tmp/s4"
grep -q "^partial totals" "$first" || fail "no partial note on the first screen"
grep -q "^partial totals" "$done" && fail "the complete model still says partial"
# every process and kernel on the first screen, and the threads of the
# processes shown expanded (the first ones: the tree expands so many rows)
# (names cut at 20 columns: the tree cuts long names)
while read -r what rest; do
	case $what in
	pid) grep -q "pid $rest\( \|$\)" "$first" || fail "process $rest not shown" ;;
	thread)
		pid=${rest%% *} name=${rest#* }
		grep -q "▾ .*pid $pid\( \|$\)" "$first" || continue
		grep -q "─  $name *$" "$first" || fail "'$name' of $pid not shown"
		shown=$((${shown:-0} + 1)) ;;
	kernel)
		k=$(printf '%s' "$rest" | cut -c1-20)
		grep -qF -- "$k" "$first" || fail "kernel '$rest' not shown" ;;
	esac
done <"$tmp/facts"
[ "${shown:-0}" -ge 2 ] || fail "no process shown with its threads"
calls_of() { # the first integer (commas removed) on the row naming $2 in $1
	grep -F -- "$2" "$1" | head -n 1 | sed 's/[│├└─▾▸]//g' |
		tr -d ',' | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) {print $i; exit}}'
}
[ "$(calls_of "$first" '<program root>')" = "$count" ] ||
	fail "partial root calls $(calls_of "$first" '<program root>'), want $count"
# the process selected and collapsed during the scan
proc=$(sed -n 's/^Name  //p' "$left" | sed 's/ *$//')
case $proc in *pid*) ;; *) fail "Down did not select a process: '$proc'" ;; esac
grep -qF "▸ $proc" "$left" || fail "Left did not collapse $proc"
grep -qF "▸ $proc" "$done" || fail "$proc not collapsed after the scan"
[ "$(sed -n 's/^Name  //p' "$done" | sed 's/ *$//')" = "$proc" ] ||
	fail "$proc not selected after the scan"
# the complete totals are the batch report's
"$cs" report --format csv --depth 1 "$run" >"$tmp/report.csv" 2>/dev/null ||
	fail "report failed"
want_root=$("$py" -c 'import csv,sys
r = list(csv.DictReader(open(sys.argv[1])))
print(int(float(r[0]["Calls (I)"])))
print(int(float([x for x in r if x["name"] == sys.argv[2]][0]["Calls (I)"])))' \
	"$tmp/report.csv" "$proc") || fail "no report row for $proc"
[ "$(calls_of "$done" '<program root>')" = "$(echo "$want_root" | sed -n 1p)" ] ||
	fail "root calls after the scan $(calls_of "$done" '<program root>'), report: $(echo "$want_root" | sed -n 1p)"
[ "$(calls_of "$done" "$proc")" = "$(echo "$want_root" | sed -n 2p)" ] ||
	fail "$proc calls after the scan $(calls_of "$done" "$proc"), report: $(echo "$want_root" | sed -n 2p)"

# the timeline asked for during the scan: it comes with the complete run
export XDG_CACHE_HOME="$tmp/cache-t"
CALLSCOPE_TEST_SCAN_DELAY_MS=300 "$cs" --headless --no-config --size 120x30 \
	--keys 't' "$run" >"$tmp/t-screen" 2>/dev/null || fail "t during the scan"
grep -q "^the timeline comes with the complete run" "$tmp/t-screen" ||
	fail "t during the scan does not say the timeline comes later"

# a file the scan cannot read (its region table's root page overwritten)
mkdir "$tmp/bad"
cp "$run"/node00/*.db "$tmp/bad/" || exit 99
bad=$(ls "$tmp"/bad/*.db | head -n 1)
"$py" - "$bad" <<'PY' || exit 99
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ps = db.execute("PRAGMA page_size").fetchone()[0]
roots = [r[0] for r in db.execute("SELECT rootpage FROM sqlite_master "
         "WHERE type='table' AND name LIKE 'rocpd_region%'")]
db.close()
with open(sys.argv[1], "r+b") as f:
    for r in roots:
        f.seek((r - 1) * ps)
        f.write(b"\xff" * 64)
PY
export XDG_CACHE_HOME="$tmp/cache-bad"
CALLSCOPE_TEST_SCAN_DELAY_MS=100 "$cs" --headless --no-config --size 120x30 \
	--dump-each --keys '<Scan>j' "$tmp/bad" >"$tmp/bad-screens" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "the viewer exited $rc on a file the scan cannot read"
grep -qF "$bad: SQLite: database disk image is malformed" \
	"$tmp/bad-screens" || fail "the scan's error is not shown"

# quit during a scan of 12 files x 20 s: stopped at once
export XDG_CACHE_HOME="$tmp/cache-quit"
t0=$(date +%s)
CALLSCOPE_TEST_SCAN_DELAY_MS=20000 "$cs" --headless --no-config --size 80x24 \
	--keys 'q' "$run" >/dev/null 2>&1 || fail "quit during the scan failed"
t1=$(date +%s)
[ $((t1 - t0)) -lt 10 ] || fail "quit during the scan took $((t1 - t0)) s"
exit $status
