#!/bin/sh
# Every format by every remote and archived way (issue 29): one input of
# each reader family (HPCToolkit v4, XML, the 2020 sparse format, Cube
# .cubex, rocpd as a directory of per-process databases, as a directory
# holding one .rpd and as the .rpd, Nsight .sqlite, DCPI, Extra-P text,
# JSON lines, .extra-p experiment and cube set, Extra-Prof directory, OTF2
# archive directory),
# each opened by http:// (a directory URL for a directory, the file's URL
# for a file), file://, and from a tar, tar.gz, tar.bz2, tar.xz, tar.zst
# and zip of it (local, and the tar.gz and zip by http:// too).  Every
# answer must equal the local one: `info` (without its first line, which
# names the input) and `report --depth 4 --metric all`.  Offline:
# tests/http_server.py on 127.0.0.1.
set -u
. "${top_srcdir:-.}/tests/http-env.sh"
corpus="$top_srcdir/../shared/corpus"
[ -d "$corpus/rocpd-rpd" ] && [ -d "$corpus/extra-p" ] && [ -d "$corpus/otf2" ] ||
	{ echo "no shared corpus: skipped"; exit 77; }
corpus=$(cd "$corpus" && pwd)
ex="$corpus/extra-p/extrap/tests/data"
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# the inputs, NAME -> a copy below $www
"$gen" -o "$www/v4" --yaml --seed 7 >/dev/null || exit 99
cp -r "$corpus/hpctoolkit-xml/hatchet/hatchet/tests/data/hpctoolkit-cpi-database" "$www/xml"
cp -r "$corpus/hpctoolkit-sparse-2020/hpcviewer.e4/tests/resources/prof2/empty-trace" "$www/sparse"
cp "$corpus/cube/pycubexr/data/call_tree_test/call_tree_test.cubex" "$www/tree.cubex"
rpd="$corpus/rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result.rpd"
mkdir "$www/rpddir" && cp "$rpd" "$www/rpddir/" && cp "$rpd" "$www/matmul.rpd"
"$py" "$top_srcdir/tests/gen_rocpd.py" "$tmp/gen" >/dev/null || exit 99
cp -r "$tmp/gen/run" "$www/rocpdrun"
cp "$corpus/nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite" "$www/saxpy.sqlite"
gcc -g -O0 -no-pie -o "$tmp/prog" "$top_srcdir/tests/dcpi-prog.c" || exit 99
"$py" "$top_srcdir/tests/gen_dcpi.py" "$tmp/prog" "$www/dcpi" --seed 8 \
	--layout db --samples 300 >/dev/null || exit 99
cp "$ex/text/one_parameter_1.txt" "$www/one.txt"
cp "$ex/jsonlines/test1.jsonl" "$www/test1.jsonl"
cp "$ex/experiments/two_parameter3.txt.extra-p" "$www/two.extra-p"
cp -r "$ex/cubeset/extra_file" "$www/cubeset"
cp -r "$ex/extra_prof/test1" "$www/prof"
cp -r "$corpus/otf2/pipit/pipit/tests/data/ping-pong-otf2" "$www/otf2"
chmod -R u+w "$www"
inputs="v4 xml sparse tree.cubex rpddir matmul.rpd rocpdrun saxpy.sqlite dcpi one.txt test1.jsonl two.extra-p cubeset prof otf2"

# the archives of each input: NAME.KIND holding NAME (a directory or file)
mkdir "$tmp/ar"
"$py" - "$www" "$tmp/ar" $inputs <<'PY' || exit 99
import os, subprocess, sys, tarfile, zipfile
www, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
for n in names:
    for kind, mode in (("tar", "w"), ("tar.gz", "w:gz"), ("tar.bz2", "w:bz2"),
                       ("tar.xz", "w:xz")):
        with tarfile.open(os.path.join(out, n + "." + kind), mode) as t:
            t.add(os.path.join(www, n), arcname=n)
    subprocess.run(["zstd", "-q", "-f", os.path.join(out, n + ".tar"), "-o",
                    os.path.join(out, n + ".tar.zst")], check=True)
    with zipfile.ZipFile(os.path.join(out, n + ".zip"), "w",
                         zipfile.ZIP_DEFLATED) as z:
        p = os.path.join(www, n)
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    full = os.path.join(root, f)
                    z.write(full, os.path.relpath(full, www))
        else:
            z.write(p, n)
