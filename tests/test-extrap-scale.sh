#!/bin/sh
# The cost of a parametric set with many callpaths and many metrics
# (review finding 7): a JSON Lines file of N callpaths x N metrics, each
# callpath with one metric at two points.  `info` and `points` must be
# about linear in the measurements: the validation counted every
# (callpath, metric) pair, `points` searched nodes x metrics x points and
# the columns were paired in columns squared, so N = 20000 took minutes
# (over 40 s in a release build, far more under the sanitizers); now a
# fraction of a second.  The limit, 20 s each, leaves room for a loaded
# machine and a sanitizer build.
. "${top_srcdir:-.}/tests/test-lib.sh"
n=20000
limit=20
awk -v N=$n 'BEGIN {
	for (i = 0; i < N; i++)
		for (p = 1; p <= 2; p++)
			printf "{\"params\": {\"p\": %d}, \"value\": %d, " \
			       "\"callpath\": \"c%d\", \"metric\": \"m%d\"}\n",
			       p, i + p, i, i
}' >"$tmp/set.jsonl"
run() { # LABEL COMMAND...
	label=$1
	shift
	start=$(date +%s)
	if command -v timeout >/dev/null 2>&1; then
		timeout $((limit + 5)) "$@" >"$tmp/out" 2>"$tmp/err"
	else
		"$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	took=$(($(date +%s) - start))
	if [ "$rc" -ne 0 ] || [ "$took" -gt "$limit" ]; then
		echo "FAIL: $label: exit $rc after $took s (limit $limit s)"
		head -3 "$tmp/err"
		status=1
	fi
}
run "info" "$cs" info "$tmp/set.jsonl"
grep -q "Contexts: *$n " "$tmp/out" || { echo "FAIL: info: not $n contexts"; head "$tmp/out"; status=1; }
run "points" "$cs" points "$tmp/set.jsonl"
# a header per (callpath, metric), two points each
got=$(grep -c '^c[0-9]*  \[m[0-9]*\]$' "$tmp/out")
[ "$got" -eq $n ] || { echo "FAIL: points: $got series, want $n"; status=1; }
grep -q '^c19999  \[m19999\]$' "$tmp/out" || { echo "FAIL: points: the last series is missing"; status=1; }
run "points --format json" "$cs" points --format json "$tmp/set.jsonl"
# an incomplete pair among them is still found (the validation)
printf '{"params": {"p": 3}, "value": 1, "callpath": "c7", "metric": "m7"}\n' >>"$tmp/set.jsonl"
"$cs" info "$tmp/set.jsonl" >/dev/null 2>"$tmp/err"
grep -q 'callpath "c0", metric "m0": measurements at 2 of the 3 points' "$tmp/err" ||
	{ echo "FAIL: validation: want the first incomplete pair named"; cat "$tmp/err"; status=1; }
exit $status
