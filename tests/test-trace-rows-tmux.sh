#!/bin/sh
# The trace pane's rows in a real terminal (tmux, UTF-8, 256 colours, where
# half blocks could pack two lines per text row): critique a4, b6 and b8.
#  - one line per text row while rows are free: issue-233 filtered to 20
#    lines at 200x50 full screen draws 20 rows, each labelled with its own
#    line, in rank/thread order; the Nsight saxpy export's 2 lines at
#    200x50 are 2 rows (before: 1 row, the GPU stream line an unlabelled
#    lower half);
#  - labels drop the prefix all lines share ("NODE 0 ", "pid 1230493 ")
#    and keep the part that differs (before: "NODE 0 RANK 25 …" twice);
#  - with more lines than rows, rows follow the identifier tuple order
#    (RANK ascending), as hpctraceviewer lists them, not the database's;
#  - the split pane at 80x24 has a cursor readout that moves with Left and
#    Right and names the cursor's line and context (before: none);
#  - after S on the Nsight export, the row of the cursor's line carries that
#    line's label;
#  - GPU runs: the GPU line shows kernels and copies at the first depth (not
#    one colour per process), their names inside runs wide enough, and I
#    hides and shows the instants (marks) of a generated Nsight export; an
#    .rpd API call's details print no empty "args=".
# Polls capture-pane with a timeout.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 absent: skipped"; exit 77; }
corpus="$top_srcdir/../shared/corpus"
v4="$corpus/hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/issue-233"
ns="$corpus/nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
[ -d "$v4" ] && [ -f "$ns" ] || { echo "corpus absent: skipped"; exit 77; }
mkdir -p "$tmp/config" "$tmp/cache"

# open W H DB...: a fresh session of W x H running the viewer on DB
open() {
	w=$1 h=$2
	shift 2
	tmux_old=$S
	tmux_sessions=$((tmux_sessions + 1))
	S=s$tmux_sessions
	t new-session -d -s "$S" -x "$w" -y "$h" \
		"env TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache $cs $*; sleep 30"
	t kill-session -t "$tmux_old" 2>/dev/null
	wait_for "Top-down"
}

# rows_between FIRST_LINE_TEXT: the grid rows of the full-screen trace (from
# the line after the header to the time axis), as text
grid_rows() {
	screen | python3 -c '
import sys
lines = sys.stdin.read().splitlines()
h = next(i for i, l in enumerate(lines) if " Trace [" in l)
for l in lines[h + 1:]:
    if "\u25b2" in l or l.strip().startswith("+"):
        break
    print(l)'
}

# ---- issue-233 filtered to 20 lines, 200x50 full screen ------------------
open 200 50 "$v4" || fail "the viewer did not start on issue-233"
press t "Trace [Main" "t did not open the trace"
t send-keys -t "$S" W L
wait_for "trace lines" || fail "L did not prompt"
t send-keys -t "$S" -l "RANK 0-3"
press Enter "of 20 (filtered)" "the filter did not leave 20 lines"
grid_rows >"$tmp/rows.txt"
python3 - "$tmp/rows.txt" <<'EOF' || fail "issue-233 RANK 0-3: not one labelled line per row in rank/thread order"
import re, sys
rows = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines()
        if l.strip()]
labels = [re.match(r"^(RANK \d+ THREAD \d+)\s", r) for r in rows]
want = ["RANK %d THREAD %d" % (r, t) for r in range(4) for t in range(5)]
got = [m.group(1) if m else None for m in labels]
if got != want:
    print("rows:", *rows, sep="\n  ")
    print("labels %s\nwant   %s" % (got, want))
    sys.exit(1)
if any("NODE" in r for r in rows):
    sys.exit("a label keeps the shared NODE 0 prefix")
print("20 rows, one labelled line each, in rank/thread order")
EOF
# the cursor readout numbers the line as the rows and the header do: the
# 4th row (RANK 0 THREAD 3) is "line 3 of 20" (before: "line 102", the
# reader's timeline index, which nothing on screen shows)
t send-keys -t "$S" Down Down Down
wait_for "  line 3 of 20 NODE 0 RANK 0 THREAD 3  " ||
	fail "the cursor readout does not number the 4th row's line as 3 of 20: $(screen | grep '^Cursor')"

# ---- all 135 lines: more lines than rows, rows in tuple order ------------
press L "trace lines" "L did not prompt again"
t send-keys -t "$S" C-u Enter
wait_for "of 135" || fail "clearing the filter did not bring back 135 lines"
grid_rows >"$tmp/rows.txt"
python3 - "$tmp/rows.txt" <<'EOF' || fail "issue-233: rows not in rank order or labels cut/unlabelled"
import re, sys
rows = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines()
        if l.strip()]
ranks = []
for r in rows:
    # "R0 T0/R0 T1" (two lines per row) or "RANK 0 THREAD 0"
    m = re.match(r"^(?:RANK (\d+) THREAD \d+|R(\d+) T\d+/R(\d+) T\d+)\s", r)
    if not m:
        sys.exit("row without a whole label: %r" % r[:40])
    ranks.append(int(m.group(1) or m.group(2)))
