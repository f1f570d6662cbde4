#!/bin/sh
# Values that are no number (an infinity, NaN) reach every output whole.
# A Cube file from tests/gen_cube.py gets two POSTDERIVED metrics whose
# CubePL gives +inf (exp(1000) times a ratio of 1) and -inf (log(0)) at
# every call path.  jansson has no JSON real for them: the JSON report's
# "values" arrays were one short per such value (the columns no longer
# lined up with their values), and the text report and the viewer drew
# their percent share as "-nan%".  Now: every JSON node has one value per
# column, the infinities as the strings "inf" and "-inf" (as CSV writes
# them), no "nan%" in the text report, the CSV or on the headless screen,
# and the finite metric beside them keeps its value and its share.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || py=python3
"$py" "$top_srcdir/tests/gen_cube.py" "$tmp/base.cubex" --seed 3 \
	--cnodes 6 --locs 2 || { echo "gen_cube.py failed"; exit 99; }
"$py" - "$tmp/base.cubex" "$tmp/inf.cubex" <<'PY' || exit 99
import io, sys, tarfile
src, out = sys.argv[1:3]
extra = (
    '<metric id="4" type="POSTDERIVED"><disp_name>Big</disp_name>'
    '<uniq_name>big</uniq_name><dtype>DOUBLE</dtype><uom>occ</uom>'
    '<descr>big</descr><cubepl>exp(1000) * (metric::time() / '
    'metric::time())</cubepl></metric>\n'
    '<metric id="5" type="POSTDERIVED"><disp_name>Neg</disp_name>'
    '<uniq_name>neg</uniq_name><dtype>DOUBLE</dtype><uom>occ</uom>'
    '<descr>neg</descr><cubepl>log(0)</cubepl></metric>\n</metrics>')
with tarfile.open(src) as t, tarfile.open(out, "w") as o:
    for m in t.getmembers():
        data = t.extractfile(m).read()
        if m.name == "anchor.xml":
            data = data.decode().replace("</metrics>", extra, 1).encode()
            m.size = len(data)
        o.addfile(m, io.BytesIO(data))
PY
db="$tmp/inf.cubex"
"$cs" report "$db" --metric big --metric neg --metric time --format json \
	>"$tmp/r.json" || fail "report --format json failed"
"$py" - "$tmp/r.json" <<'PY' || status=1
import json, sys
doc = json.load(open(sys.argv[1]))
names = [c["name"] for c in doc["columns"]]
bad = []
for n in doc["nodes"]:
    vals = n["values"]
    if len(vals) != len(names):
        bad.append("%s: %d values for %d columns" % (n["name"], len(vals), len(names)))
        continue
    row = dict(zip(names, vals))
    if n["kind"] != "root":
        for col, want in (("big (I)", "inf"), ("big (E)", "inf"),
                          ("neg (I)", "-inf"), ("neg (E)", "-inf")):
            if row[col] != want:
                bad.append("%s: %s is %r, not %r" % (n["name"], col, row[col], want))
    if not isinstance(row["time (I)"], float) or row["time (I)"] <= 0:
        bad.append("%s: time (I) is %r" % (n["name"], row["time (I)"]))
for b in bad:
    print("FAIL:", b)
print("checked %d nodes x %d columns" % (len(doc["nodes"]), len(names)))
sys.exit(1 if bad else 0)
PY
"$cs" report "$db" --metric big --metric neg --metric time >"$tmp/r.txt" ||
	fail "report failed"
"$cs" report "$db" --metric big --metric neg --format csv >"$tmp/r.csv" ||
	fail "report --format csv failed"
grep -q 'nan' "$tmp/r.txt" "$tmp/r.csv" && fail "report: a nan share"
grep -q ' inf ' "$tmp/r.txt" || fail "report: no inf value"
grep -q ',inf,inf,-inf,-inf$' "$tmp/r.csv" || fail "CSV: not inf,inf,-inf,-inf"
# the time column's share is still drawn beside them
grep -q '100\.0%' "$tmp/r.txt" || fail "report: the finite column lost its share"
"$cs" --headless --no-config --size 260x10 "$db" >"$tmp/screen" ||
	fail "headless viewer failed"
grep -q 'big I' "$tmp/screen" || fail "screen: no big column at 260 columns"
grep -q 'nan' "$tmp/screen" && fail "screen: a nan share"
grep -q -- '-inf' "$tmp/screen" || fail "screen: no -inf value"
exit $status
