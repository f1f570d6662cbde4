#!/bin/sh
# Opening databases by URL, offline: tests/http_server.py on 127.0.0.1
# serves a generated v4 database, an archive of it and a large file; HOME
# and XDG_CACHE_HOME are a temporary directory.  Covers directory, file://
# and archive URLs, the cache (hit, revalidation, --offline, --no-cache,
# list, clear), fetch -o, resume after a dropped connection, cancel, and
# every transfer error (one line naming the URL, exit status 2).
set -u
. "${top_srcdir:-.}/tests/http-env.sh"
"$gen" -o "$www/db" --yaml --seed 7 >/dev/null || exit 99
(cd "$www" && tar czf db.tar.gz db) || exit 99
python3 -c 'import random, sys
r = random.Random(11)
sys.stdout.buffer.write(r.randbytes(3000000))' >"$www/big.bin" || exit 99

http_start

report() { "$cs" report "$@" --depth 4 --metric all; }
report "$www/db" >"$tmp/local.txt" 2>"$tmp/err" || { cat "$tmp/err"; exit 99; }

# --- a directory URL --------------------------------------------------
ctl /__reset
if report "$base/db/" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt"; then
	ok "directory URL report equals the local report"
else
	fail "directory URL report"; cat "$tmp/err"
fi
[ "$(stats bytes_sent)" -gt 100000 ] || fail "first open transferred $(stats bytes_sent) bytes"

# --- cache hit: revalidated with 304, no body bytes ---------------------
ctl /__reset
report "$base/db/" >"$tmp/out" 2>"$tmp/err" || fail "second open"
cmp -s "$tmp/out" "$tmp/local.txt" || fail "second open report differs"
b=$(stats bytes_sent); s=$(stats statuses)
if [ "$b" = 0 ] && [ "$s" = "304 304 304 304 304" ]; then
	ok "cache hit: 0 bytes, statuses $s"
else
	fail "cache hit: $b bytes, statuses $s"
fi

# --- a changed file is downloaded again, the rest revalidated ----------
cp "$www/db/trace.db" "$tmp/trace.db" && rm "$www/db/trace.db" && \
	cp "$tmp/trace.db" "$www/db/trace.db"
touch -d '2001-01-01' "$www/db/trace.db"
ctl /__reset
report "$base/db/" >"$tmp/out" 2>"$tmp/err" || fail "open after a change"
size=$(wc -c <"$www/db/trace.db" | tr -d ' ')
b=$(stats bytes_sent)
[ "$b" = "$size" ] && ok "revalidation: only trace.db ($b bytes)" ||
	fail "revalidation sent $b bytes, trace.db is $size"

# --- --offline: hit without requests, miss with an error --------------
ctl /__reset
report --offline "$base/db/" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
	[ "$(stats requests)" = 0 ] && ok "--offline hit, no requests" ||
	fail "--offline hit: $(cat "$tmp/err")"
"$cs" info --offline "$base/nothing/" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
   grep -q "^callscope: $base/nothing/: not in the cache (--offline)$" "$tmp/err"; then
	ok "--offline miss"
else
	fail "--offline miss: rc $rc: $(cat "$tmp/err")"
fi

# a failed revalidation (server trouble) leaves the entry usable --offline
ctl "/__fault?prefix=/db/&kind=status&code=503&count=1"
"$cs" info "$base/db/" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "HTTP 503 Service Unavailable" "$tmp/err" || fail "503: $(cat "$tmp/err")"
report --offline "$base/db/" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
	ok "--offline after a failed revalidation" || fail "--offline after a 503: $(cat "$tmp/err")"

# --- cache list / clear ----------------------------------------------
"$cs" cache list >"$tmp/list" 2>"$tmp/err" || fail "cache list"
grep -q " $base/db/\$" "$tmp/list" && ok "cache list names the URL" ||
	fail "cache list: $(cat "$tmp/list")"
"$cs" cache list --format json | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert any(e["url"].endswith("/db/") and e["complete"] and e["size"] > 100000 for e in d), d' ||
	fail "cache list --format json"
