#!/bin/sh
# Benchmark of the DCPI reader (issue 18): a profile database of 1,000
# images x 100,000 sampled addresses (one event, one epoch, images not on
# this machine), written by bench/gen_dcpi_big.py with every image's total
# computed apart from the reader.  Target: first frame <= 1 s.  Also: the
# image rows against the generator's totals (the check a person reruns
# with the figures), expanding one image in the viewer (headless, per-key
# timing), `hotpath` (loads the images on the hot path only), and the
# whole database read up front (CALLSCOPE_DCPI_DEFER_MIN above its size)
# on a tenth of it, for comparison.
# usage: bench/bench-dcpi.sh [DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out/dcpi}
cs=${CALLSCOPE:-$here/../callscope}
if [ ! -f "$out.made-1000-100000" ]; then
	rm -rf "$out"
	python3 "$here/gen_dcpi_big.py" "$out" 1000 100000
	touch "$out.made-1000-100000"
fi
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
echo "database: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1)"
cat "$out"/*/* >/dev/null # warm the page cache
m() { python3 "$here/measure.py" --runs "${RUNS:-3}" "$@"; }
m --label "open to first frame (headless)" -- \
	"$cs" --headless --no-config --size 160x48 --keys "" "$out"
m --label "info (open, image rows)" -- "$cs" info "$out"
m --label "hotpath (images on the path loaded)" -- "$cs" hotpath "$out"
# the image rows against the generator's totals
"$cs" report --depth 1 --format json "$out" 2>/dev/null >"$out.rows.json"
python3 - "$out.rows.json" "$out.answers.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1])); ans = json.load(open(sys.argv[2]))
rows = {n["name"]: n["values"][0] for n in rep["nodes"] if n["depth"] == 1}
want = {"libbench%s.so" % k: v for k, v in ans["image_totals"].items()}
bad = [k for k in want if rows.get(k) != want[k]]
root = [n["values"][0] for n in rep["nodes"] if n["depth"] == 0][0]
print("image rows vs generator: %d of %d equal, root %s (want %s)%s" %
      (len(want) - len(bad), len(want), root, ans["total"],
       "" if not bad and root == ans["total"] else "  MISMATCH"))
PY
# expanding an image: per-key times of the viewer (microseconds)
"$cs" --headless --no-config --size 160x48 --timing "$out.keys.txt" \
	--keys "jhjl" "$out" >/dev/null 2>&1
echo "viewer keys (us): j h (collapse the first image, loaded by the first frame), j l (expand the next, read then):" \
	"$(tr '\n' ' ' <"$out.keys.txt")"
# the same shape read whole, on a tenth of it (100 images)
small="$out-100"
if [ ! -f "$small.made" ]; then
	rm -rf "$small"
	python3 "$here/gen_dcpi_big.py" "$small" 100 100000
	touch "$small.made"
fi
m --label "100 x 100,000 deferred: info" -- "$cs" info "$small"
CALLSCOPE_DCPI_DEFER_MIN=1000000000 \
	m --label "100 x 100,000 read whole: info" -- "$cs" info "$small"
