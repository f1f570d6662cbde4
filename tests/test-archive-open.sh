#!/bin/sh
# Databases inside archives through the batch commands: a generated v4
# database packed as .tar, .tar.gz, .tgz, .tar.xz, .tar.zst and .zip gives
# the same `report`, `hotpath` and `trace` output as the directory; `info`
# names the archive, not the cache; a multi-database archive opens the
# first in path order with a warning naming the others, and ARCHIVE/INNER
# opens another; a second open reuses the extraction (same inode and
# mtime, no new directory) and a changed archive is extracted again;
# errors name the archive.  HOME and XDG_CACHE_HOME point into a temporary
# directory.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
HOME="$tmp/home"
XDG_CACHE_HOME="$tmp/cache"
export HOME XDG_CACHE_HOME
mkdir -p "$HOME"

"$gen" -o "$tmp/alpha" --seed 11 >/dev/null || exit 1
"$gen" -o "$tmp/beta" --seed 12 --threads 3 >/dev/null || exit 1
"$gen" -o "$tmp/gamma" --seed 13 --no-trace >/dev/null || exit 1
python3 "$top_srcdir/tests/gen_archives.py" --db "$tmp/ar" "$tmp/alpha" \
	"$tmp/beta" "$tmp/gamma" || exit 1

# the same output from the directory and from every archive type
run() { # NAME DB: every batch command's output into $tmp/NAME.*
	"$cs" report "$2" --depth 4 >"$tmp/$1.report" 2>"$tmp/$1.err" ||
		fail "report $2: $(cat "$tmp/$1.err")"
	"$cs" report "$2" --view flat --format csv >"$tmp/$1.flat" 2>>"$tmp/$1.err" ||
		fail "flat $2"
	"$cs" hotpath "$2" --format json >"$tmp/$1.hot" 2>>"$tmp/$1.err" ||
		fail "hotpath $2"
	"$cs" trace "$2" --at +1ms >"$tmp/$1.trace" 2>>"$tmp/$1.err" ||
		fail "trace $2"
}
run dir "$tmp/alpha"
for a in db.tar db.tar.gz db.tgz db.tar.xz db.tar.zst db.zip; do
	run "$a" "$tmp/ar/$a"
	for kind in report flat hot trace; do
		cmp -s "$tmp/dir.$kind" "$tmp/$a.$kind" ||
			fail "$a: $kind differs from the directory's"
	done
	[ -s "$tmp/$a.err" ] && fail "$a: unexpected messages: $(cat "$tmp/$a.err")"
	"$cs" info "$tmp/ar/$a" >"$tmp/info" 2>&1 || fail "info $a"
	grep -q "^Database: *$tmp/ar/$a\$" "$tmp/info" ||
		fail "$a: info does not name the archive: $(head -1 "$tmp/info")"
	grep -q "$XDG_CACHE_HOME" "$tmp/info" && fail "$a: info shows the cache path"
done
[ -s "$tmp/dir.report" ] || fail "empty report"

# one extraction per archive in the cache, complete ones only
n=$(ls "$XDG_CACHE_HOME/callscope/extract" | wc -l)
[ "$n" -eq 6 ] || fail "want 6 cached extractions, have $n"
ls "$XDG_CACHE_HOME/callscope/extract" | grep -q tmp && fail "temporary directory left in the cache"

# a second open reuses the extraction: same directory, inode and mtime
dir=$(ls -d "$XDG_CACHE_HOME"/callscope/extract/* | head -1)
before=$(ls -d "$XDG_CACHE_HOME"/callscope/extract/* | while read -r d; do
	stat -c '%n %i %Y' "$d" "$d"/*/meta.db; done)
sleep 1
for a in db.tar db.tar.gz db.tgz db.tar.xz db.tar.zst db.zip; do
	"$cs" report "$tmp/ar/$a" --depth 4 >"$tmp/again" 2>&1 || fail "second open of $a"
	cmp -s "$tmp/dir.report" "$tmp/again" || fail "$a: second report differs"
done
after=$(ls -d "$XDG_CACHE_HOME"/callscope/extract/* | while read -r d; do
	stat -c '%n %i %Y' "$d" "$d"/*/meta.db; done)
[ "$before" = "$after" ] || fail "second open re-extracted: $before / $after"
[ -d "$dir" ] || fail "cache directory vanished"

# a changed archive (new mtime) is extracted again, into a new directory
touch "$tmp/ar/db.tar"
"$cs" report "$tmp/ar/db.tar" --depth 4 >"$tmp/again" 2>&1 || fail "changed archive"
cmp -s "$tmp/dir.report" "$tmp/again" || fail "changed archive: report differs"
n=$(ls "$XDG_CACHE_HOME/callscope/extract" | wc -l)
[ "$n" -eq 7 ] || fail "changed archive: want 7 cached extractions, have $n"

