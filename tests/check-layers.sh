#!/bin/sh
# check-layers: the engine's layers include only the layers below them.
#
#   core < model < io < net, archive < formats < open < views < config
#        < present < compare < cli
#
# (ui/ is above all of them and the only place that includes curses; of
# ui/, only main.c includes cli/, to dispatch the batch commands: the
# viewer shows values through present/ and keeps its transfer state in
# net/session, never in the batch CLI).  A
# file in src/LAYER/ may include headers of its own folder and of lower
# layers, written with the folder ("model/model.h"); net and archive are
# siblings, and so are the format folders under formats/ (each may include
# formats/*.h, the interface, but not another format).  src/ never includes
# curses, ui/ or a path with "..", and every quoted include but config.h
# names its folder.  `check-layers.sh DIR` checks DIR (a src/ tree) and
# exits 1 on a violation; without an argument it checks the project's
# src/ and then proves that it fails on deliberate violations.
set -u
rank() {
	case $1 in
	core) echo 0 ;; model) echo 1 ;; io) echo 2 ;; net | archive) echo 3 ;;
	formats) echo 4 ;; open.h | open.c) echo 5 ;; views) echo 6 ;;
	config) echo 7 ;; present) echo 8 ;; compare) echo 9 ;; cli) echo 10 ;;
	*) echo 99 ;;
	esac
}

check_tree() {
	(cd "$1" && find . \( -name '*.[ch]' -o -name '*.def' \) | sed 's,^\./,,' | sort |
		xargs grep -Hn '^[[:space:]]*#[[:space:]]*include') >"$tmp/incs"
	(cd "$1/formats" && find . -mindepth 1 -maxdepth 1 -type d | sed 's,^\./,,') >"$tmp/formats"
	awk -v formats="$tmp/formats" '
	function rank(l) {
		if (l == "core") return 0; if (l == "model") return 1
		if (l == "io") return 2; if (l == "net" || l == "archive") return 3
		if (l == "formats") return 4; if (l == "open.c" || l == "open.h") return 5
		if (l == "views") return 6; if (l == "config") return 7
		if (l == "present") return 8; if (l == "compare") return 9
		if (l == "cli") return 10; return 99
	}
	BEGIN { while ((getline d < formats) > 0) fmt[d] = 1 }
	{
		split($0, p, ":"); f = p[1]; n = p[2]
		split(f, parts, "/"); layer = parts[1]
		sub_ = (layer == "formats" && (parts[2] in fmt)) ? parts[2] : ""
		mine = rank(layer)
		line = $0; sub(/^[^:]*:[^:]*:/, "", line)
		if (!match(line, /[<"][^>"]*[>"]/)) next
		inc = substr(line, RSTART, RLENGTH); name = substr(inc, 2, length(inc) - 2)
		why = ""
		if (rank(layer) == 99) why = "an engine file outside the layer folders"
		else if (inc ~ /^<(n?curses\.h|ncursesw\/|ncurses\/)/) why = "curses in the engine"
		else if (inc ~ /^</ || inc == "\"config.h\"") why = ""
		else if (name ~ /^ui\// || name ~ /\.\./) why = "ui/ or a relative path in the engine"
		else if (name == "open.h") {
			if (mine <= 5 && layer != "open.c") why = layer " may include only lower layers, not open.h"
		} else if (name ~ /\//) {
			split(name, ip, "/"); dir = ip[1]; theirs = rank(dir)
			if (theirs == 99) why = "\"" dir "/\" is not a layer"
			else if (dir == layer) {
				if (layer == "formats" && (ip[2] in fmt)) {
					if (sub_ != "" && ip[2] != sub_) why = "one format includes another (formats/" ip[2] ")"
					else if (sub_ == "") why = "the registry includes a format'"'"'s files"
				}
			} else if (theirs >= mine) why = layer " may include only lower layers, not " dir "/"
		} else why = "include without its folder"
		if (why != "") { print "src/" f ":" n ": " inc ": " why; bad = 1 }
	}
	END { exit bad }' "$tmp/incs"
}

# ui/ includes cli/ only from main.c.
check_ui() {
	(cd "$1" && grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"cli/' \
		*.c *.h 2>/dev/null) | grep -v '^main\.c:' |
		sed 's,^,ui/,; s,$,: only ui/main.c may include cli/,' | grep . && return 1
	return 0
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -gt 0 ]; then
	check_tree "$1"
	exit $?
fi
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
check_tree "$top/src" || { echo "FAIL: layer violations in src/"; exit 1; }
echo "src/: every include follows the layers"
check_ui "$top/ui" || { echo "FAIL: ui/ includes cli/ outside main.c"; exit 1; }
echo "ui/: only main.c includes cli/"

# config.h comes first in every C file of src/ and ui/ (feature macros
# and the build's settings must be seen before any system header).
for f in $(find "$top/src" "$top/ui" -name '*.c'); do
	first=$(grep -m1 '^#include' "$f")
	[ "$first" = '#include "config.h"' ] ||
		{ echo "FAIL: ${f#"$top"/}: the first include is not config.h"; exit 1; }
done
echo "src/, ui/: config.h is the first include of every C file"

# The check must fail on deliberate violations, each in a copy of src/.
fails=0
violate() {
	rm -rf "$tmp/src" && cp -R "$top/src" "$tmp/src" || exit 99
	printf '%s\n' "$2" >>"$tmp/src/$1"
	if check_tree "$tmp/src" >"$tmp/out"; then
		echo "FAIL: no violation found for '$2' in $1"
		fails=1
	else
		echo "found as expected: $(grep -F "$1" "$tmp/out" | head -1)"
	fi
}
violate core/status.c '#include "cli/cli.h"'
violate model/model.c '#include "views/view.h"'
violate net/http.c '#include "archive/archive_open.h"'
violate formats/hpctoolkit_v4/hpctoolkit_v4.c '#include "formats/hpctoolkit_xml/xml_tree.h"'
violate views/view.c '#include <curses.h>'
violate cli/cli.c '#include "../ui/app.h"'
violate io/blob.c '#include "status.h"'
violate formats/reader.c '#include "open.h"'
violate stray.c '#include "core/status.h"'
violate present/present_value.c '#include "cli/cli.h"'
violate present/present_rows.c '#include "compare/diff.h"'
violate compare/diff.c '#include "cli/cli.h"'
# and on a pane that includes the batch CLI
rm -rf "$tmp/ui" && cp -R "$top/ui" "$tmp/ui" || exit 99
printf '%s\n' '#include "cli/cli.h"' >>"$tmp/ui/pane_tree.c"
if check_ui "$tmp/ui" >"$tmp/out"; then
	echo "FAIL: no violation found for cli/cli.h in ui/pane_tree.c"
	fails=1
else
	echo "found as expected: $(head -1 "$tmp/out")"
fi
exit $fails
