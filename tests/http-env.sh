# tests/http-env.sh: sourced by the URL tests.  Makes a temporary
# directory ($tmp) with HOME, XDG_CACHE_HOME, XDG_CONFIG_HOME and TMPDIR
# inside it (no proxies, default timeouts), creates $www, and defines
#   http_start           start tests/http_server.py on $www (127.0.0.1):
#                        sets $pid, $port, $base
#   ctl PATH             a control request (/__fault?..., /__reset, /__clear)
#   stats FIELD [PATH]   bytes_sent, requests, statuses, probes PATH,
#                        ranges, count PATH (requests for PATH), or
#                        fetches (requests other than one-byte probes)
#   ok TEXT / fail TEXT  report a check; $fails counts the failures
# and removes everything at exit: first the commands in $at_exit (a
# sourced helper or the script prepends its own: at_exit="CMD; $at_exit",
# as tests/tmux-env.sh does), then $pid is killed (the server's, or the
# one process a test starts in its place, e.g. an sshd) and $tmp removed.
: "${top_srcdir:=.}" "${top_builddir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
cs=$(cd "$top_builddir" && pwd)/callscope
gen="$top_builddir/tests/gen-v4db"
tmp=$(mktemp -d) || exit 99
pid=
at_exit=
http_env_cleanup() {
	eval "$at_exit"
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap http_env_cleanup EXIT
trap 'exit 130' INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" \
	XDG_CONFIG_HOME="$tmp/config" TMPDIR="$tmp/tmpdir"
unset CALLSCOPE_STALL_TIME CALLSCOPE_CONNECT_TIMEOUT CALLSCOPE_LAZY_MIN_SIZE \
	http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
www="$tmp/www"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$TMPDIR" "$www"

http_start() {
	python3 "$top_srcdir/tests/http_server.py" --dir "$www" \
		--port-file "$tmp/port" >/dev/null 2>"$tmp/server.err" &
	pid=$!
	i=0
	while [ ! -s "$tmp/port" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "server did not start"; cat "$tmp/server.err"; exit 99; }
		sleep 0.1
	done
	port=$(cat "$tmp/port")
	base="http://127.0.0.1:$port"
}

ctl() { python3 -c 'import sys, urllib.request
urllib.request.urlopen(sys.argv[1]).read()' "$base$1"; }

stats() { python3 -c 'import json, sys, urllib.request
d = json.load(urllib.request.urlopen(sys.argv[1] + "/__stats"))
f = sys.argv[2]
if f == "statuses":
    print(" ".join(str(e.get("status")) for e in d["log"]))
elif f == "probes":
    print(sum(1 for e in d["log"] if e.get("path") == sys.argv[3] and e.get("range") == "bytes=0-0"))
elif f == "fetches":
    print(sum(1 for e in d["log"] if e.get("range") != "bytes=0-0"))
elif f == "count":
    print(sum(1 for e in d["log"] if e.get("path") == sys.argv[3]))
elif f == "ranges":
    print(" ".join(str(e.get("range")) + "|" + str(e.get("if_range")) for e in d["log"]))
else:
    print(d[f])' "$base" "$@"; }
