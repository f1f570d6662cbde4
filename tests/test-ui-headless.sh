#!/bin/sh
# The viewer, headless: first frame, hot path, search, views, thread view,
# resize, help, derived columns, ASCII fallback (tests/ui_headless_check.py).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
tmp=$(mktemp -d) || exit 1
mkdir -p "$tmp/home" && export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/gen-v4db" -o "$tmp/db" --answers "$tmp/answers.json" \
	--seed 11 --contexts 400 --threads 3 --ranks 2 --yaml >/dev/null || exit 1
export TERM=xterm-256color LANG=C.UTF-8
python3 "$top_srcdir/tests/ui_headless_check.py" "$top_builddir/callscope" \
	"$tmp/db" "$tmp/answers.json"
