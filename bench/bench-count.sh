#!/bin/sh
# Benchmark of scale by count (issue 28): many execution contexts and many
# files, old binary against new in one run.
#  - HPCToolkit databases of 20,000 and 100,000 profiles (gen-v4db
#    --contexts 200 --ranks 100 --threads 200|1000, no trace): the first
#    frame (headless), the thread pane of a context (T: every profile's
#    value, min/max/mean/std dev, histogram), the pane sorted by label
#    (s), `info`;
#  - a rocpd run of 1,000 files (bench/gen_rocpd_big.py DIR 1000 1000000:
#    1,000 processes of 1,000 dispatches, one file each): the first open
#    (every file scanned, side by side; --no-cache so that every run
#    scans), the indexed open, and the first frame on the indexed run.
# Targets: the 100,000-profile opens and panes about as fast as 20,000's
# (0.14 s); the 1,000-file run one process row per file.
# usage: bench/bench-count.sh OLD_BIN NEW_BIN [DIR]   (DIR default
# bench/out; RUNS default 5; FILES default 1000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
bench_old_new 17 "$@"
files=${FILES:-1000}
bench_tmp
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
bench_machine load
status=0
# the same screen from both binaries
same() {
	"$old" "$@" >"$tmp/old" 2>&1 || true
	"$new" "$@" >"$tmp/new" 2>&1 || true
	cmp -s "$tmp/old" "$tmp/new" || { echo "  DIFFERENT output: $*"; status=1; }
}
for t in 200 1000; do
	db="$out/profiles-$((100 * t))"
	[ -f "$db/profile.db" ] ||
		"$gen" -o "$db" --seed 4 --contexts 200 --ranks 100 --threads $t --no-trace >/dev/null
	cat "$db"/*.db >/dev/null
	n=$((100 * t))
	for k in q jjT jjTs; do
		same --headless --size 120x40 --keys "$k" "$db"
		for b in old new; do
			eval bin=\$$b
			$m --label "$b: $n profiles, keys $k" -- "$bin" --headless --size 120x40 --keys "$k" "$db"
		done
	done
	for b in old new; do
		eval bin=\$$b
		$m --label "$b: $n profiles, info" -- "$bin" info "$db"
	done
done
run="$out/rocpd-$files"
if [ ! -f "$run.made" ]; then
	python3 "$here/gen_rocpd_big.py" "$run" "$files" $((files * 1000)) >/dev/null
	touch "$run.made"
fi
cat "$run"/*/*.db >/dev/null
echo "rocpd run: $(find "$run/" -name '*_results.db' | wc -l) files, $(du -sh "$run/" | cut -f1)"
same info "$run"
"$new" info "$run" 2>/dev/null | grep -E '^(Contexts|Profiles|Trace)' || true
echo "process rows: $("$new" report --depth 1 --format csv "$run" 2>/dev/null |
	awk -F, 'NR > 1 && $3 == 1' | wc -l)"
for b in old new; do
	eval bin=\$$b
	$m --runs 1 --label "$b: $files files, first open (scan)" -- "$bin" --no-cache info "$run"
	/usr/bin/time -f "  CPU: %U s user + %S s system, %M KB peak" "$bin" --no-cache info "$run" 2>&1 >/dev/null | tail -n 1
done
for b in old new; do
	eval bin=\$$b
	rm -rf "$XDG_CACHE_HOME"
	"$bin" info "$run" >/dev/null # writes the index
	$m --label "$b: $files files, indexed info" -- "$bin" info "$run"
	$m --label "$b: $files files, indexed first frame" -- "$bin" --headless --size 120x40 --keys q "$run"
	$m --label "$b: $files files, thread pane" -- "$bin" --headless --size 120x40 --keys jjT "$run"
done
exit $status
