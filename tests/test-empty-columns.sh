#!/bin/sh
# Columns that hold nothing are not shown by default (critique b6: the CUDA
# database loops-cuda-nvidia-t.d showed empty GMEM, GMSET, GXCOPY, GICOPY
# and GSYNC columns even at 200 columns, leaving the tree ~60).  Headless,
# on the corpus: the column chooser (c) lists every column; one the
# database marks visible is unticked exactly when it holds nothing, as the
# batch report says independently of the viewer (`report --metric all
# --format csv`, every node: its inclusive sum column is empty or 0
# everywhere); min/max columns, formulas and columns with values stay
# ticked.  (The viewer does not ask a column whose inclusive values the
# engine derives, a pass over the database at start; none of these three
# databases has an empty one.)  The five columns of the critique are not in the tree's header
# at 200 columns, and `c` + Enter shows one again.
. "${top_srcdir:-.}/tests/test-lib.sh"
gpu="$corpus/hpctoolkit-v4/hpctoolkit/tests/data/dbase/loops-cuda-nvidia-t.d"
cube="$corpus/extra-p/extrap/tests/data/cubeset/multi_parameter/mm.x1y1z10.r1/profile.cubex"
blast="$corpus/cube/pycubexr/data/blast.p64.r1/profile.cubex"
[ -d "$gpu" ] && [ -f "$cube" ] && [ -f "$blast" ] ||
	{ echo "no corpus: skipped"; exit 77; }
[ -x "$py" ] || py=python3
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" LANG=C.UTF-8
check() { # DB NAME: the chooser against the batch report
	"$cs" info "$1" >"$tmp/$2.info" &&
		"$cs" report "$1" --metric all --format csv >"$tmp/$2.csv" &&
		"$cs" --headless --no-config --size 120x150 --keys c "$1" \
			>"$tmp/$2.chooser" || { fail "$2: a command failed"; return; }
	"$py" - "$tmp/$2.info" "$tmp/$2.csv" "$tmp/$2.chooser" "$2" <<'PY' || status=1
import csv, re, sys
info, rows, chooser, name = sys.argv[1:5]
cols = []  # (title, scope, combine, hidden)
for line in open(info):
    m = re.match(r"^\s+(\d+)  (.*)  \[(\S+)(?: (\S+) (\S+))?\]( \(hidden\))?$", line)
    if m:
        cols.append((m.group(2), m.group(3), m.group(5), bool(m.group(6))))
table = list(csv.reader(open(rows)))
head = table[0]
ticked = {}
for line in open(chooser, encoding="utf-8"):
    m = re.match(r"^ \[([x ])\] \$(\d+)  (.*)  \(", line)
    if m:
        ticked[int(m.group(2)) - 1] = m.group(1) == "x"
bad = []
if len(ticked) != len(cols):
    bad.append("the chooser lists %d of %d columns" % (len(ticked), len(cols)))
def empty(title):
    if title not in head:
        return None
    i = head.index(title)
    return all(r[i] in ("", "0") or float(r[i]) == 0 for r in table[1:])
hidden = []
for k, (title, scope, combine, dbhidden) in enumerate(cols):
    if k not in ticked:
        continue
    if dbhidden:
        if ticked[k]:
            bad.append("%s: hidden by the database, ticked" % title)
        continue
    base = title[:-4] if title.endswith((" (I)", " (E)")) else None
    incl = base + " (I)" if base else None
    want = True
    if combine == "sum" and incl and incl in [c[0] for c in cols] and \
            scope != "formula" and empty(incl):
        want = False
    if ticked[k] != want:
        bad.append("%s: %s, but its values say %s" % (
            title, "ticked" if ticked[k] else "unticked",
            "shown" if want else "empty"))
    if not want:
        hidden.append(title)
print("%s: empty by the report: %s" % (name, ", ".join(hidden) or "none"))
open(chooser + ".hidden", "w").write("\n".join(hidden) + "\n")
for b in bad:
    print("FAIL: %s: %s" % (name, b))
sys.exit(1 if bad else 0)
PY
}
check "$gpu" gpu
check "$cube" cube
check "$blast" blast
# the critique's five: unticked, and absent from the header at 200
for m in GMEM GMSET GXCOPY GICOPY GSYNC; do
	grep -qx "$m (sec) (I)" "$tmp/gpu.chooser.hidden" ||
		fail "$m (sec) (I) is shown by default"
done
"$cs" --headless --no-config --size 200x20 "$gpu" >"$tmp/gpu200" || exit 1
grep "Name (" "$tmp/gpu200" | grep -E "GMEM|GMSET|GXCOP|GICOP|GSYNC" &&
	fail "an empty GPU column in the header at 200 columns"
grep "Name (" "$tmp/gpu200" | grep -q "GKER" || fail "GKER not in the header"
[ -s "$tmp/cube.chooser.hidden" ] && grep -q "PAPI_L3_TCM" "$tmp/cube.chooser.hidden" ||
	fail "cube: PAPI_L3_TCM (all 0) shown"
[ "$(cat "$tmp/blast.chooser.hidden")" = "" ] ||
	fail "blast: a column with values hidden"
# the chooser shows one again: GMEM (sec) (I) is the 5th column
"$cs" --headless --no-config --size 250x20 --keys 'cjjjj<Enter><Esc>' "$gpu" \
	>"$tmp/gpu-shown" || exit 1
grep "Name (" "$tmp/gpu-shown" | grep -q "GMEM" ||
	fail "c: GMEM not shown after Enter on it"
exit $status
