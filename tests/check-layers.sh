#!/bin/sh
# check-layers: the engine's layers include only the layers below them.
#
#   core < model < analysis < io < net, archive < formats < open < views
#        < config < present < compare < cli
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
# names its folder.
#
# Boundaries, beyond the order (review 2026-11b, 1.3):
# - a format's folder formats/FMT/ is private to itself and the registry
#   (formats/reader.c, formats/probe.c): every other file reaches a format
#   through formats/reader.h (exceptions: the list `private_ok` below);
# - formats/gpu_run/ is a library of the SQLite GPU-trace formats: only
#   itself, formats/rocpd/ and formats/nsight/ include it;
# - a header named *_internal.h is private to its folder, in src/ and from
#   ui/ (gpu_run's struct gpu_run is in gpu_run_internal.h: opaque to the
#   layouts; struct model is in model/model_internal.h: every other file
#   reads the model through model_data.h's accessors);
# - LAPACK (lapacke.h) is included by analysis/ only: fitting is
#   analysis, not the model's data (and by core/lazylib_lapacke.c, its
#   trampolines: src/core/lazylib.h);
# - third-party headers (curl, sqlite3, jansson, expat, libxml2, libarchive,
#   yaml, elfutils, capstone, lapacke, zlib, pcre2) stay out of the headers of
#   src/, except the list `thirdparty_ok` below, each with its reason;
# - in ui/, only the hub's files include hub.h (panes see the hub only
#   through pane.h's services), and only main.c includes cli/;
# - no format's name or file names in the string literals of the
#   generic code that once knew them (`generic_files` below: net/, the
#   procedure listing of views/ and cli/): which files a directory URL
#   needs, or which format has listings, is the reader registry's
#   answer (review 2026-11b, L10).
#
# `check-layers.sh DIR` checks DIR (a src/ tree) and exits 1 on a
# violation; without an argument it checks the project's src/ and ui/ and
# then proves that it fails on deliberate violations, one per rule.
set -u
rank() {
	case $1 in
	core) echo 0 ;; model) echo 1 ;; analysis) echo 1.5 ;; io) echo 2 ;; net | archive) echo 3 ;;
	formats) echo 4 ;; open.h | open.c) echo 5 ;; views) echo 6 ;;
	config) echo 7 ;; present) echo 8 ;; compare) echo 9 ;; cli) echo 10 ;;
	*) echo 99 ;;
	esac
}

# Files outside a format's folder that include its private headers today:
# FILE HEADER, with the reason on the line above.
private_ok='
'
# Headers of src/ that include a third-party header: FILE HEADER, with the
# reason on the line above.
thirdparty_ok='
# private to the http files of net/ (an _internal.h header): the session that
# holds the libcurl handle
net/http_internal.h curl/curl.h
# io/ wraps SQLite for the readers: its API takes and gives sqlite3 handles
io/sqlite_ro.h sqlite3.h
# the layouts hand prepared statements to the run'"'"'s scan (private to the
# GPU readers; narrowed by review 7.2 item 7)
formats/gpu_run/gpu_run.h sqlite3.h
# the batch output is built as jansson values (review X3)
present/present_column.h jansson.h
present/present_rows.h jansson.h
present/present_write.h jansson.h
# private to formats/hpctoolkit_xml/: the format'"'"'s own expat parser
formats/hpctoolkit_xml/xml_parser.h expat.h
# private to formats/hpctoolkit_v4/: the parts of the METRICS.yaml reader
# share the libyaml document they walk
formats/hpctoolkit_v4/metrics_yaml_internal.h yaml.h
'

