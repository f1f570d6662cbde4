#!/bin/sh
# The OTF2 reader on a generated archive of LOCS locations x EVENTS events
# each (bench/gen-otf2-big.c, the OTF2 library's C writer: calls of 4
# events, a metric event per call, a message pair every 2000 calls; built
# here with `pkg-config otf2`).  Measured, by wall clock with CPU time and
# maximum resident set (GNU time): the index pass (`info` on an empty
# cache: the index is written), `info` from the index, the trace pane's
# first frame from the index (`--headless --keys t`), a trace probe (one
# line at one time, `trace --lines 0 --at`) and a 200-column window of
# every line; each best of RUNS (the index pass: once).  Issue 32's target
# is 64 locations x 10 million events (the default; 6.8 GB, written in
# about 30 s): index <= 20 s, first frame after it <= 1 s, probe <= 50 ms,
# <= 300 MB.  usage: bench/bench-otf2.sh [BUILD_DIR] [LOCS] [EVENTS] [RUNS]
set -e
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-.}
locs=${2:-64}
events=${3:-10000000}
runs=${4:-3}
cs="$build/callscope"
dir=${TMPDIR:-/tmp}/callscope-bench-otf2
a="$dir/otf2-$locs-$events"
mkdir -p "$dir"
export XDG_CONFIG_HOME="$dir/config" XDG_CACHE_HOME="$dir/cache"
if [ ! -f "$a/traces.otf2" ]; then
	echo "generating $a ..."
	# shellcheck disable=SC2046 # pkg-config's words are separate flags
	cc -O2 -o "$dir/gen-otf2-big" "$top_srcdir/bench/gen-otf2-big.c" \
		$(pkg-config --cflags --libs otf2)
	rm -rf "$a.tmp"
	"$dir/gen-otf2-big" "$a.tmp" "$locs" "$events"
	mv "$a.tmp" "$a"
fi
du -sh "$a"
uptime
run() {
	n=$1
	shift
	best=""
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		/usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$@" >/dev/null \
			2>"$dir/err" || { echo "FAIL: $*"; cat "$dir/err"; exit 1; }
		read -r s u k kb <"$dir/time"
		if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then
			best=$s; cpu=$(echo "$u + $k" | bc); bestkb=$kb
		fi
	done
	echo "$best s wall, $cpu s CPU, $((bestkb / 1024)) MB max RSS: $*"
}
rm -rf "$XDG_CACHE_HOME/callscope/otf2"
run 1 "$cs" info "$a"
run "$runs" "$cs" info "$a"
run "$runs" "$cs" --headless --no-config --size 200x50 --keys t "$a"
run "$runs" "$cs" trace "$a" --lines 0 --at 100000000
run "$runs" "$cs" trace "$a" --from 0 --to 200000000 --columns 200