"$cs" cache clear || fail "cache clear"
[ -z "$("$cs" cache list)" ] && [ ! -e "$XDG_CACHE_HOME/callscope/url" ] &&
	ok "cache clear" || fail "cache clear left $(ls "$XDG_CACHE_HOME/callscope")"

# --- --no-cache: nothing stays ----------------------------------------
report --no-cache "$base/db/" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" ||
	fail "--no-cache open: $(cat "$tmp/err")"
[ -z "$(ls "$TMPDIR")" ] && [ ! -e "$XDG_CACHE_HOME/callscope/url" ] &&
	ok "--no-cache leaves nothing" || fail "--no-cache left $(ls "$TMPDIR")"

# --- fetch -o DIR and fetch into the cache ----------------------------
out=$("$cs" fetch "$base/db/" -o "$tmp/fetched" 2>"$tmp/err")
if [ "$out" = "$tmp/fetched" ] &&
   for f in meta.db profile.db cct.db trace.db metrics/default.yaml; do
	   cmp -s "$www/db/$f" "$tmp/fetched/$f" || exit 1; done; then
	ok "fetch -o DIR"
else
	fail "fetch -o: '$out' $(cat "$tmp/err")"
fi
[ -z "$(find "$tmp/fetched" -name '*.part')" ] || fail "fetch -o left .part files"
out=$("$cs" fetch "$base/db/" 2>"$tmp/err")
case "$out" in
"$XDG_CACHE_HOME"/callscope/url/*/data) cmp -s "$out/meta.db" "$www/db/meta.db" &&
	ok "fetch into the cache: $out" || fail "fetch cache copy" ;;
*) fail "fetch printed '$out'" ;;
esac
# a directory URL without the trailing slash (the server redirects)
report "$base/db" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
	ok "directory URL without '/'" || fail "URL without '/': $(cat "$tmp/err")"

# --- file:// and archive URLs -----------------------------------------
report "file://$www/db/" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
	ok "file:// URL" || fail "file:// URL: $(cat "$tmp/err")"
report "$base/db.tar.gz" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
	ok "archive URL" || fail "archive URL: $(cat "$tmp/err")"
# --no-cache with an archive, by URL or local: extracted into $TMPDIR,
# never into the cache's extract/, and removed at exit
"$cs" cache clear
for a in "$base/db.tar.gz" "$www/db.tar.gz"; do
	report --no-cache "$a" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
		[ ! -e "$XDG_CACHE_HOME/callscope/extract" ] && [ ! -e "$XDG_CACHE_HOME/callscope/url" ] &&
		[ -z "$(ls "$TMPDIR")" ] && ok "--no-cache archive $a: nothing kept" ||
		fail "--no-cache archive $a: $(cat "$tmp/err") $(ls "$XDG_CACHE_HOME/callscope" "$TMPDIR")"
done

# --- an older HPCToolkit database: experiment.xml and the listing -------
mkdir -p "$www/old"
echo '<?xml version="1.0"?><HPCToolkitExperiment version="2.2"/>' >"$www/old/experiment.xml"
for f in a-000000-000-a8c0.metric-db b-000001-000-a8c0.hpctrace experiment.mt experiment-1.mdb; do
	echo "$f" >"$www/old/$f"
done
echo junk >"$www/old/notes.txt"
out=$("$cs" fetch "$base/old/" -o "$tmp/old" 2>"$tmp/err")
if [ "$out" = "$tmp/old" ] &&
   [ "$(cd "$tmp/old" && ls | tr '\n' ' ')" = "a-000000-000-a8c0.metric-db b-000001-000-a8c0.hpctrace experiment-1.mdb experiment.mt experiment.xml " ]; then
	ok "older database: experiment.xml and the listed files"
else
	fail "older database: '$out' $(ls "$tmp/old") $(cat "$tmp/err")"
fi

# --- hostile listing pages: the inputs on which libxml2's HTML parser takes
# quadratic time (a tag of 200,000 attributes: minutes before; 200 open
# elements and 2 MB of end tags) fail with one line, exit 2 -----------
for page in attrs nest; do
	mkdir -p "$www/$page"
	cp "$www/old/experiment.xml" "$www/$page/"
	python3 -c '
import sys
if sys.argv[1] == "attrs":
    sys.stdout.write("<a href=\"x\"" +
                     "".join(" a%x" % i for i in range(200000)) + ">x</a>")
else:
    sys.stdout.write("<b>" * 200 + "</i>" * 500000)' "$page" >"$www/$page.html"
	ctl "/__fault?prefix=/$page/&kind=index&file=$page.html"
	timeout 60 "$cs" info --no-cache "$base/$page/" >/dev/null 2>"$tmp/err"
	rc=$?
	case $page in
	attrs) want="directory listing: a tag, comment or script longer than 128 KiB" ;;
	nest) want="directory listing nests more than 128 elements" ;;
	esac
	if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	   grep -qF "$base/$page/: $want" "$tmp/err"; then
		ok "hostile listing ($page): $(cat "$tmp/err")"
	else
		fail "hostile listing ($page): exit $rc, $(cat "$tmp/err")"
	fi
	ctl /__clear
done

# --- XML-era corpus databases: a directory (hpctrace files from the
# listing) and a tarball, compared with the local answers -------------
ex="$top_srcdir/../shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples"
if [ -d "$ex/pop-mpi-8-x86-wallclock/pop-8-trace-db" ] && [ -f "$ex/milc-su3_rmd.nosrc.tar.gz" ]; then
	ln -s "$(cd "$ex/pop-mpi-8-x86-wallclock/pop-8-trace-db" && pwd)" "$www/pop"
	cp "$ex/milc-su3_rmd.nosrc.tar.gz" "$www/milc.tar.gz"
	for u in pop/ milc.tar.gz; do
		l="$www/${u%/}"
		report "$l" >"$tmp/xml-local.txt" 2>&1
		report "$base/$u" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/xml-local.txt" &&
			ok "XML corpus by URL: $u" || fail "XML corpus $u: $(cat "$tmp/err")"
	done
	"$cs" trace "$www/pop" --at +1s --lines 0-7 >"$tmp/xml-local.txt" 2>&1
	"$cs" trace "$base/pop/" --at +1s --lines 0-7 >"$tmp/out" 2>"$tmp/err" &&
		cmp -s "$tmp/out" "$tmp/xml-local.txt" && ok "XML corpus by URL: trace" ||
		fail "XML corpus trace: $(cat "$tmp/err")"
else
	echo "shared corpus absent: XML-era URLs not checked"
fi

# --- resume after a dropped connection --------------------------------
ctl /__reset
ctl "/__fault?prefix=/big.bin&kind=drop&after=1000000&count=1"
"$cs" fetch "$base/big.bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "transfer ended early" "$tmp/err" ||
	fail "dropped connection: rc $rc $(cat "$tmp/err")"
ls "$XDG_CACHE_HOME"/callscope/url/*/data/big.bin.part >/dev/null 2>&1 ||
	fail "no .part kept"
