#!/bin/sh
# Benchmark of the nsight reader (issue 16): generated Nsight Systems
# exports (tests/gen_nsight.py, NOT-REAL) of RANKS ranks (default 16) with
# KERNELS kernels in all (default 10 million), one cudaLaunchKernel per
# kernel, NVTX ranges of 1-8 launches, copies and memsets every third
# range.  Targets: first frame <= 1 s and <= 300 MB; a trace probe
# <= 50 ms; a 1000-column window of every line <= 1 s.  Beside them, the
# plain-SQL kernel summary with the sqlite3 CLI, file by file.
# usage: bench/bench-nsight.sh [DIR]   (KERNELS=N RANKS=R RUNS=K)
# GENERATE_ONLY=1 makes the files (if not made yet) and stops, so that the
# timed part can run apart, e.g. under flock(1) on a shared machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out/nsight}
cs=${CALLSCOPE:-$here/../callscope}
kernels=${KERNELS:-10000000}
ranks=${RANKS:-16}
[ -d "$out" ] || mkdir -p "$out"
if [ ! -f "$out.made-$kernels-$ranks" ]; then
	rm -f "$out"/*.sqlite "$out".made-*
	t0=$(date +%s)
	python3 "$here/../tests/gen_nsight.py" "$out" --kernels $((kernels / ranks)) \
		--ranks "$ranks" --no-answers
	echo "generated in $(($(date +%s) - t0)) s"
	touch "$out.made-$kernels-$ranks"
fi
[ "${GENERATE_ONLY:-0}" = 1 ] && exit 0
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
echo "run: $(ls "$out"/*.sqlite | wc -l) files, $(du -sh "$out" | cut -f1), $kernels kernels"
cat "$out"/*.sqlite >/dev/null # warm the page cache
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
	"$cs" $nc trace --lines 0 --at +1ms "$out"
m --label "1000-column window, every line" -- \
	"$cs" $nc trace --from +0s --to +2s --columns 1000 "$out"
m --label "flat kernel summary (report --view flat)" -- \
	"$cs" $nc report --view flat "$out"
m --label "per-kind summary with medians (stats: every duration)" -- \
	"$cs" $nc stats "$out"
if command -v sqlite3 >/dev/null; then
	cat >"$out.plain.sh" <<EOS
for f in "$out"/*.sqlite; do
	sqlite3 -readonly "\$f" "SELECT s.value, COUNT(*), SUM(k.end - k.start), MIN(k.end - k.start), MAX(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = coalesce(k.demangledName, k.shortName) GROUP BY 1" || exit 1
done
EOS
	m --label "plain SQL: kernel summary, file by file" -- sh "$out.plain.sh"
fi
