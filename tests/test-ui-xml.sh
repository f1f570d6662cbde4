#!/bin/sh
# The viewer, headless, on experiment.xml databases of ../shared/corpus: the
# first frame shows the tree with values and percentages, the thread view
# lists every rank of the cpi database with the values of its metric-db
# files, and the trace pane of inline.xml.db shows its 8 thread lines.
# pop: the statistic columns are told apart by their variant in the header
# (too narrow for the metric name), and hpcprof's artifacts (DBL_MIN Min,
# exclusive Mean of 0 where there is no exclusive value) are not shown, and
# its trace statistics list each function once (merged over contexts);
# kripke (per-thread files of zeros): the warning on the status line.
. "${top_srcdir:-.}/tests/test-lib.sh"
corpus="$top_srcdir/../shared/corpus/hpctoolkit-xml"
[ -d "$corpus" ] || { echo "no $corpus: skipped"; exit 77; }
mkdir -p "$tmp/home" && export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
export TERM=xterm-256color LANG=C.UTF-8
cpi="$corpus/hatchet/hatchet/tests/data/hpctoolkit-cpi-database"
inl="$corpus/hpcviewer.e4/tests/resources/xml/inline.xml.db"
pop="$corpus/hpctoolkit/doc/www/examples/pop-mpi-8-x86-wallclock/pop-8-trace-db"
kri="$corpus/hatchet-pr135/hatchet/tests/data/hpctoolkit-kripke-trace-database"

screen() { # DB KEYS: the screen after KEYS, in $tmp/screen
	if ! "$cs" --headless --no-config --size 120x40 --keys "$2" "$1" \
		>"$tmp/screen" 2>"$tmp/err"; then
		echo "FAIL: $1 keys '$2': $(cat "$tmp/err")"
		status=1
	fi
}
expect() { # TEXT: the screen shows TEXT
	grep -qF -- "$1" "$tmp/screen" || {
		echo "FAIL: screen lacks '$1':"
		cat "$tmp/screen"
		status=1
	}
}

# T at the root: experiment.xml writes the summaries with %g's 6 digits
# (cpi's root "3.99824e+06" us of 3998242; smg2000's "3.83e+08" of
# 383000300): the thread sum rounded so equals them, not "the database's
# summary is not the sum of these values" (by 5e-05%, main before)
smg="$corpus/hpctoolkit/doc/www/examples/smg2000-wall-trace.db/smg2000.wall.db"
for db in "$cpi" "$pop" "$smg"; do
	[ -d "$db" ] || continue
	screen "$db" "T"
	expect "= stored summary"
	if grep -q "is not the sum" "$tmp/screen"; then
		echo "FAIL: $db: the thread sum is said to differ:"
		grep "thread sum" "$tmp/screen"
		status=1
	fi
done

# kripke's root has no value (its per-thread files hold only zeros): T
# says so instead of a list of zeros "= stored summary (none)" (main)
screen "$kri" "T"
expect "threads: the selection has no value in this column (s sorts by another)"

# first frame: the root is 3998242 us (the XML's <M n="2"> at the root),
# shown in seconds: 3.998 s
screen "$cpi" ""
expect "callscope  cpi"
expect "3.998 s 100.0%"
expect "<program root>"
# expand down to main (the hot path) and show it
screen "$cpi" "H"
expect "main"
expect "MPI_Finalize"
# thread view: 4 ranks, one metric-db file each
screen "$cpi" "HT"
expect "4 execution contexts"
for r in 0 1 2 3; do expect "RANK $r THREAD 0"; done
# trace pane: the 8 lines of experiment.mt, labelled without the "RANK 0 "
# all of them share
screen "$inl" "tW"
expect "lines 0-7 of 8"
for t in 0 1 2 3 4 5 6 7; do expect "THREAD $t "; done
# pop at 200 columns: Sum, Mean, StdDev, CfVar, Min, Max (I) then (E)
if [ -d "$pop" ]; then
	"$cs" --headless --no-config --size 200x20 --keys "" "$pop" \
		>"$tmp/screen" 2>"$tmp/err" || { echo "FAIL: pop"; status=1; }
	expect "Mean I  StdDev I   CfVar I     Min I     Max I"
	expect "Mean E  StdDev E   CfVar E     Min E     Max E"
	# the root (WALLCLOCK in us, shown in s, ms): Sum 6.12142e+07 us,
	# Mean 7.652 s = 6.12142e+07 / 8, StdDev 2.02e+05 us, CfVar (no
	# unit) 2.64e-02, Min 7.32455e+06 us, Max 8.00e+06 us (XML)
	expect " 61.21 s 100.0%   7.652 s  202.1 ms  2.64e-02   7.325 s   8.002 s "
	if grep -qF -e "e-308" -e "0.00e+00" "$tmp/screen"; then
		echo "FAIL: pop shows hpcprof's sentinels:"
		cat "$tmp/screen"
		status=1
	fi
	# trace statistics at depth 6: one entry per function name (the
	# colour), not per calling context (__state_mod__state has several)
	screen "$pop" "tW))))))VVV"
	expect "depth 6/"
	expect "__state_mod__state"
	dups=$(grep -E '^ [a-z.]{2} +[0-9.]+% +[0-9]+  ' "$tmp/screen" |
		awk '{ $1 = $2 = $3 = ""; print }' | sort | uniq -d)
	if [ -n "$dups" ]; then
		echo "FAIL: pop trace statistics list a function twice: $dups"
		cat "$tmp/screen"
		status=1
	fi
fi
# the batch report's header: the same statistics by variant
if [ -d "$pop" ]; then
	"$cs" report "$pop" --depth 0 >"$tmp/screen" 2>"$tmp/err" ||
		{ echo "FAIL: report pop"; status=1; }
	expect "WALLCLOCK (us) (I)    Mean (I)  StdDev (I)   CfVar (I)     Min (I)     Max (I)  WALLCLOCK (us) (E)"
fi
screen "$kri" ""
expect "per-thread files (*.metric-db or experiment-1.mdb) hold only zeros"
expect "(and more)"
# the other one: its <TraceDB> has no *.hpctrace beside it (hatchet kept
# only the metric-db files)
"$cs" info "$kri" >"$tmp/screen" 2>/dev/null
expect "declares a trace (<TraceDB>) but the directory has no trace files"
# the 2020 sparse sample: a trace.db whose one line is empty
e4="$top_srcdir/../shared/corpus/hpctoolkit-sparse-2020/hpcviewer.e4/tests/resources/prof2/empty-trace"
if [ -d "$e4" ]; then
	screen "$e4" ""
	expect "the trace has no samples (every trace line is empty)"
fi
exit $status
