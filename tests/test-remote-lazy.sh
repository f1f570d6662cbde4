#!/bin/sh
# Lazy remote reads end to end, offline: a generated v4 database is served
# by tests/http_server.py on 127.0.0.1; a local copy without trace.db has
# its trace.db registered as remote (tests/remote-cli).  Checks that
#  - `trace --at`, a trace window, `report` and `info` print what the local
#    database gives;
#  - the server sent far fewer bytes than the trace's size (its counter);
#  - a second run sends no trace bytes (the blocks are persisted), only the
#    one-byte probe;
#  - a changed file on the server (new validator) is fetched again;
#  - a connection dropped mid-browse gives exit 2 and one line naming the
#    URL; a server that ignores ranges is refused at registration.
set -u
. "${top_srcdir:-.}/tests/http-env.sh"
rcli="$top_builddir/tests/remote-cli"
# stop at the first failure: each step builds on the ones before
fail() {
	echo "FAIL: $*"
	exit 1
}

"$gen" -o "$www/db" --seed 21 --contexts 400 --ranks 2 --threads 4 \
	--samples 600000 --yaml >/dev/null || fail "gen-v4db"
http_start
# bytes_sent, and the requests other than the one-byte probes
sent() { echo "$(stats bytes_sent) $(stats fetches)"; }

mkdir "$tmp/local"
cp "$www/db/meta.db" "$www/db/profile.db" "$tmp/local/"
cp -r "$www/db/metrics" "$tmp/local/"
size=$(wc -c <"$www/db/trace.db" | tr -d ' ')
remote="--remote $tmp/local/trace.db=$base/db/trace.db"
# run COMMAND DB ARGS on the local database and through the remote
# trace.db; the outputs must match (the database path aside)
same_cmd() { # NAME COMMAND ARGS...
	name=$1 cmd=$2
	shift 2
	"$cs" "$cmd" "$www/db" "$@" >"$tmp/$name.want" 2>&1 ||
		fail "$name: local run failed: $(cat "$tmp/$name.want")"
	# shellcheck disable=SC2086
	$rcli $remote "$cmd" "$tmp/local" "$@" >"$tmp/$name.got" 2>&1 ||
		fail "$name: remote run failed: $(cat "$tmp/$name.got")"
	sed "s|$www/db|DB|g" "$tmp/$name.want" >"$tmp/$name.w"
	sed "s|$tmp/local|DB|g" "$tmp/$name.got" >"$tmp/$name.g"
	cmp -s "$tmp/$name.w" "$tmp/$name.g" ||
		{ diff "$tmp/$name.w" "$tmp/$name.g" | head; fail "$name differs"; }
}

# 1. a cold probe: same answer, a small part of the file moved
ctl /__reset
same_cmd at trace --at +100s
set -- $(sent)
echo "cold trace --at: $1 bytes sent of $size ($2 range requests)"
[ "$1" -gt 0 ] || fail "nothing was fetched"
[ $(($1 * 20)) -lt "$size" ] || fail "sent $1 bytes, more than 5% of $size"

# 2. the same probe again: only the probe byte (blocks persisted)
ctl /__reset
same_cmd at2 trace --at +100s
set -- $(sent)
echo "warm trace --at: $1 bytes sent ($2 range requests)"
[ "$1" -le 1 ] && [ "$2" -eq 0 ] || fail "a warm run fetched: $1 bytes, $2 requests"

# 3. other views of the same database
same_cmd at_json trace --at +250s --format json
same_cmd window trace --from +10s --to +300s --columns 60
same_cmd report report
same_cmd info info

# 4. a new version on the server: fetched again, still the same output
ctl /__reset
touch -d '2030-01-01 00:00:00' "$www/db/trace.db"
same_cmd at3 trace --at +100s
set -- $(sent)
echo "after a change on the server: $1 bytes sent ($2 range requests)"
[ "$2" -gt 0 ] || fail "a changed file was not fetched again"

# 5. the connection drops mid-browse: exit 2, one line naming the URL
ctl /__reset
# shellcheck disable=SC2086
$rcli $remote --exec "python3 -c 'import urllib.request; urllib.request.urlopen(\"$base/__fault?prefix=/db/trace.db&kind=drop&after=10\").read()'" \
	trace "$tmp/local" --at +333s >"$tmp/drop.out" 2>"$tmp/drop.err"
rc=$?
ctl /__clear
[ $rc -eq 2 ] || fail "dropped connection: exit $rc, want 2"
grep -q "$base/db/trace.db" "$tmp/drop.err" || fail "no URL in: $(cat "$tmp/drop.err")"
[ "$(wc -l <"$tmp/drop.err")" -eq 1 ] || fail "not one line: $(cat "$tmp/drop.err")"
echo "dropped connection: $(cat "$tmp/drop.err")"
# and the next run, the network back, answers
same_cmd at4 trace --at +333s

# 6. a server that ignores ranges is refused (the caller downloads)
ctl "/__fault?prefix=/db/trace.db&kind=norange"
# shellcheck disable=SC2086
$rcli $remote info "$tmp/local" >/dev/null 2>"$tmp/norange.err"
rc=$?
ctl /__clear
[ $rc -eq 2 ] || fail "ignored ranges: exit $rc, want 2"
grep -q "range" "$tmp/norange.err" || fail "ignored ranges: $(cat "$tmp/norange.err")"
echo "ignored ranges: $(cat "$tmp/norange.err")"

# 7. profile.db and cct.db remote too (only their sections and the summary
#    block are read at open); same answers
mkdir "$tmp/local2"
cp "$www/db/meta.db" "$tmp/local2/"
cp -r "$www/db/metrics" "$tmp/local2/"
remote=""
for f in profile.db cct.db trace.db; do
	remote="$remote --remote $tmp/local2/$f=$base/db/$f"
done
ctl /__reset
"$cs" report "$www/db" --view flat >"$tmp/flat.want" || fail "local report"
# shellcheck disable=SC2086
$rcli $remote report "$tmp/local2" --view flat >"$tmp/flat.got" 2>&1 ||
	fail "report with remote profile.db: $(cat "$tmp/flat.got")"
cmp -s "$tmp/flat.want" "$tmp/flat.got" ||
	{ diff "$tmp/flat.want" "$tmp/flat.got" | head; fail "remote profile.db: report differs"; }
# shellcheck disable=SC2086
$rcli $remote trace "$tmp/local2" --at +100s | sed "s|$tmp/local2|DB|g" >"$tmp/at5.g"
cmp -s "$tmp/at.w" "$tmp/at5.g" || fail "remote profile.db: trace --at differs"
echo "PASS"
