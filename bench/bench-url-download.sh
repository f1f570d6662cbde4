#!/bin/sh
# Download speed of `callscope fetch URL/ -o DIR` against curl fetching the
# same files over one connection, both from tests/http_server.py on
# 127.0.0.1 serving a ~100 MB generated v4 database (trace.db ~100 MB).
# Prints each run's seconds and the median ratio (target: callscope at
# >= 80% of curl's speed).
#
# usage: bench/bench-url-download.sh [RUNS]          (default 5)
# Environment: SAMPLES (per trace line, 4 lines; default 2100000),
# KEEP=1 keeps the temporary directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$here/..
runs=${1:-5}
samples=${SAMPLES:-2100000}
cs=$top/callscope
gen=$top/tests/gen-v4db
for p in "$cs" "$gen"; do
	[ -x "$p" ] || { echo "bench-url-download: $p not built" >&2; exit 1; }
done
command -v curl >/dev/null || { echo "bench-url-download: no curl" >&2; exit 1; }
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	[ "${KEEP:-0}" = 1 ] || rm -rf "$tmp"
}
trap cleanup EXIT
export HOME=$tmp/home XDG_CACHE_HOME=$tmp/cache
mkdir -p "$HOME" "$tmp/www"
"$gen" -o "$tmp/www/db" --yaml --trace-lines 4 --samples "$samples" --seed 1 >/dev/null
total=$(du -cb "$tmp/www/db"/*.db "$tmp/www/db/metrics"/* | tail -1 | cut -f1)
echo "database: $total bytes"
python3 "$top/tests/http_server.py" --dir "$tmp/www" --port-file "$tmp/port" >/dev/null &
pid=$!
while [ ! -s "$tmp/port" ]; do sleep 0.1; done
base=http://127.0.0.1:$(cat "$tmp/port")/db

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc; }
cs_times=; curl_times=
for i in $(seq "$runs"); do
	rm -rf "$tmp/a" "$tmp/b"
	t0=$(now)
	"$cs" fetch "$base/" -o "$tmp/a" >/dev/null
	t1=$(now)
	mkdir -p "$tmp/b/metrics"
	curl -sS --fail -o "$tmp/b/meta.db" "$base/meta.db" \
		-o "$tmp/b/profile.db" "$base/profile.db" \
		-o "$tmp/b/cct.db" "$base/cct.db" \
		-o "$tmp/b/trace.db" "$base/trace.db" \
		-o /dev/null "$base/metrics/" \
		-o "$tmp/b/metrics/default.yaml" "$base/metrics/default.yaml"
	t2=$(now)
	a=$(elapsed "$t0" "$t1"); b=$(elapsed "$t1" "$t2")
	cmp -s "$tmp/a/trace.db" "$tmp/b/trace.db" || { echo "files differ" >&2; exit 1; }
	printf 'run %d: callscope %.3f s, curl %.3f s\n' "$i" "$a" "$b"
	cs_times="$cs_times $a"; curl_times="$curl_times $b"
done
median() { printf '%s\n' $1 | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ma=$(median "$cs_times"); mb=$(median "$curl_times")
echo "$total $ma $mb" | awk '{printf "median: callscope %.3f s (%.0f MB/s), curl %.3f s (%.0f MB/s): callscope at %.0f%% of curl\n", $2, $1/$2/1e6, $3, $1/$3/1e6, 100*$3/$2}'