# without XDG_CACHE_HOME the cache is ~/.cache
env -u XDG_CACHE_HOME "$cs" report "$tmp/ar/db.tgz" --depth 4 >"$tmp/again" 2>&1 ||
	fail "HOME cache"
cmp -s "$tmp/dir.report" "$tmp/again" || fail "HOME cache: report differs"
[ -d "$HOME/.cache/callscope/extract" ] || fail "no ~/.cache/callscope/extract"

# several databases: the first in path order, with a warning naming the
# others and the ARCHIVE/INNER syntax
multi="$tmp/ar/multi.tar.gz"
"$cs" report "$multi" --depth 4 >"$tmp/multi" 2>"$tmp/multi.err" || fail "multi"
cmp -s "$tmp/dir.report" "$tmp/multi" || fail "multi: not the first database (alpha)"
grep -q "holds 3 databases; opened set/alpha" "$tmp/multi.err" ||
	fail "multi: no warning: $(cat "$tmp/multi.err")"
grep -q "set/beta, set/gamma" "$tmp/multi.err" || fail "multi: others not named"
grep -q "$multi/set/beta" "$tmp/multi.err" || fail "multi: syntax not shown"
"$cs" info "$multi" >"$tmp/info" 2>&1
grep -q "^Warning: .*holds 3 databases" "$tmp/info" || fail "info: no warning"

# ARCHIVE/INNER picks another one, with or without a trailing slash
for inner in set/beta set/beta/ ./set//beta; do
	"$cs" report "$multi/$inner" --depth 4 >"$tmp/inner" 2>"$tmp/inner.err" ||
		fail "$inner: $(cat "$tmp/inner.err")"
	"$cs" report "$tmp/beta" --depth 4 >"$tmp/beta.report"
	cmp -s "$tmp/beta.report" "$tmp/inner" || fail "$inner: not beta"
	[ -s "$tmp/inner.err" ] && fail "$inner: unexpected warning"
done
"$cs" info "$multi/set/gamma" >"$tmp/info" 2>&1 || fail "info gamma"
grep -q "^Database: *$multi/set/gamma\$" "$tmp/info" || fail "info gamma: path"
"$cs" trace "$multi/set/beta" --at +1ms >"$tmp/t1" 2>&1 || fail "trace beta"
"$cs" trace "$tmp/beta" --at +1ms >"$tmp/t2" 2>&1
cmp -s "$tmp/t1" "$tmp/t2" || fail "trace beta differs"

# errors name the archive: a missing inner directory, "..", not a database
"$cs" info "$multi/set/delta" >"$tmp/out" 2>&1 && fail "missing inner opened"
grep -q "$multi" "$tmp/out" || fail "missing inner: $(cat "$tmp/out")"
"$cs" info "$multi/../alpha" >"$tmp/out" 2>&1 && fail "'..' inner opened"
"$cs" info "$multi/set" >"$tmp/out" 2>&1 && fail "set/ opened as a database"
grep -q "$XDG_CACHE_HOME" "$tmp/out" && fail "error shows the cache path: $(cat "$tmp/out")"
printf 'just text\n' >"$tmp/ar/text.tar"
"$cs" info "$tmp/ar/text.tar" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "text.tar: want exit 2"
(cd "$tmp" && tar cf empty.tar --files-from /dev/null && mkdir -p nodb/x &&
	echo hi >nodb/x/readme && tar czf nodb.tar.gz nodb)
"$cs" info "$tmp/nodb.tar.gz" >"$tmp/out" 2>&1 && fail "archive without a database opened"
grep -q "nodb.tar.gz.*no database" "$tmp/out" || fail "no database: $(cat "$tmp/out")"
"$cs" info "$tmp/nodb.tar.gz/nodb/x" >"$tmp/out" 2>&1 && fail "nodb/x opened"
"$cs" info "$tmp/missing.tar.gz" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "missing archive: want exit 2"
# a hostile archive: refused, nothing in the cache but complete extractions
python3 - "$tmp/evil.tar.gz" <<'EOF'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    i = tarfile.TarInfo("db/meta.db"); i.size = 1; t.addfile(i, io.BytesIO(b"x"))
    i = tarfile.TarInfo("../../escape"); i.size = 1; t.addfile(i, io.BytesIO(b"x"))
EOF
"$cs" info "$tmp/evil.tar.gz" >"$tmp/out" 2>&1 && fail "evil archive opened"
grep -q 'evil.tar.gz: entry "../../escape"' "$tmp/out" || fail "evil: $(cat "$tmp/out")"
ls "$XDG_CACHE_HOME/callscope/extract" | grep -q tmp && fail "evil: temporary directory left"
[ -e "$XDG_CACHE_HOME/callscope/escape" ] && fail "evil: escaped"
[ -e "$XDG_CACHE_HOME/escape" ] && fail "evil: escaped"
exit $status
