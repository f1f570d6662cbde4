#!/bin/sh
# The libraries that only some formats or commands need (src/core/lazylib.h)
# are not loaded at start: (1) none of their SONAMEs (config.h's
# LAZYLIB_*_SONAME) is in the program's DT_NEEDED, and the dynamic loader
# opens none of them for --version or for a trace probe of a local
# HPCToolkit database (LD_DEBUG=files); (2) each entry point that needs one
# gives, when it is missing (CALLSCOPE_SONAME_<ID> naming a library that
# does not exist), exactly one line on stderr naming it, and exit status 2:
# an SQLite file, a URL, an OTF2 anchor, an archive, an Extra-P fit
# (LAPACKE), a pprof export (protobuf-c).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
cs=$(cd "$top_builddir" && pwd)/callscope
command -v readelf >/dev/null || { echo "readelf missing"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/test-lazylib-cli.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
fail=0
missing=libcallscope-missing.so.0

sed -n 's/^#define LAZYLIB_\([A-Z0-9_]*\)_SONAME "\(.*\)"$/\1 \2/p' \
	"$top_builddir/config.h" >"$work/sonames"
[ "$(wc -l <"$work/sonames")" -eq 10 ] ||
	{ echo "FAIL: config.h names $(wc -l <"$work/sonames") lazy libraries, not 10"; exit 1; }

# (1) not linked, not loaded
readelf -d "$cs" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$work/needed"
grep -q '^libc\.so' "$work/needed" || { echo "FAIL: readelf shows no NEEDED"; exit 1; }
"$top_builddir/tests/gen-v4db" -o "$work/db" --contexts 20 --ranks 1 \
	--threads 2 >/dev/null || { echo "FAIL: gen-v4db"; exit 1; }
LD_DEBUG=files "$cs" --version >/dev/null 2>"$work/ld-version"
LD_DEBUG=files "$cs" trace "$work/db" --at +0 --lines 0 >"$work/probe" \
	2>"$work/ld-probe" || { echo "FAIL: trace probe"; fail=1; }
[ "$(wc -l <"$work/probe")" -eq 1 ] || { echo "FAIL: trace probe: $(cat "$work/probe")"; fail=1; }
grep -q 'file=libc\.so' "$work/ld-version" ||
	{ echo "FAIL: LD_DEBUG=files shows no library"; exit 1; }
while read -r id soname; do
	if grep -q -x -F "$soname" "$work/needed"; then
		echo "FAIL: $soname ($id) is in the program's NEEDED"
		fail=1
	fi
	for what in version probe; do
		if grep -q "file=$soname " "$work/ld-$what"; then
			echo "FAIL: $soname ($id) is loaded for the $what"
			fail=1
		fi
	done
done <"$work/sonames"

# (2) one line and exit 2 when missing
# expect ID CMD...: the command with library ID missing
expect() {
	id=$1
	shift
	env "CALLSCOPE_SONAME_$id=$missing" "$cs" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l <"$work/err")" -ne 1 ] ||
		! grep -q "this needs $missing: $missing: " "$work/err"; then
		echo "FAIL: $id missing, callscope $*: exit $rc, stderr:"
		cat "$work/err"
		fail=1
	fi
}
cd "$work" || exit 1
/usr/bin/python3 - <<'EOF' || { echo "FAIL: writing the inputs"; exit 1; }
import sqlite3, tarfile
c = sqlite3.connect("x.sqlite")
c.execute("CREATE TABLE t (a)")
c.commit()
c.close()
with tarfile.open("db.tar.gz", "w:gz") as t:
    t.add("db")
with open("extrap.txt", "w") as f:
    f.write("PARAMETER p\nPOINTS 1 2 3 4 5\nREGION r\nMETRIC time\n")
    for p in range(1, 6):
        f.write("DATA %d %d\n" % (p, p + 1))
with open("traces.otf2", "wb") as f:
    f.write(b"not an anchor\n")
EOF
expect SQLITE info x.sqlite
expect CURL info http://127.0.0.1:9/db/
expect OTF2 info traces.otf2
expect ARCHIVE info db.tar.gz
expect LAPACKE model extrap.txt
expect PROTOBUF_C export db --to pprof -o "$work/out.pb.gz"
# and with them there, the same inputs open (nothing else is broken)
"$cs" info db.tar.gz >/dev/null || { echo "FAIL: db.tar.gz"; fail=1; }
"$cs" model extrap.txt >/dev/null || { echo "FAIL: model"; fail=1; }
exit $fail
