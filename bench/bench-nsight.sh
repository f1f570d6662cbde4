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
. "$here/bench-lib.sh"
out=${1:-$here/out/nsight}
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
bench_machine
echo "run: $(ls "$out"/*.sqlite | wc -l) files, $(du -sh "$out" | cut -f1), $kernels kernels"
cat "$out"/*.sqlite >/dev/null # warm the page cache
bench_gpu_run "$out" +1ms
if command -v sqlite3 >/dev/null; then
	cat >"$out.plain.sh" <<EOS
for f in "$out"/*.sqlite; do
	sqlite3 -readonly "\$f" "SELECT s.value, COUNT(*), SUM(k.end - k.start), MIN(k.end - k.start), MAX(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = coalesce(k.demangledName, k.shortName) GROUP BY 1" || exit 1
done
EOS
	m --label "plain SQL: kernel summary, file by file" -- sh "$out.plain.sh"
fi
