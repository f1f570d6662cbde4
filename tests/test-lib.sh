# tests/test-lib.sh: the preamble of the shell tests, sourced first
# (`. "${top_srcdir:-.}/tests/test-lib.sh"`).  Defines
#   top_srcdir, top_builddir  as make passes them (default: .)
#   cs                        the callscope program, an absolute path
#   gen                       tests/gen-v4db (the v4 database generator)
#   shared, corpus            ../shared and its corpus beside the sources
#   py                        /usr/bin/python3 (Debian's, with its modules)
#   tmp                       a fresh temporary directory, removed at exit
#                             after the commands in $at_exit (a sourced
#                             helper such as tests/tmux-env.sh prepends its
#                             own: at_exit="CMD; $at_exit")
#   status, fail TEXT         0 until fail prints "FAIL: TEXT" and sets 1
#   gen_run NAME ARGS...      gen-v4db ARGS into $tmp/NAME without a trace,
#                             its answers in $tmp/NAME.json
#   gen_db ARGS...            gen-v4db ARGS into $tmp/db, its path in $db
#                             (exit 1 if it fails)
#   need_corpus PATH          skip (exit 77) unless python3 runs and PATH
#                             (in ../shared, absent from a tarball's build)
#                             exists
#   refused EXT NAME...       each $tmp/NAME.EXT (a damaged input) makes
#                             info, report and trace exit 2 with exactly one
#                             line on stderr (fail otherwise)
#   tmp_home                  HOME inside $tmp ($tmp/home), its .config the
#                             XDG configuration folder (both made), for
#                             tests of what reads the user's files
# and exports XDG_CACHE_HOME and XDG_CONFIG_HOME inside $tmp, so no test
# reads the user's configuration or shares a cache with another.
: "${top_srcdir:=.}" "${top_builddir:=.}"
cs=$(cd "$top_builddir" && pwd)/callscope
gen="$top_builddir/tests/gen-v4db"
shared="$top_srcdir/../shared"
corpus="$shared/corpus"
py=/usr/bin/python3
if [ -z "${tmp:-}" ]; then
	tmp=$(mktemp -d) || exit 99
	at_exit=
	trap 'eval "$at_exit"; rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
fi
XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"
export XDG_CACHE_HOME XDG_CONFIG_HOME
status=0
fail() {
	echo "FAIL: $*"
	status=1
}
tmp_home() {
	HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
	export HOME XDG_CONFIG_HOME
	mkdir -p "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
}
refused() {
	ext=$1
	shift
	for f; do
		for cmd in info "report --view flat" "trace --at 0"; do
			# shellcheck disable=SC2086
			"$cs" $cmd "$tmp/$f.$ext" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			lines=$(wc -l <"$tmp/err")
			if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ]; then
				fail "$cmd $f.$ext: exit $rc, $lines lines on stderr"
				cat "$tmp/err"
			fi
		done
	done
}
need_corpus() {
	command -v python3 >/dev/null || exit 77
	[ -e "$1" ] || { echo "no $1: skipped"; exit 77; }
}
gen_run() {
	run=$1
	shift
	"$gen" -o "$tmp/$run" --no-trace --answers "$tmp/$run.json" "$@" >/dev/null
}
gen_db() {
	"$gen" -o "$tmp/db" "$@" >/dev/null || exit 1
	db=$tmp/db
}
