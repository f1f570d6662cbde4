#!/bin/sh
# The man page's KEYS table lists every action of ui/actions.def with its
# default keys (the table is the source; this keeps the page in step).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
man="$top_srcdir/doc/callscope.1"
status=0
"$top_builddir/callscope" --list-actions >actions.tmp || exit 1
while IFS= read -r line; do
	name=$(printf '%s' "$line" | cut -c1-18 | sed 's/ *$//')
	keys=$(printf '%s' "$line" | cut -c20-33 | sed 's/ *$//')
	want=$(printf '%s\t%s' "$name" "$keys" | sed 's/-/\\-/g')
	if ! grep -qF "$want" "$man"; then
		echo "FAIL: doc/callscope.1 KEYS lacks '$name' with keys '$keys'"
		status=1
	fi
done <actions.tmp
rm -f actions.tmp
exit $status
