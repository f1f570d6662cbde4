#!/bin/sh
# `callscope stats`: the per-kind summary (instances, total, mean, median,
# min, max, stddev, percent) of every corpus Nsight export and .rpd file
# and of generated ones (Nsight, .rpd, rocprofv3: its kernels and copies,
# one file whose symbols share a display name) against plain SQL over the
# same file
# (tests/check_stats.py), opened cold and again from the run's index (the
# same JSON); the text output shows times in units (no exponents), --kind
# keeps one kind, an unknown kind and a database without intervals are
# refused with one line (exit 1); the viewer's summary pane (#) shows the
# same figures.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/ns" --kernels 3000 --ranks 2 \
	>/dev/null || exit 1
files="$tmp/ns/rank0.sqlite $tmp/ns/rank1.sqlite"
if [ -d "$corpus/rocpd-schema" ]; then
	"$py" "$top_srcdir/tests/gen_rocpd.py" "$tmp/roc" >/dev/null || exit 1
	# rocprofv3: two kernel symbols of one set share a display name
	# (truncated) but not their kernel_names: two kernels
	v3=$(ls "$tmp"/roc/run/*/*.db | head -n 1)
	cp "$v3" "$tmp/shared.db" || exit 1
	"$py" - "$tmp/shared.db" <<'PY' || exit 1
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for (t,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                      "AND name LIKE 'rocpd_info_kernel_symbol_%'").fetchall():
    c.execute('UPDATE "%s" SET display_name = \'reduce_sum\' WHERE '
              "display_name IN ('reduce_sum<256>', 'softmax_fwd')" % t)
c.commit()
PY
	files="$files $tmp/roc/gen.rpd $v3 $tmp/roc/merged.db $tmp/shared.db"
fi
if [ -d "$corpus" ]; then
	files="$files $(find "$corpus" -type f \( -name '*.sqlite' -o -name '*.rpd' \) -size +0 | sort)"
fi
# shellcheck disable=SC2086
"$py" "$top_srcdir/tests/check_stats.py" "$cs" $files || status=1
if [ -f "$tmp/shared.db" ]; then
	"$cs" stats --kind kernel --format csv "$tmp/shared.db" 2>/dev/null |
		cut -d, -f3 | grep -c '^_Z\(reduce_sum<256>\|softmax_fwd\)$' |
		grep -qx 2 || fail "rocpd: kernels sharing a display name merged"
	"$cs" --kernel-names base stats --kind kernel --format csv \
		"$tmp/shared.db" 2>/dev/null | grep -q '^GPU,kernels,reduce_sum,' ||
		fail "rocpd --kernel-names base"
fi
# cold (above: the index was written) and indexed opens agree; --no-cache
# reads the files again
one="$tmp/ns/rank0.sqlite"
"$cs" stats --format json "$one" >"$tmp/indexed.json" || fail "stats from the index"
"$cs" --no-cache stats --format json "$one" >"$tmp/cold.json" || fail "stats cold"
cmp -s "$tmp/indexed.json" "$tmp/cold.json" || fail "cold and indexed stats differ"
ls "$XDG_CACHE_HOME"/callscope/runs/* >/dev/null 2>&1 || fail "no run index was written"
# two exports as one run: each name's instances and total are the sums of
# the files', its minimum and maximum the extremes
"$cs" stats --format json "$tmp/ns/rank1.sqlite" >"$tmp/r1.json" || fail "stats rank1"
"$cs" stats --format json "$tmp/ns" >"$tmp/both.json" || fail "stats of a directory"
"$py" - "$tmp/indexed.json" "$tmp/r1.json" "$tmp/both.json" <<'PY' || fail "stats of two files as one run"
import json, sys
a, b, both = (json.load(open(p))["kinds"] for p in sys.argv[1:4])
def rows(kinds):
    return {(k["kind"], r["name"]): r for k in kinds for r in k["rows"]}
a, b, both = rows(a), rows(b), rows(both)
assert set(both) == set(a) | set(b), sorted(set(both) ^ (set(a) | set(b)))
for key, r in both.items():
    parts = [x[key] for x in (a, b) if key in x]
    assert r["count"] == sum(p["count"] for p in parts), key
    assert r["total"] == sum(p["total"] for p in parts), key
    assert r["min"] == min(p["min"] for p in parts), key
    assert r["max"] == max(p["max"] for p in parts), key
PY
# text: units, not exponents; the kinds' titles
"$cs" stats "$one" >"$tmp/text" || fail "stats text"
for title in "GPU kernels" "GPU memory copies" "GPU memory sets" \
	"host CUDA API" "host NVTX ranges" "host OS runtime"; do
	grep -q "^$title (" "$tmp/text" || fail "no '$title' in the text output"
done
grep -q 'e+' "$tmp/text" && fail "an exponent in the text output"
grep -q ' us ' "$tmp/text" || fail "no microseconds in the text output"
# --kind: one kind (a short name), CSV with raw nanoseconds
"$cs" stats --kind kernel --format csv "$one" >"$tmp/csv" || fail "--kind kernel"
head -n 1 "$tmp/csv" | grep -q '^group,kind,name,count,total_ns,' || fail "CSV header"
[ "$(cut -d, -f2 "$tmp/csv" | sort -u | grep -vc '^kind$')" = 1 ] ||
	fail "--kind kernel kept more than the kernels"
grep -q ',void gemm_tile<float>(float\*),' "$tmp/csv" ||
	fail "the kernels are not named by their demangled names"
"$cs" stats --kind api --format json "$one" | "$py" -c '
import json, sys
k = json.load(sys.stdin)["kinds"]
assert [x["kind"] for x in k] == ["CUDA API"], k' || fail "--kind api"
"$cs" stats --kind nonsense "$one" >/dev/null 2>"$tmp/err"
rc=$?
{ [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q 'no kind nonsense in this run (kernels' "$tmp/err"; } ||
	fail "an unknown kind: exit $rc, $(cat "$tmp/err")"
# --kernel-names base: the two instantiations are one kernel
"$cs" --kernel-names base stats --kind kernel --format csv "$one" |
	grep -q '^GPU,kernels,gemm_tile,' || fail "--kernel-names base"
# the same as a reader option, addressed to every GPU run or to Nsight's;
# addressed to rocpd's it is not this run's: the demangled names stay
for o in gpu:kernel-names=base nsight:kernel-names=base; do
	"$cs" --option "$o" stats --kind kernel --format csv "$one" |
		grep -q '^GPU,kernels,gemm_tile,' || fail "--option $o"
done
"$cs" --option rocpd:kernel-names=base stats --kind kernel --format csv "$one" |
	grep -q ',void gemm_tile<float>(float\*),' ||
	fail "--option rocpd:kernel-names=base changed an Nsight run"
# a key no GPU reader knows, a value it refuses: usage errors naming them
for o in gpu:colour=red nsight:kernel-names=short nosuch:k=v; do
	"$cs" --option "$o" stats "$one" >/dev/null 2>"$tmp/err"
	rc=$?
	{ [ $rc -eq 1 ] && grep -q "'\(colour\|short\|nosuch\)'" "$tmp/err"; } ||
		fail "--option $o: exit $rc, $(cat "$tmp/err")"
done
# the viewer's summary pane (#) at 200x50: every row of every kind shows
# the figures of `stats --format json` at the screen's precision (4
# significant digits in units, the percent to 0.1); at 80x24 the columns
# that do not fit are named in the header
"$cs" stats --format json "$one" >"$tmp/stats.json" || fail "stats json"
"$cs" --no-config --headless --size 200x50 --keys '#' "$one" >"$tmp/screen" ||
	fail "the summary pane"
"$py" - "$tmp/stats.json" "$tmp/screen" <<'PY' || fail "the summary pane's figures"
import json, sys
kinds = json.load(open(sys.argv[1]))["kinds"]
screen = open(sys.argv[2], encoding="utf-8").read().splitlines()

SCALE = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1}

def agrees(num, unit, ns):
    """num unit (as the screen shows it: at most 4 significant digits)
    is ns within half a unit of its last digit"""
    if unit not in SCALE:
        return False
    dec = len(num.split(".")[1]) if "." in num else 0
    return abs(float(num) * SCALE[unit] - ns) <= \
        0.5 * 10 ** -dec * SCALE[unit] * (1 + 1e-9)

rows = 0
for k in kinds:
    title = "%s %s: %d instance" % (k["group"], k["kind"], k["count"])
    at = [i for i, l in enumerate(screen) if l.startswith(title)]
    assert at, "no title %r" % title
    i = at[0] + 2
    for r in k["rows"]:
        if i >= len(screen) - 6:
            break  # below the screen
        cells = screen[i].replace("µs", "us").split()
        assert cells[0] == "%.1f%%" % r["percent"], (screen[i], r)
        c = 1
        for key in ("total", "count", "mean", "median", "min", "max",
                    "stddev"):
            if key == "count":
                assert cells[c] == str(r[key]), (screen[i], r)
                c += 1
            elif cells[c] == "0":
                assert r[key] == 0, (screen[i], key, r)
                c += 1
            else:
                assert agrees(cells[c], cells[c + 1], r[key]), \
                    (screen[i], key, r[key])
                c += 2
        assert screen[i].rstrip().endswith(r["name"]), (screen[i], r["name"])
        rows += 1
        i += 1
assert rows >= 10, rows
print("ok: %d rows of the summary pane equal stats --format json" % rows)
PY
"$cs" --no-config --headless --size 80x24 --keys '#' "$one" >"$tmp/screen80"
grep -q 'Summary per kind, by total  \[Min Max StdDev: wider terminal\]' \
	"$tmp/screen80" || fail "at 80x24 the hidden columns are not named"
# a database without intervals: one line, exit 1 (as listing on a
# database that is not DCPI)
v4=$(find "$corpus/hpctoolkit-v4" -name meta.db 2>/dev/null | head -n 1)
if [ -n "$v4" ]; then
	"$cs" stats "$(dirname "$v4")" >/dev/null 2>"$tmp/err"
	rc=$?
	{ [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; } ||
		fail "a database without intervals: exit $rc, $(cat "$tmp/err")"
fi
exit $status
