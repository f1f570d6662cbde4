#!/bin/sh
# Benchmark of the experiment.xml reader (issue #6): open to the first
# frame, headless at 160x48, on the largest legacy databases of the corpus:
# LU.C.256 (4.7 MB XML, 41 MB experiment-1.mdb, 256 ranks, experiment.mt),
# NPB-UPC CG.C (38 MB unpacked, 192 profiles, 64 trace lines) and SMG2000
# (7.5 MB XML, 32 ranks x metric-db + hpctrace files).  Also the first frame
# with the trace pane (keys "tF") and the thread view ("HT").  The .tar.gz
# samples are extracted into a temporary directory first.
#   target: first frame <= 1 s.
# usage: bench/bench-legacy.sh   (needs ../shared/corpus)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cs=${CALLSCOPE:-$here/../callscope}
ex="$here/../../shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples"
[ -d "$ex" ] || { echo "missing $ex" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$ex/lu.C.256.nosrc.tar.gz" -C "$tmp"
tar -xzf "$ex/npb-upc-ibv-berkeley.nosrc.tar.gz" -C "$tmp"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
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
