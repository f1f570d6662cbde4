#!/bin/sh
# The performance models of a parametric database in a real terminal
# (tmux; issue 17).  On a generated, non-parametric database the plot (P)
# says why it has nothing to draw.  On Extra-P's text/one_parameter_1.txt
# (corpus): the model column shows the model in short, its growing term
# first (0.2017*x^2 - 0.8898), the detail line under the tree the model string
# Extra-P prints (../shared/expected), the status line under the tree the evaluation point
# (x=60, the largest measured value); D doubles it and the value column
# follows, `:set at x=1000` sets it; the plot pane draws its title, axes
# with ticks and the measured points; ! selects the worst-scaling call
# path; on text/two_parameter_1.txt, X changes the x parameter, % shows
# the heat map with its shade ramp and the measured points, @ D doubles
# the second parameter.  The statistic the models are fitted on: R,
# `:set measure` and the configuration's `set measure` show the model
# `callscope model --measure` prints; on exp_only_mean_median.extra-p,
# `:set models stored 0` and `stored Median Model` show what `callscope
# model --stored` prints, `:set models fitted` goes back; a text file
# stores none and says so.  The corpus
# part is skipped (77) while the Extra-P readers or the modeler are not in
# the program.  Polls capture-pane, never a bare sleep.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
mkdir -p "$tmp/home" && export HOME="$tmp/home"

# ---- not parametric: the plot says so -------------------------------------
gen_db --seed 3 --contexts 50 \
	--threads 2 --samples 0
start "$cs --no-config $tmp/db" "q quit" || fail "the viewer did not draw"
t send-keys -t "$S" P
wait_for "this database is not parametric" ||
	fail "the plot of a non-parametric database gave no reason"
screen | grep -qF "Models at" && fail "model status line on a v4 database"
t send-keys -t "$S" q
wait_shell || fail "q did not quit"

# ---- one_parameter_1.txt --------------------------------------------------
data=${CALLSCOPE_CORPUS:-$top_srcdir/../shared/corpus}/extra-p/extrap/tests/data
input=$data/text/one_parameter_1.txt
expected=${CALLSCOPE_EXPECTED:-$top_srcdir/../shared/expected}/extra-p/text__one_parameter_1.txt.txt
if [ ! -f "$input" ] || [ ! -f "$expected" ]; then
	echo "corpus absent: the Extra-P part skipped"
	[ $status -eq 0 ] && exit 77
	exit $status
fi
if ! "$cs" formats 2>/dev/null | grep -qi extrap; then
	echo "no Extra-P reader in the program: the Extra-P part skipped"
	[ $status -eq 0 ] && exit 77
	exit $status
fi
model=$(sed -n 's/^[[:space:]]*Model: //p' "$expected" | head -n 1)
[ -n "$model" ] || { echo "no model in $expected"; exit 99; }
start "$cs --no-config $input" "q quit" || fail "the viewer did not draw"
if ! wait_for "Models at" 10; then
	echo "no models in the program (modeler absent): the rest skipped"
	t send-keys -t "$S" q
	[ $status -eq 0 ] && exit 77
	exit $status
fi
# the model string as Extra-P prints it on the detail line of the call
# path (j selects it), in short on its row: the growing term first
press j "Model $model" "the detail line lacks Extra-P's model '$model'"
screen | grep -F compute | grep -qE ' 0\.20[12][0-9]*\*x\^2 - 0\.8(9|898) ' ||
	fail "compute's row lacks the short model: $(screen | grep -F compute)"
screen | grep -qF "Models at x=60" || fail "the evaluation point is not x=60"
screen | grep -qF "Value@at" || fail "no Value@at column header"
# the slider: D doubles x, the value column follows
before=$(screen | grep -F -- "*x^2 - 0.8")
press D "Models at x=120" "D did not double x"
wait_change "*x^2 - 0.8" "$before" || fail "the value did not follow the slider"
# model(120) = -0.8898 + 0.20168 * 120^2 = 2903.3
screen | grep -F -- "*x^2 - 0.8" | grep -qF " 2903 " ||
	fail "the value at x=120 is not 2903: $(screen | grep -F -- "*x^2 - 0.8")"
enter ":set at x=1000" "Models at x=1000" ":set at x=1000 was not applied"
# 2.017e+05 at x = 1000
wait_for "2.017e+05" || fail "the value at x=1000 is not 2.017e+05"
# the plot of the root (no measurements) says so; of compute: title, y
# ticks on the axis, x tick labels, points inside the axes
t send-keys -t "$S" g P
wait_for "Plot: time along x" || fail "P did not open the plot"
wait_for "no measurements of this call path" ||
	fail "the root's plot does not say it has no measurements"
