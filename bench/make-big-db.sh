#!/bin/sh
# Generates the benchmark databases with tests/gen-v4db:
#   (a) DIR/contexts-3m: about 3 million contexts (meta.db ~150 MB), no trace;
#   (b) DIR/trace-10g:   16 trace lines x 54 million samples (trace.db ~10.4 GB,
#       i.e. >= 10^10 bytes), few contexts.
# Prints each database's file sizes and generation time.
#
# usage: bench/make-big-db.sh [DIR] [a|b|all]       (default: bench/out all)
# Environment: GEN (path of gen-v4db), SAMPLES (per trace line for (b),
# default 54000000; e.g. SAMPLES=1000000 for a quick validation run),
# CONTEXTS (for (a), default 3000000).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out}
which=${2:-all}
gen=${GEN:-$here/../tests/gen-v4db}
samples=${SAMPLES:-54000000}
contexts=${CONTEXTS:-3000000}

if [ ! -x "$gen" ]; then
	echo "make-big-db: $gen not found; run make first (or set GEN)" >&2
	exit 1
fi
mkdir -p "$out"

now() { date +%s.%N; }

sizes() {
	for f in meta.db profile.db cct.db trace.db; do
		[ -e "$1/$f" ] && printf '  %-11s %15s bytes\n' "$f" "$(wc -c <"$1/$f" | tr -d ' ')"
	done
	return 0
}

run() {
	name=$1
	shift
	start=$(now)
	"$gen" -o "$out/$name" "$@" >/dev/null
	end=$(now)
	printf '%s: generated in %.1f s\n' "$name" "$(echo "$end - $start" | bc)"
	sizes "$out/$name"
}

case $which in
a | all)
	run contexts-3m --seed 11 --contexts "$contexts" --depth 64 --fanout 4 \
		--metrics 2 --ranks 2 --threads 2 --no-trace --yaml --title "bench: 3M contexts"
	;;
esac
case $which in
b | all)
	run trace-10g --seed 12 --contexts 2000 --metrics 1 --ranks 4 --threads 4 \
		--samples "$samples" --no-cct --yaml --title "bench: trace-heavy"
	;;
esac
