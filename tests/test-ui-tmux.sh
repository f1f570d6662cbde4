#!/bin/sh
# The viewer in a real terminal (tmux): it draws, H reaches the hot leaf,
# search reveals, the thread view shows every thread, a resize to 80x20
# still draws, a burst of SIGWINCH is harmless, and q, Ctrl-C, SIGTERM and
# SIGHUP each restore the shell (alternate screen off, prompt back), and so
# does Ctrl-Z, even in a burst of keys (fg brings the viewer back), and so
# does a crash (SIGSEGV), tty modes included.  On a
# database with hostile names (gen-v4db --hostile) no escape sequence
# reaches the terminal: the pane title stays and nothing is cleared.
# Polls capture-pane with a timeout.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
tmp_home
gen_db --answers "$tmp/answers.json" \
	--seed 11 --contexts 400 --threads 3 --ranks 2 --yaml
"$gen" -o "$tmp/hostile" --hostile --seed 5 \
	--contexts 400 --threads 2 --ranks 2 >/dev/null || exit 1
# the viewer on $db in a fresh session, drawn
view() { start "$cs --no-config $db" "q quit"; }
# view_pid WHAT: view (failing with WHAT if it does not draw), its process
# id in $pid
view_pid() {
	view || fail "$1"
	pid=$(pgrep -n -f "$cs --no-config $db")
}

leaf=$(python3 -c "
import json,subprocess,sys
a=json.load(open('$tmp/answers.json'))
r=json.loads(subprocess.run(['$cs','report','$tmp/db','--format','json'],capture_output=True).stdout)
n={x['id']:x['name'] for x in r['nodes']}
print(n[a['hotpath0'][-1]])")

view || fail "the viewer did not draw"

# click_row REGEX COL WHAT: click column COL of the first row matching
# REGEX; the detail strip must then name WHAT
click_row() {
	row=$(t capture-pane -p -t "$S" | grep -n "$1" | head -1 | cut -d: -f1)
	[ -n "$row" ] || { echo "no row matching '$1' to click"; return 1; }
	click "$2" "$row"
	wait_for "Name  $3"
}

# the mouse: a click on a tree row selects it; a click in the trace
# timeline moves its cursor there
click_row "main thread" 120 "main thread" ||
	fail "a click did not select the main thread row"
press t "Cursor +0 ns" "no trace pane cursor"
trow=$(t capture-pane -p -t "$S" | grep -n "RANK 1 THREAD 1" | head -1 | cut -d: -f1)
if [ -n "$trow" ]; then
	click 120 "$trow"
	wait_for "NODE 0 RANK 1 THREAD 1  ctx=" || fail "a click in the trace did not move its cursor"
else
	fail "no trace row to click"
fi
t send-keys -t "$S" t g
wait_for "CPUTIME I" || fail "no column header"
t send-keys -t "$S" ":threshold 0" Enter H
wait_for "Name  $leaf" || fail "H did not reach $leaf"
press T " contexts by " "no thread view"
wait_for "RANK 1 THREAD 2" || fail "thread view lacks RANK 1 THREAD 2"
t send-keys -t "$S" Escape
t send-keys -t "$S" g "/worker_loop" Enter
wait_for "Name  solver::worker_loop" || fail "search did not reveal solver::worker_loop"
# the search moves while it is typed: the name shows before Enter is
# read, and a Ctrl-Z then would flush the Enter still in the tty's queue
sync_keys || fail "the keys after the search were not handled"
t resize-window -t "$S" -x 80 -y 20
wait_for "Top-down" || fail "nothing drawn at 80x20"
[ "$(t capture-pane -p -t "$S" | wc -l)" -le 20 ] || fail "more than 20 lines at 80x20"
t send-keys -t "$S" C-z
wait_shell || fail "Ctrl-Z did not give the shell back"
t send-keys -t "$S" "fg" Enter
wait_for "Top-down" || fail "fg did not redraw the viewer"
[ "$(t display -p -t "$S" '#{alternate_on}')" = 1 ] || fail "fg: the viewer is not on the alternate screen"
# Ctrl-Z typed while the viewer is still busy redrawing for a burst of
# keys (curses itself ignores SIGTSTP during a screen update), and a
# resize while stopped: fg draws at the new size and the mouse still works
t send-keys -t "$S" "$(printf 'jjjjkkkk%.0s' $(seq 1 40))"
t send-keys -t "$S" C-z
wait_shell || fail "Ctrl-Z during a burst of keys did not give the shell back"
t resize-window -t "$S" -x 100 -y 30
t send-keys -t "$S" "fg" Enter
wait_for "Top-down" || fail "fg after a resize did not redraw the viewer"
[ "$(t capture-pane -p -t "$S" | wc -l)" -eq 30 ] || fail "fg did not draw at 100x30"
click_row "application thread$" 80 "application thread" ||
	fail "after fg a click did not select a row"
t send-keys -t "$S" q
wait_shell || fail "q did not restore the shell"

view || fail "second start"
t send-keys -t "$S" C-c
wait_shell || fail "Ctrl-C did not restore the shell"

view_pid "third start"
[ -n "$pid" ] && kill -TERM "$pid"
wait_shell || fail "SIGTERM did not restore the shell"

view_pid "fourth start"
# a burst of resizes: the viewer keeps drawing and still answers keys
if [ -n "$pid" ]; then
	i=0
	while [ $i -lt 200 ]; do
		kill -WINCH "$pid" 2>/dev/null
		i=$((i + 1))
	done
	for size in 100x30 60x15 160x48 90x25 160x48; do
		t resize-window -t "$S" -x "${size%x*}" -y "${size#*x}"
		kill -WINCH "$pid" 2>/dev/null
	done
	kill -0 "$pid" 2>/dev/null || fail "a burst of SIGWINCH killed the viewer"
fi
t send-keys -t "$S" "/worker_loop" Enter
wait_for "Name  solver::worker_loop" || fail "after the SIGWINCH burst, search does not work"
[ -n "$pid" ] && kill -HUP "$pid"
wait_shell || fail "SIGHUP did not restore the shell"

# a crash (SIGSEGV): the handler restores the terminal without curses
# (async-signal-safe): alternate screen off and the tty back in canonical
# mode with echo, which sh -i does not redo by itself
view_pid "fifth start"
[ -n "$pid" ] && kill -SEGV "$pid"
wait_prompt || fail "SIGSEGV did not restore the shell"
tty_sane || fail "SIGSEGV left the tty without icanon/echo"

# hostile names: the OSC title sequence and the clear screen stay text
t set-option -g allow-rename on 2>/dev/null
t set-option -g set-titles on 2>/dev/null
db=$tmp/hostile
view || fail "the viewer did not draw the hostile database"
t select-pane -t "$S" -T "callscope-test"
t send-keys -t "$S" E j j j T
wait_for " contexts by " || fail "hostile: no thread view"
t send-keys -t "$S" Escape o
sync_keys || fail "hostile: o was not handled"
title=$(t display -p -t "$S" '#{pane_title}')
[ "$title" = "callscope-test" ] || fail "hostile: the pane title became '$title'"
t capture-pane -p -t "$S" | grep -qF '\x1b]0;pwned\x07' ||
	fail "hostile: the OSC sequence is not shown as text"
t send-keys -t "$S" q
wait_shell || fail "hostile: q did not restore the shell"
exit $status
