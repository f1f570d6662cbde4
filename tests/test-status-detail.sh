#!/bin/sh
# The status line and the detail strip at any width (critique b6), headless:
# - the key hints are whole "KEY word" pairs two spaces apart at every
#   width from 10 to 200 columns, never a cut word (`c co...` at 80
#   before); all ten at 100 and more, `q quit` always, and a hint left out
#   at one width is left out at every narrower one;
# - HPCToolkit v4 records a copied source file by its copy's path
#   ("src/" + the absolute path, relative to the database: FORMATS.md,
#   Source File Specification); Name, Where and Path show the absolute
#   path (the recorded file column of `report --format csv` without its
#   "src"), and Where says whether the database's src/ holds the copy
#   (not in the corpus's copy of issue-233; there in a copy of it that has
#   the file); at 80 columns Where shortens the directories, never the
#   file's name and line; the trace's cursor readout (Path) as well.
. "${top_srcdir:-.}/tests/test-lib.sh"
db="$top_srcdir/../shared/corpus/hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/issue-233"
[ -d "$db" ] || { echo "no $db: skipped"; exit 77; }
db=$(cd "$db" && pwd)
[ -x "$py" ] || py=python3
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" LANG=C.UTF-8

# ---- the hints --------------------------------------------------------
for w in 200 120 100 99 90 80 70 60 50 40 30 20 10; do
	"$cs" --headless --no-config --size "${w}x24" "$db" >"$tmp/s$w" ||
		{ fail "$w: the viewer failed"; continue; }
	tail -n 1 "$tmp/s$w" >"$tmp/h$w"
done
"$py" - "$tmp" <<'PY' || status=1
import sys
tmp = sys.argv[1]
words = {"quit": "q", "help": "?", "search": "/", "hot path": "H",
         "view": "v", "sort": "s", "threads": "T", "source": "o",
         "columns": "c", "command": ":"}
bad = []
prev = None
for w in (200, 120, 100, 99, 90, 80, 70, 60, 50, 40, 30, 20, 10):
    line = open("%s/h%d" % (tmp, w), encoding="utf-8").read().rstrip("\n").rstrip()
    shown = set()
    for h in line.split("  "):
        key, _, word = h.partition(" ")
        if words.get(word) != key:
            bad.append("%d: %r is not a whole hint in %r" % (w, h, line))
        shown.add(word)
    if len(line) > w:
        bad.append("%d: the hints take %d columns" % (w, len(line)))
    if "quit" not in shown:
        bad.append("%d: no q quit" % w)
    if w >= 100 and len(shown) != 10:
        bad.append("%d: %d hints" % (w, len(shown)))
    if prev is not None and not shown <= prev:
        bad.append("%d: %s shown, left out when wider" % (w, shown - prev))
    prev = shown
for b in bad:
    print("FAIL: hints:", b)
sys.exit(1 if bad else 0)
PY

# ---- v4 copied source paths --------------------------------------------
"$cs" report "$db" --format csv --depth 60 >"$tmp/r.csv" || exit 1
detail() { # DB OUT: the strip after H and three rows up (a line context)
	"$cs" --headless --no-config --size 200x30 --keys 'Hkkk' "$1" >"$2" ||
		fail "viewer on $1"
}
detail "$db" "$tmp/d1"
# the copy, in a copy of the database made of links plus the source file
mkdir -p "$tmp/db" && ln -s "$db"/* "$tmp/db/" || exit 1
rel=$(sed -n 's/^Where \/\([^:]*\):.*/src\/\1/p' "$tmp/d1")
if [ -n "$rel" ]; then
	mkdir -p "$tmp/db/${rel%/*}" && echo "int x;" >"$tmp/db/$rel"
	detail "$tmp/db" "$tmp/d2"
else
	fail "no Where line with an absolute path: $(grep '^Where' "$tmp/d1")"
	: >"$tmp/d2"
fi
"$py" - "$tmp" <<'PY' || status=1
import csv, sys
tmp = sys.argv[1]
rows = list(csv.DictReader(open(tmp + "/r.csv")))
names = {r["name"] for r in rows}
files = {r["file"] for r in rows if r["file"]}
bad = []
if not any(f.startswith("src/") for f in files):
    bad.append("the report records no src/ path (premise)")
for d, note in (("d1", "(copied into the database's src/, not there now)"),
                ("d2", "(copied into the database's src/)")):
    lines = open("%s/%s" % (tmp, d), encoding="utf-8").read().split("\n")
    get = lambda k: next((l[6:] for l in lines if l.startswith(k)), None)
    name, where, path = get("Name "), get("Where "), get("Path ")
    if name is None or where is None or path is None:
        bad.append("%s: no detail strip" % d)
        continue
    for k, v in (("Name", name), ("Where", where), ("Path", path)):
        if "src/home" in v:
            bad.append("%s: %s shows the copy's path: %r" % (d, k, v))
    # Name: a recorded name with its src/ path written as absolute
    if not any(n.startswith("src/") and n[3:] == name for n in names):
        bad.append("%s: Name %r is no recorded name without src" % (d, name))
    loc, _, rest = where.partition("   ")
    f, _, line = loc.rpartition(":")
    if not any(r["file"] == "src" + f and r["line"] == line for r in rows):
        bad.append("%s: Where %r is no recorded file:line without src" % (d, loc))
    if rest.strip() != note.strip():
        bad.append("%s: Where's note %r, want %r" % (d, rest.strip(), note))
    if not path.endswith(" > " + name):
        bad.append("%s: Path %r does not end with the name" % (d, path))
for b in bad:
    print("FAIL: paths:", b)
sys.exit(1 if bad else 0)
PY
# at 80 columns, Where keeps the file's name and line (its last parts),
# not the start of the directory ("/home/johnmc/hpctoolkit-tutorial-ex…")
"$cs" --headless --no-config --size 80x30 --keys 'Hkkk' "$db" >"$tmp/d80" ||
	fail "viewer at 80x30"
"$py" - "$tmp" <<'PY' || status=1
import os, sys
tmp = sys.argv[1]
get = lambda d: next(l[6:] for l in open("%s/%s" % (tmp, d),
                     encoding="utf-8").read().split("\n")
                     if l.startswith("Where "))
wide, narrow = get("d1"), get("d80")
loc = wide.partition("   ")[0]
want = "/" + os.path.basename(loc)
if not narrow.startswith("\u2026") or want not in narrow:
    print("FAIL: Where at 80 columns %r lacks %r (200: %r)" % (narrow, want,
                                                              wide))
    sys.exit(1)
PY
# the trace's cursor readout writes the copied paths as the tree's detail
# strip does (main: "Path main thread > main > loop at src/home/johnmc/…")
"$cs" --headless --no-config --size 100x40 --keys 'tllllllllllW' "$db" \
	>"$tmp/trace" || fail "viewer, trace"
grep -A1 '^Path ' "$tmp/trace" | tr -d '\n' >"$tmp/tpath"
if ! grep -q 'loop at /home/' "$tmp/tpath" || grep -q 'src/home' "$tmp/tpath"; then
	fail "trace readout path: $(cat "$tmp/tpath")"
fi
exit $status
