#!/bin/sh
# Replays the config fuzz target's seed corpus (each file once), whether the
# target was built as a plain program or with libFuzzer: both run each file
# given as an argument once and exit non-zero on a crash.
# The replay is tests/fuzz-parsers.sh's.
exec sh "${top_srcdir:-.}/tests/fuzz-parsers.sh" config
