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
# Then (issue 28) the flat and bottom-up views of 200 images x 100,000
# addresses (20 M addresses, every one without a symbol): the viewer
# opening straight into each view (headless, keys 3 and 2) and `report
# --view flat|bottom-up --depth 1`, wall s, user CPU s and peak RSS KB from
# /usr/bin/time -f '%e %U %M', for CALLSCOPE_OLD (when set: the binary
# before the change) and the new one, RUNS_BIG times each (default 1: the
# old binary takes minutes and gigabytes); the group rows are checked
# against the generator's totals.  Target: <= 15 s and <= 1 GB each.
# usage: bench/bench-dcpi.sh [DIR]     (BENCH_DCPI=views: that part alone)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out/dcpi}

# the flat and bottom-up views of 20 M addresses, old and new
views_bench() {
	big="$out-200"
	if [ ! -f "$big.made" ]; then
		rm -rf "$big"
		python3 "$here/gen_dcpi_big.py" "$big" 200 100000
		touch "$big.made"
	fi
	echo "database: $(find "$big/" -type f | wc -l) files, $(du -sh "$big/" | cut -f1), 20,000,000 addresses"
	cat "$big"/*/* >/dev/null
	xdg=$(mktemp -d)
	for bin in ${CALLSCOPE_OLD:+old:$CALLSCOPE_OLD} "new:$cs"; do
		name=${bin%%:*} exe=${bin#*:}
		for how in "viewer 3 (flat)" "viewer 2 (bottom-up)" \
			"report flat" "report bottom-up"; do
			set -- $how
			r=0
			while [ "$r" -lt "${RUNS_BIG:-1}" ]; do
				r=$((r + 1))
				if [ "$1" = viewer ]; then
					XDG_CONFIG_HOME=$xdg XDG_CACHE_HOME=$xdg nice \
					/usr/bin/time -o "$xdg/t" -f '%e %U %M' "$exe" \
						--headless --no-config --size 120x40 \
						--keys "$2" "$big" >/dev/null 2>&1
				else
					XDG_CONFIG_HOME=$xdg XDG_CACHE_HOME=$xdg nice \
					/usr/bin/time -o "$xdg/t" -f '%e %U %M' "$exe" \
						report --view "$2" --depth 1 "$big" \
						>/dev/null 2>&1
				fi
				read -r wall user kb <"$xdg/t"
				printf '%-4s %-22s wall %7.2f s  user %7.2f s  peak %8d KB\n' \
					"$name" "$how" "$wall" "$user" "$kb"
			done
		done
	done
	# the flat view's group rows against the generator's totals
	XDG_CONFIG_HOME=$xdg XDG_CACHE_HOME=$xdg "$cs" report --view flat \
		--format json "$big" 2>/dev/null >"$big.flat.json"
	python3 - "$big.flat.json" "$big.answers.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1])); ans = json.load(open(sys.argv[2]))
got = {n["name"]: n["values"][0] for n in rep["nodes"]
       if n["name"].endswith(": no symbols]")}
want = {"[libbench%s.so: no symbols]" % k: v
        for k, v in ans["image_totals"].items()}
root = [n["values"][0] for n in rep["nodes"] if n["depth"] == 0][0]
bad = [k for k in want if got.get(k) != want[k]]
print("flat group rows vs generator: %d of %d equal, root %s (want %s)%s" %
      (len(want) - len(bad), len(want), root, ans["total"],
       "" if not bad and root == ans["total"] else "  MISMATCH"))
PY
	rm -rf "$xdg"
}
if [ "${BENCH_DCPI:-}" = views ]; then
	views_bench
	exit 0
fi
if [ ! -f "$out.made-1000-100000" ]; then
	rm -rf "$out"
	python3 "$here/gen_dcpi_big.py" "$out" 1000 100000
	touch "$out.made-1000-100000"
fi
bench_machine
echo "database: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1)"
cat "$out"/*/* >/dev/null # warm the page cache
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
views_bench
