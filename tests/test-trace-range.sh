#!/bin/sh
# The trace's time range as `info` prints it, and `trace` at its edges
# (issue 19): a trace whose lines are all empty has no range (null in JSON,
# "no samples" in text), and every time `info` prints is accepted back by
# `trace --at`, `--from` and `--to`.  Before the first sample of a line,
# `--at` gives context 0 with a null time, as the window form's cells do.
. "${top_srcdir:-.}/tests/test-lib.sh"

# all lines empty: the generator writes hpcprof's INT64_MAX .. INT64_MIN
"$gen" -o "$tmp/empty" --threads 2 --ranks 2 --trace-lines 3 --empty-lines 3 \
	--contexts 30 >/dev/null || exit 1
"$cs" info "$tmp/empty" --format json >"$tmp/info.json" 2>"$tmp/err" ||
	fail "info --format json on an empty trace: $(cat "$tmp/err")"
python3 - "$tmp/info.json" <<'PY' || fail "empty trace range in JSON"
import json, sys
t = json.load(open(sys.argv[1]))["trace"]
assert t["lines"] == 3 and t["samples"] == 0, t
assert t["min"] is None and t["max"] is None, (t["min"], t["max"])
PY
"$cs" info "$tmp/empty" >"$tmp/info.txt" 2>"$tmp/err"
grep -q "^Trace: *3 lines, no samples$" "$tmp/info.txt" ||
	fail "empty trace in text: $(grep Trace "$tmp/info.txt")"
grep -q "922337203685477580" "$tmp/info.txt" "$tmp/info.json" &&
	fail "empty trace prints hpcprof's placeholder times"
# --at on an empty trace: every line without a sample yet
"$cs" trace "$tmp/empty" --at +0 --format json >"$tmp/at.json" 2>"$tmp/err" ||
	fail "trace --at +0 on an empty trace: $(cat "$tmp/err")"
python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["lines"]; assert len(l) == 3 and all(x["ctx"] == 0 and x["time"] is None for x in l), l' \
	"$tmp/at.json" || fail "trace --at on an empty trace: not context 0"

# every time info prints (JSON and text) goes back into trace
roundtrip() { # NAME DB
	"$cs" info "$2" --format json >"$tmp/i.json" 2>/dev/null || {
		fail "$1: info --format json"
		return
	}
	"$cs" info "$2" >"$tmp/i.txt" 2>/dev/null
	times=$(python3 - "$tmp/i.json" "$tmp/i.txt" <<'PY'
import json, re, sys
t = json.load(open(sys.argv[1]))["trace"]
out = [t["min"], t["max"]] if t["min"] is not None else []
m = re.search(r"\((\d+) \.\. (\d+) ns\)", open(sys.argv[2]).read())
if m:
    out += [int(m.group(1)), int(m.group(2))]
print(" ".join(str(v) for v in out))
PY
)
	[ -n "$times" ] || { fail "$1: info prints no time range"; return; }
	set -- "$1" "$2" $times
	name=$1 db=$2
	shift 2
	lo=$1 hi=$2
	for t in "$@"; do
		"$cs" trace "$db" --at "$t" >/dev/null 2>"$tmp/err" ||
			fail "$name: trace --at $t (printed by info): $(cat "$tmp/err")"
	done
	"$cs" trace "$db" --from "$lo" --to "$hi" --columns 4 --format json \
		>/dev/null 2>"$tmp/err" ||
		fail "$name: trace --from $lo --to $hi: $(cat "$tmp/err")"
}
"$gen" -o "$tmp/full" --seed 7 --contexts 60 --samples 50 >/dev/null || exit 1
roundtrip full "$tmp/full"
# one sample per line at the same time: min = max
"$gen" -o "$tmp/one" --seed 8 --contexts 20 --samples 1 --trace-lines 1 \
	>/dev/null || exit 1
roundtrip one-sample "$tmp/one"

# "no sample yet": --at and the window's cells agree at every time, also
# before a line's first sample (context 0; --at's time is null there)
python3 - "$cs" "$tmp/full" <<'PY' || fail "--at and window cells disagree"
import json, subprocess, sys
cs, db = sys.argv[1:3]
def run(*a):
    return json.loads(subprocess.run([cs, *a], capture_output=True,
                                     check=True).stdout)
t = run("info", db, "--format", "json")["trace"]
before = 0
for when in (t["min"] - 1, t["min"], (t["min"] + t["max"]) // 2, t["max"]):
    at = run("trace", db, "--at", str(when), "--format", "json")["lines"]
    win = run("trace", db, "--from", str(when), "--to", str(when),
              "--columns", "1", "--format", "json")["lines"]
    for a, w in zip(at, win):
        assert a["ctx"] == w["cells"][0], (when, a, w)
        if a["time"] is None:
            before += 1
            assert a["ctx"] == 0 and a["path"] == [], a
        else:
            assert a["time"] <= when, a
assert before >= len(at), "no line was probed before its first sample"
PY
"$cs" trace "$tmp/full" --at 1 >"$tmp/at.txt" 2>&1
grep -q "t=-  ctx=0  (before the first sample)" "$tmp/at.txt" ||
	fail "trace --at before the first sample (text): $(head -2 "$tmp/at.txt")"

# the real database with empty trace lines (hpcprof's header)
dx="$top_srcdir/../shared/corpus/hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/d.x"
if [ -d "$dx" ]; then
	"$cs" info "$dx" --format json >"$tmp/dx.json" 2>/dev/null
	python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["trace"]; assert t["min"] is None and t["max"] is None, t' \
		"$tmp/dx.json" || fail "metadb/d.x: empty trace range not null"
fi
exit $status
