#!/bin/sh
# The Cube target: a generated .cubex of 1,000,000 call nodes x 8 metrics x
# 1,024 locations (ZCUBEX rows, dense indexes; tests/gen_cube.py --bench)
# opens to a first frame in <= 1 s and <= 300 MB.  Times `callscope info`
# and the headless viewer's first frame (`--headless --keys q`), wall
# clock and maximum resident set (GNU time), best of 3.  Then, with
# bench/bench-cube-incl built, the thread pane's values of the root call
# node for `visits` (stored exclusive: its per-location inclusive values
# are the whole tree's rows), asked three times, and of two of its
# children: the first request reads every row, the later ones come from
# the reader's cache (cube_inclusive.c).  To time a build without the
# cache (the base of issue 29), pass a bench-cube-incl program built
# against it as OLD_INCL=PROGRAM.
# usage: bench/bench-cube.sh [BUILD_DIR] [CNODES] [LOCS]
set -e
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-.}
n=${2:-1000000}
locs=${3:-1024}
cs="$build/callscope"
dir=${TMPDIR:-/tmp}/callscope-bench-cube
mkdir -p "$dir"
f="$dir/bench-$n-$locs.cubex"
if [ ! -f "$f" ]; then
	echo "generating $f ..."
	/usr/bin/python3 "$top_srcdir/tests/gen_cube.py" "$f.tmp" --bench \
		--cnodes "$n" --locs "$locs"
	mv "$f.tmp" "$f"
fi
ls -l "$f"
run() {
	best=""
	for i in 1 2 3; do
		/usr/bin/time -f "%e %M" -o "$dir/time" "$@" >/dev/null 2>&1 ||
			{ echo "FAIL: $*"; cat "$dir/time"; exit 1; }
		read -r s kb <"$dir/time"
		if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then
			best=$s; bestkb=$kb
		fi
	done
	echo "$best s, $((bestkb / 1024)) MB max RSS: $*"
}
run "$cs" info "$f"
run "$cs" --headless --keys q "$f"
for prog in "$build/bench/bench-cube-incl" ${OLD_INCL:-}; do
	[ -x "$prog" ] || continue
	echo "== $prog (visits, inclusive per location)"
	/usr/bin/time -f "%e s, %M KB max RSS" "$prog" "$f" visits
done
