#!/bin/sh
# diff / check / compare on two Cube profiles (an Extra-P Cube set's
# mm.x1y1z1 and mm.x25y25z25): by default they compare "time", the metric
# a Cube profile opens sorted by (main compared "visits", its first
# column: every delta 0 while the time grew 18 %), and the program root's
# row carries each run's total, the sum of its roots' inclusive time in
# pycubexr's values (../shared/expected/cube); main left the root's time
# blank.  The delta is new less base.
. "${top_srcdir:-.}/tests/test-lib.sh"
set_dir=extra-p/extrap/tests/data/cubeset/multi_parameter
a="$corpus/$set_dir/mm.x1y1z1.r1/profile.cubex"
b="$corpus/$set_dir/mm.x25y25z25.r1/profile.cubex"
ref="$shared/expected/cube"
[ -f "$a" ] && [ -f "$b" ] && [ -d "$ref" ] || { echo "no corpus: skipped"; exit 77; }
ja="$ref/$(printf '%s' "${a#"$corpus"/}" | sed 's,/,__,g').json"
jb="$ref/$(printf '%s' "${b#"$corpus"/}" | sed 's,/,__,g').json"
"$cs" diff "$a" "$b" --format json --depth 1 >"$tmp/d.json" || fail "diff"
$py - "$tmp/d.json" "$ja" "$jb" <<'PY' || fail "see above"
import json, sys
d = json.load(open(sys.argv[1]))
def total(path):
    r = json.load(open(path))
    roots = [i for i, c in enumerate(r["cnodes"]) if c["parent"] is None]
    return sum(r["values"]["time"]["total"]["incl"][i] for i in roots)
base, new = total(sys.argv[2]), total(sys.argv[3])
cols = d["columns"]
root = next(n for n in d["nodes"] if n["parent"] is None)
bad = []
if cols[0]["metric"] != "time":
    bad.append("compares %r, not time" % cols[0]["metric"])
got = dict(zip((c.get("run") or c.get("role") for c in cols[:3]),
               root["values"][:3]))
for k, want in (("base", base), ("new", new), ("delta", new - base)):
    v = got.get(k)
    if v is None or abs(v - want) > 1e-12 * max(1.0, abs(want)):
        bad.append("root %s %r, pycubexr %r" % (k, v, want))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
exit $status
