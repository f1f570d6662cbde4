#!/bin/sh
# Replays the seed corpus and crash reproducers of the experiment.xml fuzz
# target (tests/fuzz/corpus/xml-experiment: each file once), built as a
# plain program or with libFuzzer; non-zero exit on a crash.
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}"
for target in xml-experiment; do
	bin="$top_builddir/tests/fuzz/fuzz-$target"
	corpus="$top_srcdir/tests/fuzz/corpus/$target"
	[ -x "$bin" ] || { echo "$bin: not built" >&2; exit 1; }
	[ -d "$corpus" ] || { echo "$corpus: missing" >&2; exit 1; }
	set -- "$corpus"/*
	[ -f "$1" ] || { echo "$corpus: empty" >&2; exit 1; }
	echo "== $target: $# input(s)"
	"$bin" "$@"
done
