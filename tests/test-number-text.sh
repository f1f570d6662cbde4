#!/bin/sh
# Numbers in CSV and JSON output are the shortest text that reads back as
# the same double (critique b11: `:export` CSV and `report --format csv`
# wrote 638.01695800000005).  On issue-233 (v4): `report --format csv` and
# `--format json` and the viewer's `:export csv` and `:export json`
# (headless); every number field reads back as the double the JSON holds
# (Python's json, which keeps the double exactly) and has the fewest
# significant digits that do (Python's repr, the shortest round trip);
# the critique's 638.016958 is written as such.
. "${top_srcdir:-.}/tests/test-lib.sh"
db="$top_srcdir/../shared/corpus/hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/issue-233"
[ -d "$db" ] || { echo "no $db: skipped"; exit 77; }
[ -x "$py" ] || py=python3
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
"$cs" report "$db" --format csv --metric all >"$tmp/r.csv" &&
	"$cs" report "$db" --format json --metric all >"$tmp/r.json" || exit 1
"$cs" --headless --no-config --size 100x30 \
	--keys ":depth 50<Enter>:export csv $tmp/e.csv<Enter>:export json $tmp/e.json<Enter>" \
	"$db" >"$tmp/screen" 2>"$tmp/err" || { echo "FAIL: viewer: $(cat "$tmp/err")"; exit 1; }
"$py" - "$tmp" <<'PY'
import csv, json, re, sys
tmp = sys.argv[1]
bad = []
def sig(t):
    m = t.lstrip("-").split("e")[0].split("E")[0].replace(".", "").lstrip("0").rstrip("0")
    return len(m)
def check_text(where, t):
    v = float(t)
    if sig(t) != sig(repr(v)):
        bad.append("%s: %s is not the shortest (%r)" % (where, t, v))
def numbers(where, path):
    rows = list(csv.reader(open(path)))
    head = rows[0]
    first = head.index("module") + 1
    n = 0
    for r in rows[1:]:
        for t in r[first:]:
            if t:
                check_text(where, t)
                n += 1
    return rows, first, n
def json_values(path):
    d = json.load(open(path))
    return [[v for v in node["values"]] for node in d["nodes"]]
seen = False
for kind in ("r", "e"):
    rows, first, n = numbers(kind + ".csv", "%s/%s.csv" % (tmp, kind))
    if n == 0:
        bad.append("%s.csv: no numbers" % kind)
    text = open("%s/%s.json" % (tmp, kind)).read()
    # every real in the JSON text is the shortest form of its double
    for t in re.findall(r'(?<=[\[,:])-?\d+\.\d+(?:e-?\d+)?(?=[,\]\}])', text):
        check_text(kind + ".json", t)
    vals = json_values("%s/%s.json" % (tmp, kind))
    if len(vals) != len(rows) - 1:
        bad.append("%s: %d JSON nodes, %d CSV rows" % (kind, len(vals), len(rows) - 1))
    for r, jv in zip(rows[1:], vals):
        for t, v in zip(r[first:], jv):
            if t and v is not None and float(t) != v:
                bad.append("%s: CSV %s, JSON %r" % (kind, t, v))
    seen = seen or "638.016958" in [t for r in rows for t in r]
    if "638.01695800000005" in text or "638.01695800000005" in open("%s/%s.csv" % (tmp, kind)).read():
        bad.append("%s: 638.01695800000005 written" % kind)
if not seen:
    bad.append("638.016958 not in the CSV")
for b in bad[:20]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
