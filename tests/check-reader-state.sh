#!/bin/sh
# check-reader-state: the format readers keep no mutable file-scope state
# (review finding 11: a qsort comparator read file-static coordinates,
# so two sets opened in two threads sorted each other's points).  Every
# object of src/formats/ must define no object in .bss or .data (tables
# are const: .rodata, or .data.rel.ro when they hold pointers; the
# sanitizers' own instrumentation, __odr_asan.* and the like, is not the
# code's).  Skips
# (77) without objdump or before the objects are built.
top_builddir=${top_builddir:-.}
command -v objdump >/dev/null 2>&1 || exit 77
objs=$(find "$top_builddir/src/formats" -name '*.o' 2>/dev/null)
[ -n "$objs" ] || exit 77
status=0
for o in $objs; do
	objdump -t "$o" | awk -v o="$o" '
		$0 ~ / O / && $0 !~ /\.data\.rel\.ro/ &&
		$0 ~ / \.(bss|data)(\.[^ \t]*)?[ \t]/ &&
		$NF !~ /^(\.L)?_*(odr_asan|asan|ubsan|sancov|tsan|msan)/ {
			print "FAIL: " o ": mutable file-scope object " $NF
			bad = 1
		}
		END { exit bad }' || status=1
done
exit $status