t send-keys -t "$S" w j
wait_gone "no measurements of this call path" || fail "j did not select compute"
screen | grep -q "┤" || fail "the plot has no y ticks"
screen | grep -qE "^ *20 .* 1000 *$" ||
	fail "the plot has no x tick labels 20 .. 1000"
screen | grep -E "[│┤]" | grep -qF "●" || fail "the plot has no points"
# the worst-scaling call path: the only one with a model
press "!" "worst-scaling call path #1" "! did not select the worst"
# the statistic of the repetitions: R goes from the mean to the median,
# and the model column then shows what the batch command fits on the
# median (its own process, not the viewer's code path: a stale mean model
# or a model of another statistic would differ in its digits)
median=$("$cs" model --measure median "$input" |
	sed -n 's/^[[:space:]]*Model: //p' | head -n 1)
maximum=$("$cs" model --measure max "$input" |
	sed -n 's/^[[:space:]]*Model: //p' | head -n 1)
[ -n "$median" ] && [ "$median" != "$model" ] && [ -n "$maximum" ] ||
	fail "callscope model --measure median/max gave '$median' '$maximum'"
press R "models: median (R)" "R did not switch to the median"
wait_for "Model of time, median" || fail "the header does not say median"
wait_for "Model $median" ||
	fail "the detail line lacks the median's '$median'"
screen | grep -qF -- "$model" && fail "the mean's model still shows"
wait_for "time along x at x=1000, log  models: median" ||
	fail "the plot's title does not say median"
enter ":set measure maximum" "$maximum" ":set measure maximum: no '$maximum'"
wait_for "models: maximum (R)" || fail "the status line does not say maximum"
enter ":set measure min" "models: minimum (R)" \
	":set measure min was not applied"
press R "models: maximum (R)" "R did not go from minimum to maximum"
press R "$model" "R did not come back to the mean's model"
wait_for "models: mean (R)" || fail "the status line does not say mean"
enter ":set measure mode" "set measure: mean, median, minimum or maximum" \
	":set measure mode was not refused"
# a text file stores no models: a clear message, the fitted ones stay
enter ":set models stored 0" "the file stores no models" \
	":set models stored on a text file gave no clear message"
screen | grep -qF -- "$model" || fail "the fitted models went away"
t send-keys -t "$S" q
wait_shell || fail "q did not quit"

# the configuration file chooses the statistic too
printf 'set measure = median\n' >"$tmp/measure.conf"
start "$cs --config $tmp/measure.conf $input" "Models at" ||
	fail "the viewer did not draw with set measure = median"
press j "$median" "set measure = median (config): no '$median'"
t send-keys -t "$S" q
wait_shell || fail "q did not quit"

# ---- a stored model set: exp_only_mean_median.extra-p ---------------------
# two stored sets, "Default Model" and "Median Model"; the model column
# detail line shows them as `callscope model --stored` prints them (their
# first 40 characters, which the fitted models' digits already differ in)
stored_input=$data/input/exp_only_mean_median.extra-p
first_model() {
	"$cs" model "$@" "$stored_input" | sed -n 's/^[[:space:]]*Model: //p' |
		head -n 1 | cut -c1-40
}
s0=$(first_model --stored 0)
s1=$(first_model --stored "Median Model")
fit=$(first_model)
[ -n "$s0" ] && [ -n "$s1" ] && [ "$s0" != "$fit" ] && [ "$s1" != "$s0" ] ||
	fail "callscope model --stored gave '$s0' '$s1' (fitted '$fit')"
start "$cs --no-config $stored_input" "Models at" ||
	fail "exp_only_mean_median.extra-p: no models"
t send-keys -t "$S" j # merge: its model on the detail line
wait_for "$fit" || fail "the fitted model '$fit' does not show"
enter ":set models stored 0" "$s0" ":set models stored 0: no '$s0'"
wait_for "models: stored 0 Default Model" ||
	fail "the status line does not name the stored set"
wait_for "Model of time, stored 0" || fail "the header does not say stored"
screen | grep -qF -- "$fit" && fail "the fitted model still shows"
enter ":set models stored Median Model" "$s1" \
	":set models stored Median Model: no '$s1'"
wait_for "models: stored 1 Median Model" ||
	fail "the status line does not name the Median Model"
enter ":set models stored 7" "no stored set '7' (4 stored: 0 Default Model, 1 Median Model" \
	":set models stored 7 was not refused"
enter ":set models fitted" "$fit" ":set models fitted did not bring back '$fit'"
wait_for "models: mean (R)" || fail "the status line does not say mean"
t send-keys -t "$S" q
wait_shell || fail "q did not quit"

