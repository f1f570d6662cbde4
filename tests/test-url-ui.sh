#!/bin/sh
# The viewer opening a URL, as a user sees it in a real terminal (tmux):
# a progress bar while the database downloads, then the viewer; Esc and
# Ctrl-C during the download cancel it (one line, the terminal sane, a
# .part kept) and the next open resumes it; an error (404, a refused
# connection, a lying Content-Length) is one line and a sane terminal; a
# lazily read trace.db (CALLSCOPE_LAZY_MIN_SIZE lowered) is browsed in the
# trace pane without being downloaded; a server that hangs while a block
# is read gives a note on the bottom line, Ctrl-C stops the read (the
# viewer goes on, C-l reads again); the server killed mid-browse gives
# a status-line message, and the viewer goes on.  tests/http_server.py on
# 127.0.0.1 serves generated v4 databases; HOME, XDG_CACHE_HOME and
# XDG_CONFIG_HOME are temporary.  Polls capture-pane with a timeout.
set -u
. "${top_srcdir:-.}/tests/http-env.sh"
. "$top_srcdir/tests/tmux-env.sh"
"$gen" -o "$www/db" --seed 11 --contexts 400 --threads 3 --ranks 2 --yaml \
	--trace-lines 6 --samples 20000 >/dev/null || exit 99
cp -r "$www/db" "$www/lazy" && cp -r "$www/db" "$www/gone" &&
	cp -r "$www/db" "$www/hang" || exit 99
tsize=$(wc -c <"$www/db/trace.db" | tr -d ' ')

