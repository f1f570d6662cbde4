#!/bin/sh
# Replays the config fuzz target's seed corpus (each file once), whether the
# target was built as a plain program or with libFuzzer: both run each file
# given as an argument once and exit non-zero on a crash.
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}"
bin="$top_builddir/tests/fuzz/fuzz-config"
corpus="$top_srcdir/tests/fuzz/corpus/config"
[ -x "$bin" ] || { echo "$bin: not built" >&2; exit 1; }
[ -d "$corpus" ] || { echo "$corpus: missing" >&2; exit 1; }
set -- "$corpus"/*
[ -f "$1" ] || { echo "$corpus: empty" >&2; exit 1; }
exec "$bin" "$@"
