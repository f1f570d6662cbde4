#!/bin/sh
# The trace pane's link between GPU work and the API call that launched it
# (a, A; trace_view_follow_link), in a real terminal (tmux), on Nsight
# Systems exports (generated, and the corpus's con_kernel when present), on
# a generated rocprofv3 database and on the corpus .rpd file: the cursor is put on a kernel or copy of a GPU
# line with `.` (next change), `a` must land on the begin of the API call
# that plain SQL over the file names as its launcher (the same
# correlationId; rocpd_api_ops; the event's stack_id), on that call's thread line, with the
# details line naming what it launched, and `a` again back on the kernel.
# Also: an idle cursor says so, and the details of a GPU line's interval
# name its launching call.  Polls capture-pane with a timeout.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 absent: skipped"; exit 77; }
shared="$top_srcdir/../shared/corpus"
python3 "$top_srcdir/tests/gen_nsight.py" "$tmp/gen" --kernels 60 --ranks 1 \
	>/dev/null || exit 1

# cursor_field WHAT: "t" (the cursor's time) or "line" from the Cursor line
cursor_field() {
	screen | grep "^Cursor " | sed -n "s/.*(t=\([0-9]*\))  line \([0-9]*\) .*/\\$([ "$1" = t ] && echo 1 || echo 2)/p"
}

# launcher DB LINE_LABEL T: the begin time of the API call that launched
# the GPU work beginning at T on the line labelled LINE_LABEL, by plain SQL
launcher() {
	python3 - "$1" "$2" "$3" <<'PY'
import re, sqlite3, sys
db, label, t = sys.argv[1], sys.argv[2], int(sys.argv[3])
c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master")}
if "rocpd_op" in tables:
    m = re.search(r"GPU (-?\d+) queue (-?\d+)", label)
    row = c.execute(
        "SELECT a.start FROM rocpd_op o JOIN rocpd_api_ops ao ON "
        "ao.op_id = o.id JOIN rocpd_api a ON a.id = ao.api_id WHERE "
        "o.start = ? AND o.gpuId = ? AND o.queueId = ? ORDER BY ao.id "
        "LIMIT 1", (t, int(m.group(1)), int(m.group(2)))).fetchone()
elif any(n.startswith("rocpd_kernel_dispatch_") for n in tables):
    # v3: the dispatch's event stack_id is the launching region's id
    q = int(re.search(r"queue 0x([0-9a-f]+)", label).group(1), 16)
    row = None
    for n in sorted(tables):
        if n.startswith("rocpd_kernel_dispatch_") and row is None:
            sfx = n[len("rocpd_kernel_dispatch"):]
            row = c.execute(
                "SELECT r.start FROM %s k JOIN rocpd_event%s e ON e.id = "
                "k.event_id JOIN rocpd_region%s r ON r.id = e.stack_id "
                "WHERE k.start = ? AND k.queue_id = ?" % (n, sfx, sfx),
                (t, q)).fetchone()
else:
    m = re.search(r"stream (-?\d+)", label)
    row = None
    for tab in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                "CUPTI_ACTIVITY_KIND_MEMSET"):
        if tab in tables and row is None:
            row = c.execute(
                "SELECT r.start FROM %s k JOIN CUPTI_ACTIVITY_KIND_RUNTIME "
                "r ON r.correlationId = k.correlationId AND r.eventClass "
                "IN (0, 1) WHERE k.start = ? AND k.streamId = ?" % tab,
                (t, int(m.group(1)))).fetchone()
print(row[0] if row else "none")
PY
}

# check_link DB: the round trip on the first GPU line of DB
check_link() {
	db=$1
	gpu=$("$cs" trace "$db" --at +0 --format json 2>/dev/null | python3 -c '
import json, re, sys
ls = json.load(sys.stdin)["lines"]
print(next(i for i, l in enumerate(ls)
           if re.search(r"(stream|queue) (0x[0-9a-f]+|-?\d+)$",
                        l["label"])))') || {
		fail "$db: no GPU line"
		return
	}
	start "$cs --no-config $db" "<program root>" || { fail "$db: no viewer"; return; }
	t send-keys -t "$S" t
	wait_for "Trace [Main]" || { fail "$db: t did not open the trace"; return; }
	i=0
	while [ $i -lt "$gpu" ]; do
		t send-keys -t "$S" Down
		i=$((i + 1))
	done
	wait_for "  line $gpu of " || { fail "$db: the cursor is not on line $gpu"; return; }
	# the first interval of the line: next changes until one is there
	step_until . 6 on_screen "^Interval .*; launched by " ||
		{ fail "$db: no GPU work with a launching call on line $gpu"; return; }
	kt=$(cursor_field t)
	label=$(screen | grep "^Cursor " | sed 's/.*  line [0-9]* of [0-9]* \(.*\)  ctx=.*/\1/')
	want=$(launcher "$db" "$label" "$kt")
	[ "$want" != none ] || { fail "$db: SQL finds no launcher of t=$kt on $label"; return; }
	t send-keys -t "$S" a
	wait_for "(t=$want)" ||
		{ fail "$db: a did not go to the launching call at t=$want"; return; }
	screen | grep -q "^Interval .*; launched " ||
		fail "$db: the call's details do not name what it launched"
	[ "$(cursor_field line)" != "$gpu" ] || fail "$db: a stayed on the GPU line"
	press a "(t=$kt)" "$db: a did not come back to the kernel at t=$kt"
	[ "$(cursor_field line)" = "$gpu" ] || fail "$db: a did not come back to line $gpu"
	# A on GPU work stays on its call's launches: a GPU line, launched by
	t send-keys -t "$S" A
	sync_keys
	screen | grep -q "^Interval .*; launched by " || fail "$db: A left the call's launches"
	t send-keys -t "$S" q
	wait_shell || fail "$db: the terminal was not restored"
	echo "ok: $db: GPU work at t=$kt <-> its call at t=$want"
}

check_link "$tmp/gen/rank0.sqlite"
if [ -d "$shared/rocpd-schema" ]; then
	python3 "$top_srcdir/tests/gen_rocpd.py" "$tmp/rocpd" >/dev/null || exit 1
	check_link "$(ls "$tmp"/rocpd/run/*/*.db | head -n 1)"
fi
ck="$shared/extra-p/extrap/tests/data/nsight/nsys_db/con_kernel.sqlite"
[ -f "$ck" ] && check_link "$ck"
for f in "$shared"/rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result.rpd; do
	[ -f "$f" ] && check_link "$f"
done

# an idle cursor on an interval track says so
start "$cs --no-config $tmp/gen/rank0.sqlite" "<program root>" || fail "no viewer"
press t "Trace [Main]" "t did not open the trace"
t send-keys -t "$S" G
sync_keys
screen | grep -q "no sample at or before" &&
	fail "an interval track says 'no sample at or before the cursor'"
press a "no interval at the cursor" "a on idle says nothing"
t send-keys -t "$S" q
wait_shell || fail "the terminal was not restored"
exit $status
