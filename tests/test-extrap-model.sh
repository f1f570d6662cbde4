#!/bin/sh
# `callscope model --format json` end to end (the Extra-P readers and the
# fitter) against Extra-P 4.2.5's own models for inputs of every reader
# format on main (single Cube files read as Extra-P's reference run read
# them, twice as a two-point set: their MINDOUBLE / MAXDOUBLE metrics
# min_time and max_time are modelled as Extra-P models them), and the
# Nsight and Extra-Prof sets against v4.3.0-beta2's
# (tests/check_extrap_model.py: model text, constant,
# coefficients, RSS, AR2, SMAPE, RE within 1e-6; and the texts of the
# model sets stored in .extra-p and Extra-P 3 files); then `report --at`: the
# model column equals the model evaluated at the point, and unknown or
# missing parameters and a database that is not parametric are one-line
# errors with exit status 2.  Skipped (77) where ../shared/expected is
# absent (a tarball's build).
top_srcdir=${top_srcdir:-.}
exp=$top_srcdir/../shared/expected/extra-p
[ -d "$exp" ] || { echo "no $exp: skipped"; exit 77; }
python3 "$top_srcdir/tests/check_extrap_model.py" ./callscope "$exp" \
	"$top_srcdir" \
	text__one_parameter_1.txt text__one_parameter_2.txt \
	text__one_parameter_6.txt text__two_parameter_1.txt \
	text__mpa__2_param_base.txt text__mpa__3_param_base.txt \
	text__mpa__4_param_add.txt input__input_data_3p.txt \
	input__experiments_MP__experiment_MP.txt talpas__talpas_1.txt \
	talpas__talpas_5.txt json__input_1.JSON json__new__input1.json \
	jsonlines__extended2.jsonl jsonlines__matrix_4p.jsonl \
	jsonlines__sparse_matrix_2p.jsonl jsonlines__matrix_3p_bands.jsonl \
	text__two_parameter_7.txt cubeset__multi_parameter \
	cubeset__single_parameter input__exp_only_mean_median.extra-p \
	experiments__two_parameter3.txt.extra-p input__experiment_3 \
	nsight__sampled_callchains nsight__nsys_db__con_kernel.sqlite \
	extra_prof__test1 extra_prof__test2 extra_prof__test3 \
	extra_prof__test4 extra_prof__test_with_energy \
	cube__pycubexr__data__blast.p64.r1__profile.cubex \
	cube__pycubexr__data__bt-mz_sum.p2.r1__cube4.8_with_checksum_bug.cubex \
	cube__pycubexr__data__call_tree_test__call_tree_test.cubex \
	cube__pycubexr__data__time.p4.n2000.x1.r0__profile.cubex
[ $? -eq 0 ] || exit 1

set -u
data=$top_srcdir/../shared/corpus/extra-p/extrap/tests/data
one=$data/text/one_parameter_1.txt
two=$data/text/two_parameter_1.txt
fail() { echo "FAIL: $*"; exit 1; }
./callscope model --format json "$one" >model.json.tmp || fail "model $one"
./callscope report "$one" --at x=100 --format json >at.json.tmp ||
	fail "report --at"
python3 - model.json.tmp at.json.tmp <<'PY' || fail "report --at values"
import json, sys
m = json.load(open(sys.argv[1]))["models"][0]
want = m["constant"] + sum(t["coefficient"] * 100.0 ** t["factors"][0]["exponent"]
                           for t in m["terms"])
nodes = json.load(open(sys.argv[2]))["nodes"]
got = [n["model_values"][0] for n in nodes if n["name"] == "compute"][0]
assert abs(got - want) <= 1e-12 * abs(want), (got, want)
assert [n for n in nodes if n["depth"] == 0][0]["model_values"] == [None]
print("report --at x=100: compute", got)
PY
rm -f model.json.tmp at.json.tmp
./callscope report "$two" --at x=10,y=3 >/dev/null || fail "report --at x,y"
for bad in "x=10,q=3" "x=10" "x=ten,y=3"; do
	./callscope report "$two" --at "$bad" >/dev/null 2>err.tmp
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <err.tmp)" -eq 1 ] ||
		fail "report --at $bad: exit $rc, $(cat err.tmp)"
done
v4=$top_srcdir/../shared/corpus/hpctoolkit-v4/db2pprof
if [ -d "$v4" ]; then
	./callscope report "$v4" --at x=1 >/dev/null 2>err.tmp
	rc=$?
	[ $rc -eq 2 ] && grep -q "not a parametric" err.tmp ||
		fail "report --at on $v4: exit $rc"
fi
./callscope report "$two" --view flat --at x=1,y=1 >/dev/null 2>&1
[ $? -eq 1 ] || fail "report --view flat --at"
rm -f err.tmp
echo "report --at: ok"
