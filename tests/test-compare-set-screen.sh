#!/bin/sh
# The viewer on three runs and more (callscope RUN... --compare): the
# runs as one set, a column per run and the statistics across them, each
# value on screen what `callscope compare` prints for the root (the run
# columns headed by the runs' short labels: test-compare-set-titles); runs whose
# directory names give parameters (app.p8.r1, app.p16.r1, ...) open as an
# Extra-P measurement set, with the model column of the fitted law (each
# run's values are the first's times p/8: a linear law in p); piped, the
# same command prints `compare`'s text; fewer than two runs are refused.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
for s in 1 1.1 0.9; do
	"$gen" -o "$tmp/run$s" --seed 9 --contexts 300 --scale $s --no-trace \
		>/dev/null || exit 1
done
set -- "$tmp/run1" "$tmp/run1.1" "$tmp/run0.9"
"$cs" --headless --no-config --size 160x12 --keys '' "$@" --compare \
	>"$tmp/s1" || fail "set: exit $?"
grep -q 'run1 I.*run1.1 I.*run0.9 I.*median I' "$tmp/s1" ||
	fail "set: no run and statistic columns: $(sed -n 3p "$tmp/s1")"
"$cs" compare "$@" --format csv --depth 0 >"$tmp/c.csv" || exit 1
"$py" - "$tmp/c.csv" "$tmp/s1" <<'PY' || fail "set: the root's values"
import csv, re, sys
row = list(csv.DictReader(open(sys.argv[1])))[0]
line = [l for l in open(sys.argv[2]) if '<program root>' in l][0]
cells = re.findall(r'([0-9.]+) (ms|s)\b', line)
got = [float(v) * (1e-3 if u == 'ms' else 1) for v, u in cells][:4]
want = [float(row[f'CPUTIME (sec):{c} (I)'])
        for c in ('run 1', 'run 2', 'run 3', 'min')]
bad = [(g, w) for g, w in zip(got, want) if abs(g - w) > 0.0006 * w]
sys.exit(1 if bad or len(got) < 4 else 0)
PY

# directory names with parameters: a measurement set with models
for p in 8 16 24; do
	"$gen" -o "$tmp/app.p$p.r1" --seed 9 --contexts 300 \
		--scale "$(echo "$p" | awk '{print $1 / 8}')" --no-trace >/dev/null ||
		exit 1
done
"$cs" --headless --no-config --size 120x12 --keys '' "$tmp/app.p8.r1" \
	"$tmp/app.p16.r1" "$tmp/app.p24.r1" --compare >"$tmp/s2" ||
	fail "set with parameters: exit $?"
grep -q 'Model of CPUTIME (sec)' "$tmp/s2" || fail "set with parameters: no model column"
grep -q '0\.1189\*p' "$tmp/s2" || fail "set with parameters: not the law 0.1189*p: $(sed -n 4p "$tmp/s2")"

# piped: compare's text; one run: refused
"$cs" "$@" --compare </dev/null >"$tmp/p" 2>&1 || fail "piped: exit $?"
grep -q 'median' "$tmp/p" || fail "piped: not compare's text"
"$cs" "$tmp/run1" --compare >"$tmp/o" 2>&1
[ $? -eq 1 ] && grep -q 'expects two databases or more' "$tmp/o" ||
	fail "one run: not refused: $(cat "$tmp/o")"
exit $status
