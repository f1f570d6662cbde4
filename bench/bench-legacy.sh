#!/bin/sh
# Benchmark of the experiment.xml reader (issue #6): open to the first
# frame, headless at 160x48, on the largest legacy databases of the corpus:
# LU.C.256 (4.7 MB XML, 41 MB experiment-1.mdb, 256 ranks, experiment.mt),
# NPB-UPC CG.C (38 MB unpacked, 192 profiles, 64 trace lines) and SMG2000
# (7.5 MB XML, 32 ranks x metric-db + hpctrace files).  Also the first frame
# with the trace pane (keys "tF") and the thread view ("HT").  The .tar.gz
# samples are extracted into a temporary directory first.
#   target: first frame <= 1 s.
# Then the trace pane, as bench/bench-trace.sh measures it for v4 (headless
# 225x75, pane full screen, the same key script; per-key times from the
# key's dispatch to the finished frame): LU.C.256's experiment.mt (256
# lines, 226,650 samples) and the largest hpctrace set, su3_rmd (32 files,
# 35,397 samples), beside v4 databases of the same shape made with
# tests/gen-v4db (same lines, samples per line and context count).
#   target: as fast as v4 of the same size.
# usage: bench/bench-legacy.sh   (needs ../shared/corpus)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
ex="$here/../../shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples"
[ -d "$ex" ] || { echo "missing $ex" >&2; exit 1; }
bench_tmp
tar -xzf "$ex/lu.C.256.nosrc.tar.gz" -C "$tmp"
tar -xzf "$ex/npb-upc-ibv-berkeley.nosrc.tar.gz" -C "$tmp"
tar -xzf "$ex/milc-su3_rmd.nosrc.tar.gz" -C "$tmp"
bench_machine
for db in "$tmp/hpctoolkit-lu.C.256-database-466923" \
	"$tmp/cg.C.O3.64.bupc.infiniband" \
	"$ex/smg2000-wall-trace.db/smg2000.wall.db"; do
	name=$(basename "$db")
	"$cs" report "$db" --depth 1 >/dev/null # warm the page cache
	for keys in "" "tF" "HT"; do
		python3 "$here/measure.py" --runs 5 \
			--label "$name: first frame, keys '$keys'" -- \
			"$cs" --headless --no-config --size 160x48 --keys "$keys" "$db"
	done
done

# ---- the trace pane ------------------------------------------------------
"$gen" -o "$tmp/v4-lu" --contexts 10000 --ranks 256 --threads 1 \
	--trace-lines 256 --samples 885 --no-cct >/dev/null
"$gen" -o "$tmp/v4-su3" --contexts 20000 --ranks 32 --threads 1 \
	--trace-lines 32 --samples 1106 --no-cct >/dev/null
bench_trace_keys
for db in "$tmp/hpctoolkit-lu.C.256-database-466923" "$tmp/v4-lu" \
	"$tmp/su3_rmd-wall5001-small.db" "$tmp/v4-su3"; do
	name=$(basename "$db")
	echo "== trace pane: $name ($("$cs" info "$db" | sed -n 's/^Trace: *//p'))"
	bench_trace_pane "$db" tF "$name: "
done