http_start
part() { ls "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db.part >/dev/null 2>&1; }

# --- progress bar, then Esc cancels ------------------------------------
ctl "/__fault?prefix=/db/trace.db&kind=slow&rate=250000"
start "$cs --no-config $base/db/"
if wait_for "trace.db [" 10 && wait_for "% " 1 && wait_for " left" 1; then
	ok "progress bar while downloading"
else
	fail "no progress bar"
fi
t send-keys -t "$S" Escape
if wait_for "callscope: $base/db/trace.db: cancelled" 5 && wait_shell; then
	ok "Esc cancels: one line, the terminal sane"
else
	fail "Esc cancel"
fi
[ "$(t capture-pane -p -t "$S" | grep -c '^callscope:')" = 1 ] || fail "Esc: more than one line"
part && ok "Esc: the .part is kept" || fail "Esc: no .part"
ls "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db >/dev/null 2>&1 &&
	fail "Esc: an incomplete trace.db appeared"
# the cache is consistent: the half-fetched entry is not offered --offline
"$cs" info --offline "$base/db/" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "not in the cache (--offline)" "$tmp/err" &&
	ok "Esc: the entry is not complete" || fail "Esc: --offline: $(cat "$tmp/err")"

# --- Ctrl-C cancels too -------------------------------------------------
start "$cs --no-config $base/db/"
wait_for "trace.db [" 10 || fail "no progress bar the second time"
t send-keys -t "$S" C-c
if wait_for "callscope: $base/db/trace.db: cancelled" 5 && wait_shell; then
	ok "Ctrl-C cancels: one line, the terminal sane"
else
	fail "Ctrl-C cancel"
fi
part || fail "Ctrl-C: no .part"

# --- the next open resumes and shows the viewer ---------------------------
ctl /__reset
ctl "/__fault?prefix=/db/trace.db&kind=slow&rate=250000"
start "$cs --no-config $base/db/"
if wait_for "q quit" 30 && wait_for "hpctoolkit-v4" 1; then
	ok "the viewer after the download"
else
	fail "no viewer after the download"
fi
b=$(stats bytes_sent)
[ "$b" -lt "$tsize" ] && ok "resumed: $b bytes sent, trace.db is $tsize" ||
	fail "not resumed: $b bytes sent, trace.db is $tsize"
cmp -s "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db "$www/db/trace.db" ||
	fail "the resumed trace.db differs"
t send-keys -t "$S" q
wait_shell || fail "q after a URL open"
ctl /__clear

# --- errors: one line, a sane terminal ------------------------------------
# expect_error TEXT URL [ARGS]
expect_error() {
	text=$1
	shift
	start "$cs --no-config $*"
	if wait_for "callscope: $text" 10 && wait_shell &&
	   [ "$(t capture-pane -p -t "$S" | grep -c '^callscope:')" = 1 ]; then
		ok "error line: $text"
	else
		fail "error '$text'"
	fi
}
expect_error "$base/missing/: no database callscope recognises here" "$base/missing/"
expect_error "$base/missing.tar.gz: HTTP 404 Not Found" "$base/missing.tar.gz"
expect_error "http://127.0.0.1:1/db/: cannot connect" "http://127.0.0.1:1/db/"
ctl "/__fault?prefix=/db/meta.db&kind=lie&extra=5000&count=1"
expect_error "$base/db/meta.db: transfer ended early" --no-cache "$base/db/"
ctl /__clear

# --- a lazily read trace.db browsed in the trace pane ---------------------
ctl /__reset
start "CALLSCOPE_LAZY_MIN_SIZE=20000 $cs --no-config $base/lazy/"
wait_for "q quit" 15 || fail "lazy: no viewer"
t send-keys -t "$S" t
if wait_for "Cursor +0 ns" 10 && wait_for "application thread" 1 &&
   wait_for "RANK 1 THREAD 1 " 1; then
	ok "lazy: the trace pane draws"
else
	fail "lazy: no trace pane"
fi
t send-keys -t "$S" + + + Right Right Down
wait_for "line 1 of " 5 || fail "lazy: the cursor did not move"
lazy_data=$(ls -d "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db.blocks 2>/dev/null | head -1)
if [ -n "$lazy_data" ] && [ ! -e "${lazy_data%.blocks}" ]; then
	ok "lazy: trace.db read in blocks, not downloaded"
else
	fail "lazy: trace.db was downloaded"
fi
t send-keys -t "$S" q
wait_shell || fail "q after the lazy browse"

# --- SIGTERM to a viewer on a --no-cache download: the shell is back and
# the temporary download directory is gone
mkdir -p "$tmp/tmpv"
start "TMPDIR=$tmp/tmpv $cs --no-config --no-cache $base/db/"
wait_for "q quit" 15 || fail "no-cache: no viewer"
# the oldest: the newer one is its janitor (a fork, same command line)
vpid=$(pgrep -o -f "$cs --no-config --no-cache $base/db/")
ls -d "$tmp"/tmpv/callscope-* >/dev/null 2>&1 || fail "no-cache: no temporary directory"
[ -n "$vpid" ] && kill -TERM "$vpid"
if wait_shell && [ -z "$(ls -A "$tmp/tmpv")" ]; then
	ok "SIGTERM: the shell back, the --no-cache directory removed"
else
	fail "SIGTERM to the viewer: left $(ls "$tmp/tmpv")"
fi

# --- a server that hangs mid-read: a note, Ctrl-C stops it, C-l again ----
start "CALLSCOPE_LAZY_MIN_SIZE=20000 $cs --no-config $base/hang/"
wait_for "q quit" 15 || fail "hang: no viewer"
ctl "/__fault?prefix=/hang/trace.db&kind=stall&after=0&count=1"
t send-keys -t "$S" t
if wait_for "Reading trace.db from the server:" 10 && wait_for "Ctrl-C stops" 1; then
	ok "hang: a note says what is read"
else
	fail "hang: no note while a block is awaited"
fi
t send-keys -t "$S" C-c
if wait_for "$base/hang/trace.db: cancelled  C-l reads again" 5; then
	ok "hang: Ctrl-C stops the read, the viewer stays"
else
	fail "hang: Ctrl-C did not stop the read"
fi
t send-keys -t "$S" 2
wait_for "Name (bottom-up)" 5 || fail "hang: the viewer does not answer after Ctrl-C"
t send-keys -t "$S" 1 C-l
if wait_for "Cursor +0 ns" 10 && wait_for "RANK 1 THREAD 1 " 1; then
	ok "hang: C-l reads again, the trace pane draws"
else
	fail "hang: C-l did not read again"
fi
t send-keys -t "$S" q
wait_shell || fail "hang: q did not restore the shell"

# --- the server killed mid-browse: a status-line message, no crash --------
start "CALLSCOPE_LAZY_MIN_SIZE=20000 $cs --no-config $base/gone/"
wait_for "q quit" 15 || fail "gone: no viewer"
vpid=$(pgrep -n -f "$cs --no-config $base/gone/")
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
t send-keys -t "$S" t
if wait_for "$base/gone/trace.db: cannot connect" 10; then
	ok "server gone: the status line says so"
else
	fail "server gone: no message"
fi
[ -n "$vpid" ] && kill -0 "$vpid" 2>/dev/null || fail "server gone: the viewer died"
t send-keys -t "$S" 2
wait_for "Name (bottom-up)" 10 || fail "server gone: the viewer no longer answers"
t send-keys -t "$S" q
wait_shell || fail "server gone: q did not restore the shell"

echo "$fails failure(s)"
[ $fails = 0 ]
