#!/bin/sh
# Benchmark of Extra-P modeling (issue 17): `callscope model` on the big
# generated set of ../shared/bench/extrap-bigset.py (2,000 call paths x 2
# metrics, parameters p and n, 25 points x 5 repetitions: 4,000
# two-parameter models; Extra-P 4.2.5 takes 88.7 s and 139 MB), the whole
# process timed (bench/measure.py: best and median wall time, peak RSS) and
# /usr/bin/time -v; then the fitter alone (bench/bench-fit on the points'
# means, computed apart from callscope's readers by bench/extrap-means.py),
# with the cached route and with dgelsd for every problem (--direct),
# whose outputs must be identical.  Target: the whole process < 0.9 s.
#   usage: bench/bench-extrap.sh [OUT_DIR]   (default bench/out)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out}
build=${BUILD:-$here/..}
cs=${CALLSCOPE:-$build/callscope}
fit=${BENCH_FIT:-$build/bench/bench-fit}
gen=$here/../../shared/bench/extrap-bigset.py
m="/usr/bin/python3 $here/measure.py"
mkdir -p "$out"
set=$out/extrap-bigset.txt
[ -f "$set" ] || /usr/bin/python3 "$gen" "$set" 2000 7
bench_machine load
echo "set: $set, $(wc -c <"$set") bytes"
"$cs" model "$set" >"$out/extrap-bigset.models.txt"
echo "models: $(grep -c 'Model:' "$out/extrap-bigset.models.txt")"
$m --label "callscope model (4,000 two-parameter models)" -- "$cs" model "$set"
$m --label "callscope model --format json" -- "$cs" model --format json "$set"
$m --label "callscope points (reading only)" -- "$cs" points "$set"
/usr/bin/time -v "$cs" model "$set" 2>&1 >/dev/null |
	grep -E "Elapsed|Maximum resident|User time|System time"
/usr/bin/python3 "$here/extrap-means.py" "$set" "$out/extrap-bigset.means"
"$fit" --print "$out/extrap-bigset.means" >"$out/fit-cached.txt"
"$fit" --print --direct "$out/extrap-bigset.means" >"$out/fit-direct.txt"
if cmp -s "$out/fit-cached.txt" "$out/fit-direct.txt"; then
	echo "fitter: cached route = direct dgelsd on all 4,000 models"
else
	echo "fitter: cached route DIFFERS from direct dgelsd" >&2
	exit 1
fi
