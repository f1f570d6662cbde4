#!/bin/sh
# The OTF2 reader on a generated archive of LOCS locations x CALLS calls
# (4 events a call; bench/gen_otf2_big.py, python3-otf2): the open (the
# index pass over every event: `callscope info --no-cache`; then with the
# index in the cache), the trace pane's first frame (`--headless --keys
# t`, without and with the cache) and one batch trace window, each best of 3
# by wall clock, with its CPU time and maximum resident set (GNU time).
# The issue 32 target is 64 locations x 10 million events; the default
# here, 8 x 250,000 calls (8 million events), takes about a minute to
# generate.  usage: bench/bench-otf2.sh [BUILD_DIR] [LOCS] [CALLS]
set -e
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-.}
locs=${2:-8}
calls=${3:-250000}
cs="$build/callscope"
dir=${TMPDIR:-/tmp}/callscope-bench-otf2
a="$dir/otf2-$locs-$calls"
mkdir -p "$dir"
export XDG_CONFIG_HOME="$dir/config" XDG_CACHE_HOME="$dir/cache"
if [ ! -f "$a/traces.otf2" ]; then
	echo "generating $a ..."
	rm -rf "$a.tmp"
	/usr/bin/python3 "$top_srcdir/bench/gen_otf2_big.py" "$a.tmp" "$locs" \
		"$calls"
	mv "$a.tmp" "$a"
fi
du -sh "$a"
run() {
	best=""
	for i in 1 2 3; do
		/usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$@" >/dev/null \
			2>&1 || { echo "FAIL: $*"; cat "$dir/time"; exit 1; }
		read -r s u k kb <"$dir/time"
		if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then
			best=$s; cpu=$(echo "$u + $k" | bc); bestkb=$kb
		fi
	done
	echo "$best s wall, $cpu s CPU, $((bestkb / 1024)) MB max RSS: $*"
}
run "$cs" info --no-cache "$a"
run "$cs" info "$a"
run "$cs" --headless --no-config --size 80x24 --keys t --no-cache "$a"
run "$cs" --headless --no-config --size 80x24 --keys t "$a"
run "$cs" trace "$a" --from 0 --to 1000000 --columns 80
