#!/bin/sh
# Benchmark of lazy remote reads (issue #5): DIR/trace-10g (16 lines x 54M
# samples, trace.db 10.4 GB; bench/make-big-db.sh DIR b makes it) served
# over loopback by tests/http_server.py; a local copy of its small files
# with trace.db registered as remote (tests/remote-cli, the batch commands
# with blob_register_remote), then `trace --at T`:
#   cold: an empty block cache -- bytes the server sent (its counter) /
#         trace.db size, and wall time;
#   warm: the same probe again (blocks persisted): bytes and time;
#   three more cold probes at other times, and a 16 x 200 trace window.
# Targets (issue #5): a cold `trace --at` moves <= 1% of the file and
# answers in <= 1 s.  The output is compared with the local database's.
# usage: bench/bench-remote-trace.sh [DIR]   (default bench/out)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
out=${1:-$here/out}
rcli=${REMOTE_CLI:-$here/../tests/remote-cli}
db="$out/trace-10g"
bench_need_big "$db/trace.db" b
[ -x "$rcli" ] || { echo "missing $rcli: run make check (or make tests/remote-cli)" >&2; exit 1; }
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
python3 "$here/../tests/http_server.py" --dir "$db" --port-file "$tmp/port" \
	>/dev/null 2>"$tmp/server.err" &
pid=$!
while [ ! -s "$tmp/port" ]; do sleep 0.1; done
base="http://127.0.0.1:$(cat "$tmp/port")"
ctl() { python3 -c 'import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1]).read().decode())' "$base/$1"; }
stats() { ctl __stats | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["bytes_sent"], d["requests"])'; }
now() { date +%s.%N; }

mkdir "$tmp/local"
cp "$db/meta.db" "$db/profile.db" "$tmp/local/"
[ -d "$db/metrics" ] && cp -r "$db/metrics" "$tmp/local/"
size=$(wc -c <"$db/trace.db" | tr -d ' ')
bench_machine
echo "trace.db: $size bytes, served by tests/http_server.py on 127.0.0.1"

probe() { # LABEL ARGS...: run the remote probe, print bytes and time
	label=$1
	shift
	ctl __reset >/dev/null
	t0=$(now)
	"$rcli" --remote "$tmp/local/trace.db=$base/trace.db" trace "$tmp/local" \
		"$@" >"$tmp/got"
	t1=$(now)
	set -- $(stats)
	python3 -c 'import sys
b, r, size, t0, t1, label = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
print("%-34s %11d bytes (%.4f%% of the file) %4d requests  %6.3f s" % (label, b, 100.0 * b / size, r, t1 - t0))' \
		"$1" "$2" "$size" "$t0" "$t1" "$label"
}
check() { # ARGS...: the remote output equals the local one
	"$cs" trace "$db" "$@" | sed "s|$db|DB|g" >"$tmp/want"
	sed "s|$tmp/local|DB|g" "$tmp/got" | cmp -s - "$tmp/want" ||
		{ echo "remote output differs from the local one" >&2; exit 1; }
}

probe "cold trace --at +100s" --at +100s
check --at +100s
probe "warm trace --at +100s" --at +100s
for t in +10s +200s +330s; do
	probe "new time --at $t (cache kept)" --at "$t"
done
probe "new window 16 x 200 cells" --from +50s --to +60s --columns 200
check --from +50s --to +60s --columns 200
du -sh "$tmp/local/trace.db.blocks" | awk '{print "block cache on disk: " $1 " (sparse data file + bitmap)"}'
