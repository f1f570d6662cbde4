#!/bin/sh
# The viewer's panes in a real terminal (tmux), on a generated database with
# a trace: the status line's key hints follow the bindings (a `bind` in the
# configuration file and one typed at the `:` prompt); `:set` at the prompt
# sets an option through the configuration language; F flattens the
# selected row (its children take its place), again one level further, and
# U undoes one level at a time; the trace timeline sits below the tree,
# beside it (|), full screen (W) and back, and Enter in it shows the
# context in the tree (a request to the core).  Polls capture-pane with a
# timeout, never a bare sleep.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
tmp_home && mkdir "$XDG_CONFIG_HOME/callscope"
gen_db --seed 7 --contexts 400 \
	--threads 3 --ranks 2 --samples 3000

# the status line (the last line)
status_line() { screen | sed -n '$p'; }

# ---- hints follow the bindings -------------------------------------------
# a configuration file moves quit from q to Q and sort from s to S
cat >"$tmp/config" <<'EOF'
bind generic Q quit
bind generic q none
bind generic S sort
bind generic s none
EOF
start "$cs --config $tmp/config $db" "Q quit" || fail "the hint does not show Q for quit"
status_line | grep -qF "S sort" || fail "the hint does not show S for sort: $(status_line)"
status_line | grep -qF "q quit" && fail "the hint still shows q for quit"
# bindings typed at the prompt change the hint at once (a hint shows an
# action's first key: x joins /, then / goes)
enter ":bind generic x search" "bind generic x search" ":bind was not accepted"
press Escape "/ search" "the hint lost / for search"
t send-keys -t "$S" ":bind generic / none" Enter Escape
wait_for "x search" || fail "the hint did not follow :bind (x search)"
wait_gone "/ search" || fail "the hint still shows / after unbinding it"
# the rebound keys work
press S "sorted by" "S did not sort"
t send-keys -t "$S" Q
wait_prompt || fail "Q did not quit"

# ---- :set at the prompt --------------------------------------------------
start "$cs --no-config $db" "q quit" || fail "the viewer did not draw"
enter ":set show-bars = yes" "set show-bars = yes" \
	":set show-bars was not accepted"
wait_for "█" || fail ":set show-bars = yes drew no bars"
enter ":set threshold = 250" "threshold: takes a percentage 0-100" \
	":set threshold = 250 was not refused"
enter ":set nosuch = 1" "unknown option" \
	":set of an unknown option was not refused"
enter ":threshold 0" "set threshold = 0" \
	":threshold did not go through the option table"

# ---- flatten and its undo ------------------------------------------------
t send-keys -t "$S" g j
wait_for "Name  application thread" || fail "j did not select the application thread"
press F "Name  solver::worker_loop" \
	"F did not put the child in the row's place"
wait_gone "─▾ application thread" || fail "F left the flattened row in the tree"
screen | grep -qE "├─. solver::worker_loop" || fail "the child is not at the flattened row's depth"
t send-keys -t "$S" F
wait_for "Name  loop at /home/user/solver/src/solver.cpp:1223" ||
	fail "F again did not flatten one more level"
wait_for "flattened (2)" || fail "no count of the flattens"
press U "Name  solver::worker_loop" \
	"U did not bring the last flattened row back"
wait_for "unflattened (1 left)" || fail "U did not say what is left"
press U "Name  application thread" "U again did not bring the first row back"
wait_for "─▾ application thread" || fail "the row is not back in the tree"
press U "nothing is flattened" "U with nothing flattened"
press "?" "Flatten: the selection is replaced by its children" \
	"help lacks flatten"
wait_for "Undo the last flatten" || fail "help lacks unflatten"
t send-keys -t "$S" q

# ---- the trace beside the tree and full screen ---------------------------
press t "Trace [Main]" "t did not show the trace"
wait_for "t Trace" || fail "no trace tab"
# below the tree: the tree header and the trace header on different lines
line=$(screen | grep -F "Name (top-down)")
printf '%s\n' "$line" | grep -qF "Trace [" && fail "the trace is beside the tree before |"
t send-keys -t "$S" "|"
i=0
until screen | grep -F "Name (top-down)" | grep -qF "Trace [Main]"; do
	i=$((i + 1))
	[ $i -lt 200 ] || { fail "| did not put the trace beside the tree"; screen; break; }
	sleep 0.05
done
# the keys are the trace's: + zooms it
h=$(screen | grep -F "Trace [" | sed 's/.*Trace \[/Trace [/')
t send-keys -t "$S" +
i=0
while [ "$(screen | grep -F "Trace [" | sed 's/.*Trace \[/Trace [/')" = "$h" ]; do
	i=$((i + 1))
	[ $i -lt 200 ] || { fail "+ beside the tree did not zoom the trace"; break; }
	sleep 0.05
done
# full screen: the tree is gone, the trace stays; W again brings it back
t send-keys -t "$S" W
wait_gone "Name (top-down)" || fail "W did not make the trace full screen"
wait_for "Trace [Main]" || fail "W lost the trace"
press W "Name (top-down)" "W again did not bring the tree back"
screen | grep -F "Name (top-down)" | grep -qF "Trace [Main]" ||
	fail "W again did not restore the trace beside the tree"
# Enter in the trace: the context at the cursor selected in the tree, and
# the keys back to the tree (the tab shows it)
t send-keys -t "$S" Right Right Right Right Right Right Right Right Enter
wait_for "selected in the tree" || fail "Enter in the trace did not select its context"
# named as the tree's row reads (main: "context 7554 selected in the
# tree", an id nothing on screen shows)
screen | python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
msg = next((l for l in lines if " selected in the tree" in l), "")
name = msg.split(" selected in the tree")[0].strip()
rows = [l.rstrip() for l in lines if "\u2500" in l or "\u25be" in l or "\u25b8" in l]
if not name or re.fullmatch(r"context \d+", name) or \
        not any(r.endswith(" " + name) for r in rows):
    sys.exit("message %r names no tree row" % msg)' ||
	fail "Enter in the trace: the message does not name the tree row"
# | again: below the tree
t send-keys -t "$S" "|"
i=0
while screen | grep -F "Name (top-down)" | grep -qF "Trace [Main]"; do
	i=$((i + 1))
	[ $i -lt 200 ] || { fail "| again did not put the trace below"; break; }
	sleep 0.05
done
t send-keys -t "$S" q
wait_prompt || fail "q did not quit"
exit $status
