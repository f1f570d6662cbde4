#!/bin/sh
# A 100,000-deep context tree (gen-v4db --depth-chain) works: info, report
# (text, CSV, JSON), hotpath, trace and the headless viewer (hot path,
# expand all, last row, flat view) finish quickly with bounded output, and
# every context is reported.
. "${top_srcdir:-.}/tests/test-lib.sh"
depth=100000
"$top_builddir/tests/gen-v4db" -o "$tmp/db" --depth-chain $depth --threads 1 \
	--ranks 1 --metrics 1 --samples 200 --no-cct >/dev/null || exit 1
fail=0
run() { # run WHAT OUTFILE ARGS...: callscope ARGS with a time limit
	what=$1 out=$2
	shift 2
	if ! timeout 300 "$cs" "$@" >"$out" 2>"$tmp/err"; then
		echo "FAIL: $what: exit $? $(head -c 300 "$tmp/err")"
		fail=1
	fi
}
run "info" "$tmp/info" info "$tmp/db"
grep -q "max depth $depth" "$tmp/info" || {
	echo "FAIL: info does not report max depth $depth"
	fail=1
}
run "report csv" "$tmp/csv" report "$tmp/db" --format csv
# a header, the root and every context
lines=$(wc -l <"$tmp/csv")
[ "$lines" -eq $((depth + 2)) ] || {
	echo "FAIL: report csv has $lines lines, want $((depth + 2))"
	fail=1
}
run "report text" "$tmp/text" report "$tmp/db"
# the indentation stops growing: output linear in the rows
size=$(wc -c <"$tmp/text")
[ "$size" -lt $((depth * 400)) ] || {
	echo "FAIL: report text is $size bytes"
	fail=1
}
grep -q "\[$((depth - 1))\] " "$tmp/text" || {
	echo "FAIL: report text does not show the depth of the deepest rows"
	fail=1
}
run "report json" "$tmp/json" report "$tmp/db" --format json
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert max(n['depth'] for n in d['nodes']) == int(sys.argv[2])" \
	"$tmp/json" "$depth" || {
	echo "FAIL: report json lacks the deepest context"
	fail=1
}
run "report flat" "$tmp/flat" report "$tmp/db" --view flat
run "hotpath" "$tmp/hot" hotpath "$tmp/db" --format json
run "trace --at" "$tmp/trace" trace "$tmp/db" --at +0 --format json
run "trace window" "$tmp/window" trace "$tmp/db" --from +0 --to +1s --columns 40
for keys in H EG 3EG EGT EGz "EG/main<Enter>n" "2jjjj"; do
	run "headless $keys" "$tmp/screen" --headless --no-config --size 120x30 \
		--keys "$keys" "$tmp/db"
done
run "headless H" "$tmp/screen" --headless --no-config --size 120x30 --keys H "$tmp/db"
grep -q "hot path: [0-9]* levels down" "$tmp/screen" || {
	echo "FAIL: the hot path is not reported on screen"
	fail=1
}
exit $fail
