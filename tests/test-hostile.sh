#!/bin/sh
# Hostile names (escape sequences, C1 controls, DEL, invalid UTF-8,
# 10,000-character names) never reach the terminal raw, and a cyclic
# context tree is refused: tests/hostile_check.py on databases written by
# gen-v4db --hostile and --cycle.
. "${top_srcdir:-.}/tests/test-lib.sh"
"$gen" -o "$tmp/db" --hostile --names "$tmp/names" --seed 5 --contexts 600 \
	--threads 2 --ranks 2 --metrics 3 --samples 400 >/dev/null || exit 1
"$gen" -o "$tmp/cyclic" --cycle --threads 1 --contexts 100 >/dev/null || exit 1
export TERM=xterm-256color LANG=C.UTF-8
python3 "$top_srcdir/tests/hostile_check.py" "$top_builddir/callscope" \
	"$tmp/db" "$tmp/names" "$tmp/cyclic"
