#!/bin/sh
# Names at 80 columns (critique b6), headless on kripke (HPCToolkit v4):
# - with a third metric column (a :derive), the loop's children, whose
#   names differ only in their line numbers, each still show their
#   report line number (cut in the middle, not at the end);
# - the flat view shows modules by base name (the report names paths);
# - the title bar shows the database's own name, not the start of its
#   path;
# - column heads drop the unit a metric's name carries ("CPUTIME (sec)"
#   heads "CPUTIME I") where the values carry their own ("7.411 s"),
#   so a head is never cut inside the unit;
# - a name cut in its middle keeps the number at the cut whole (Nsight's
#   thread ids).  Values are checked by test-screen-truth.sh.  Skipped without
#   ../shared.
. "${top_srcdir:-.}/tests/test-lib.sh"
db="$top_srcdir/../shared/corpus/hpctoolkit-v4/hpctoolkit-tutorial-examples/cpu/kripke/dbase.expt.1.cputime.t"
[ -d "$db" ] || { echo "no $db: skipped"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" \
	XDG_CACHE_HOME="$tmp/cache" TERM=xterm-256color LANG=C.UTF-8
mkdir -p "$HOME"
"$cs" --headless --size 80x24 --keys ':derive ratio = $2 / $1 * 100<Enter>Hl' \
	"$db" >"$tmp/td.screen" || status=1
"$cs" --headless --no-config --size 80x24 --keys '3' "$db" \
	>"$tmp/flat.screen" || status=1
"$cs" report "$db" --format json --depth 64 >"$tmp/td.json" || status=1
"$cs" report "$db" --format json --view flat --depth 1 >"$tmp/flat.json" ||
	status=1
/usr/bin/python3 - "$tmp" "$db" <<'PY' || status=1
import json, os, re, sys
tmp, db = sys.argv[1], sys.argv[2]
bad = []
td = open(tmp + "/td.screen").read().split("\n")
rep = json.load(open(tmp + "/td.json"))["nodes"]
# the hot path's loop (the first loop) and its children's line numbers
loop = next(n for n in rep if n["kind"] == "loop")
want = sorted(":%d" % n["line"] for n in rep if n["parent"] == loop["id"])
shown = [l for l in td if "SteadyState" in l and "loop at" not in l and
         "::" not in l and not l.startswith(("Name", "Path", "Where"))]
ends = [re.search(r"(:\d+)\s*$", l) for l in shown]
got = sorted(e.group(1) for e in ends if e)
# the children of the loop are the rows one level below it
if not set(want) <= set(got) or len(got) < len(want):
    bad.append("loop children show line numbers %s, the report has %s:\n%s"
               % (got, want, "\n".join(td)))
# flat view: module rows by base name
fl = open(tmp + "/flat.screen").read().split("\n")
mods = [n["name"] for n in json.load(open(tmp + "/flat.json"))["nodes"]
        if n["depth"] == 1]
for m in mods:
    base = os.path.basename(m)
    if not any(re.search(r"[\u25b8\u25be] " + re.escape(base) + r"\s*$", l)
               for l in fl):
        bad.append("flat view lacks module %r as %r:\n%s" %
                   (m, base, "\n".join(fl)))
# column heads: the metric's name without "(sec)", the values in s/ms
head = next(l for l in fl if " Name (" in l)
if "CPUTIME I" not in head or "(sec" in head or "(s\u2026" in head:
    bad.append("column head %r: not 'CPUTIME I' without its unit" % head)
if not any(re.search(r"\d (s|ms|us) ", l) for l in fl):
    bad.append("no value written with its unit:\n%s" % "\n".join(fl))
# the title names the database
name = os.path.basename(db.rstrip("/"))
if name not in td[0]:
    bad.append("title %r lacks the database's name %r" % (td[0], name))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
# a name cut in its middle keeps a number whole: the Nsight export's
# thread row ("thread 1230493 (main) MPI Rank 0", from the report) shows
# its thread id at 80 columns (main: "thread 1230… MPI Rank 0", two
# threads of one process read alike)
nsys="$corpus/nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
if [ -f "$nsys" ]; then
	name=$("$cs" report "$nsys" --depth 2 --format csv |
		sed -n 's/^[^,]*,[^,]*,2,[^,]*,\(thread [^,]*\),.*/\1/p' | head -n 1)
	tid=$(printf '%s\n' "$name" | sed -n 's/^thread \([0-9]*\).*/\1/p')
	"$cs" --headless --no-config --size 80x10 "$nsys" >"$tmp/nsys" ||
		fail "viewer on the Nsight export"
	[ -n "$tid" ] && grep -q "─▸ thread $tid" "$tmp/nsys" ||
		fail "thread id '$tid' of '$name' cut: $(grep 'thread' "$tmp/nsys")"
fi
exit $status
