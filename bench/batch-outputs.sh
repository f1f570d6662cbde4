#!/bin/sh
# Prints what the batch commands say about every database in ../shared/corpus
# (and every corpus directory that holds no database), one block per command,
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
