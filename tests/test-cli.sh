#!/bin/sh
# The batch command line: exit statuses, usage errors, every output format
# on generated databases checked against the generator's independent
# answers (values, hot paths, flat functions, trace probes), the
# no-argument demo, and quiet ends on a closed pipe.
. "${top_srcdir:-.}/tests/test-lib.sh"

expect() { # STATUS CMD...: run, check the exit status
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq "$want" ] || fail "$* -> exit $rc (want $want): $(head -c 300 "$tmp/err")"
}

# generated databases: several shapes, each against its answers
i=0
for opts in "--seed 1" "--seed 2 --yaml --threads 3 --ranks 3" \
	"--seed 3 --no-cct --contexts 50" "--seed 4 --empty-lines 1 --metrics 3" \
	"--seed 5 --contexts 2000 --fanout 7"; do
	i=$((i + 1))
	db="$tmp/db$i"
	# shellcheck disable=SC2086
	"$gen" -o "$db" $opts --answers "$db.json" >/dev/null || { fail "gen $opts"; continue; }
	python3 "$top_srcdir/tests/check_v4_answers.py" "$cs" "$db" "$db.json" || fail "answers for $opts"
done
db="$tmp/db2"

# usage errors: exit 1
expect 1 "$cs" report
# several databases are one run only where the format merges them: a
# second operand is a database too, and v4 says it reads one at a time
expect 2 "$cs" report "$db" extra
grep -q "^callscope: extra: No such file or directory$" "$tmp/err" || fail "report DB extra"
expect 1 "$cs" report "$db" --format xml
expect 1 "$cs" report "$db" --view sideways
expect 1 "$cs" report "$db" --depth -1
expect 1 "$cs" report "$db" --metric "no such metric"
expect 1 "$cs" hotpath "$db" --threshold 101
expect 1 "$cs" trace "$db"
expect 1 "$cs" trace "$db" --at 5 --from 1 --to 9 --columns 3
expect 1 "$cs" trace "$db" --from 9 --to 1 --columns 3
expect 1 "$cs" trace "$db" --at 5 --lines 0-999
expect 1 "$cs" trace "$db" --at soon
"$gen" -o "$tmp/lines60" --ranks 6 --threads 10 --samples 20 --contexts 40 --no-cct >/dev/null
expect 1 "$cs" trace "$tmp/lines60" --from +0s --to +1s --columns 1000000
expect 0 "$cs" trace "$tmp/lines60" --from +0s --to +1s --columns 1000 --format json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['lines']) == 60 and all(len(l['cells']) == 1000 for l in d['lines'])" "$tmp/out" ||
	fail "streamed trace JSON"
expect 1 "$cs" info
grep -q "callscope info: expected a database" "$tmp/err" || fail "info without a database"
expect 2 "$cs" info "$db" "$db"
grep -q "hpctoolkit-v4 reads one database at a time (2 paths were given)" "$tmp/err" || fail "info DB DB"
expect 0 "$cs" formats
grep -q "^  hpctoolkit-v4 " "$tmp/out" && grep -q "^  hpctoolkit-xml " "$tmp/out" || fail "formats"
expect 0 "$cs" formats --format json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [f['name'] for f in d] == ['hpctoolkit-v4', 'hpctoolkit-xml', 'cube', 'rocpd', 'dcpi', 'nsight', 'extrap-text', 'extrap-talpas', 'extrap-json', 'extrap-jsonl', 'extrap-cubeset', 'extrap-nsight', 'extrap-prof', 'extrap-experiment', 'extrap3', 'otf2'] and 'tree' in d[0]['capabilities']" "$tmp/out" || fail "formats --format json"
expect 1 "$cs" formats extra
expect 0 "$cs" --help
grep -q "^  hpctoolkit-v4 " "$tmp/out" || fail "--help lists the formats"
mkdir "$tmp/empty" || exit 1
expect 2 "$cs" info "$tmp/empty"
grep -q "not a database callscope recognises (\`callscope formats\` lists the formats it reads)" "$tmp/err" || fail "not a database points to callscope formats"
# a directory of databases (db1 ... db5) is a set, not one: the reader
# that knows their files says so (the others name no HPCToolkit file)
expect 2 "$cs" info "$tmp"
grep -q "not a database callscope recognises (tried as hpctoolkit-v4: the directory holds HPCToolkit databases one level down (db1/), not one: open one of them; \`callscope formats\` lists the formats it reads)" "$tmp/err" || fail "a set of databases"
# a directory a reader only guesses at from its names (subdirectories like
# an Extra-P Cube set's, a file like a rocpd directory's) is not a database
# callscope recognises either; it said "no Cube files (DIR/*/*.cubex)"
mkdir -p "$tmp/guess1/run.x1" "$tmp/guess1/run.x2" "$tmp/guess2/sub" &&
	echo text >"$tmp/guess2/readme.txt"