PY
mkdir "$www/ar" && cp "$tmp/ar"/*.tar.gz "$tmp/ar"/*.zip "$www/ar/"

http_start

# answers: ANSWER INPUT > FILE (stdout only; info without the lines that
# name the input: its first, and warnings, which may quote the path)
answer() {
	"$cs" info "$1" 2>/dev/null | tail -n +2 | grep -v '^Warning:' 
	"$cs" report "$1" --depth 4 --metric all 2>/dev/null
}
checks=0
for n in $inputs; do
	answer "$www/$n" >"$tmp/local"
	grep -q '^Format:' "$tmp/local" || { fail "$n: no local answer"; continue; }
	fmt=$(sed -n 's/^Format: *//p' "$tmp/local")
	slash=; [ -d "$www/$n" ] && slash=/
	for way in "$base/$n$slash" "file://$www/$n$slash" \
		"$tmp/ar/$n.tar" "$tmp/ar/$n.tar.gz" "$tmp/ar/$n.tar.bz2" \
		"$tmp/ar/$n.tar.xz" "$tmp/ar/$n.tar.zst" "$tmp/ar/$n.zip" \
		"$base/ar/$n.tar.gz" "$base/ar/$n.zip"; do
		checks=$((checks + 1))
		answer "$way" >"$tmp/got"
		if cmp -s "$tmp/local" "$tmp/got"; then
			:
		else
			"$cs" info "$way" >/dev/null 2>"$tmp/err"
			fail "$n ($fmt) by $way: $(head -c 300 "$tmp/err") $(diff "$tmp/local" "$tmp/got" | head -4)"
		fi
	done
	echo "ok: $n ($fmt): by http, file:// and six archive kinds"
done

# a directory URL reads only what its reader reads: the .rpd directory
# fetches the .rpd whole (SQLite files are fetched whole, never by range)
"$cs" cache clear
echo "notes" >"$www/rpddir/README.txt"
ctl /__reset
"$cs" info "$base/rpddir/" >/dev/null 2>"$tmp/err" || fail "rpddir: $(cat "$tmp/err")"
size=$(wc -c <"$rpd" | tr -d ' ')
[ "$(stats count /rpddir/matmul_result.rpd)" = 1 ] &&
	[ "$(stats fetches)" = 2 ] &&
	ok "rpddir by URL: the listing and the .rpd ($size bytes), one request each" ||
	fail "rpddir by URL: $(stats statuses)"
# the XML directory's reader does not read a README beside experiment.xml
echo "notes" >"$www/xml/README.txt"
"$cs" fetch "$base/xml/" -o "$tmp/xmlcopy" >/dev/null 2>"$tmp/err" || fail "fetch xml: $(cat "$tmp/err")"
[ -f "$tmp/xmlcopy/experiment.xml" ] && [ ! -e "$tmp/xmlcopy/README.txt" ] &&
	ok "xml by URL: README.txt beside experiment.xml is not fetched" ||
	fail "xml by URL fetched $(ls "$tmp/xmlcopy")"

