#!/bin/sh
# The compare view in a real terminal (tmux), read back as the escape
# codes tmux draws (capture-pane -e): a delta above 0 is drawn in the
# colour themes/default.theme gives delta-worse, one below 0 in
# delta-better's (read from that file here), each with its sign; with
# NO_COLOR the signs stay and no colour is drawn; `:compare PATH` typed in a
# viewer of one run turns it into the comparison (the terminal set up
# again), an unreadable PATH leaves an error on the status line and the
# view as it was; at 80x24 the four columns' headers fit.  Polls
# capture-pane with a timeout, never a bare sleep.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
mkdir -p "$tmp/cfg" "$tmp/cache" &&
	export XDG_CONFIG_HOME="$tmp/cfg" XDG_CACHE_HOME="$tmp/cache"
for s in "a 200 2" "b 260 3"; do
	set -- $s
	"$gen" -o "$tmp/$1" --seed 11 --contexts "$2" \
		--threads "$3" --no-trace >/dev/null || exit 1
done
dflt=$top_srcdir/themes/default.theme
fg() { awk -v r="$1" '$1 == "color" && $2 == r { print $3 }' "$dflt"; }
worse=$(fg delta-worse)
better=$(fg delta-better)
[ -n "$worse" ] && [ -n "$better" ] && [ "$worse" != "$better" ] ||
	{ echo "FAIL: cannot read delta-worse and delta-better"; exit 1; }
# (escreen, wait_esc, $esc: tests/tmux-env.sh)

# colours (rows not selected): the application thread's +397.0 ms worse;
# in the bottom-up view, MPI_Barrier's -83.00 ms better
start "$cs $tmp/a $tmp/b --compare" "sorted by |delta|" || fail "no compare view"
wait_esc "${esc}[38;5;${worse}m+397.0 ms" || fail "a regression not in delta-worse's colour"
press 2 "-83.00 ms" "the bottom-up view shows no improvement"
wait_esc "${esc}[38;5;${better}m-83.00 ms" || fail "an improvement not in delta-better's colour"
# 80x24: the headers of base, new, |delta| and delta% fit
t resize-window -t "$S" -x 80 -y 24
wait_for "±delta I▼  delta% I" || fail "the headers at 80x24"
t send-keys -t "$S" q
wait_shell || fail "the terminal after quitting"

# NO_COLOR: the signs, no colour
start "NO_COLOR=1 $cs $tmp/a $tmp/b --compare" "sorted by |delta|" || fail "no compare view (NO_COLOR)"
wait_for "+397.0 ms" || fail "no sign without colour"
escreen | grep -qF "${esc}[38;5;${worse}m" && fail "a colour with NO_COLOR"
t send-keys -t "$S" q
wait_shell || fail "the terminal after quitting (NO_COLOR)"

# :compare PATH from one run; an unreadable PATH first
start "$cs $tmp/a" "q quit" || fail "no viewer"
enter ":compare $tmp/nonexistent" "compare: $tmp/nonexistent" \
	"no error for an unreadable run"
screen | head -n 1 | grep -q "(hpctoolkit-v4)" || fail "the view changed after an error"
enter ":compare $tmp/b" "sorted by |delta|" ":compare did not compare"
screen | head -n 1 | grep -qF "$tmp/a -> $tmp/b" || fail "the title after :compare: $(screen | head -n 1)"
wait_esc "${esc}[38;5;${worse}m+397.0 ms" || fail "no colours after :compare"
press '^' "regression 1 of " "^ after :compare"
t send-keys -t "$S" q
wait_shell || fail "the terminal after :compare and quitting"
[ $status = 0 ] && echo "compare in tmux: colours, signs, NO_COLOR, :compare, 80x24"
exit $status
