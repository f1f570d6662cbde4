#!/bin/sh
# Keys and the pane that has them, in a real terminal (tmux): a key whose
# action works in another pane says where and the key that gets there,
# instead of doing nothing (V with the tree focused: "V works in the trace:
# w moves the keys there", or "t shows it" when the trace is not shown; H
# with the trace focused or the threads pane in front; y, the flame graph's
# sandwich, in the tree: "x shows it"); Enter in a
# full-screen trace brings the tree back with the keys; the plot's title
# says when it does not have the keys ("[w: keys]", as the trace's does);
# the help groups the keys by the pane they work in (headless).  Polls
# capture-pane with a timeout, never a bare sleep.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
tmp_home
gen_db --seed 7 --contexts 200 \
	--threads 2 --ranks 2 --samples 2000

start "$cs --no-config $db" "q quit" || fail "the viewer did not draw"
# no trace shown: a trace key says which key shows it
press V "V works in the trace: t shows it" "V without a trace is silent"
# y (the sandwich) works in the flame graph only: main said nothing
press y "y works in the flame graph: x shows it" "y in the tree is silent"
# the trace shown, the keys in the tree
press t "Trace [" "t did not show the trace"
press w "w: keys]" "w did not move the keys to the tree"
for k in V ')' +; do
	t send-keys -t "$S" "$k"
	wait_for "$k works in the trace: w moves the keys there" ||
		fail "$k with the tree focused is silent"
	t send-keys -t "$S" Escape
done
# the keys in the trace: a tree key says so
t send-keys -t "$S" w
wait_gone "w: keys]" || fail "w did not move the keys to the trace"
t send-keys -t "$S" H
wait_for "H works in the tree: w moves the keys there" ||
	fail "H with the trace focused is silent"
# full screen, Enter: the tree comes back, with the keys
t send-keys -t "$S" W
wait_gone "Name (top-down)" || fail "W did not make the trace full screen"
# the cursor starts before the first sample: to the first change first
t send-keys -t "$S" .
wait_gone "no sample at or before the cursor" || fail ". did not move the cursor"
press Enter "selected in the tree" "Enter in the trace did not select"
wait_for "Name (top-down)" || fail "Enter in a full-screen trace left the tree hidden"
wait_for "w: keys]" || fail "the tree does not have the keys after Enter"
# w from a full-screen trace to the tree also shows the tree
t send-keys -t "$S" w W
wait_gone "Name (top-down)" || fail "W did not make the trace full screen again"
press w "Name (top-down)" "w from a full-screen trace left the tree hidden"
# the threads pane in front: a tree key says how to get back
press T "thread sum" "T did not open the threads pane"
t send-keys -t "$S" H
wait_for "H works in the tree: Esc closes this pane" ||
	fail "H in the threads pane is silent"
t send-keys -t "$S" Escape q
wait_prompt || fail "q did not quit"

# ---- the plot's focus marker (a parametric database) ----------------------
xp=$top_srcdir/../shared/corpus/extra-p/extrap/tests/data/comparison/lulesh-cpu_demangled.extra-p
if [ -e "$xp" ]; then
	start "$cs --no-config $xp" "q quit" || fail "the viewer did not draw $xp"
	press P "Plot: " "P did not show the plot"
	press w "Plot [w: keys]: " "the plot's title has no focus marker"
	t send-keys -t "$S" %
	wait_for "% works in the plot: w moves the keys there" ||
		fail "% with the tree focused is silent"
	press w "Plot: " "w did not give the plot the keys"
	t send-keys -t "$S" q
	wait_prompt || fail "q did not quit $xp"
else
	echo "no $xp: plot part skipped"
fi

# ---- the help groups the keys by pane (headless, tall) ----------------------
"$cs" --headless --no-config --size 120x120 --keys '?' "$db" >"$tmp/help" ||
	fail "help did not draw"
# the line number of the first line holding TEXT
at() { grep -nF -- "$1" "$tmp/help" | head -1 | cut -d: -f1; }
tree_at=$(at "Tree   Esc or q closes this help")
any_at=$(at "Any pane")
trace_at=$(at "Trace timeline, when it has the keys")
plot_at=$(at "Model plot, when it has the keys")
models_at=$(at "Models (parametric databases")
flame_at=$(at "Flame graph (x)")
cmds_at=$(at "Commands (:)")
in_group() { # ACTION FROM TO: the action's line is between the headers
	n=$(grep -nE " $1 " "$tmp/help" | head -1 | cut -d: -f1)
	[ -n "$n" ] && [ -n "$2" ] && [ -n "$3" ] && [ "$n" -gt "$2" ] &&
		[ "$n" -lt "$3" ] || fail "help: $1 is not between lines $2 and $3 ($n)"
}
in_group hot-path "$tree_at" "$any_at"
in_group flatten "$tree_at" "$any_at"
in_group quit "$any_at" "$trace_at"
in_group trace-focus "$any_at" "$trace_at"
in_group trace-view "$trace_at" "$plot_at"
in_group trace-zoom-in "$trace_at" "$plot_at"
in_group plot-heatmap "$plot_at" "$models_at"
in_group worst-scaling "$models_at" "$flame_at"
in_group sandwich "$flame_at" "$cmds_at"
exit $status