# ---- two_parameter_1.txt: the heat map over x and y -----------------------
start "$cs --no-config $data/text/two_parameter_1.txt" "Models at x=60 y=5" ||
	fail "two_parameter_1.txt: no models at x=60 y=5"
t send-keys -t "$S" j P
wait_for "Plot: metr along x at x=60 y=5" || fail "P did not plot along x"
press X "Plot: metr along y" "X did not put y on the x axis"
press % "(heat map)" "% did not show the heat map"
# the scale: the ramp between the smallest and largest value
wait_for "$(printf '\302\267\342\226\221\342\226\221\342\226\222')" ||
	fail "the heat map has no shade ramp"
screen | grep -qF "×" || fail "the heat map does not mark the measured points"
# @ moves the slider to y, D doubles y alone
t send-keys -t "$S" @ D
wait_for "Models at x=60 y=10" || fail "@ D did not double y"
t send-keys -t "$S" q
wait_shell || fail "q did not quit"

# ---- sorting by severity ---------------------------------------------------
# four call paths under main whose order by name, by the mean at the last
# point (x=32) and by the model at x=1024 all differ: alpha 1 + x^2,
# bravo 5000, charlie 10 x, delta 2000 + x.  After `:sort severity` the
# tree's rows under main must be in descending order of the model values
# that `callscope report --at` computes (the batch path, not the viewer's),
# and follow the evaluation point and `:set severity growth` (the value
# at x=1024 over the value at the largest measured x, 32).
sev=$tmp/severity.txt
{
	echo "PARAMETER x"
	echo "POINTS 2 4 8 16 32"
	for r in "alpha 5 17 65 257 1025" "bravo 5000 5000 5000 5000 5000" \
		"charlie 20 40 80 160 320" "delta 2002 2004 2008 2016 2032"; do
		set -- $r
		echo "REGION main->$1"
		shift
		for v in "$@"; do echo "DATA $v"; done
	done
} >"$sev"
"$cs" report "$sev" --at x=1024 --format json >"$tmp/at1024.json" &&
	"$cs" report "$sev" --at x=32 --format json >"$tmp/at32.json" ||
	fail "report --at on $sev"
# the names under main in descending order of a quantity: value at 1024,
# value at 32, or growth 1024 / 32
want_order() {
	python3 - "$tmp/at1024.json" "$tmp/at32.json" "$1" <<'PY'
import json, sys
def vals(path):
    nodes = json.load(open(path))["nodes"]
    return {n["name"]: n["model_values"][0] for n in nodes
            if n["depth"] == 2}
a, b, what = vals(sys.argv[1]), vals(sys.argv[2]), sys.argv[3]
q = a if what == "1024" else b if what == "32" else \
    {k: a[k] / b[k] for k in a}
print(" ".join(sorted(q, key=lambda k: -q[k])))
PY
}
# the call paths' rows in the tree, top to bottom
shown_order() {
	screen | grep -E "[├└]─" |
		sed -nE 's/.*[├└]─ *(alpha|bravo|charlie|delta) *$/\1/p' |
		tr '\n' ' ' | sed 's/ $//'
}
w1024=$(want_order 1024)
w32=$(want_order 32)
wgrowth=$(want_order growth)
[ "$w1024" = "alpha charlie bravo delta" ] && [ "$w32" != "$w1024" ] &&
	[ "$wgrowth" != "$w1024" ] ||
	fail "report --at gave unexpected orders: '$w1024' '$w32' '$wgrowth'"
start "$cs --no-config $sev" "Models at x=32" ||
	fail "$sev: no models at x=32"
enter ":set at x=1024" "Models at x=1024" ":set at x=1024 was not applied"
[ "$(shown_order)" = "$w1024" ] &&
	fail "sorted by severity before :sort severity"
enter ":sort severity" "sort: severity  slider" \
	":sort severity: no 'sort: severity'"
[ "$(shown_order)" = "$w1024" ] ||
	fail "sort severity at x=1024: '$(shown_order)', want '$w1024'"
enter ":set severity growth" "severity: growth" \
	":set severity growth was not applied"
[ "$(shown_order)" = "$wgrowth" ] ||
	fail "sort severity by growth: '$(shown_order)', want '$wgrowth'"
t send-keys -t "$S" ":set severity value" Enter ":set at x=32" Enter
wait_for "Models at x=32" || fail ":set at x=32 was not applied"
wait_for "severity: value" || fail ":set severity value was not applied"
[ "$(shown_order)" = "$w32" ] ||
	fail "sort severity at x=32: '$(shown_order)', want '$w32'"
# s goes from the severity back to the metric column
t send-keys -t "$S" s
wait_gone "sort: severity" || fail "s did not leave the severity sort"
t send-keys -t "$S" q
wait_shell || fail "q did not quit"
exit $status
