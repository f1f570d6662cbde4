#!/bin/sh
# :derive keeps a formula by column title, not by number (critique b3: a
# formula saved on an HPCToolkit database showed up in a Cube file as $31,
# visits over visits under the name chosen for CPU time).  Headless, one
# configuration file, two databases of different formats:
#  - :derive twice = 2 * $1 on a generated HPCToolkit database saves
#    $"CPUTIME (sec) (I)", and reopened the column holds twice the
#    generator's own inclusive CPU time (its --answers);
#  - the Cube file (tests/gen_cube.py) has no such column: twice is not
#    shown, the status line says so once, :export has no twice column;
#  - an old line by number (derive old3 = 3 * $2) still reads, there as
#    three times the report's own column 2;
#  - a $N beyond the database's columns is refused, not saved.
. "${top_srcdir:-.}/tests/test-lib.sh"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
	XDG_CACHE_HOME="$tmp/home/.cache"
conf="$XDG_CONFIG_HOME/callscope/config"
"$top_builddir/tests/gen-v4db" -o "$tmp/v4" --answers "$tmp/answers.json" \
	--seed 3 --contexts 40 --metrics 2 >/dev/null || exit 1
/usr/bin/python3 "$top_srcdir/tests/gen_cube.py" "$tmp/p.cubex" --seed 1 \
	--cnodes 40 --locs 4 >/dev/null || exit 1
view() { # DB KEYS: the screen, headless
	"$cs" --headless --size 120x30 --keys "$2" "$1" 2>"$tmp/err" ||
		fail "viewer on $1: $(cat "$tmp/err")"
}
view "$tmp/v4" ':derive twice = 2 * $1<Enter>' >"$tmp/s1"
grep -q 'derived column twice added and saved' "$tmp/s1" || fail "no save message: $(tail -1 "$tmp/s1")"
grep -qx 'derive "twice" = 2 \* \$"CPUTIME (sec) (I)"' "$conf" ||
	fail "saved by number, not by title: $(cat "$conf")"
printf 'derive old3 = 3 * $2\n' >>"$conf"
exp=':depth 50<Enter>:export csv'
view "$tmp/v4" "$exp $tmp/v4.csv<Enter>" >"$tmp/s2"
view "$tmp/p.cubex" "$exp $tmp/cube.csv<Enter>" >"$tmp/s3"
view "$tmp/p.cubex" '' >"$tmp/s4"
grep -q "derived column twice not shown: this database has no column 'CPUTIME (sec) (I)'" \
	"$tmp/s4" || fail "the Cube file does not say twice is not shown: $(tail -1 "$tmp/s4")"
"$cs" report "$tmp/p.cubex" --metric 1 --format csv >"$tmp/cube-report.csv" || fail "report"
/usr/bin/python3 - "$tmp" <<'PY' || status=1
import csv, json, sys
tmp = sys.argv[1]
ans = json.load(open(tmp + "/answers.json"))
INC = "CPUTIME (sec)|execution|$$|sum"
bad = []
def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))
v4 = list(csv.DictReader(open(tmp + "/v4.csv")))
if not v4 or "twice" not in v4[0]:
    bad.append("the HPCToolkit export has no twice column")
n = 0
for r in v4:
    s = ans["global"] if r["id"] == "0" else ans["contexts"][r["id"]]["summary"]
    if INC not in s:
        continue
    n += 1
    if r["twice"] == "" or not close(float(r["twice"]), 2 * s[INC]):
        bad.append("v4 row %s: twice %r, want %r" % (r["id"], r["twice"], 2 * s[INC]))
if n < 10:
    bad.append("only %d HPCToolkit rows checked" % n)
cube = list(csv.DictReader(open(tmp + "/cube.csv")))
if "twice" in cube[0] or "old3" not in cube[0]:
    bad.append("Cube export columns %r" % list(cube[0]))
rep = {r["id"]: r for r in csv.DictReader(open(tmp + "/cube-report.csv"))}
col = [k for k in next(iter(rep.values())) if k not in
       ("id", "parent", "depth", "kind", "name", "file", "line", "module")][0]
m = 0
for r in cube:
    v = rep[r["id"]][col]
    if v == "":
        continue
    m += 1
    if r["old3"] == "" or not close(float(r["old3"]), 3 * float(v)):
        bad.append("cube row %s: old3 %r, want 3 * %s" % (r["id"], r["old3"], v))
if m < 10:
    bad.append("only %d Cube rows checked" % m)
for b in bad[:10]:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
# a $N beyond the database's columns (the v4 database has 4: `info`) is
# refused, not added and saved as a column that is blank everywhere
# (main: "derived column nope added and saved")
ncol=$("$cs" info "$tmp/v4" --format json | /usr/bin/python3 -c \
	'import json, sys; print(len(json.load(sys.stdin)["columns"]))')
big=$((ncol + 1))
before=$(cat "$conf")
view "$tmp/v4" ":derive nope = \$$big + 1<Enter>" >"$tmp/s5"
tail -n 1 "$tmp/s5" | grep -qxF "derive nope: this database has no column '\$$big'" ||
	fail "\$$big accepted: $(tail -n 1 "$tmp/s5")"
[ "$(cat "$conf")" = "$before" ] || fail "\$$big saved: $(cat "$conf")"
exit $status
