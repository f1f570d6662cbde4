#!/bin/sh
# Prints what the batch commands say about every database in ../shared/corpus
# (HPCToolkit databases with every view and trace window; then every Cube,
# rocpd, .rpd, Nsight, OTF2 and Extra-P file or set with fewer commands), one block per command,
# so that two builds can be compared byte for byte:
#   bench/batch-outputs.sh OLD/callscope > old.txt
#   bench/batch-outputs.sh NEW/callscope > new.txt && cmp old.txt new.txt
# A refactor that must not change output is checked this way (issue 12).
set -u
bin=${1:?usage: batch-outputs.sh CALLSCOPE [SHARED]}
shared=${2:-$(dirname "$0")/../../shared}
[ -d "$shared/corpus" ] || { echo "no $shared/corpus" >&2; exit 2; }
run() {
	printf '== %s\n' "$*"
	"$bin" "$@" 2>&1
	printf '== exit %s\n' "$?"
}
find "$shared/corpus" \( -name meta.db -o -name experiment.xml -o -name trace.db \) |
	sed 's,/[^/]*$,,' | sort -u | while read -r db; do
	rel=${db#"$shared/"}
	printf '#### %s\n' "$rel"
	cd "$shared" || exit 2
	run info "$rel"
	run info "$rel" --format json
	for v in top-down bottom-up flat; do
		run report "$rel" --view $v --depth 4 --metric all
		run report "$rel" --view $v --format json --metric all
		run report "$rel" --view $v --format csv --depth 3
	done
	run hotpath "$rel"
	run hotpath "$rel" --format json --threshold 20
	run trace "$rel" --at +0
	run trace "$rel" --from +0 --to +1s --columns 40 --format json
	run trace "$rel" --from +0 --to +100ms --columns 20
	cd - >/dev/null || exit 2
done
# The other format families: Cube files, rocpd and .rpd runs, Nsight exports,
# Extra-P sets (text, JSON, Cube directories). Fewer commands each: what a
# reader fills (tree, columns, traces, models) is what these print.
cd "$shared" || exit 2
{
	find corpus/cube corpus/rocpd-rpd corpus/rocpd-schema corpus/nsys-sqlite corpus/otf2 \
		-type f \( -name '*.cubex' -o -name '*.rpd' -o -name '*.db' -o -name '*.sqlite' -o -name '*.otf2' \)
	find corpus/extra-p -type f \( -name '*.txt' -o -name '*.json' -o -name '*.jsonl' \) \
		-path '*tests/data*' | grep -v -e '/cubeset/' | head -40
	find corpus/extra-p -mindepth 5 -maxdepth 5 -type d -path '*/cubeset/*'
} | sort | while read -r db; do
	printf '#### %s\n' "$db"
	run info "$db" --format json
	run report "$db" --view top-down --format json --metric all
	run report "$db" --view flat --format csv --depth 3
	run report "$db" --view bottom-up --depth 3
	run hotpath "$db"
	run trace "$db" --from +0 --to +1s --columns 40 --format json
done