if ranks != sorted(ranks) or len(set(ranks)) < 20:
    sys.exit("ranks down the rows: %s" % ranks)
print("%d rows, ranks ascending %s..%s" % (len(rows), ranks[0], ranks[-1]))
EOF

# ---- split at 80x24: the cursor readout ----------------------------------
open 80 24 "$v4" || fail "the viewer did not start at 80x24"
press t "Trace [Main" "t did not open the trace at 80x24"
wait_for "Cursor +0 ns  line " || fail "the split trace has no cursor readout"
c=$(screen | grep "^Cursor ")
t send-keys -t "$S" Right Right Right Right Right Right Right Right
wait_change "Cursor " "$c" || fail "Right did not move the readout"
screen | grep -qE "^Cursor \+[0-9.]+ (ms|s)  line [0-9]+ of 135 NODE 0 RANK 0 THREAD 0: main thread > ... > " ||
	fail "the readout does not name line, label and context: $(screen | grep '^Cursor')"
press Down "line 13 of 135 NODE 0 RANK 2 THREAD 3: " \
	"Down: the readout does not follow the line"
# a smaller split (J) keeps the readout while 3 grid rows are left
t send-keys -t "$S" J
sync_keys
screen | grep -q "^Cursor .* line 13 of 135 NODE 0 RANK 2 THREAD 3: " ||
	fail "J: the smaller split lost the cursor readout"

# ---- Nsight saxpy: 2 lines in 2 rows, S, kernels and names ---------------
open 200 50 "$ns" || fail "the viewer did not start on the Nsight export"
press t "Trace [Main" "t did not open the Nsight trace"
press W "GPU by stream" "no GPU by stream"
grid_rows >"$tmp/rows.txt"
python3 - "$tmp/rows.txt" <<'EOF' || fail "Nsight: not two labelled rows"
import sys
rows = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines()
        if l.strip()]
if len(rows) != 2 or not rows[0].startswith("tid 1230493 ") or \
        not rows[1].startswith("GPU 0 stream 7 "):
    sys.exit("rows: %r" % [r[:30] for r in rows])
EOF
# the legend at the first depth names kernels and copies, not the process
screen | grep -q "\[memcpy HtoD\] [0-9.]*%" ||
	fail "the legend does not name the copies: $(screen | grep '%')"
screen | grep -q "pid 1230493 ./saxpy-mpi-cuda [0-9.]*%" &&
	fail "the legend still shows one colour per process"
# zoomed on the first copies: names inside the runs
t send-keys -t "$S" Down .
wait_for "line 1 of 2 pid 1230493 GPU 0 stream 7" || fail "Down did not reach the stream line"
t send-keys -t "$S" + + + +
wait_for "window 126.5 ms" || fail "four + did not zoom to 126.5 ms"
screen | grep -q "^GPU 0 stream 7 .*\[memcpy HtoD\]" ||
	fail "no copy name inside its run on the stream line"
screen | grep -q "^GPU 0 stream 7 .*saxpy" ||
	fail "no kernel name inside its run on the stream line"
# S: by context; the cursor's line is a labelled row
press S "GPU by context" "S did not switch to contexts"
wait_for "pid 1230493 GPU 0 context 1" || fail "the cursor did not go to the context line"
screen | grep -q "^GPU 0 context 1 " ||
	fail "the context line's row is not labelled with it"

# ---- the .rpd's first API call: no empty "args=" in its details (b8) ------
rpd="$corpus/rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result_large.rpd"
if [ -f "$rpd" ]; then
	XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache \
		"$cs" --headless --size 120x30 --keys 'tW.' "$rpd" >"$tmp/api.txt"
	grep -q "^Interval [0-9.]* .s" "$tmp/api.txt" ||
		fail "rpd: no interval details at the first API call"
	grep -q "args= *$\|args=  " "$tmp/api.txt" &&
		fail "rpd: an empty args= in the details: $(grep '^Interval' "$tmp/api.txt")"
fi

# ---- generated Nsight export with NVTX marks: I hides them ---------------
python3 "$top_srcdir/tests/gen_nsight.py" "$tmp/gen" --kernels 60 --ranks 1 \
	>/dev/null || exit 1
gen=$(ls "$tmp"/gen/*.sqlite | head -n 1)
open 120 40 "$gen" || fail "the viewer did not start on the generated export"
press t "Trace [Main" "t did not open the generated trace"
t send-keys -t "$S" W
sync_keys
if screen | grep -q "$(printf '\342\227\206')"; then
	press I "instants (marks) hidden" "I did not say the marks are hidden"
	wait_gone "$(printf '\342\227\206')" || fail "I did not hide the marks"
	press I "instants (marks) shown" "I again did not show them"
	wait_for "$(printf '\342\227\206')" || fail "the marks did not come back"
else
	fail "the generated export draws no mark"
fi
exit $status
