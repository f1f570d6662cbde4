#!/bin/sh
# ROCm profiles: generated rocprofv3 v3 runs (12 processes in 12 files, a
# merged file, an .rpd) checked against the generator's own answers, the
# real .rpd corpus against plain SQL, and hostile inputs (truncated, not
# SQLite, another program's SQLite, an unknown layout): exit 2 with one
# line, never a crash.
. "${top_srcdir:-.}/tests/test-lib.sh"
corpus="$top_srcdir/../shared/corpus/rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results"
# the generator instantiates the real schema SQL of ../shared (absent in a
# tarball's build, as for the other corpus tests)
need_corpus "$top_srcdir/../shared/corpus/rocpd-schema"
python3 "$top_srcdir/tests/gen_rocpd.py" "$tmp/gen" || exit 1
set --
for f in "$corpus"/*.rpd; do
	[ -f "$f" ] && set -- "$@" "$f"
done
python3 "$top_srcdir/tests/check_rocpd.py" "$cs" "$tmp/gen" "$@" || status=1
# hostile inputs: one line on stderr, exit 2
one=$(ls "$tmp"/gen/run/*/*.db | head -n 1)
size=$(wc -c <"$one")
head -c $((size / 2)) "$one" >"$tmp/truncated.db"
head -c 100 "$one" >"$tmp/header-only.db"
printf 'not sqlite at all\n' >"$tmp/text.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table foo (a)'); c.commit()" "$tmp/other.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table rocpd_metadata (a)'); c.commit()" "$tmp/partial.db"
refused db truncated header-only text other partial
# a bad file among good ones fails the run with one line
"$cs" info "$one" "$tmp/truncated.db" >/dev/null 2>"$tmp/err"
if [ $? -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
	echo "FAIL: a truncated file among good ones"
	status=1
fi
exit $status
