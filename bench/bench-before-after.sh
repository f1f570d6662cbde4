#!/bin/sh
# Two builds side by side on the same batch commands (issue 30: "bench
# figures before and after within noise"): for each command the
# instructions it executes under `valgrind --tool=callgrind
# --trace-children=no` (independent of the machine's load), old, new and
# the change, then the wall time of each, best and median of RUNS
# (default 5) with bench/measure.py, old and new interleaved command by
# command.  The inputs are made in DIR when missing, the same for both:
# a v4 database of 1,000,000 contexts and one of 16 trace lines x 5
# million samples (tests/gen-v4db, GEN), a Cube file of 100,000 call
# nodes x 64 locations (tests/gen_cube.py --bench), a rocpd run of 4
# files x 1,000,000 dispatches (bench/gen_rocpd_big.py), a DCPI database of
# 100 images x 10,000 addresses (bench/gen_dcpi_big.py) and the big Extra-P
# set (../shared/bench/extrap-bigset.py); from ../shared/corpus: smg2000
# (experiment.xml, 18,192 contexts), Cube blast.p64.r1 and an Nsight
# export.  Callgrind's output files stay in DIR/callgrind (NAME.old,
# NAME.new) for callgrind_annotate; the table gives the counts whole
# and without the dynamic loader's part (a library linked or opened on
# first use changes it by a fixed amount).  Every command runs with
# --no-cache and a configuration and cache directory of its own.
# usage: bench/bench-before-after.sh OLD_BIN NEW_BIN [DIR]
#   (DIR default bench/out; RUNS=N; PARTS="callgrind wall" by default,
#   PARTS=table: the table of the callgrind files already in DIR;
#   ONLY=NAME: that command alone)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
bench_old_new 24 "$@"
parts=${PARTS:-callgrind wall}
corpus=$here/../../shared/corpus
export XDG_CONFIG_HOME="$out/ba-config" XDG_CACHE_HOME="$out/ba-cache"
mkdir -p "$out/callgrind" "$XDG_CONFIG_HOME"

[ -f "$out/contexts-1m/meta.db" ] ||
	"$gen" -o "$out/contexts-1m" --seed 11 --contexts 1000000 --depth 64 --fanout 4 \
		--metrics 2 --ranks 2 --threads 2 --no-trace --yaml --title "bench: 1M contexts" >/dev/null
[ -f "$out/trace-1g/trace.db" ] ||
	"$gen" -o "$out/trace-1g" --seed 12 --contexts 2000 --metrics 1 --ranks 4 --threads 4 \
		--samples 5000000 --no-cct --yaml --title "bench: trace" >/dev/null
[ -f "$out/cube-100k.cubex" ] ||
	/usr/bin/python3 "$here/../tests/gen_cube.py" "$out/cube-100k.cubex" --bench \
		--cnodes 100000 --locs 64
[ -d "$out/rocpd-1m" ] ||
	/usr/bin/python3 "$here/gen_rocpd_big.py" "$out/rocpd-1m" 4 1000000 >/dev/null
[ -d "$out/dcpi-100" ] ||
	/usr/bin/python3 "$here/gen_dcpi_big.py" "$out/dcpi-100" 100 10000 >/dev/null
[ -f "$out/extrap-bigset.txt" ] ||
	/usr/bin/python3 "$here/../../shared/bench/extrap-bigset.py" "$out/extrap-bigset.txt" 2000 7

smg=$corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples/smg2000-wall-trace.db/smg2000.wall.db
cube=$corpus/cube/pycubexr/data/blast.p64.r1/profile.cubex
nsight=$corpus/nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
# NAME|ARGUMENTS (split on blanks: no path here has one)
cmds="report-1m|report $out/contexts-1m --depth 3
report-1m-flat|report $out/contexts-1m --view flat --depth 3
report-1m-bu|report $out/contexts-1m --view bottom-up --depth 2
hotpath-1m|hotpath $out/contexts-1m
info-1m|info $out/contexts-1m
trace-at|trace $out/trace-1g --at +123.5s --format json
trace-window|trace $out/trace-1g --from +100s --to +120s --columns 1000 --format json
info-smg2000|info $smg
report-smg2000|report $smg --depth 3
trace-smg2000|trace $smg --from +0s --to +1s --columns 200 --format json
report-cube|report $cube --depth 3
report-cube-100k|report $out/cube-100k.cubex --depth 3
report-nsight|report $nsight
report-rocpd-1m|report $out/rocpd-1m --view flat
report-dcpi|report $out/dcpi-100
model-extrap|model $out/extrap-bigset.txt"

bench_machine load
echo "old: $old"
echo "new: $new"

# the Ir total of a callgrind output file, and its part in the dynamic
# loader (ld-linux: the self cost of lines under that ob=, the inclusive
# cost line after each calls= skipped)
ir() { sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$1"; }
ir_loader() {
	awk 'function obname(v,   id) {
		if (match(v, /^\([0-9]+\)/)) {
			id = substr(v, 2, RLENGTH - 2)
			v = substr(v, RLENGTH + 1)
			sub(/^ +/, "", v)
			if (v != "") names[id] = v
			return names[id]
		}
		return v
	}
	skip { skip = 0; next }
	/^cob=/ { obname(substr($0, 5)); next }
	/^ob=/ { ob = obname(substr($0, 4)); next }
	/^calls=/ { skip = 1; next }
	/^[0-9+*-]/ { if (ob ~ /ld-linux/) ld += $2 }
	END { print ld + 0 }' "$1"
}
pct() { echo "scale=6; ($2 - $1) * 100 / $1" | bc; }

case $parts in *callgrind* | *table*)
	printf '%-18s %14s %14s %8s   %14s %14s %8s\n' command "Ir old" "Ir new" \
		change "w/o loader old" new change
	echo "$cmds" | while IFS='|' read -r name args; do
		[ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || continue
		for v in old new; do
			[ "${parts#*callgrind}" != "$parts" ] || continue
			eval "bin=\$$v"
			valgrind --tool=callgrind --trace-children=no \
				--callgrind-out-file="$out/callgrind/$name.$v" \
				"$bin" --no-cache $args >/dev/null 2>&1
		done
		a=$(ir "$out/callgrind/$name.old")
		b=$(ir "$out/callgrind/$name.new")
		c=$((a - $(ir_loader "$out/callgrind/$name.old")))
		d=$((b - $(ir_loader "$out/callgrind/$name.new")))
		printf '%-18s %14s %14s %+7.2f%%   %14s %14s %+7.2f%%\n' "$name" \
			"$a" "$b" "$(pct "$a" "$b")" "$c" "$d" "$(pct "$c" "$d")"
	done
	;;
esac

case $parts in *wall*)
	# the page cache warmed by one run of each command
	echo "$cmds" | while IFS='|' read -r name args; do
		[ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || continue
		"$new" --no-cache $args >/dev/null 2>&1
	done
	echo "$cmds" | while IFS='|' read -r name args; do
		[ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || continue
		for v in old new; do
			eval "bin=\$$v"
			$m --label "$name $v" -- "$bin" --no-cache $args
		done
	done
	bench_machine load
	;;
esac
