#!/bin/sh
# Older HPCToolkit databases by URL (tests/http_server.py on 127.0.0.1
# serving copies of corpus databases): the 2020 sparse format's
# profile.db / cct.db / trace.db beside experiment.xml are fetched (info
# equals the local one); a second open of an unchanged experiment.xml
# database makes no request per thread file; a new run published at the
# same URL (new per-thread file names) replaces the old files instead of
# adding to them.  Skips (77) without ../shared/corpus.
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
