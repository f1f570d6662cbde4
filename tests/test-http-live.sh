#!/bin/sh
# Runs tests/test-http against tests/http_server.py on 127.0.0.1 (offline),
# serving a temporary directory with a random file and an empty one.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
tmp=$(mktemp -d) || exit 99
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$tmp/www"
python3 -c 'import random, sys
r = random.Random(5)
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(300000)))' >"$tmp/www/a.bin"
: >"$tmp/www/empty"
python3 "$top_srcdir/tests/http_server.py" --dir "$tmp/www" \
	--port-file "$tmp/port" >/dev/null 2>"$tmp/server.err" &
pid=$!
i=0
while [ ! -s "$tmp/port" ]; do
	i=$((i + 1))
	if [ $i -gt 100 ]; then
		echo "http_server.py did not start"; cat "$tmp/server.err"; exit 99
	fi
	sleep 0.1
done
HTTP_TEST_BASE="http://127.0.0.1:$(cat "$tmp/port")" HTTP_TEST_DIR="$tmp/www" \
	HOME="$tmp" XDG_CACHE_HOME="$tmp/cache" \
	"$top_builddir/tests/test-http"
