#!/bin/sh
# Themes in a real terminal (tmux), read back as the escape codes tmux
# draws (capture-pane -e): `theme light` in the configuration file and
# `:theme light` at the prompt draw the percent column and the selected row
# in the colours themes/light.theme gives them (read from that file here),
# not the default theme's; `:theme mono` draws the selected row in reverse
# video; the prompt says which roles the configuration's own `color` lines
# keep, and that a terminal without colours shows attributes only; without
# colours (NO_COLOR=1, TERM=vt100) the selected row is in reverse video,
# not only bold.  Polls capture-pane with a timeout, never a bare sleep.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
tmp_home && mkdir "$XDG_CONFIG_HOME/callscope"
gen_db --seed 7 --contexts 50 \
	--threads 1 --ranks 1 --samples 500

# a role's colour in a theme file as tmux writes it: fg [bg]
theme_fg() { awk -v r="$2" '$1 == "color" && $2 == r { print $3 }' "$1"; }
theme_bg() { awk -v r="$2" '$1 == "color" && $2 == r { print $4 }' "$1"; }
light=$top_srcdir/themes/light.theme
dflt=$top_srcdir/themes/default.theme
pct_fg=$(theme_fg "$light" percent)
sel_fg=$(theme_fg "$light" selected)
sel_bg=$(theme_bg "$light" selected)
dflt_pct=$(theme_fg "$dflt" percent)
[ -n "$pct_fg" ] && [ -n "$sel_fg" ] && [ -n "$sel_bg" ] &&
	[ -n "$dflt_pct" ] && [ "$pct_fg" != "$dflt_pct" ] ||
	{ echo "FAIL: cannot read the themes"; exit 1; }

# the line of the selected row: the second tree row after `j`, the one
# whose text holds the first child of the root's first child (escreen,
# wait_esc: tests/tmux-env.sh)
selected_line() { escreen | sed -n "$1p"; }
# the tree's first row is on screen line 4 (title, tabs, header): select
# the third row (j j) and read its line
sel_row=6
# wait_reverse WHAT: poll (10 s) until the selected row is in reverse video
wait_reverse() {
	n=0
	until selected_line $sel_row | grep -q "${esc}\[\([0-9;]*;\)\?7m"; do
		n=$((n + 1))
		[ $n -lt 200 ] || { fail "$1: the selected row is not reverse:"
			selected_line $sel_row | sed "s/$esc/^[/g"; return 1; }
		sleep 0.05
	done
}
# wait_line LINE TEXT: poll (10 s) until screen line LINE holds TEXT
wait_line() {
	n=0
	until selected_line "$1" | grep -qF -- "$2"; do
		n=$((n + 1))
		[ $n -lt 200 ] || return 1
		sleep 0.05
	done
}

# ---- `theme light` in the configuration file -----------------------------
printf 'theme light\n' >"$tmp/home/.config/callscope/config"
start "$cs $db" "q quit" || fail "the viewer did not draw"
t send-keys -t "$S" j j
wait_esc "${esc}[38;5;${sel_fg}m${esc}[48;5;${sel_bg}m" ||
	fail "theme light (file): the selected row is not $sel_fg on $sel_bg"
# poll: the first j already draws a selected row (line 5) in these colours
wait_line $sel_row "${esc}[48;5;${sel_bg}m" ||
	fail "theme light (file): line $sel_row is not the selected row"
escreen | grep -qF "${esc}[38;5;${pct_fg}m" ||
	fail "theme light (file): no percent in colour $pct_fg"
escreen | grep -qF "${esc}[38;5;${dflt_pct}m" &&
	fail "theme light (file): the default theme's percent colour stays"
t send-keys -t "$S" q
wait_prompt || fail "q did not quit"
rm -f "$tmp/home/.config/callscope/config"

# ---- `:theme` at the prompt ------------------------------------------------
start "$cs $db" "q quit" || fail "the viewer did not draw"
t send-keys -t "$S" j j
wait_esc "${esc}[38;5;${dflt_pct}m" || fail "the default theme is not drawn"
t send-keys -t "$S" ":theme light" Enter
wait_esc "${esc}[38;5;${pct_fg}m" ||
	fail ":theme light: no percent in colour $pct_fg"
wait_esc "${esc}[38;5;${sel_fg}m${esc}[48;5;${sel_bg}m" ||
	fail ":theme light: the selected row is not $sel_fg on $sel_bg"
wait_for "theme light" || fail ":theme light says nothing"
# mono: attributes only, the selected row in reverse video
enter ":theme mono" "theme mono" ":theme mono says nothing"
wait_reverse ":theme mono"
escreen | grep -qF "${esc}[38;5;" && fail ":theme mono: colours remain"
# the configuration's own color lines win over a theme, and it says so
t send-keys -t "$S" ":color percent 200 default" Enter
wait_esc "${esc}[38;5;200m" || fail ":color percent 200 not drawn"
enter ":theme light" "theme light; your color lines keep percent" \
	":theme light does not say that percent keeps its colour"
escreen | grep -qF "${esc}[38;5;200m" ||
	fail ":theme light replaced the color line's percent"
enter ":theme nosuchtheme" "theme 'nosuchtheme' not found" \
	":theme nosuchtheme does not say it is not found"
t send-keys -t "$S" q
wait_prompt || fail "q did not quit"

# ---- no colours: the selected row in reverse video --------------------------
for envs in "NO_COLOR=1" "TERM=vt100"; do
	# vt100 has no alternate screen: clear the screen after it
	start "env $envs $cs $db; clear" "q quit" ||
		{ fail "$envs: the viewer did not draw"; continue; }
	t send-keys -t "$S" j j
	wait_reverse "$envs"
	enter ":theme light" "theme light: attributes only" \
		"$envs: :theme light does not say the terminal has no colours"
	t send-keys -t "$S" q
	wait_prompt || fail "$envs: q did not quit"
done
exit $status
