#!/bin/sh
# Benchmark of the viewer (issue "The viewer"): on the generated 3-million
# context database, open to first frame, then per-key frame times (p50/p99,
# measured in headless mode from the key's dispatch to the finished frame)
# for a replayed key script, and peak RSS.
#   targets: first frame <= 1 s, every key p99 <= 16 ms, peak RSS <= 500 MB
# usage: bench/bench-ui.sh [DIR]   (DIR from bench/make-big-db.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out}
db="$out/contexts-3m"
bench_need_big "$db/meta.db" a
bench_tmp
bench_machine
"$cs" report "$db" --depth 1 >/dev/null # warm the page cache
python3 "$here/measure.py" --label "open to first frame (headless)" -- \
	"$cs" --headless --no-config --size 160x48 --keys "" "$db"
# the key script: moves, expand/collapse, hot path, sort, view switches,
# search steps, zoom; each repeated so percentiles mean something
# the script opens with a 3 s pause, a user reading the first screen: the
# bottom-up and flat views build in the background meanwhile
keys="<Sleep:3000>$(bench_repeat 20 "jjjjjkkkkk<PgDn><PgUp>lhlHgsrr<Right><Left>zZ")"
keys="${keys}/solver<Enter>$(bench_repeat 20 nnnnnNNNNN)"
keys="${keys}g2jjjjjl3jjjjjl1$(bench_repeat 5 vvv)"
python3 "$here/measure.py" --runs 1 --label "key script (peak RSS)" -- \
	"$cs" --headless --no-config --size 160x48 --keys "$keys" \
	--timing "$tmp/timing" "$db"
python3 "$here/measure.py" --runs 1 --label "same, --no-prebuild" -- \
	"$cs" --headless --no-config --no-prebuild --size 160x48 --keys "$keys" \
	--timing "$tmp/timing-noprebuild" "$db"
for t in timing timing-noprebuild; do
echo "== $t"
bench_key_times "$tmp/$t" tree
done
