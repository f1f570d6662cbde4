#!/bin/sh
# Runs tests/test-http against tests/http_server.py on 127.0.0.1 (offline),
# serving a temporary directory with a random file and an empty one.
set -u
. "${top_srcdir:-.}/tests/http-env.sh"
python3 -c 'import random, sys
r = random.Random(5)
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(300000)))' >"$www/a.bin"
: >"$www/empty"
http_start
HTTP_TEST_BASE="$base" HTTP_TEST_DIR="$www" "$top_builddir/tests/test-http"