check_tree() {
	# generated code (protoc-c's *.pb-c.[ch]) is not ours to layer
	(cd "$1" && find . \( -name '*.[ch]' -o -name '*.def' \) ! -name '*.pb-c.[ch]' |
		sed 's,^\./,,' | sort | xargs grep -Hn '^[[:space:]]*#[[:space:]]*include') >"$tmp/incs"
	(cd "$1/formats" && find . -mindepth 1 -maxdepth 1 -type d | sed 's,^\./,,') >"$tmp/formats"
	printf '%s\n' "$private_ok" | grep -v '^#' | grep . >"$tmp/private_ok"
	printf '%s\n' "$thirdparty_ok" | grep -v '^#' | grep . >"$tmp/thirdparty_ok"
	awk -v formats="$tmp/formats" -v private_ok="$tmp/private_ok" \
		-v thirdparty_ok="$tmp/thirdparty_ok" '
	function ip_last(path,   k, q) {
		k = split(path, q, "/"); return q[k]
	}
	function rank(l) {
		if (l == "core") return 0; if (l == "model") return 1
		if (l == "analysis") return 1.5
		if (l == "io") return 2; if (l == "net" || l == "archive") return 3
		if (l == "formats") return 4; if (l ~ /^open(_[a-z_]+)?\.[ch]$/) return 5
		if (l == "views") return 6; if (l == "config") return 7
		if (l == "present") return 8; if (l == "compare") return 9
		if (l == "cli") return 10; return 99
	}
	BEGIN {
		while ((getline d < formats) > 0) fmt[d] = 1
		# libraries under formats/ and the folders that may use them
		lib["gpu_run"] = " rocpd nsight "
		while ((getline d < private_ok) > 0) privok[d] = 1
		while ((getline d < thirdparty_ok) > 0) tpok[d] = 1
		registry["formats/reader.c"] = 1; registry["formats/probe.c"] = 1
		third = "^<(curl/|sqlite3\\.h|jansson\\.h|expat\\.h|libxml/|archive(_entry)?\\.h|yaml\\.h|elfutils/|libelf\\.h|gelf\\.h|dwarf\\.h|capstone/|lapacke|cblas|zlib\\.h|pcre2\\.h)"
	}
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
		else if (inc ~ third && f ~ /\.h$/ && !((f " " name) in tpok))
			why = "a third-party header in a header of src/ (keep it in the .c files)"
		else if (inc ~ /^<(lapacke|cblas)/ && layer != "analysis" &&
			 f != "core/lazylib_lapacke.c")
			why = "LAPACK is for the fitting in analysis/ only"
		else if (inc ~ /^</ || inc == "\"config.h\"") why = ""
		else if (name ~ /^ui\// || name ~ /\.\./) why = "ui/ or a relative path in the engine"
		else if (name == "open.h") {
			if (mine < 5) why = layer " may include only lower layers, not open.h"
		} else if (name ~ /_internal\.h$/ && substr(name, 1, length(name) - length(ip_last(name))) != substr(f, 1, length(f) - length(ip_last(f)))) {
			why = "an _internal.h header is private to its folder"
		} else if (name ~ /\//) {
			split(name, ip, "/"); dir = ip[1]; theirs = rank(dir)
			if (theirs == 99) why = "\"" dir "/\" is not a layer"
			else if (dir == "formats" && (ip[2] in fmt) && sub_ != ip[2] &&
				 !((f " " name) in privok)) {
				if (ip[2] in lib) {
					if (index(lib[ip[2]], " " sub_ " ") == 0)
						why = "formats/" ip[2] "/ is a library that only" lib[ip[2]] "include"
				} else if (sub_ != "") why = "one format includes another (formats/" ip[2] ")"
				else if (!(f in registry))
					why = "formats/" ip[2] "/ is private to the format and the registry (use formats/reader.h)"
			}
			if (why != "" || dir == layer) ;
			else if (theirs >= mine) why = layer " may include only lower layers, not " dir "/"
		} else why = "include without its folder"
		if (why != "") { print "src/" f ":" n ": " inc ": " why; bad = 1 }
	}
	END { exit bad }' "$tmp/incs"
}

