#!/bin/sh
# Replays the seed corpus and crash reproducers of every parser fuzz target
# (built by tests/fuzz/fuzz.am; tests/fuzz/corpus/TARGET: each file once), whether they were built
# as plain programs or with libFuzzer: both run each file given as an
# argument once and exit non-zero on a crash.  With arguments, only the
# targets they name (tests/fuzz-config.sh).
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}"
targets=${*:-"v4-meta v4-profile v4-cct v4-trace metrics-yaml formula \
	xml-experiment legacy-values legacy-trace sparse2020 archive listing \
	cube cubepl dcpi extrap-text extrap-json extrap-ncu extrap-prof gpu-rows \
	rocpd-yaml otf2-defs"}
for target in $targets; do
	bin="$top_builddir/tests/fuzz/fuzz-$target"
	corpus="$top_srcdir/tests/fuzz/corpus/$target"
	[ -x "$bin" ] || { echo "$bin: not built" >&2; exit 1; }
	[ -d "$corpus" ] || { echo "$corpus: missing" >&2; exit 1; }
	set -- "$corpus"/*
	[ -f "$1" ] || { echo "$corpus: empty" >&2; exit 1; }
	echo "== $target: $# input(s)"
	"$bin" "$@"
done
