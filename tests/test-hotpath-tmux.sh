#!/bin/sh
# The hot-path key (H) in a real terminal (tmux) says what it did, on the
# kripke (HPCToolkit v4) and smg2000 (HPCToolkit XML) databases of the
# corpus: how many levels it went down ("1 level", not "1 levels"), that
# the row where it stopped is expanded (Down from it lands on its largest
# child, not on its next sibling), why it stopped (the largest child's
# share of that row below the threshold, and the `:threshold` that goes
# on), that H again there says it stops there instead of claiming to
# continue, and that the suggested threshold does continue below.  The
# expected path, share and threshold come from tests/hotpath_expect.py over
# the batch report, not from the viewer.  Polls capture-pane, never a bare
# sleep.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
kripke=$corpus/hpctoolkit-v4/hpctoolkit-tutorial-examples/cpu/kripke/dbase.expt.1.cputime.t
smg=$corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples/smg2000-wall-trace.db/smg2000.wall.db
[ -e "$kripke" ] && [ -e "$smg" ] || { echo "corpus absent: skipped"; exit 77; }
tmp_home
status_line() { screen | sed -n '$p'; }
# the selected row's name line ends with TEXT
name_is() { screen | grep '^Name ' | grep -qF -- "$1"; }

for db in "$kripke" "$smg"; do
	exp=$("$cs" report "$db" --format json --depth 20 |
		"$py" "$top_srcdir/tests/hotpath_expect.py" 50) ||
		{ fail "$db: no expected hot path"; continue; }
	levels=$(printf '%s\n' "$exp" | cut -f1)
	share=$(printf '%s\n' "$exp" | cut -f2)
	go_on=$(printf '%s\n' "$exp" | cut -f3)
	stop=$(printf '%s\n' "$exp" | cut -f4 | sed 's|.*/||')
	child=$(printf '%s\n' "$exp" | cut -f5 | sed 's|.*/||')
	why="largest child has $share% < 50%; :threshold $go_on goes on"

	start "$cs --no-config $db" "H hot path" ||
		{ fail "$db: the viewer did not draw"; continue; }
	t send-keys -t "$S" H
	wait_for "hot path: $levels levels down; $why" ||
		fail "$db: H does not say '$levels levels down; $why'"
	name_is "$stop" || fail "$db: H did not stop on $stop"
	# the stop row is expanded: Down goes to its largest child
	t send-keys -t "$S" j
	i=0
	until name_is "$child"; do
		i=$((i + 1))
		[ $i -lt 200 ] || { fail "$db: Down after H is not on $child:"
			screen; break; }
		sleep 0.05
	done
	# H again on the stop row: it stops there and says why
	t send-keys -t "$S" k H
	wait_for "hot path stops here; $why" ||
		fail "$db: H again does not say it stops here"
	# one row up (the stop row's parent: the stop is its largest, first
	# child): one level
	t send-keys -t "$S" k H
	wait_for "hot path: 1 level down; $why" ||
		fail "$db: H one row above does not say '1 level down'"
	# the suggested threshold goes on below the stop row
	t send-keys -t "$S" ":threshold $go_on" Enter
	before=$(screen | grep -F "hot path:")
	t send-keys -t "$S" H
	wait_change "hot path:" "$before" ||
		fail "$db: H after :threshold $go_on said nothing new"
	status_line | grep -q "^hot path: [0-9]* levels\? down" ||
		fail "$db: H after :threshold $go_on did not go down: $(status_line)"
	name_is "$stop" && fail "$db: H after :threshold $go_on stayed on $stop"
	t send-keys -t "$S" q
	wait_prompt || fail "$db: q did not quit"
done
exit $status
