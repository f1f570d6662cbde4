#!/bin/sh
# The trace timeline pane in a real terminal (tmux), on a generated
# database and on corpus databases with traces: `t` draws the pane, `+`
# halves the window and `>` moves it by a quarter (read back from the axis
# labels in the header), and the call path at the cursor is the one
# `callscope trace --at` prints for the same time and line (its JSON).
# A corpus .rpd's SMI counter line is drawn as a track of block eighths
# (the ASCII ramp under LC_ALL=C), and the value at the cursor on it is
# the one `trace --at` gives.
# Polls capture-pane with a timeout; a new session per start.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 absent: skipped"; exit 77; }
gen_db --seed 7 --contexts 400 \
	--threads 3 --ranks 2 --samples 3000

# view DB: the viewer on DB in a fresh session, drawn
view() { start "$cs --no-config $1" "q quit"; }

# window_ns / from_ns: the header's "window W from +F" in nanoseconds
header_ns() {
	screen | grep -F "Trace [" | python3 -c "
import re,sys
h=sys.stdin.read()
m=re.search(r'window ([0-9.e+]+) (s|ms|µs|ns) from \+([0-9.e+]+) (s|ms|µs|ns)',h)
u={'s':1e9,'ms':1e6,'µs':1e3,'ns':1}
print(float(m.group(1))*u[m.group(2)] if '$1'=='window' else float(m.group(3))*u[m.group(4)])"
}

# the cursor's time, line, ctx and path on screen against `trace --at`
check_cursor() { # DB WHAT
	python3 - "$cs" "$1" "$2" "$tmp/screen.txt" <<'PY' || fail "$2: the cursor's call path differs from callscope trace --at"
import json, os, re, subprocess, sys
cs, db, what, path = sys.argv[1:]
lines = open(path, encoding="utf-8").read().split("\n")
head = [l for l in lines if l.startswith("Cursor ")][0]
# the readout numbers the line as the rows do ("line 2 of 7 LABEL"): the
# batch line of that label
m = re.search(r"\(t=(\d+)\)  line (\d+) of (\d+) (.*)  ctx=(\d+)", head)
time, label, ctx = m.group(1), m.group(4), int(m.group(5))
i = lines.index(head)
shown = lines[i + 1][5:].rstrip() + lines[i + 2][5:].rstrip()
out = subprocess.run([cs, "trace", db, "--at", time, "--format", "json"],
		     capture_output=True, text=True)
js = [j for j in json.loads(out.stdout)["lines"] if j["label"] == label]
if len(js) != 1:
	sys.exit("%s: %d batch lines labelled %r" % (what, len(js), label))
j = js[0]
want_ctx = j["ctx"] or 0
want = " > ".join(j["path"]) if j["ctx"] else "(idle)"
if j["time"] is None:
	want = "(no sample at or before the cursor)"
# v4 sources hpcprof copied into src/ read by the path they were built
# from (FORMATS.md, Source File Specification), as the tree shows them
if os.path.exists(os.path.join(db, "meta.db")):
	want = re.sub(r"(^| )src/(?=[^/ ])", r"\1/", want)
ok = ctx == want_ctx and (want.startswith(shown) or shown.startswith(want))
if not ok:
	print("%s: screen ctx=%s path=%r\n  trace --at ctx=%s path=%r" %
	      (what, ctx, shown, want_ctx, want))
sys.exit(0 if ok else 1)
PY
}

# ---- a generated database ---------------------------------------------
view "$tmp/db" || fail "the viewer did not start"
press t "Trace [Main]" "t did not open the trace pane"
wait_for "lines 0-5 of 6" || fail "the pane does not show the 6 lines"
wait_for "RANK 0 THREAD 2" || fail "no line label RANK 0 THREAD 2"
w0=$(header_ns window)
h=$(screen | grep -F "Trace [")
t send-keys -t "$S" Right Right Right Right Right Right Right Right Right Right +
wait_change "Trace [" "$h" || fail "+ did not change the window"
w1=$(header_ns window)
python3 -c "import sys; sys.exit(0 if abs($w1*2-$w0) <= $w0*1e-3 else 1)" ||
	fail "+ made the window $w1 ns from $w0 ns, not half"
f1=$(header_ns from)
h=$(screen | grep -F "Trace [")
t send-keys -t "$S" ">"
wait_change "Trace [" "$h" || fail "> did not pan"
f2=$(header_ns from)
python3 -c "import sys; sys.exit(0 if abs(($f2-$f1)-$w1/4) <= $w1*2e-3 else 1)" ||
	fail "> moved the window by $(($f2 - $f1)) ns, not a quarter of $w1"
t send-keys -t "$S" Down Down Right Right Right
wait_for "line 2 of " || fail "Down did not move the cursor to line 2"
screen >"$tmp/screen.txt"
check_cursor "$tmp/db" "generated"
# the next change of context lands on a time where the path changes
c=$(screen | grep "^Cursor ")
t send-keys -t "$S" .
wait_change "Cursor " "$c" || fail ". did not move the cursor"
screen >"$tmp/screen.txt"
check_cursor "$tmp/db" "generated, next change"
# depth view, summary, statistics draw
press V "Trace [Depth]" "V did not show the depth view"
wait_for "depth 0" || fail "the depth view has no depth labels"
t send-keys -t "$S" V V
wait_for "Trace [Statistics]" || fail "no statistics view"
wait_for "share  line time  function (every line" || fail "the statistics view has no table"
t send-keys -t "$S" V 0
wait_for "from +0 ns" || fail "0 did not go home"
# undo brings the zoomed and panned window back
h=$(screen | grep -F "Trace [")
t send-keys -t "$S" u
wait_change "Trace [" "$h" || fail "u did not undo home"
w2=$(header_ns window)
python3 -c "import sys; sys.exit(0 if abs($w2-$w1) <= $w1*1e-3 else 1)" ||
	fail "u restored a window of $w2 ns, not $w1"
