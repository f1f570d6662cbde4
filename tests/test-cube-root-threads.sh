#!/bin/sh
# The threads pane at a Cube profile's program root (the first thing T
# shows): each location's inclusive time there is its roots' inclusive
# time (pycubexr's values in ../shared/expected/cube), the thread sum
# equals the stored summary.  Main's viewer read 0 for every location and
# said "thread sum 0 < stored summary 2869 s: the database's summary is
# not the sum of these values" (as OTF2's root did before 9ccec34).
. "${top_srcdir:-.}/tests/test-lib.sh"
ref="$shared/expected/cube"
[ -d "$corpus/cube" ] && [ -d "$ref" ] || { echo "no ../shared corpus: skipped"; exit 77; }
export HOME="$tmp" LANG=C.UTF-8 TERM=xterm-256color
for rel in cube/pycubexr/data/blast.p64.r1/profile.cubex \
	cube/pycubexr/data/time.p4.n2000.x1.r0/profile.cubex; do
	id=$(printf '%s' "$rel" | sed 's,/,__,g')
	"$cs" --headless --no-config --size 120x50 --keys T "$corpus/$rel" \
		>"$tmp/screen" 2>&1 || fail "$rel: exit $?"
	$py - "$tmp/screen" "$ref/$id.json" <<'PY' || fail "$rel: see above"
import json, re, sys
screen = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
roots = [i for i, c in enumerate(d["cnodes"]) if c["parent"] is None]
incl = d["values"]["time"]["incl"]
want = sorted((sum(incl[r][l] for r in roots)
               for l in range(len(d["locations"]))), reverse=True)
UNIT = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
rows = re.findall(r"^ +([0-9.]+) (s|ms|us|ns) +[0-9.]+%  \S", screen, re.M)
ok = bool(rows) and "time (I) per execution context: <program root>" in screen
for (num, unit), w in zip(rows, want):
    got = float(num) * UNIT[unit]
    half = 0.5 * 10 ** -len(num.partition(".")[2]) * UNIT[unit]
    if abs(got - w) > half * 1.001:
        print("row %s %s, reference %r" % (num, unit, w))
        ok = False
if "thread sum" not in screen or "= stored summary" not in screen:
    ok = False
if not ok:
    print(screen)
sys.exit(0 if ok else 1)
PY
done
exit $status
