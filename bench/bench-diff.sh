#!/bin/sh
# Benchmark of comparing runs (issue 27): `callscope diff` and `check` of
# two generated HPCToolkit databases with the same tree and other values
# (gen-v4db, one seed, 2 and 3 threads).  Target: a diff of two
# 3-million-context databases in <= 2 s and <= 1 GB.
# usage: bench/bench-diff.sh [DIR]   (the databases are made in DIR,
# default bench/out, when missing; CONTEXTS sets their size, default
# 3000000).  The page cache is warmed by one untimed run first.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out}
contexts=${CONTEXTS:-3000000}
m="python3 $here/measure.py"
mkdir -p "$out"
for t in 2 3; do
	d="$out/diff-$contexts-t$t"
	[ -f "$d/meta.db" ] ||
		"$gen" -o "$d" --seed 9 --contexts "$contexts" --threads "$t" --no-trace >/dev/null
done
a="$out/diff-$contexts-t2"
b="$out/diff-$contexts-t3"
bench_machine
"$cs" diff "$a" "$b" --depth 3 >/dev/null
$m --runs 3 --label "report --depth 3 (one run, for scale)" -- "$cs" report "$a" --depth 3
$m --runs 3 --label "diff --depth 3 ($contexts contexts each)" -- "$cs" diff "$a" "$b" --depth 3
$m --runs 3 --label "diff --match function" -- "$cs" diff "$a" "$b" --match function
# check exits 1 when something regressed (here: it does)
$m --runs 3 --label "check" -- sh -c '"$0" check "$1" "$2" >/dev/null; [ $? -le 1 ]' "$cs" "$a" "$b"
$m --runs 1 --label "full diff, json (streamed)" -- "$cs" diff "$a" "$b" --format json
# the viewer: the first frame of the merged tree (headless: the screen
# drawn once, then the program ends), and `:compare NEW` from a viewer on
# BASE (the run shown is the base)
$m --runs 3 --label "viewer BASE NEW --compare, first frame" -- "$cs" "$a" "$b" --compare --headless --size 120x40 --keys ''
$m --runs 3 --label "viewer BASE, :compare NEW" -- "$cs" "$a" --headless --size 120x40 --keys ":compare $b<Enter>"
