#!/bin/sh
# check-docs: the documentation keeps up with the tree.  Every doc/*.md is
# distributed by doc/doc.am (and only there: a guide listed in a source
# folder's fragment leaves with that folder); every folder of src/formats/
# and every module of src/model/ has its line in doc/HACKING.md's tables,
# a module named in backquotes or covered by a `prefix*` there.
top_srcdir=${top_srcdir:-.}
hacking="$top_srcdir/doc/HACKING.md"
status=0
for f in "$top_srcdir"/doc/*.md; do
	n="doc/$(basename "$f")"
	grep -q "[[:space:]]$n\([[:space:]]\|$\)" "$top_srcdir/doc/doc.am" ||
		{ echo "FAIL: $n is not in doc/doc.am"; status=1; }
done
for am in $(find "$top_srcdir/src" "$top_srcdir/tests" -name '*.am'); do
	if grep -q '^[^#]*doc/[^ ]*\.md' "$am"; then
		echo "FAIL: $am distributes a guide (doc/doc.am does)"
		status=1
	fi
done
for d in "$top_srcdir"/src/formats/*/; do
	n=$(basename "$d")
	grep -q "\`formats/$n/\`" "$hacking" ||
		{ echo "FAIL: doc/HACKING.md has no line for src/formats/$n/"; status=1; }
done
for f in "$top_srcdir"/src/model/*.c; do
	b=$(basename "$f" .c)
	found=0
	grep -q "\`$b\`" "$hacking" && found=1
	for p in $(grep -o '`[a-z_]*\*`' "$hacking" | tr -d '`*' | sort -u); do
		case $b in "$p"*) found=1 ;; esac
	done
	[ $found = 1 ] || { echo "FAIL: doc/HACKING.md does not name src/model/$b.c"; status=1; }
done
exit $status
