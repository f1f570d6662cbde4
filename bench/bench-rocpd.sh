#!/bin/sh
# Benchmark of the rocpd reader (issue 14): a generated rocprofv3 run of 16
# processes with 10 million kernel dispatches in all, one hipLaunchKernel
# region per dispatch and a roctx range per 1000 (bench/gen_rocpd_big.py,
# NOT-REAL).  Targets: first frame <= 1 s and <= 300 MB; a trace probe
# <= 50 ms; a 1000-column window of every line <= 1 s; the flat kernel
# summary <= 3 s.  Beside them, the plain-SQL way: the sqlite3 CLI with the
# shipped summary view (top_kernels), one file at a time (ATTACH stops at
# 10 files).
# usage: bench/bench-rocpd.sh [DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out/rocpd}
cs=${CALLSCOPE:-$here/../callscope}
[ -d "$out" ] || mkdir -p "$out"
if [ ! -f "$out.made-16-10000000" ]; then
	python3 "$here/gen_rocpd_big.py" "$out" 16 10000000 >/dev/null
	touch "$out.made-16-10000000"
fi
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
echo "run: $(find "$out" -name '*_results.db' | wc -l) files, $(du -sh "$out" | cut -f1)"
cat "$out"/*/*.db >/dev/null # warm the page cache
m() { python3 "$here/measure.py" --runs "${RUNS:-3}" "$@"; }
# The run's index (src/formats/gpu_run/gpu_run_index.c) lives in a cache directory
# of the benchmark's own: the first open scans the files and writes it
# (measured once), the first trace reads every file's lines again and adds
# them (once); the targets are then measured on the indexed run, as every
# open after the first sees it.  NOINDEX=1 measures without it (--no-cache).
XDG_CACHE_HOME="$out.cache"
export XDG_CACHE_HOME
rm -rf "$XDG_CACHE_HOME"
nc=
if [ "${NOINDEX:-0}" = 1 ]; then
	nc=--no-cache
else
	python3 "$here/measure.py" --runs 1 --label "first open: scan, index written (once)" -- \
		"$cs" info "$out"
	python3 "$here/measure.py" --runs 1 --label "first trace: every file's lines read, indexed (once)" -- \
		"$cs" trace --from +0s --to +2s --columns 1000 "$out"
	echo "index: $(du -sh "$XDG_CACHE_HOME" | cut -f1)"
fi
m --label "open to first frame (headless)" -- \
	"$cs" $nc --headless --no-config --size 160x48 --keys "" "$out"
m --label "info (open, tree)" -- "$cs" $nc info "$out"
m --label "trace probe, one line" -- \
	"$cs" $nc trace --lines 0 --at +1s "$out"
m --label "1000-column window, every line" -- \
	"$cs" $nc trace --from +0s --to +2s --columns 1000 "$out"
m --label "flat kernel summary (report --view flat)" -- \
	"$cs" $nc report --view flat "$out"
m --label "per-kind summary with medians (stats: every duration)" -- \
	"$cs" $nc stats "$out"
if command -v sqlite3 >/dev/null; then
	cat >"$out.plain.sh" <<EOS
for f in "$out"/*/*_results.db; do
	sqlite3 -readonly "\$f" "SELECT * FROM top_kernels" || exit 1
done
EOS
	m --label "plain SQL: top_kernels view, file by file" -- sh "$out.plain.sh"
	cat >"$out.plain-summary.sh" <<EOS
for f in "$out"/*/*_results.db; do
	sqlite3 -readonly "\$f" "SELECT name, COUNT(*), SUM(duration), MIN(duration), MAX(duration) FROM kernels GROUP BY name" || exit 1
done
EOS
	m --label "plain SQL: kernels view grouped, file by file" -- sh "$out.plain-summary.sh"
fi
