# tests/tmux-env.sh: sourced by the tests that drive the viewer in a real
# terminal (tmux), after tests/http-env.sh when a test uses both.  Exits 77
# when tmux is absent.  Uses $tmp (makes it, and removes it at exit, when
# no helper made it before), runs a private tmux server on $tmp/tmux.sock
# and kills it at exit (through http-env.sh's $at_exit when that is
# sourced), and defines
#   t ARGS...            tmux on the private socket
#   screen               the current session's screen, as text
#   start CMD [TEXT]     a fresh session $S: `sh -i` in a 160x48 terminal
#                        with PS1='READY> ', TERM=xterm-256color and
#                        LANG=C.UTF-8 (the previous session is killed once
#                        the new one is up, so the server stays); CMD is
#                        typed once the prompt shows; with TEXT, waits
#                        for TEXT on the screen too (10 s)
#   wait_for TEXT [SECS] poll the screen until TEXT shows (default 10 s);
#                        on a timeout the screen is printed, status 1
#   wait_change TEXT OLD [SECS]
#                        poll until the screen's lines holding TEXT are
#                        there and differ from OLD (what they were before
#                        a key; default 10 s)
#   wait_gone TEXT [SECS] poll until TEXT no longer shows (default 10 s)
#   press KEY TEXT MSG   send KEY, then wait_for TEXT; when it does not
#                        show, the test's fail MSG
#   enter CMD TEXT MSG   the same for a command line typed whole (":set
#                        ...") and Enter
#   step_until KEY N TEST...
#                        press a cursor key until the command TEST holds
#                        (below); on_screen PATTERN, such a test
#   escreen              the screen with the escape codes tmux draws
#                        (capture-pane -e); $esc is the escape character
#   wait_esc TEXT        poll escreen until it holds TEXT (a fixed string,
#                        escapes included; 10 s); on a timeout its first
#                        lines are printed, escapes as ^[, status 1
#   sync_keys            the keys sent so far are handled and drawn: types
#                        the command line ":sync N", waits for it, cancels
#                        it with Escape and waits for it to go (keys are
#                        handled in order); for a burst of keys whose
#                        final screen cannot be told in advance
#   wait_prompt          the program is gone: the alternate screen off and
#                        the last non-blank line the READY> prompt (10 s)
#   tty_sane             types an stty probe: the tty is in canonical mode
#                        with echo (5 s)
#   wait_shell           wait_prompt, then tty_sane
#   click COL ROW        an SGR mouse press and release (1-based), as
#                        xterm sends
: "${top_srcdir:=.}" "${top_builddir:=.}"
command -v tmux >/dev/null 2>&1 || { echo "tmux absent: skipped"; exit 77; }
if [ -z "${tmp:-}" ]; then
	tmp=$(mktemp -d) || exit 99
	at_exit=
	trap 'eval "$at_exit"; rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
fi
sock="$tmp/tmux.sock"
t() { tmux -S "$sock" "$@"; }
at_exit="t kill-server 2>/dev/null; ${at_exit:-}"

screen() { t capture-pane -p -t "$S"; }
escreen() { t capture-pane -e -p -t "$S"; }
esc=$(printf '\033')

wait_esc() {
	i=0
	while [ $i -lt 200 ]; do
		escreen | grep -qF -- "$1" && return 0
		i=$((i + 1))
		sleep 0.05
	done
	echo "--- screen (escapes as ^[) while waiting for escape '$1':"
	escreen | sed "s/$esc/^[/g" | head -12
	return 1
}

wait_for() {
	i=0
	limit=$(( ${2:-10} * 20 ))
	while [ $i -lt $limit ]; do
		if screen | grep -qF -- "$1"; then
			return 0
		fi
		i=$((i + 1))
		sleep 0.05
	done
	echo "--- screen while waiting for '$1':"
	screen
	return 1
}

wait_change() {
	i=0
	limit=$(( ${3:-10} * 20 ))
	while [ $i -lt $limit ]; do
		now=$(screen | grep -F -- "$1")
		[ -n "$now" ] && [ "$now" != "$2" ] && return 0
		i=$((i + 1))
		sleep 0.05
	done
	echo "--- screen while waiting for '$1' to change from '$2':"
	screen
	return 1
}

wait_gone() {
	i=0
	limit=$(( ${2:-10} * 20 ))
	while [ $i -lt $limit ]; do
		screen | grep -qF -- "$1" || return 0
		i=$((i + 1))
		sleep 0.05
	done
	echo "--- screen while waiting for '$1' to go:"
	screen
	return 1
}

press() {
	t send-keys -t "$S" "$1"
	wait_for "$2" || fail "$3"
}

enter() {
	t send-keys -t "$S" "$1" Enter
	wait_for "$2" || fail "$3"
}

# step_until KEY N TEST...: press KEY (a key that moves the trace cursor)
# until the command TEST succeeds, at most N times, each press waiting for
# the cursor readout to change; the status of the last TEST.
step_until() {
	step_key=$1 step_left=$2
	shift 2
	while [ "$step_left" -gt 0 ]; do
		step_was=$(screen | grep "^Cursor ")
		t send-keys -t "$S" "$step_key"
		wait_change "Cursor " "$step_was" 5 >/dev/null
		"$@" && return 0
		step_left=$((step_left - 1))
	done
	"$@"
}
# on_screen PATTERN: whether the screen matches the basic regex PATTERN
on_screen() { screen | grep -q -- "$1"; }

tmux_syncs=0
sync_keys() {
	tmux_syncs=$((tmux_syncs + 1))
	t send-keys -t "$S" -l ":sync $tmux_syncs"
	wait_for ":sync $tmux_syncs" || return 1
	t send-keys -t "$S" Escape
	wait_gone ":sync $tmux_syncs"
}

wait_prompt() {
	i=0
	# 30 s: a viewer busy with a burst of keys on a loaded machine (make
	# -j2 check beside the sanitizer build) takes its time to stop
	while [ $i -lt 600 ]; do
		if [ "$(t display -p -t "$S" '#{alternate_on}')" = 0 ] &&
		   screen | grep -v "^ *$" | tail -n 1 | grep -qx "READY> *"; then
			return 0
		fi
		i=$((i + 1))
		sleep 0.05
	done
	echo "--- screen while waiting for the prompt:"
	screen
	return 1
}

# each probe prints its own number, so that an earlier probe's answer
# still on the screen does not count
tty_probes=0
tty_sane() {
	tty_probes=$((tty_probes + 1))
	t send-keys -t "$S" "stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | sort | tr '\\n' + ; echo \" probe $tty_probes\"" Enter
	wait_for "echo+icanon+ probe $tty_probes" 5
}

wait_shell() { wait_prompt && tty_sane; }

tmux_sessions=0
S=s0
start() {
	tmux_old=$S
	tmux_sessions=$((tmux_sessions + 1))
	S=s$tmux_sessions
	t new-session -d -s "$S" -x 160 -y 48 "env PS1='READY> ' TERM=xterm-256color LANG=C.UTF-8 sh -i"
	t kill-session -t "$tmux_old" 2>/dev/null
	wait_for "READY>" || return 1
	t send-keys -t "$S" "$1" Enter
	[ $# -lt 2 ] || wait_for "$2"
}

click() {
	t send-keys -t "$S" -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"
}
