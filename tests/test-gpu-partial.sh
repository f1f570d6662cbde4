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
#    joined) long before it would end;
#  - the sketch claims no exclusive Calls: a process's dispatch count
#    (SQL's count(*) of its file) is its Calls I, its Calls E blank;
#  - totals filling in (one file scanned at a time, <Fill> waiting for
#    each partial model the scan offers): the note says K of N files
#    exact (the title too), and exactly K processes show values -- the batch report's --
#    while the others show their SQL count in Calls I and nothing else;
#    the root's Calls I sums the processes shown; K grows; the last
#    screen, once all are exact, is the screen of the run opened again
#    from its index;
#  - Nsight exports: the sketch shows each process's kernel names (SQL's,
#    from the kernel table) and its kernel count as Calls I.
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
    pid = db.execute("SELECT pid FROM rocpd_info_process").fetchone()[0]
    print("dispatches", pid, db.execute(
        "SELECT count(*) FROM rocpd_kernel_dispatch").fetchone()[0])
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

# the screens' values: checks of a dump of the partial and complete models
# (columns cut at the header's right-aligned names; the report's rows by
# name, the dispatches per pid from SQL above)
cat >"$tmp/check.py" <<'PY'
import csv, re, sys
screen, report, facts = sys.argv[1:4]
want_k = int(sys.argv[4]) if len(sys.argv) > 4 else None
lines = open(screen, encoding="utf-8").read().split("\n")
head = [i for i, l in enumerate(lines) if "Name (top-down)" in l][0]
name_at = lines[head].index("Name (top-down)")
spans = [(m.start(), m.end(), m.group()) for m in
         re.finditer(r"\S+(?: \S+)*", lines[head][:name_at])]
cols, prev = {}, 0
for a, b, name in spans:
    cols[name.rstrip("▲▼")] = (prev, b)
    prev = b
def cell(line, col): # col: "GPU time I"; cut headers "GPU t… I"
    for k, (a, b) in cols.items():
        if k == col or (k[:5] == col[:5] and k[-2:] == col[-2:]):
            return re.sub(r"\s*-?[\d.]+%$", "", line[a:b].strip())
    raise SystemExit("no column %s in %s" % (col, list(cols)))
def number(t):
    m = re.match(r"^([\d.,]+)\s*(ns|us|µs|ms|s|B|KB|MB|GB)?$", t)
    u = {None: 1, "ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}
    return float(m.group(1).replace(",", "")) * u.get(m.group(2), 1)
rep = {r["name"]: r for r in csv.DictReader(open(report))}
count = {int(l.split()[1]): int(l.split()[2]) for l in open(facts)
         if l.startswith("dispatches")}
bad, procs, root = [], [], None
for l in lines[head + 1:]:
    name = re.sub(r"^[│├└─▾▸ ]*", "", l[name_at:]).rstrip()
    if name == "<program root>":
        root = l
    m = re.search(r"pid (\d+) rank \d+$", name)
    if m:
        procs.append((name, int(m.group(1)), l))
exact = [p for p in procs if cell(p[2], "GPU time I")]
k = None
for l in lines:
    m = re.match(r"^partial totals: (\d+) of (\d+) files exact", l)
    if m:
        k = int(m.group(1))
if want_k is not None:
    k = want_k
if sorted(p[1] for p in procs) != sorted(count):
    bad.append("processes shown %s, files %s" % (
        sorted(p[1] for p in procs), sorted(count)))
if k is None or len(exact) != k:
    bad.append("%d processes exact, the note says %s" % (len(exact), k))
total = 0
for name, pid, l in procs:
    calls = int(number(cell(l, "Calls I")))
    total += calls
    if (name, pid, l) in exact:
        r = rep[name]
        g = number(cell(l, "GPU time I"))
        if calls != int(float(r["Calls (I)"])):
            bad.append("%s: Calls I %d, report %s" % (name, calls, r["Calls (I)"]))
        if abs(g - float(r["GPU time (ns) (I)"])) > 1e-3 * g:
            bad.append("%s: GPU time I %g, report %s" % (name, g, r["GPU time (ns) (I)"]))
        if bool(cell(l, "Calls E")) != bool(r["Calls (E)"]):
            bad.append("%s: Calls E '%s', report '%s'" % (name, cell(l, "Calls E"), r["Calls (E)"]))
    else:
        if calls != count[pid]:
            bad.append("%s: Calls I %d, its file's dispatches %d" % (name, calls, count[pid]))
        for c in ("Calls E", "GPU time E"):
            if cell(l, c):
                bad.append("%s: %s '%s' in the sketch" % (name, c, cell(l, c)))
if root is None or int(number(cell(root, "Calls I"))) != total:
    bad.append("root Calls I %s, the processes' sum %d" % (
        root and cell(root, "Calls I"), total))
for b in bad:
    print(b)
print("exact", len(exact))
PY
check() { # SCREEN [K]: its problems failed, $checked the exact processes
	checked=
	"$py" "$tmp/check.py" "$1" "$tmp/report.csv" "$tmp/facts" ${2:+"$2"} \
		>"$tmp/check.out" || fail "check.py failed on $1"
	while read -r l; do
		case $l in
		"exact "*) checked=${l#exact } ;;
		*) fail "$1: $l" ;;
		esac
	done <"$tmp/check.out"
}
check "$first" 0
[ "$checked" = 0 ] || fail "the first screen has $checked exact processes"