ls "$XDG_CACHE_HOME"/callscope/url/*/data/big.bin >/dev/null 2>&1 &&
	fail "an incomplete big.bin appeared"
ctl /__reset
out=$("$cs" fetch "$base/big.bin" 2>"$tmp/err")
b=$(stats bytes_sent); r=$(stats ranges)
if cmp -s "$out" "$www/big.bin" && [ "$b" = 2000000 ] &&
   case "$r" in "bytes=1000000-|\""*) true ;; *) false ;; esac; then
	ok "resumed: $b bytes with $r"
else
	fail "resume: '$out' $b bytes, ranges $r $(cat "$tmp/err")"
fi
# a server that answers 200 to the resume: start over
"$cs" cache clear
ctl "/__fault?prefix=/big.bin&kind=drop&after=500000&count=1"
"$cs" fetch "$base/big.bin" >/dev/null 2>&1
ctl /__reset
ctl "/__fault?prefix=/big.bin&kind=norange&count=1"
out=$("$cs" fetch "$base/big.bin" 2>"$tmp/err")
cmp -s "$out" "$www/big.bin" && [ "$(stats bytes_sent)" = 3000000 ] &&
	ok "200 to a resume restarts" || fail "restart: $(stats bytes_sent) $(cat "$tmp/err")"

# --- cancel: SIGINT stops the transfer, the .part resumes later -------
"$cs" cache clear
# wait_part 'GLOB': up to 5 s for a partial download matching GLOB (given
# quoted, expanded on each try) to appear with bytes in it: the transfer
# is under way
wait_part() {
	i=0
	while ! part_has_bytes "$1" && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
}
part_has_bytes() {
	set -- $1
	[ -s "$1" ]
}
ctl "/__fault?prefix=/big.bin&kind=slow&rate=400000&count=1"
"$cs" fetch "$base/big.bin" >"$tmp/out" 2>"$tmp/err" &
fpid=$!
wait_part "$XDG_CACHE_HOME/callscope/url/*/data/big.bin.part"
kill -INT $fpid
wait $fpid
rc=$?
if [ $rc = 2 ] && grep -q ": cancelled$" "$tmp/err"; then ok "cancel"; else fail "cancel: rc $rc $(cat "$tmp/err")"; fi
ctl /__reset
out=$("$cs" fetch "$base/big.bin" 2>"$tmp/err")
b=$(stats bytes_sent)
cmp -s "$out" "$www/big.bin" && [ "$b" -lt 3000000 ] &&
	ok "resumed after cancel ($b bytes)" || fail "resume after cancel: $b"
