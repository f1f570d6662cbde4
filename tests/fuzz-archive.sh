#!/bin/sh
# Replays the seed corpora of the archive extraction and autoindex listing
# fuzz targets (tests/fuzz/corpus/archive, tests/fuzz/corpus/listing: each
# file once), built as plain programs or with libFuzzer.
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}"
for target in archive listing; do
	bin="$top_builddir/tests/fuzz/fuzz-$target"
	corpus="$top_srcdir/tests/fuzz/corpus/$target"
	[ -x "$bin" ] || { echo "$bin: not built" >&2; exit 1; }
	[ -d "$corpus" ] || { echo "$corpus: missing" >&2; exit 1; }
	set -- "$corpus"/*
	[ -f "$1" ] || { echo "$corpus: empty" >&2; exit 1; }
	echo "== $target: $# input(s)"
	"$bin" "$@"
done
