#!/bin/sh
# bench/fuzz.sh TARGET SECONDS [LIBFUZZER-OPTION...]: run one libFuzzer
# target for SECONDS of wall time in one process (one core, as -jobs=1:
# the other cores stay free), then print its executions, coverage (cov:/ft:),
# wall and CPU time of the fuzzer itself (not the build), and findings.
#
# TARGET is config, v4-meta, v4-profile, v4-cct, v4-trace, metrics-yaml,
# formula, legacy-values, legacy-trace, sparse2020, xml-experiment, archive,
# listing, cube, cubepl, dcpi, extrap-text, extrap-json, extrap-ncu, extrap-prof, gpu-rows, rocpd-yaml or
# otf2-defs.  The targets
# are built (when needed) with
# `configure CC=clang --enable-fuzzing` in bench/out/fuzz-build (or, when
# the source tree is configured in place, in a copy, bench/out/fuzz-src).
# The seed corpus tests/fuzz/corpus/TARGET is read, and new inputs are kept in
# bench/out/fuzz-corpus/TARGET (not committed; copy a minimised input into
# tests/fuzz/corpus/TARGET only as the regression input of a fix).  Crash,
# leak, timeout and out-of-memory reproducers go to
# bench/out/fuzz-findings/TARGET.  The log is bench/out/fuzz-TARGET.log.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: $0 TARGET SECONDS [LIBFUZZER-OPTION...]" >&2
	exit 2
fi
target=$1
seconds=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
out="$src/bench/out"
build="$out/fuzz-build"
case $target in
config | v4-meta | v4-profile | v4-cct | v4-trace | metrics-yaml | formula | \
	legacy-values | legacy-trace | sparse2020 | xml-experiment | archive | listing | cube | cubepl | dcpi | \
	extrap-text | extrap-json | extrap-ncu | extrap-prof | gpu-rows | rocpd-yaml | otf2-defs) ;;
*)
	echo "$0: unknown target $target" >&2
	exit 2
	;;
esac
[ -d "$src/tests/fuzz/corpus/$target" ] || {
	echo "$0: no seed corpus for $target" >&2
	exit 1
}
mkdir -p "$build" "$out/fuzz-corpus/$target" "$out/fuzz-findings/$target"
# A source tree configured in place cannot also be built elsewhere: then
# its files (tracked and new, not ignored) are copied, mtimes kept, into
# bench/out/fuzz-src and built there.
srcdir=$src
if [ -f "$src/config.status" ]; then
	srcdir="$out/fuzz-src"
	mkdir -p "$srcdir"
	(cd "$src" && git ls-files -co --exclude-standard | grep -v '^bench/out/' |
		tar -cf - -T -) | (cd "$srcdir" && tar -xf -)
	build=$srcdir
fi
if [ ! -f "$build/Makefile" ]; then
	[ -x "$srcdir/configure" ] || (cd "$srcdir" && autoreconf -fi >/dev/null 2>&1)
	(cd "$build" && "$srcdir/configure" -q CC=clang --enable-fuzzing)
fi
bin="tests/fuzz/fuzz-$target"
(cd "$build" && make -s -j2 "$bin" >"$out/fuzz-build.log" 2>&1) || {
	cat "$out/fuzz-build.log" >&2
	exit 1
}
dict="$src/tests/fuzz/$target.dict"
set -- -max_total_time="$seconds" -timeout=10 \
	-rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
	-artifact_prefix="$out/fuzz-findings/$target/" "$@"
[ -f "$dict" ] && set -- -dict="$dict" "$@"
log="$out/fuzz-$target.log"
echo "fuzz: $target for ${seconds}s, log $log"
# CPU seconds (user + sys) in a `times` output's second line (this
# shell's finished children: "0m1.50s 0m0.25s"); `times` itself must run
# in this shell, not in a $(...) subshell
cpu_of() {
	sed -n 2p "$1" | awk '{ t = 0; for (i = 1; i <= 2; i++) {
		split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%.2f", t }'
}
times >"$out/fuzz-$target.times0"
start=$(date +%s)
rc=0
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	"$build/$bin" "$@" "$out/fuzz-corpus/$target" \
	"$src/tests/fuzz/corpus/$target" >"$log" 2>&1 || rc=$?
end=$(date +%s)
times >"$out/fuzz-$target.times1"
cpu=$(awk -v a="$(cpu_of "$out/fuzz-$target.times0")" \
	-v b="$(cpu_of "$out/fuzz-$target.times1")" 'BEGIN { printf "%.1f", b - a }')
rm -f "$out/fuzz-$target.times0" "$out/fuzz-$target.times1"
echo "fuzz: $target: exit $rc after $((end - start))s wall, ${cpu}s CPU (the fuzzer alone, not the build)"
echo "fuzz.sh: ${cpu}s CPU, $((end - start))s wall" >>"$log"
grep -E '^#[0-9]+.*(INITED|DONE|pulse)' "$log" | tail -2 || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" || true
echo "corpus: $(ls "$out/fuzz-corpus/$target" | wc -l) input(s) kept"
findings=$(ls "$out/fuzz-findings/$target" | wc -l)
echo "findings: $findings file(s) in $out/fuzz-findings/$target"
grep -E 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error|SUMMARY' "$log" | head -10 || true
exit $rc