for g in guess1 guess2; do
	expect 2 "$cs" "$tmp/$g"
	grep -q "^callscope: $tmp/$g: not a database callscope recognises (tried as [a-z0-9-]*: .*callscope formats" "$tmp/err" ||
		{ fail "$g: not a database callscope recognises"; cat "$tmp/err"; }
done
expect 1 "$cs" info "$db" --format csv
grep -q "unknown --format 'csv' (expected text|json)" "$tmp/err" || fail "info --format csv"
expect 0 "$cs" info "$db" --format json
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out" || fail "info --format json"
expect 0 "$cs" info --help
expect 1 "$cs" fetch
grep -q "callscope fetch: expected one URL" "$tmp/err" || fail "fetch without a URL"
expect 1 "$cs" fetch --format json http://localhost/x
expect 1 "$cs" cache
grep -q "callscope cache: expected list, clear or dir" "$tmp/err" || fail "cache without a verb"
expect 1 "$cs" cache --output /tmp dir
expect 1 "$cs" --bogus
expect 0 "$cs" --help
grep -q "callscope report" "$tmp/out" || fail "--help lists the commands"
expect 0 "$cs" --version

# unreadable databases: exit 2 with one line naming the path
expect 2 "$cs" info "$tmp/nothing-here"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "nothing-here" "$tmp/err" || fail "missing db message: $(cat "$tmp/err")"
mkdir "$tmp/empty"
expect 2 "$cs" report "$tmp/empty"
"$gen" -o "$tmp/notrace" --no-trace --contexts 30 >/dev/null
expect 2 "$cs" trace "$tmp/notrace" --at 0

# every format and view runs; text output carries no control characters
for view in top-down bottom-up flat; do
	for fmt in text csv json; do
		expect 0 "$cs" report "$db" --view $view --format $fmt
		if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/out"; then
			fail "control characters in report --view $view --format $fmt"
		fi
	done
done
expect 0 "$cs" report "$db" --format json --depth 2 --min-percent 5
python3 - "$tmp/out" <<'PY' || fail "--depth/--min-percent"
import json, sys
d = json.load(open(sys.argv[1]))
assert max(n["depth"] for n in d["nodes"]) <= 2, "depth"
total = d["nodes"][0]["values"][0]
for n in d["nodes"][1:]:
    assert n["values"][0] is not None and n["values"][0] >= 0.05 * total, n
PY
expect 0 "$cs" info "$db" --format json
expect 0 "$cs" trace "$db" --from +0s --to +1ms --columns 40 --depth 1 --format json
python3 - "$tmp/out" <<'PY' || fail "trace window shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["lines"] and all(len(l["cells"]) == 40 for l in d["lines"])
PY
expect 0 "$cs" trace "$db" --at +500us --lines 0,2

# a closed pipe ends the program quietly
"$gen" -o "$tmp/wide" --contexts 20000 --no-trace >/dev/null
"$cs" report "$tmp/wide" 2>"$tmp/err" | head -3 >/dev/null
[ -s "$tmp/err" ] && fail "report | head wrote to stderr: $(cat "$tmp/err")"

# reader options: one no reader takes, a key the GPU readers do not know,
# are usage errors naming them; one for another reader is not this
# database's business; the viewer's :set kernel-names asks the reader
for o in nosuch:key=1 gpu:nosuch=1; do
	"$cs" --option "$o" info "$db" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "'nosuch'" "$tmp/err" ||
		fail "--option $o: exit $rc, $(cat "$tmp/err")"
done
expect 0 "$cs" --option gpu:kernel-names=base --option dcpi:image-path=/x info "$db"
"$cs" --headless --no-config --size 100x24 \
	--keys ':set kernel-names base<Enter>' "$db" >"$tmp/out" 2>&1
grep -q 'set kernel-names: hpctoolkit-v4 databases take no kernel-names' "$tmp/out" ||
	fail ":set kernel-names on HPCToolkit: $(tail -1 "$tmp/out")"

# no argument: the demo, announced as such
CALLSCOPE_DEMO="$db" "$cs" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "demo" "$tmp/err" && grep -q "program root" "$tmp/out" ||
	fail "no-argument demo: exit $rc, $(cat "$tmp/err")"
exit $status
