#!/bin/sh
# Benchmark of a GPU run's first open in the viewer (issue 28): the time
# to the first frame, and to the exact totals, on a run never opened
# before (an empty cache: no run index), then the indexed open and the
# first trace after it.  The first frame's wall-clock time is written by
# the viewer to $CALLSCOPE_FIRST_FRAME_FILE (ui/input.c) and taken from
# the time just before the command starts (dynamic loading included);
# the exact totals come when the headless key <Scan> has waited for the
# background scan and the complete model is drawn (the process then ends:
# its wall time); the same with the viewer swapping in each partial
# model the scan offers as it merges files (headless <Fill>, one per
# file).  CPU times (user, system) are the whole process's.
# Another binary (OLD=PATH, e.g. the build before the partial model) is
# measured the same way: it draws its first frame after the whole scan
# (without the file: its first frame is given as its wall time); with
# OLD_KEYS='<Scan>', an OLD that has the partial model too waits for its
# exact totals.
# usage: bench/bench-first-frame.sh RUN [RUN...]   (RUNS=K, OLD=BIN, OLD_KEYS)
#   RUN: a rocpd run directory or an Nsight export (several: one run)
# e.g. the 10 M-dispatch rocpd run of bench/gen_rocpd_big.py.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cs=${CALLSCOPE:-$here/../callscope}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/config"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
echo "run: $*, $(du -shc "$@" | tail -n 1 | cut -f1)"
cat $(find "$@" -type f) >/dev/null # warm the page cache
now() { date +%s.%N; }
# one measurement: LABEL BINARY KEYS (a fresh cache unless KEEP=1)
one() {
	label=$1 bin=$2 keys=$3
	shift 3
	[ "${KEEP:-0}" = 1 ] || rm -rf "$tmp/cache"
	rm -f "$tmp/ff"
	load=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(now)
	XDG_CACHE_HOME="$tmp/cache" CALLSCOPE_FIRST_FRAME_FILE="$tmp/ff" \
		/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
		"$bin" --headless --no-config --size 120x40 --keys "$keys" "$@" \
		>"$tmp/screen" 2>/dev/null
	read -r wall user sys rss <"$tmp/time"
	# a binary that does not write the file draws its first frame at
	# the end of the open: about its wall time
	ff=$wall
	[ -s "$tmp/ff" ] && ff=$(echo "$(cat "$tmp/ff") - $t0" | bc)
	printf '%-34s first frame %6.2f s  end %6.2f s  user %5.2f s  sys %5.2f s  %4d MB  load %s\n' \
		"$label" "$ff" "$wall" "$user" "$sys" $((rss / 1024)) "$load"
}
fills=$(find "$@" -type f | sed 's/.*/<Fill>/' | tr -d '\n')
i=0
while [ $i -lt "$runs" ]; do
	one "never opened, partial then exact" "$cs" '<Scan>' "$@"
	one "never opened, quit at once" "$cs" 'q' "$@"
	# the viewer swapping in each partial model the scan offers (one per
	# file merged) before the complete one: the cost of the fill-ins
	one "never opened, each fill-in shown" "$cs" "$fills<Scan>" "$@"
	if [ -n "${OLD:-}" ]; then
		one "never opened, $(basename "$OLD")" "$OLD" "${OLD_KEYS:-}" "$@"
	fi
	i=$((i + 1))
done
# the index the background scan wrote: the next open, then the first trace
rm -rf "$tmp/cache"
one "never opened (index written)" "$cs" '<Scan>' "$@"
KEEP=1 one "indexed open" "$cs" '' "$@"
load=$(cut -d' ' -f1 /proc/loadavg)
XDG_CACHE_HOME="$tmp/cache" /usr/bin/time -f "first trace after it: %e s wall, %U user, %S sys, %M KB (load $load)" \
	"$cs" trace --from +0s --to +2s --columns 1000 "$@" >/dev/null