# ui/ includes cli/ only from main.c, and no engine folder's _internal.h.
check_ui() {
	(cd "$1" && grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"cli/' \
		*.c *.h 2>/dev/null) | grep -v '^main\.c:' |
		sed 's,^,ui/,; s,$,: only ui/main.c may include cli/,' | grep . && return 1
	(cd "$1" && grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/[^"]*_internal\.h"' \
		*.c *.h 2>/dev/null) |
		sed 's,^,ui/,; s,$,: an _internal.h header is private to its folder,' | grep . && return 1
	return 0
}

# The hub's files, the only ones of ui/ that include hub.h (the viewer's
# state); panes and the rest see the hub only through pane.h's services.
hub_files='app.c commands.c compare.c dispatch.c frame.c input.c partial.c prebuild.c prompt.c'
check_hub() {
	(cd "$1" && grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(ui/\)\{0,1\}hub\.h"' \
		*.c *.h 2>/dev/null) | while IFS=: read -r f n rest; do
		case " $hub_files " in *" $f "*) ;; *)
			echo "ui/$f:$n: $rest: only the hub ($hub_files) includes hub.h" ;;
		esac
	done | grep . && return 1
	return 0
}

# Format names and the files only one format has, in string literals of
# the generic files (comments may name them).
generic_files='net/*.c net/*.h views/proc_listing.c views/proc_listing.h cli/cmd_listing.c'
format_words='hpctoolkit|dcpi|cube|rocpd|nsight|extra-?p|otf2|meta\.db|profile\.db|cct\.db|trace\.db|experiment\.xml|\.rpd|\.cubex|\.sqlite|metric-db|hpctrace'
check_names() {
	(cd "$1" && for f in $generic_files; do [ -f "$f" ] && echo "$f"; done) |
		while read -r f; do
			awk -v f="$f" -v words="$format_words" '
			{
				line = $0; out = ""
				# drop comments (a /* ... */ may span lines)
				while (line != "") {
					if (incomment) {
						k = index(line, "*/")
						if (!k) { line = ""; break }
						line = substr(line, k + 2); incomment = 0
					}
					k = index(line, "/*")
					if (!k) { out = out line; break }
					out = out substr(line, 1, k - 1)
					line = substr(line, k + 2); incomment = 1
				}
				sub(/\/\/.*/, "", out)
				while (match(out, /"([^"\\]|\\.)*"/)) {
					lit = tolower(substr(out, RSTART, RLENGTH))
					if (lit ~ words)
						print "src/" f ":" NR ": " substr(out, RSTART, RLENGTH) ": a format name in generic code (the reader registry knows formats)"
					out = substr(out, RSTART + RLENGTH)
				}
			}' "$1/$f"
		done | grep . && return 1
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
check_ui "$top/ui" || { echo "FAIL: ui/ includes cli/ outside main.c or an _internal.h"; exit 1; }
echo "ui/: only main.c includes cli/, no file an engine _internal.h"
check_hub "$top/ui" || { echo "FAIL: a ui/ file outside the hub includes hub.h"; exit 1; }
echo "ui/: only the hub includes hub.h"
check_names "$top/src" || { echo "FAIL: a format name in generic code"; exit 1; }
echo "src/: no format name in net/ or the listing code"

# config.h comes first in every C file of src/ and ui/ (feature macros
# and the build's settings must be seen before any system header).
for f in $(find "$top/src" "$top/ui" -name '*.c' ! -name '*.pb-c.c'); do
	first=$(grep -m1 '^#include' "$f")
	[ "$first" = '#include "config.h"' ] ||
		{ echo "FAIL: ${f#"$top"/}: the first include is not config.h"; exit 1; }
done
echo "src/, ui/: config.h is the first include of every C file"

# The check must fail on deliberate violations, each in a copy of src/
# or ui/: planted CHECK DIR FILE TEXT appends TEXT to FILE in a copy of
# DIR and expects CHECK to fail on the copy (its report in $tmp/out).
fails=0
planted() {
	rm -rf "${tmp:?}/$2" && cp -R "$top/$2" "$tmp/$2" || exit 99
	printf '%s\n' "$4" >>"$tmp/$2/$3"
	if "$1" "$tmp/$2" >"$tmp/out"; then
		echo "FAIL: no violation found for '$4' in $2/$3"
		fails=1
		return 1
	fi
	echo "found as expected: $(grep -F "$3" "$tmp/out" | head -1)"
}
violate() { planted check_tree src "$1" "$2"; }
# a pane (pane_tree.c) that breaks one of ui/'s rules
violate_ui() { planted "$1" ui pane_tree.c "$2"; }
violate core/status.c '#include "cli/cli.h"'
violate model/model.c '#include "views/view.h"'
violate model/model_measures.c '#include "analysis/scaling_fit.h"'
violate analysis/scaling_fit.c '#include "io/blob.h"'
violate model/scaling.c '#include <lapacke.h>'
violate net/http.c '#include "archive/archive_open.h"'
violate formats/hpctoolkit_v4/hpctoolkit_v4.c '#include "formats/hpctoolkit_xml/xml_tree.h"'
violate views/view.c '#include <curses.h>'
violate cli/cli.c '#include "../ui/app.h"'
violate io/blob.c '#include "status.h"'
violate formats/reader.c '#include "open.h"'
violate stray.c '#include "core/status.h"'
violate present/present_value.c '#include "cli/cli.h"'
# the boundaries: a format's folder, the gpu_run library, third-party
# headers in public headers
violate formats/cube/cube.c '#include "formats/gpu_run/gpu_run_internal.h"'
violate cli/cmd_info.c '#include "formats/dcpi/dcpi_internal.h"'
violate views/view.c '#include "formats/hpctoolkit_v4/v4_file.h"'
violate open.c '#include "formats/gpu_run/gpu_run.h"'
violate formats/gpu_run/gpu_run.c '#include "formats/rocpd/rocpd_layouts.h"'
violate formats/rocpd/rocpd_v3.c '#include "formats/gpu_run/gpu_run_internal.h"'
violate cli/cmd_report.c '#include "views/outline_internal.h"'
violate views/view.c '#include "model/model_internal.h"'
violate formats/cube/cube.c '#include "formats/gpu_run/gpu_run.h"'
violate cli/cmd_info.c '#include "formats/dcpi/dcpi_file.h"'
violate model/model.h '#include <sqlite3.h>'
violate net/http.h '#include <jansson.h>'
violate net/http.h '#include <curl/curl.h>'
violate formats/reader.h '#include <archive.h>'
violate formats/cube/cubepl_internal.h '#include <pcre2.h>'
violate present/present_rows.c '#include "compare/diff.h"'
violate compare/diff.c '#include "cli/cli.h"'
# and on a format's file name in net/, but not in a comment
if planted check_names src net/http.c \
	'static const char *k = "meta.db"; /* trace.db */' &&
	grep -q 'trace\.db' "$tmp/out"; then
	echo "FAIL: a comment counted as code: $(cat "$tmp/out")"
	fails=1
fi
# and on a pane that includes the batch CLI, reads the model's struct or
# includes the hub
violate_ui check_ui '#include "cli/cli.h"'
violate_ui check_ui '#include "model/model_internal.h"'
violate_ui check_hub '#include "hub.h"'
exit $fails