# a directory URL of every other format fetches what its reader reads and
# nothing beside it: each directory (Cube's extracted .cubex and a folder
# holding a .cubex with pycubexr's CSVs beside it, DCPI, OTF2,
# Nsight, and Extra-P's Cube, Nsight and Extra-Prof sets) gets unrelated
# files of 1 MiB where a careless plan would take them (beside the files,
# in the point or epoch directories, hidden, near-miss names), opens by
# http:// as it opens here, the server is never asked for them, and it
# sends no more than the files there were before them (plus 64 KiB for the
# listings).
mkdir "$www/sets"
d="$www/sets"
mkdir "$d/cube" && (cd "$d/cube" && tar xf "$www/tree.cubex") || exit 99
mkdir "$d/cubex" && cp "$corpus/cube/pycubexr/data/blast.p64.r1/profile.cubex" "$d/cubex/"
cp -r "$www/dcpi" "$d/dcpi"
cp -r "$www/otf2" "$d/otf2"
cp -r "$corpus/extra-p/extrap/tests/data/nsight/nsys_db" "$d/nsight"
cp -r "$www/cubeset" "$d/cubeset"
cp -r "$corpus/extra-p/extrap/tests/data/nsight/sampled_callchains" "$d/nset"
cp -r "$corpus/extra-p/extrap/tests/data/extra_prof/test1" "$d/prof"
chmod -R u+w "$d"
epoch=$(cd "$d/dcpi" && ls | head -1)
# NAME: its unrelated files (relative paths)
unrelated_cube="unrelated.bin profile.cubex.tar notes.txt"
unrelated_cubex="incl.csv excl.csv .old.cubex"
unrelated_dcpi="README.txt $epoch/scratch.tmp .hidden/1f3a9c.cycles"
unrelated_otf2="profile.cubex scorep.log traces/0.evt.orig"
unrelated_nsight="report.nsys-rep notes.txt .old.sqlite"
unrelated_cubeset="big.dat mm.x1y1z1.r1/scorep.log mm.x1y1z1.r1/profile.cubex.orig"
unrelated_nset="README.pdf ex-gpu.s10/ex-gpu.s10.nsys-rep ex-gpu.s10/.ex-gpu.s10.sqlite"
unrelated_prof="notes.txt test.s1/profile.extra-prof.msgpack.bak test.s2/run.log"
big=1048576
for n in cube cubex dcpi otf2 nsight cubeset nset prof; do
	eval "files=\$unrelated_$n"
	# what the reader reads, at most: every file there before
	want=$(find "$d/$n" -type f -exec cat {} + | wc -c)
	for f in $files; do
		mkdir -p "$(dirname "$d/$n/$f")"
		head -c $big /dev/urandom >"$d/$n/$f"
	done
	answer "$d/$n" >"$tmp/local"
	fmt=$(sed -n 's/^Format: *//p' "$tmp/local")
	[ -n "$fmt" ] || { fail "$n: no local answer"; continue; }
	"$cs" cache clear >/dev/null
	ctl /__reset
	answer "$base/sets/$n/" >"$tmp/got"
	cmp -s "$tmp/local" "$tmp/got" ||
		fail "sets/$n ($fmt) by URL: $(diff "$tmp/local" "$tmp/got" | head -4)"
	asked=
	for f in $files; do
		[ "$(stats count "/sets/$n/$f")" = 0 ] || asked="$asked $f"
	done
	sent=$(stats bytes_sent)
	# its files, the listings' pages and headers; never one of the others
	if [ -z "$asked" ] && [ "$sent" -lt $((want + 65536)) ]; then
		ok "sets/$n ($fmt) by URL: as local, $sent bytes sent, none of$(printf ' %s' $files)"
	else
		fail "sets/$n ($fmt) by URL fetched:$asked ($sent bytes)"
	fi
done

# a folder's .cubex is read in place: above CALLSCOPE_LAZY_MIN_SIZE (here
# 1 byte) it stays on the server; `info` on a generated 3.6 MB one reads
# its anchor and member headers by range, under a quarter of it, and
# every answer is the local one
mkdir "$d/bigcubex"
"$py" "$top_srcdir/tests/gen_cube.py" "$d/bigcubex/profile.cubex" \
	--cnodes 2000 --locs 64 || exit 99
size=$(wc -c <"$d/bigcubex/profile.cubex" | tr -d ' ')
"$cs" cache clear >/dev/null
ctl /__reset
CALLSCOPE_LAZY_MIN_SIZE=1 "$cs" info "$base/sets/bigcubex/" >/dev/null 2>"$tmp/err" ||
	fail "sets/bigcubex lazily: $(cat "$tmp/err")"
sent=$(stats bytes_sent)
ranged=$(stats ranges | tr ' ' '\n' | grep -c '^bytes=[0-9]*-[0-9]*|"')
[ "$sent" -lt $((size / 4)) ] && [ "$ranged" -gt 0 ] &&
	ok "sets/bigcubex lazily: info read $sent bytes of its $size in $ranged ranges" ||
	fail "sets/bigcubex lazily: $sent bytes of $size: $(stats ranges)"
answer "$d/bigcubex" >"$tmp/local"
(export CALLSCOPE_LAZY_MIN_SIZE=1; answer "$base/sets/bigcubex/") >"$tmp/got"
cmp -s "$tmp/local" "$tmp/got" ||
	fail "sets/bigcubex lazily: $(diff "$tmp/local" "$tmp/got" | head -4)"

echo "$checks ways checked, $fails failure(s)"
[ $fails = 0 ]
