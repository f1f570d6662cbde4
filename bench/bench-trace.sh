#!/bin/sh
# Benchmark of the trace timeline pane (issue "Trace timeline pane"), in
# headless mode at 225x75 with the pane full screen (W): a grid of 200
# columns x 68 rows of lines.
#  (1) DIR/trace-10g (16 lines x 54M samples, trace.db 10.4 GB): open to
#      the first trace frame, per-key times for zoom/pan/line/depth/undo
#      keys (from the key's dispatch to the finished frame), peak RSS;
#  (2) DIR/lines-10k (10,000 lines x 10,000 samples; made here with
#      tests/gen-v4db when missing): the same.
#  (3) `callscope trace` over the whole 10 GB trace, 16 x 1000 cells: time
#      and peak RSS (the bounded block cache; 873 MB when mapped).
#   targets: first trace frame <= 0.5 s; frame <= 20 ms (<= 30 ms for
#   10,000 lines); zoom/pan key <= 30 ms; peak RSS <= 150 MB.
# The page cache is warmed by one run first (the targets are warm ones).
# usage: bench/bench-trace.sh [DIR]   (DIR from bench/make-big-db.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out}
bench_need_big "$out/trace-10g/trace.db" b
if [ ! -f "$out/lines-10k/trace.db" ]; then
	"$gen" -o "$out/lines-10k" --contexts 2000 --ranks 10 --threads 1000 \
		--trace-lines 10000 --samples 10000 --no-cct >/dev/null
fi
bench_tmp
bench_machine
bench_trace_keys
for db in trace-10g lines-10k; do
	echo "== $db"
	bench_trace_pane "$out/$db" W ""
done
info=$("$cs" info "$out/trace-10g" | sed -n 's/.*(\([0-9]*\) \.\. \([0-9]*\) ns).*/\1 \2/p')
set -- $info
python3 "$here/measure.py" --label "trace 16 x 1000 cells, whole 10 GB trace" -- \
	"$cs" trace "$out/trace-10g" --from "$1" --to "$2" --columns 1000 --format json