# the line filter
t send-keys -t "$S" L "RANK 1" Enter
wait_for "lines 0-2 of 3 (filtered)" || fail "the line filter RANK 1 did not keep 3 lines"
# full screen and back, then close
press W "Trace [Main]" "W lost the pane"
t send-keys -t "$S" t
wait_gone "Trace [" || fail "t did not close the pane"
t send-keys -t "$S" q

# ---- corpus databases with traces --------------------------------------
corpus="$top_srcdir/../shared/corpus/hpctoolkit-v4"
for db in "$corpus/hpcviewer.e4/tests/resources/metadb/issue-233" \
	"$corpus/hpctoolkit/tests/data/dbase/loops-cputime-t.d"; do
	[ -d "$db" ] || continue
	lines=$("$cs" info "$db" | sed -n 's/^Trace: *\([0-9]*\) lines.*/\1/p')
	view "$db" || { fail "$db: the viewer did not start"; continue; }
	press t "Trace [Main]" "$db: no trace pane"
	wait_for "of $lines" || fail "$db: the pane does not count $lines lines"
	t send-keys -t "$S" Right Right Right Right Right Right Right Right \
		Right Right Right Right Right Right Right Right Right Right \
		Right Right Down Down
	sync_keys || fail "$db: the keys were not handled"
	screen >"$tmp/screen.txt"
	check_cursor "$db" "$(basename "$db")"
	w0=$(header_ns window)
	t send-keys -t "$S" + +
	sync_keys || fail "$db: + + were not handled"
	w1=$(header_ns window)
	python3 -c "import sys; sys.exit(0 if abs($w1*4-$w0) <= $w0*2e-3 else 1)" ||
		fail "$db: + + made the window $w1 ns from $w0 ns"
	screen >"$tmp/screen.txt"
	check_cursor "$db" "$(basename "$db") zoomed"
	t send-keys -t "$S" q
done

# ---- a counter track: the SMI samples of a corpus .rpd -----------------
# drawn with block eighths (the label and the grid are one frame: once the
# label shows, so does the track); on it, the cursor line gives the value
# `trace --at` gives for the same time and line
rpd="$top_srcdir/../shared/corpus/rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result_large.rpd"
if [ -f "$rpd" ]; then
	view "$rpd" || fail "$rpd: the viewer did not start"
	press t "Trace [Main]" "rpd: no trace pane"
	wait_for "SMI gpu 0 sclk" || fail "rpd: no counter track label"
	screen >"$tmp/screen.txt"
	python3 - "$tmp/screen.txt" <<'PY' || fail "rpd: the counter track is not drawn with block eighths"
import sys
rows = [l for l in open(sys.argv[1], encoding="utf-8")
	if "SMI gpu 0 sclk" in l and not l.startswith("Cursor")]
cells = rows[0].split("SMI gpu 0 sclk", 1)[1].strip() if rows else ""
blocks = [c for c in cells if "\u2581" <= c <= "\u2588"]
ok = len(blocks) > 20 and len(set(blocks)) >= 2 and \
	all(c == " " or "\u2581" <= c <= "\u2588" for c in cells)
if not ok:
	print("counter row: %r" % rows)
sys.exit(0 if ok else 1)
PY
	t send-keys -t "$S" Down Down Down
	wait_for "line 3 of 4 SMI gpu 0 sclk" || fail "rpd: the cursor did not reach the counter track"
	t send-keys -t "$S" End
	sync_keys || fail "rpd: End was not handled"
	screen >"$tmp/screen.txt"
	python3 - "$cs" "$rpd" "$tmp/screen.txt" <<'PY' || fail "rpd: the value at the cursor differs from trace --at"
import json, re, subprocess, sys
cs, db, path = sys.argv[1:]
head = [l for l in open(path, encoding="utf-8") if l.startswith("Cursor ")][0]
m = re.search(r"\(t=(\d+)\)  line \d+ of \d+ (.*)  value=(\S+)", head)
out = subprocess.run([cs, "trace", db, "--at", m.group(1), "--format",
		      "json"], capture_output=True, text=True)
j = [l for l in json.loads(out.stdout)["lines"] if l["label"] == m.group(2)][0]
ok = j["kind"] == "counter" and j["value"] is not None and \
	float(m.group(3)) == j["value"]
if not ok:
	print("screen %r, trace --at %r" % (head, j))
sys.exit(0 if ok else 1)
PY
	t send-keys -t "$S" q
	# not UTF-8: the ASCII ramp
	start "LC_ALL=C $cs --no-config $rpd" "q quit" ||
		fail "rpd: the viewer did not start under LC_ALL=C"
	press t "SMI gpu 0 sclk" "rpd, LC_ALL=C: no counter track"
	screen >"$tmp/screen.txt"
	python3 - "$tmp/screen.txt" <<'PY' || fail "rpd, LC_ALL=C: the counter track is not drawn with the ASCII ramp"
import sys
rows = [l for l in open(sys.argv[1], encoding="utf-8", errors="replace")
	if "SMI gpu 0 sclk" in l and not l.startswith("Cursor")]
cells = rows[0].split("SMI gpu 0 sclk", 1)[1].strip() if rows else ""
ok = len(cells) > 20 and len(set(cells) - {" "}) >= 2 and \
	all(c in " _.-~=+*#" for c in cells)
if not ok:
	print("counter row: %r" % rows)
sys.exit(0 if ok else 1)
PY
	t send-keys -t "$S" q
fi
exit $status
