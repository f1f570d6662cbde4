#!/bin/sh
# Replays the seed corpus and crash reproducers of the legacy binary fuzz
# targets (tests/fuzz/corpus/TARGET: each file once), whether they were
# built as plain programs or with libFuzzer (see tests/fuzz-parsers.sh).
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}"
for target in legacy-values legacy-trace sparse2020; do
	bin="$top_builddir/tests/fuzz/fuzz-$target"
	corpus="$top_srcdir/tests/fuzz/corpus/$target"
	[ -x "$bin" ] || { echo "$bin: not built" >&2; exit 1; }
	[ -d "$corpus" ] || { echo "$corpus: missing" >&2; exit 1; }
	set -- "$corpus"/*
	[ -f "$1" ] || { echo "$corpus: empty" >&2; exit 1; }
	echo "== $target: $# input(s)"
	"$bin" "$@"
done
