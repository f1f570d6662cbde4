#!/bin/sh
# test-diff-v4: `callscope diff` and `callscope check` on gen-v4db
# databases against the truth tests/diff_v4_check.py computes from the
# generator's answers files (never from a reader): two trees with shared
# and private parts (different --contexts), the same tree with other
# values (--threads), a database with itself (every status both, every
# delta 0); then check's exit codes: 0 on identical runs, 1 on the
# planted regressions (the list equal to the truth's), 0 when the
# threshold is above every change, 2 on an unreadable run; and the
# markdown and junit forms carry the same count.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${top_builddir:-$top}
. "${top_srcdir:-.}/tests/test-lib.sh"
chk="$top/tests/diff_v4_check.py"
gen_run a --seed 11 --contexts 200 --threads 2
gen_run b --seed 11 --contexts 260 --threads 3
gen_run c --seed 11 --contexts 200 --threads 4
for p in "a b" "b a" "a c" "a a"; do
	set -- $p
	"$cs" diff "$tmp/$1" "$tmp/$2" --metric 'CPUTIME (sec)' --format json >"$tmp/d.json"
	$py "$chk" diff "$tmp/$1.json" "$tmp/$2.json" "$tmp/d.json"
done
# a database with itself: every node both, every delta 0
"$cs" diff "$tmp/a" "$tmp/a" --format json >"$tmp/d.json"
$py - "$tmp/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
deltas = [i for i, c in enumerate(d["columns"]) if c.get("role") == "delta"]
assert deltas, "no delta column"
for n in d["nodes"]:
    assert n["status"] == "both", n
    for i in deltas:
        assert n["values"][i] in (None, 0), n
print("self: %d nodes, all both, all deltas 0" % len(d["nodes"]))
PY
# check: exit codes and the regressions
rc=0; "$cs" check "$tmp/a" "$tmp/a" >"$tmp/out" || rc=$?
[ $rc = 0 ] || { echo "FAIL: check of identical runs exits $rc"; exit 1; }
grep -q '^OK: 0 of' "$tmp/out" || { echo "FAIL: identical runs: $(cat "$tmp/out")"; exit 1; }
rc=0; "$cs" check "$tmp/a" "$tmp/c" --format json >"$tmp/k.json" || rc=$?
[ $rc = 1 ] || { echo "FAIL: check of planted regressions exits $rc"; exit 1; }
rc=0; $py "$chk" check "$tmp/a.json" "$tmp/c.json" "$tmp/k.json" 5 1 || rc=$?
[ $rc = 10 ] || { echo "FAIL: the truth finds no regression ($rc)"; exit 1; }
rc=0; "$cs" check "$tmp/a" "$tmp/b" --threshold 20% --min-share 2 --format json >"$tmp/k.json" || rc=$?
want=0; $py "$chk" check "$tmp/a.json" "$tmp/b.json" "$tmp/k.json" 20 2 || want=1
[ $rc = $want ] || { echo "FAIL: check a b exits $rc, want $want"; exit 1; }
rc=0; "$cs" check "$tmp/a" "$tmp/c" --threshold 1000000 >"$tmp/out" || rc=$?
[ $rc = 0 ] || { echo "FAIL: threshold above every change exits $rc"; exit 1; }
rc=0; "$cs" check "$tmp/a" "$tmp/nonexistent" >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: unreadable run exits $rc"; exit 1; }
rc=0; "$cs" check "$tmp/a" "$tmp/c" --metric NOPE >/dev/null 2>"$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q "no metric 'NOPE'" "$tmp/err" || { echo "FAIL: unknown metric: $rc $(cat "$tmp/err")"; exit 1; }
n=$($py -c "import json,sys; print(len(json.load(open(sys.argv[1]))['regressions']))" "$tmp/k.json" 2>/dev/null || echo 0)
"$cs" check "$tmp/a" "$tmp/c" --format json >"$tmp/k.json" || true
n=$($py -c "import json,sys; print(len(json.load(open(sys.argv[1]))['regressions']))" "$tmp/k.json")
"$cs" check "$tmp/a" "$tmp/c" --format junit >"$tmp/j.xml" || true
$py - "$tmp/j.xml" "$n" <<'PY'
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot()
assert int(s.get("failures")) == int(sys.argv[2]) == len(s.findall(".//failure")), s.attrib
PY
"$cs" check "$tmp/a" "$tmp/c" --format markdown >"$tmp/m.md" || true
[ "$(grep -c '^| [+]' "$tmp/m.md")" = "$n" ] || { echo "FAIL: markdown rows"; cat "$tmp/m.md"; exit 1; }
echo "check: exit codes 0/1/0/2/2, $n regressions in json, junit and markdown"
# hostile names (escape sequences, controls, invalid UTF-8, 10,000
# characters): no escape reaches the output, JSON and JUnit stay valid
"$bin/tests/gen-v4db" -o "$tmp/h1" --no-trace --seed 4 --contexts 300 --hostile >/dev/null
"$bin/tests/gen-v4db" -o "$tmp/h2" --no-trace --seed 5 --contexts 300 --hostile >/dev/null
esc=$(printf '\033')
for f in text csv json; do
	"$cs" diff "$tmp/h1" "$tmp/h2" --format $f >"$tmp/h.$f"
	! grep -q "$esc" "$tmp/h.$f" || { echo "FAIL: an escape in diff --format $f"; exit 1; }
done
for f in text json markdown junit; do
	rc=0; "$cs" check "$tmp/h1" "$tmp/h2" --metric 0 --min-share 0 --format $f >"$tmp/h.c$f" || rc=$?
	[ $rc -le 1 ] || { echo "FAIL: check --format $f on hostile names exits $rc"; exit 1; }
	! grep -q "$esc" "$tmp/h.c$f" || { echo "FAIL: an escape in check --format $f"; exit 1; }
done
$py - "$tmp/h.json" "$tmp/h.cjson" "$tmp/h.cjunit" <<'PY'
import json, sys, xml.etree.ElementTree as ET
json.load(open(sys.argv[1])); json.load(open(sys.argv[2])); ET.parse(sys.argv[3])
PY
echo "hostile names: no escapes; JSON and JUnit parse"
