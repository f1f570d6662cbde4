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
. "$here/bench-lib.sh"
out=${1:-$here/out/rocpd}
[ -d "$out" ] || mkdir -p "$out"
if [ ! -f "$out.made-16-10000000" ]; then
	python3 "$here/gen_rocpd_big.py" "$out" 16 10000000 >/dev/null
	touch "$out.made-16-10000000"
fi
bench_machine
echo "run: $(find "$out" -name '*_results.db' | wc -l) files, $(du -sh "$out" | cut -f1)"
cat "$out"/*/*.db >/dev/null # warm the page cache
bench_gpu_run "$out" +1s
# plain_sql NAME QUERY LABEL: QUERY with sqlite3 on every file of the run,
# one after the other (a script $out.NAME.sh), measured as LABEL
plain_sql() {
	cat >"$out.$1.sh" <<EOS
for f in "$out"/*/*_results.db; do
	sqlite3 -readonly "\$f" "$2" || exit 1
done
EOS
	m --label "$3" -- sh "$out.$1.sh"
}
if command -v sqlite3 >/dev/null; then
	plain_sql plain "SELECT * FROM top_kernels" \
		"plain SQL: top_kernels view, file by file"
	plain_sql plain-summary "SELECT name, COUNT(*), SUM(duration), MIN(duration), MAX(duration) FROM kernels GROUP BY name" \
		"plain SQL: kernels view grouped, file by file"
fi
