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
