#!/bin/sh
# Older HPCToolkit databases by URL (tests/http_server.py on 127.0.0.1
# serving copies of corpus databases): the 2020 sparse format's
# profile.db / cct.db / trace.db beside experiment.xml are fetched (info
# equals the local one); a second open of an unchanged experiment.xml
# database makes no request per thread file; a new run published at the
# same URL (new per-thread file names) replaces the old files instead of
# adding to them, in the cache only (`fetch -o DIR` keeps the user's
# files); a cached file gone from data/, or an entry of the layout before
# the 2020 binaries were fetched, is fetched again; the entry's size is
# its files'.  Skips (77) without ../shared/corpus.
set -u
. "${top_srcdir:-.}/tests/http-env.sh"
corpus="$top_srcdir/../shared/corpus"
sparse="$corpus/hpctoolkit-sparse-2020/hpcviewer.e4/tests/resources/prof2/empty-trace"
pop="$corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples/pop-mpi-8-x86-wallclock/pop-8-trace-db"
[ -d "$sparse" ] && [ -d "$pop" ] || { echo "corpus absent: skipped"; exit 77; }
cp -r "$sparse" "$www/sp" && cp -r "$pop" "$www/pop" || exit 99
http_start

# info without its first line (which names the path or the URL)
info() { "$cs" info "$@" 2>"$tmp/err" | tail -n +2; }

# --- the 2020 format: its binaries come along -----------------------------
info "$www/sp" >"$tmp/local"
info "$base/sp/" >"$tmp/remote"
if cmp -s "$tmp/local" "$tmp/remote" && grep -q "^Profiles: *[1-9]" "$tmp/remote"; then
	ok "2020 format by URL: info equals the local one"
else
	fail "2020 format by URL: $(diff "$tmp/local" "$tmp/remote" | head -5) $(cat "$tmp/err")"
fi

# --- an entry of the older layout (no "layout", no binaries) is refetched -
spdir=$(dirname "$(grep -l '/sp/"' "$XDG_CACHE_HOME"/callscope/url/*/entry.json)")
rm -f "$spdir"/data/*.db "$spdir"/meta/*.db.json
python3 -c 'import json, sys
p = sys.argv[1]; d = json.load(open(p)); d.pop("layout", None)
json.dump(d, open(p, "w"))' "$spdir/entry.json"
info "$base/sp/" >"$tmp/remote"
info "$www/sp" >"$tmp/local"
if cmp -s "$tmp/local" "$tmp/remote" && ls "$spdir/data/profile.db" >/dev/null 2>&1; then
	ok "2020 format, entry of the older layout: its binaries fetched again"
else
	fail "2020 format, older entry: $(cat "$tmp/err") $(ls "$spdir/data")"
fi

# --- experiment.xml + per-thread files: revalidation costs one request ----
info "$www/pop" >"$tmp/local"
info "$base/pop/" >"$tmp/remote"
cmp -s "$tmp/local" "$tmp/remote" && grep -q "^Profiles: *8" "$tmp/remote" &&
	ok "pop by URL: info equals the local one" ||
	fail "pop by URL: $(diff "$tmp/local" "$tmp/remote" | head -5) $(cat "$tmp/err")"
ctl /__reset
info "$base/pop/" >"$tmp/remote"
n=$(stats requests)
if cmp -s "$tmp/local" "$tmp/remote" && [ "$n" -le 3 ]; then
	ok "pop unchanged: $n requests ($(stats statuses))"
else
	fail "pop unchanged: $n requests ($(stats statuses))"
fi

# --- a cached thread file lost: fetched again, the entry's size is right -
popdir=$(dirname "$(grep -l '/pop/"' "$XDG_CACHE_HOME"/callscope/url/*/entry.json)")
lost=$(cd "$popdir/data" && ls | grep 'hpctrace$' | head -n 1)
rm "$popdir/data/$lost"
ctl /__reset
info "$base/pop/" >"$tmp/remote"
size=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["size"])' "$popdir/entry.json")
du_size=$(find "$popdir/data" -type f -exec cat {} + | wc -c)
if cmp -s "$tmp/local" "$tmp/remote" && [ -f "$popdir/data/$lost" ] &&
   [ "$(stats count "/pop/$lost")" = 1 ] && [ "$size" = "$du_size" ]; then
	ok "pop, a cached file lost: fetched again; entry size $size = its files"
else
	fail "pop, a cached file lost: $(stats statuses); size $size, files $du_size"
fi

# --- fetch -o DIR: the user's own files beside the database stay ----------
mkdir "$tmp/mine"
echo "my own data" >"$tmp/mine/myrun-000000-000-a8c0-1.hpctrace"
echo "mine" >"$tmp/mine/experiment-1.mdb"
"$cs" fetch "$base/pop/" -o "$tmp/mine" >/dev/null 2>"$tmp/err" ||
	fail "fetch -o: $(cat "$tmp/err")"
if [ "$(cat "$tmp/mine/myrun-000000-000-a8c0-1.hpctrace" 2>/dev/null)" = "my own data" ] &&
   [ "$(cat "$tmp/mine/experiment-1.mdb" 2>/dev/null)" = "mine" ] &&
   [ -f "$tmp/mine/experiment.xml" ]; then
	ok "fetch -o: the user's files stay"
else
	fail "fetch -o: the user's files were removed: $(ls "$tmp/mine" | head -3)"
fi

# --- a new run at the same URL: new thread file names replace the old -----
(cd "$www/pop" && for f in *-0.metric-db *-0.hpctrace; do
	mv "$f" "$(printf '%s' "$f" | sed 's/-0\.\(metric-db\|hpctrace\)$/-1.\1/')"
done && rm -f 1.pop-000007-* pop-000007-*) || exit 99
touch "$www/pop/experiment.xml"
info "$www/pop" >"$tmp/local"
info "$base/pop/" >"$tmp/remote"
grep -q "^Profiles: *7" "$tmp/local" || fail "pop republished: the local copy lacks 7 profiles"
if cmp -s "$tmp/local" "$tmp/remote"; then
	ok "pop republished: the old thread files are gone from the cache"
else
	fail "pop republished: $(diff "$tmp/local" "$tmp/remote" | head -5)"
fi
left=$(ls "$XDG_CACHE_HOME"/callscope/url/*/data/ | grep -c -- '-0\.\(metric-db\|hpctrace\)$')
[ "$left" = 0 ] || fail "pop republished: $left old files left in the cache"

echo "$fails failure(s)"
[ $fails = 0 ]