# files filling in, one at a time; the last screen is the indexed open's
export XDG_CACHE_HOME="$tmp/cache-fill"
CALLSCOPE_SCAN_THREADS=1 CALLSCOPE_TEST_SCAN_DELAY_MS=300 "$cs" --headless \
	--no-config --size 200x200 --dump-each --keys '<Fill><Fill><Fill><Scan>' \
	"$run" >"$tmp/fill-screens" 2>/dev/null || fail "the viewer failed (fill)"
awk '/^--- /{n++} {f = ENVIRON["tmp"] "/f" n; print > f}' "$tmp/fill-screens"
last=0
for i in 2 3 4; do
	grep -q "^partial totals: [0-9]* of $(grep -c '^pid' "$tmp/facts") files exact" "$tmp/f$i" ||
		fail "screen $i after <Fill> has no 'K of N files exact' note"
	grep -q "^callscope .* files (partial: [0-9]* exact)" "$tmp/f$i" ||
		fail "screen $i: the title does not say the model is partial"
	check "$tmp/f$i"
	[ "${checked:-0}" -gt "$last" ] || fail "screen $i: $checked exact after $last"
	last=${checked:-0}
done
check "$tmp/f5" "$(grep -c '^pid' "$tmp/facts")"
grep -q "^partial totals" "$tmp/f5" && fail "the complete model still says partial"
grep -q "^callscope .*(partial" "$tmp/f5" && fail "the complete model's title says partial"
"$cs" --headless --no-config --size 200x200 --keys '' "$run" >"$tmp/indexed" 2>/dev/null ||
	fail "the indexed open failed"
tail -n +2 "$tmp/f5" | sed '$d' >"$tmp/f5.body"
sed '$d' "$tmp/indexed" >"$tmp/indexed.body"
cmp -s "$tmp/f5.body" "$tmp/indexed.body" ||
	fail "the screen after the scan differs from the indexed open's: $(diff "$tmp/f5.body" "$tmp/indexed.body" | head -n 5)"

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

# Nsight exports: the sketch names each process's kernels (probed rows;
# the generated steps repeat every kernel), as SQL names them (the
# demangled name), each process's Calls I its kernel table's count(*)
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/ns" --kernels 3000 --ranks 2 \
	--no-answers >/dev/null || exit 99
"$py" - "$tmp/ns"/*.sqlite >"$tmp/ns-facts" <<'PY' || exit 99
import sqlite3, sys
for f in sys.argv[1:]:
    db = sqlite3.connect("file:%s?mode=ro" % f, uri=True)
    pid = db.execute("SELECT DISTINCT pid FROM PROCESSES").fetchone()[0]
    print("count", pid, db.execute(
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0])
    for (k,) in db.execute("SELECT DISTINCT s.value FROM "
                           "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                           "ON s.id = coalesce(k.demangledName, k.shortName)"):
        print("kernel", pid, k)
PY
export XDG_CACHE_HOME="$tmp/cache-ns"
CALLSCOPE_TEST_SCAN_DELAY_MS=5000 "$cs" --headless --no-config --size 200x100 \
	--keys 'q' "$tmp/ns"/*.sqlite >"$tmp/ns-screen" 2>/dev/null ||
	fail "the viewer failed on the Nsight exports"
grep -q "^partial totals" "$tmp/ns-screen" || fail "Nsight: no partial model"
[ "$(grep -c '^kernel' "$tmp/ns-facts")" -ge 4 ] || fail "Nsight: too few kernels"
while read -r what pid rest; do
	# the process's row, then its children up to the next process
	rows=$(awk -v p="pid $pid " 'index($0, p) {on = 1; print; next}
		/[├└]─[▾▸] pid / {on = 0} on' "$tmp/ns-screen")
	case $what in
	count)
		n=$(printf '%s\n' "$rows" | head -n 1 | tr -d ',' | awk '{print $1}')
		[ "$n" = "$rest" ] || fail "Nsight pid $pid: Calls I '$n', SQL $rest" ;;
	kernel)
		printf '%s\n' "$rows" | grep -qF -- "─  $rest" ||
			fail "Nsight pid $pid: kernel '$rest' not in the sketch" ;;
	esac
done <"$tmp/ns-facts"
exit $status
