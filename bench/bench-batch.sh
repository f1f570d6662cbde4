#!/bin/sh
# Benchmarks of the batch command line on the generated benchmark databases
# (issue "Foundation"): the figures go to doc/PERFORMANCE.md.
#   report --depth 3 on 3 million contexts          target <= 1.0 s, <= 400 MB
#   full report (streamed)                           memory must not hold the output
#   trace --at on a >= 10 GB trace.db                target <= 50 ms, <= 100 MB
#   trace window 16 lines x 1000 columns             target <= 1 s
# usage: bench/bench-batch.sh [DIR]   (DIR from bench/make-big-db.sh, default bench/out)
# The page cache is warmed by one untimed run first ("warm page cache").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out}
m="python3 $here/measure.py"
big="$out/contexts-3m"
trace="$out/trace-10g"
for d in "$big" "$trace"; do
	bench_need_big "$d/meta.db"
done
bench_machine
echo "contexts-3m: meta.db $(wc -c <"$big/meta.db") bytes; trace-10g: trace.db $(wc -c <"$trace/trace.db") bytes"
"$cs" report "$big" --depth 3 >/dev/null
$m --label "report --depth 3 (3M contexts)" -- "$cs" report "$big" --depth 3
$m --label "report --depth 3 --format json" -- "$cs" report "$big" --depth 3 --format json
$m --runs 1 --label "full report, text (streamed)" -- "$cs" report "$big"
$m --runs 1 --label "full report, json (streamed)" -- "$cs" report "$big" --format json
$m --runs 3 --label "report --view flat --depth 3" -- "$cs" report "$big" --view flat --depth 3
$m --runs 3 --label "report --view bottom-up --depth 2" -- "$cs" report "$big" --view bottom-up --depth 2
$m --label "hotpath (3M contexts)" -- "$cs" hotpath "$big"
"$cs" trace "$trace" --at +1s >/dev/null
$m --label "trace --at (10 GB trace.db)" -- "$cs" trace "$trace" --at +1234.5s --format json
$m --label "trace 16x1000 window, 20 s" -- "$cs" trace "$trace" --from +100s --to +120s --columns 1000 --format json
$m --label "trace 16x1000 window, whole" -- "$cs" trace "$trace" --from +0s --to +6300s --columns 1000 --format json
