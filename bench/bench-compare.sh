#!/bin/sh
# Benchmark of N runs as one set (issue 27): `callscope compare` of RUNS
# generated HPCToolkit databases of CONTEXTS contexts each (gen-v4db, one
# seed: the same tree; --scale 0.9 .. 1.1 and --threads 1 or 2 so that
# the runs' values differ), then `check` with half the runs per side, and
# `compare --model` with the runs as repetitions at five points of p.
# Target: a 100-run set of 100k-context databases in <= 10 s.
# usage: bench/bench-compare.sh [DIR]   (the databases are made in DIR,
# default bench/out, when missing; RUNS default 100, CONTEXTS 100000).
# The page cache is warmed by one untimed run first.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out}
runs=${RUNS:-100}
contexts=${CONTEXTS:-100000}
m="python3 $here/measure.py"
set_dir="$out/compare-$runs-$contexts"
mkdir -p "$set_dir"
i=0
list=""
while [ $i -lt $runs ]; do
	p=$((2 << (i % 5)))
	d="$set_dir/app.p$p.r$((i / 5 + 1))"
	scale=$(awk -v i=$i 'BEGIN { printf "%.4f", 0.9 + 0.2 * ((i * 37) % 101) / 100 }')
	[ -f "$d/meta.db" ] ||
		"$gen" -o "$d" --seed 9 --contexts "$contexts" --threads $((1 + i % 2)) --scale "$scale" --no-trace >/dev/null
	list="$list ${d##*/}"
	i=$((i + 1))
done
half=$(echo $list | tr ' ' '\n' | head -n $((runs / 2)) | tr '\n' ' ')
rest=$(echo $list | tr ' ' '\n' | tail -n $((runs - runs / 2)) | tr '\n' ' ')
cs=$(cd "$(dirname "$cs")" && pwd)/$(basename "$cs")
cd "$set_dir"   # the runs by their names: short command lines
bench_machine
"$cs" compare $list --depth 2 >/dev/null
$m --runs 3 --label "compare $runs runs x $contexts contexts, --depth 3" -- "$cs" compare $list --depth 3
/usr/bin/time -f "  CPU: %U s user + %S s system, %M KB peak" "$cs" compare $list --depth 3 >/dev/null
$m --runs 1 --label "compare, the whole tree as CSV" -- "$cs" compare $list --format csv
$m --runs 3 --label "check $((runs / 2)) -- $((runs - runs / 2)) runs" -- sh -c '"$0" "$@" >/dev/null; [ $? -le 1 ]' "$cs" check $half -- $rest
$m --runs 1 --label "compare --model (5 points, $((runs / 5)) repetitions)" -- "$cs" compare $list --model --metric 'CPUTIME (sec)'