# SIGTERM during a --no-cache download: the temporary directory is
# removed, then the process dies of the signal
mkdir -p "$tmp/tmpd"
ctl "/__fault?prefix=/big.bin&kind=slow&rate=400000&count=1"
TMPDIR="$tmp/tmpd" "$cs" --no-cache fetch "$base/big.bin" >"$tmp/out" 2>"$tmp/err" &
fpid=$!
wait_part "$tmp/tmpd/*/url/*/data/big.bin.part"
kill -TERM $fpid
wait $fpid
rc=$?
if [ $rc = 143 ] && [ -z "$(ls -A "$tmp/tmpd")" ]; then
	ok "SIGTERM: the --no-cache directory removed, exit 143"
else
	fail "SIGTERM during --no-cache: rc $rc, left: $(ls -R "$tmp/tmpd" | head -5)"
fi
ctl /__reset

# --- lazy: large files on a server with ranges stay there -------------
"$cs" cache clear
"$cs" trace "$www/db" --at +1ms --lines 0-3 >"$tmp/trace-local.txt" 2>"$tmp/err" ||
	{ cat "$tmp/err"; exit 99; }
ctl /__reset
CALLSCOPE_LAZY_MIN_SIZE=20000 "$cs" trace "$base/db/" --at +1ms --lines 0-3 >"$tmp/out" 2>"$tmp/err"
if cmp -s "$tmp/out" "$tmp/trace-local.txt" &&
   ! ls "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db >/dev/null 2>&1 &&
   ls "$XDG_CACHE_HOME"/callscope/url/*/data/meta.db >/dev/null 2>&1; then
	ok "lazy: trace --at equals the local answer, trace.db not downloaded"
else
	fail "lazy trace: $(cat "$tmp/err")"
fi
p=$(stats probes /db/trace.db)
[ "$p" = 1 ] && ok "lazy: trace.db probed once" || fail "lazy: trace.db probed $p times"
tsize=$(wc -c <"$www/db/trace.db" | tr -d ' ')
ctl /__reset
CALLSCOPE_LAZY_MIN_SIZE=20000 report "$base/db/" >"$tmp/out" 2>"$tmp/err" &&
	cmp -s "$tmp/out" "$tmp/local.txt" && ok "lazy: report" || fail "lazy report: $(cat "$tmp/err")"
"$cs" cache list | grep -q "(partly remote)$" && ok "cache list: partly remote" ||
	fail "cache list lacks (partly remote)"
# --offline on a lazy entry: the persisted blocks are read (no request);
# a block that is not there is a clear error, never garbage
ctl /__reset
"$cs" trace --offline "$base/db/" --at +1ms --lines 0-3 >"$tmp/out" 2>"$tmp/err" &&
	cmp -s "$tmp/out" "$tmp/trace-local.txt" && [ "$(stats requests)" = 0 ] &&
	ok "lazy entry --offline: read from the persisted blocks" ||
	fail "lazy --offline trace: $(cat "$tmp/err")"
report --offline "$base/db/" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
	ok "lazy entry --offline: report" || fail "lazy --offline report: $(cat "$tmp/err")"
# while another callscope has the entry open (its shared locks on the
# block caches, held here by flock(1)), this one reads the same blocks
if command -v flock >/dev/null 2>&1; then
	set -- "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db.blocks/lock
	flock -s "$1" sleep 30 &
	holder=$!
	# until the holder has its shared lock (an exclusive one then fails)
	i=0
	while flock -n -x "$1" true && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	"$cs" trace --offline "$base/db/" --at +1ms --lines 0-3 >"$tmp/out" 2>"$tmp/err" &&
		cmp -s "$tmp/out" "$tmp/trace-local.txt" &&
		ok "lazy entry --offline while another process uses it" ||
		fail "lazy --offline beside another user: $(cat "$tmp/err")"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
fi
# forget the blocks of trace.db (an empty bitmap), keep its record
for b in "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db.blocks/bitmap; do
	: >"$b.tmp" && python3 -c 'import os, sys
os.truncate(sys.argv[1], os.path.getsize(sys.argv[2]))' "$b.tmp" "$b" && mv "$b.tmp" "$b"
done
"$cs" trace --offline "$base/db/" --at +1ms --lines 0-3 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
   grep -q "^callscope: $base/db/trace.db.*bytes [0-9]*-[0-9]* are not in the cache (--offline)" "$tmp/err" &&
   [ "$(stats requests)" = 0 ]; then
	ok "lazy entry --offline, block missing: $(cat "$tmp/err")"
else
	fail "lazy --offline missing block: rc $rc $(cat "$tmp/err")"
fi
ctl /__reset
CALLSCOPE_LAZY_MIN_SIZE=20000 report --download "$base/db/" >"$tmp/out" 2>"$tmp/err" &&
	cmp -s "$tmp/out" "$tmp/local.txt" &&
	cmp -s "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db "$www/db/trace.db" &&
	ok "--download fetches the large files" || fail "--download: $(cat "$tmp/err")"
report --offline "$base/db/" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/local.txt" &&
	ok "--offline after --download" || fail "--offline after --download: $(cat "$tmp/err")"

# --- credentials only from ~/.netrc, and only with --netrc -------------
printf 'machine 127.0.0.1\nlogin alice\npassword s3cret\n' >"$HOME/.netrc"
chmod 600 "$HOME/.netrc"
ctl "/__fault?prefix=/db/&kind=auth&user=alice&pass=s3cret"
"$cs" info --no-cache "$base/db/" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "/db/: HTTP 401 Unauthorized$" "$tmp/err" &&
	ok "no credentials without --netrc" || fail "without --netrc: $(cat "$tmp/err")"
report --netrc --no-cache "$base/db/" >"$tmp/out" 2>"$tmp/err" &&
	cmp -s "$tmp/out" "$tmp/local.txt" && ok "--netrc" || fail "--netrc: $(cat "$tmp/err")"
ctl /__clear
rm -f "$HOME/.netrc"

# --- errors: one line naming the URL, exit status 2 -------------------
# expect_error URL PATTERN [ARGS...]
expect_error() {
	u=$1; pat=$2; shift 2
	"$cs" info "$@" "$u" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	   grep -q "^callscope: .*$pat" "$tmp/err"; then
		ok "error: $(cat "$tmp/err")"
	else
		fail "expected '$pat' for $u: rc $rc: $(cat "$tmp/err")"
	fi
}
"$cs" cache clear
expect_error "http://127.0.0.1:1/db/" "127.0.0.1:1/db/: cannot connect"
expect_error "http://nonexistent.invalid/db/" "nonexistent.invalid/db/: cannot resolve host"
expect_error "https://127.0.0.1:$port/db/" "TLS"
expect_error "$base/missing/" "$base/missing/: no database callscope recognises here"
ctl "/__fault?prefix=/db/meta.db&kind=status&code=500&count=1"
expect_error "$base/db/" "$base/db/meta.db: HTTP 500 Internal Server Error"
ctl "/__fault?prefix=/db/meta.db&kind=status&code=403&count=1"
expect_error "$base/db/" "HTTP 403 Forbidden"
# a password in the URL never reaches a message, whatever the answer
ctl "/__fault?prefix=/db/meta.db&kind=status&code=300&count=1"
expect_error "http://alice:s3cret@127.0.0.1:$port/db/" "127.0.0.1:$port/db/meta.db: unexpected HTTP 300"
grep -q "s3cret" "$tmp/err" && fail "HTTP 300: the password is in the message"
ctl "/__fault?prefix=/db/profile.db&kind=lie&extra=5000&count=1"
expect_error "$base/db/" "profile.db: transfer ended early (received [0-9]* of [0-9]* bytes)"
ctl "/__fault?prefix=/db/meta.db&kind=redirect&to=ftp://127.0.0.1/x&count=1"
expect_error "$base/db/" "redirect to another scheme refused (ftp://127.0.0.1/x)"
ctl "/__fault?prefix=/db/meta.db&kind=redirect&to=https://127.0.0.1:$port/db/meta.db&count=1"
expect_error "$base/db/" "redirect to another scheme refused"
ctl "/__fault?prefix=/loop&kind=redirect&to=/loop"
expect_error "$base/loop" "more than 5 redirects"
ctl /__clear
ctl "/__fault?prefix=/db/cct.db&kind=stall&after=0&count=1"
CALLSCOPE_STALL_TIME=1 expect_error "$base/db/" "cct.db: transfer stalled (under 1 byte/s for 1 s)"
expect_error "$base/db/" "/db/[a-z]*\.db: larger than --max-size 1000 bytes" --max-size 1000
# a file that would be read in parts is held to --max-size too
"$cs" cache clear
tsize=$(wc -c <"$www/db/trace.db" | tr -d ' ')
CALLSCOPE_LAZY_MIN_SIZE=20000 expect_error "$base/db/" "/db/trace.db: larger than --max-size $((tsize - 1)) bytes" --max-size $((tsize - 1))
# connect timeout: a listening socket whose backlog is full drops the SYN
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
port = s.getsockname()[1]
fill = []
for i in range(3):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(("127.0.0.1", port))
    except BlockingIOError: pass
    fill.append(c)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % port)
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)' "$tmp/bh.port" &
bh=$!
i=0
while [ ! -s "$tmp/bh.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
CALLSCOPE_CONNECT_TIMEOUT=1 expect_error "http://127.0.0.1:$(cat "$tmp/bh.port")/db/" \
	"/db/: connection timed out after 1 s"
kill $bh 2>/dev/null

expect_error "ftp://127.0.0.1/db/" "unsupported URL scheme"
"$cs" info --max-size 12x "$base/db/" >/dev/null 2>&1
[ $? = 1 ] && ok "bad --max-size is a usage error" || fail "--max-size 12x"
# a write error (as ENOSPC would be): a file size limit, SIGXFSZ ignored
"$cs" cache clear
(trap '' XFSZ; ulimit -f 1000 2>/dev/null && exec "$cs" fetch "$base/big.bin") >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "big.bin.part: cannot write: File too large" "$tmp/err" &&
   ! ls "$XDG_CACHE_HOME"/callscope/url/*/data/big.bin >/dev/null 2>&1; then
	ok "write error: $(cat "$tmp/err")"
else
	fail "write error: rc $rc $(cat "$tmp/err")"
fi

echo "$fails failure(s)"
[ $fails = 0 ]
