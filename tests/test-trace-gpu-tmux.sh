#!/bin/sh
# GPU lines by queue or by stream, and instants, in the trace pane in a
# real terminal (tmux).  On a generated rocprofv3 database: the header
# says "GPU by queue", `S` shows the lines by stream (the header, a
# message, the cursor on the first stream line, whose label and index are
# those `trace --gpu-lines stream` prints first), a kernel on a stream
# line links (`a`) to its call and back to the same kernel on the stream
# line (not to the hidden queue line), `A` finds it the only launch of
# its call, and `S` again goes back.  On a
# generated Nsight export the flat view is grouped by kind and opens (E)
# down to its calls and kernels (demangled names),
# and `S` shows the lines by context.  On the
# generated .rpd file the instant UserMarkers draw a marker cell and the
# cursor's lines name the first instant in its cell.  Polls capture-pane
# with a timeout.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 absent: skipped"; exit 77; }
[ -d "$top_srcdir/../shared/corpus/rocpd-schema" ] || {
	echo "no rocpd schema: skipped"
	exit 77
}
python3 "$top_srcdir/tests/gen_rocpd.py" "$tmp/rocpd" >/dev/null || exit 1
python3 "$top_srcdir/tests/gen_nsight.py" "$tmp/ns" --kernels 60 --ranks 1 \
	>/dev/null || exit 1
db=$(ls "$tmp"/rocpd/run/*/*.db | head -n 1)

# first_line DB GROUP: the label of the first GPU line of GROUP that
# `trace --gpu-lines GROUP` prints (the cursor readout numbers lines by
# their place on screen, the batch by the reader's index: labels compare)
first_line() {
	"$cs" --no-cache trace "$1" --at +0 --gpu-lines "$2" --format json \
		2>/dev/null | python3 -c '
import json, sys
g = sys.argv[1]
for l in json.load(sys.stdin)["lines"]:
    if (" stream " in l["label"]) == (g == "stream") and \
            (" queue " in l["label"] or " stream " in l["label"] or
             " context " in l["label"]):
        print(l["label"])
        break' "$2"
}

cursor_line() {
	screen | grep "^Cursor " | sed -n 's/.*(t=[0-9]*)  line [0-9]* of [0-9]* \(.*\)  ctx=.*/\1/p'
}

start "$cs --no-config --no-cache $db" "<program root>" || exit 1
press t "Trace [Main]" "t did not open the trace"
press W "GPU by queue" "the header does not say GPU by queue"
press S "GPU by stream" "S did not show the lines by stream"
wait_for "GPU lines by stream" || fail "S said nothing"
# the cursor was on a host line: it stays there; go to the first stream
# line with Down and check label and index against the batch command
want=$(first_line "$db" stream)
[ -n "$want" ] || fail "trace --gpu-lines stream prints no stream line"
cursor_is() { [ "$(cursor_line)" = "$1" ]; }
cursor_is "$want" || step_until Down 12 cursor_is "$want" ||
	fail "no line '$want' in the stream grouping: $(cursor_line)"
screen | grep -q "queue 0x" && fail "a queue line is shown by stream"
# a kernel on the stream line, its call, and back to the stream line
if step_until . 8 on_screen "^Interval .*; launched by "; then
	kt=$(screen | grep "^Cursor " | sed 's/.*(t=\([0-9]*\)).*/\1/')
	t send-keys -t "$S" a
	wait_change "Cursor " "$(screen | grep '^Cursor ')" 5 >/dev/null
	sync_keys
	case "$(cursor_line)" in
	*" tid "*) ;;
	*) fail "a did not go to the launching call: $(cursor_line)" ;;
	esac
	press a "(t=$kt)" "a did not come back to the kernel at t=$kt"
	[ "$(cursor_line)" = "$want" ] ||
		fail "a came back to '$(cursor_line)', not to the stream line '$want'"
	screen | grep -q "hidden by the line filter" &&
		fail "the way back was hidden"
	# A: each call launched one kernel, found through its twin on the
	# queue line (the call's chain)
	t send-keys -t "$S" A
	wait_for "the only kernel or copy its call launched" ||
		fail "A on a stream line did not find the call's launches"
	[ "$(cursor_line)" = "$want" ] || fail "A left the stream line"
else
	fail "no kernel with a launching call on the stream line"
fi
press S "GPU by queue" "S did not go back to the lines by queue"
want=$(first_line "$db" queue)
[ "$(cursor_line)" = "$want" ] ||
	fail "back by queue, the cursor is on '$(cursor_line)', not '$want'"
t send-keys -t "$S" q
wait_shell || fail "the terminal was not restored"
echo "ok: rocpd lines by queue and by stream"

# Nsight: the flat view is grouped by kind (GPU: kernels, memory copies,
# memory sets; host: CUDA API, NVTX ranges, OS runtime), never
# "<unknown module>"; E opens it down to the calls and kernels, the
# kernels named by their demangled names (two instantiations of one
# template apart); streams first, S shows contexts
start "$cs --no-config --no-cache $tmp/ns/rank0.sqlite" "<program root>" ||
	exit 1
press 3 "Name (flat)" "3 did not show the flat view"
wait_for "─▸ host" || fail "the flat view has no host group"
t send-keys -t "$S" E
wait_for "cudaLaunchKernel_v7000" ||
	fail "the flat view did not open down to the calls"
for kind in "GPU" "kernels" "memory copies" "memory sets" "CUDA API" \
	"NVTX ranges" "OS runtime" "void gemm_tile<float>(float\*)" \
	"void gemm_tile<double>(double\*)"; do
	screen | grep -q "─. $kind" || fail "the flat view has no row '$kind'"
done
screen | grep -q "unknown module" && fail "the flat view shows <unknown module>"
# :set kernel-names base opens the run again in the same terminal: the
# two instantiations are one kernel "gemm_tile"; the summary (#) says so
t send-keys -t "$S" ':set kernel-names base' Enter
wait_for "kernels named by their base names" ||
	fail ":set kernel-names base did not open the run again"
t send-keys -t "$S" 3 E
wait_for "cudaLaunchKernel_v7000" || fail "E did not open the flat view"
screen | grep -q "─  gemm_tile *$" ||
	fail "no kernel gemm_tile after :set kernel-names base"
screen | grep -q "gemm_tile<" && fail "template instantiations after :set kernel-names base"
press '#' "GPU kernels: " "# did not open the summary"
screen | grep -q "  gemm_tile *$" || fail "the summary does not name gemm_tile"
press Escape "Name (flat)" "Esc did not close the summary"
press 1 "Name (top-down)" "1 did not go back to the top-down view"
press t "Trace [Main]" "t did not open the Nsight trace"
press W "GPU by stream" "Nsight: the header does not say GPU by stream"
press S "GPU by context" "Nsight: S did not show the lines by context"
t send-keys -t "$S" q
wait_shell || fail "the terminal was not restored"
echo "ok: Nsight lines by stream and by context"

# instants on the .rpd: a marker cell and the instant's name at the cursor
start "$cs --no-config --no-cache $tmp/rocpd/gen.rpd" "<program root>" ||
	exit 1
press t "Trace [Main]" "t did not open the .rpd trace"
wait_for "Instant tick 0 at +0 ns" || fail "no instant named at the cursor"
screen | grep "^pid 4242 tid 4242 " | grep -q "◆" ||
	fail "no marker cell on the thread's line"
press S "GPU by stream" ".rpd: S did not show the lines by stream"
t send-keys -t "$S" q
wait_shell || fail "the terminal was not restored"
echo "ok: instants drawn and named"
exit $status
