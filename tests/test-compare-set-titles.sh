#!/bin/sh
# test-compare-set-titles: the run columns of the viewer on three runs and
# more (callscope RUN... --compare) are headed by the runs' short labels
# (compare/runset_label.h), at 80x24 and 200x50: runs in
# build-alpha, build-beta, build-gamma read "alpha I", "beta I", "gamma I",
# each over the values `callscope compare` gives that run (the root's, by
# the run's place on the command line), the statistics after them; an
# Extra-P set (kripke.p16, kripke.p32, kripke.p64: models) "p16 I",
# "p32 I" after the model's columns at 80 columns, all three at 200; labels
# sharing a start (solver.d, solver.nostruct.d) stay apart when cut to fit
# (their start and end around an ellipsis); a label with an escape
# character in it reaches the screen without it.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${top_builddir:-$top}
cs="$bin/callscope"
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"
status=0
gen() { "$bin/tests/gen-v4db" -o "$tmp/$1" --seed 9 --contexts 300 --scale "$2" --no-trace >/dev/null; }
gen build-alpha 1
gen build-beta 2
gen build-gamma 4
gen kripke.p16 1
gen kripke.p32 2
gen kripke.p64 4
gen solver.d 1
gen solver.nostruct.d 1.5
gen small.d 0.5
esc=$(printf '\033')
gen "a${esc}b" 1
gen "c${esc}d" 2

# check SCREEN WIDTH CSV WANT SHOWN STATS: the header's first SHOWN titles are
# the runs' labels in order (WANT, comma-separated, or cut in their
# middle to fit), each over that run's root value in CSV (`callscope
# compare --format csv --depth 0`); "min" and "median" follow when every
# run is shown and STATS is 1 (an Extra-P set shows no statistics)
check() {
	"$py" - "$@" <<'PY'
import csv, re, sys
screen, width, csvf = sys.argv[1], int(sys.argv[2]), sys.argv[3]
want = sys.argv[4].split(",")[:int(sys.argv[5])]
every = len(want) == len(sys.argv[4].split(",")) and sys.argv[6] == "1"
lines = open(screen, encoding="utf-8").read().split("\n")
assert all(len(l) <= width for l in lines), "a line wider than the screen"
head = lines[2]
cells = re.findall(r"(\S+(?: \S+)*?) I(?:\u25bc|\u25b2)?(?=\s|$)", head)
titles = cells[:len(want)]
ell = "\u2026"
for t, w in zip(titles, want):
    if t == w:
        continue
    assert ell in t, "title %r is not the label %r" % (t, w)
    a, b = t.split(ell)
    assert w.startswith(a) and w.endswith(b) and len(a) + len(b) < len(w), (t, w)
assert len(set(titles)) == len(titles), "titles not apart: %r" % titles
assert len(titles) == len(want), "titles %r, want %r" % (titles, want)
assert not every or cells[len(want):len(want) + 2] == ["min", "median"], cells
row = list(csv.DictReader(open(csvf)))[0]
root = [l for l in lines if "<program root>" in l][0]
vals = re.findall(r"([0-9.]+) (ms|s)\b", root)[:len(want)]
got = [float(v) * (1e-3 if u == "ms" else 1) for v, u in vals]
for r, g in enumerate(got):
    w = float(row["CPUTIME (sec):run %d (I)" % (r + 1)])
    assert abs(g - w) <= 0.0006 * w, "run %d (%s): %g on screen, %g" % (r + 1, want[r], g, w)
print("%s: %s over their runs' values" % (screen.rsplit("/", 1)[-1], " ".join(titles)))
PY
}

# screen NAME SIZE RUN...: the viewer's screen on the runs into $tmp/NAME
screen() {
	out=$1 sz=$2
	shift 2
	"$cs" --headless --no-config --size "$sz" --keys '' "$@" --compare \
		>"$tmp/$out" || { echo "FAIL: $out: exit $?"; exit 1; }
}
# one: NAME SIZE LABELS SHOWN STATS RUN...
one() {
	n=$1 size=$2 labels=$3 shown=$4 stats=$5
	shift 5
	"$cs" compare "$@" --format csv --depth 0 >"$tmp/$n.csv"
	screen "$n$size" "$size" "$@"
	check "$tmp/$n$size" "${size%x*}" "$tmp/$n.csv" "$labels" "$shown" "$stats" ||
		{ status=1; echo "FAIL: $n at $size:"; sed -n 3,4p "$tmp/$n$size"; }
}
b="$tmp/build"
one b 80x24 alpha,beta,gamma 3 1 "$b-alpha" "$b-beta" "$b-gamma"
one b 200x50 alpha,beta,gamma 3 1 "$b-alpha" "$b-beta" "$b-gamma"
grep -q 'mean I.*max I.*runs I' "$tmp/b200x50" ||
	{ status=1; echo "FAIL: 200x50: the statistics: $(sed -n 3p "$tmp/b200x50")"; }
k="$tmp/kripke"
one k 80x24 p16,p32,p64 2 0 "$k.p16" "$k.p32" "$k.p64"
one k 200x50 p16,p32,p64 3 0 "$k.p16" "$k.p32" "$k.p64"
grep -q 'Model of CPUTIME' "$tmp/k200x50" ||
	{ status=1; echo "FAIL: kripke: not a measurement set"; }

for size in 80x24 200x50; do
	one s $size solver,solver.nostruct,small 3 1 "$tmp/solver.d" \
		"$tmp/solver.nostruct.d" "$tmp/small.d"
done
grep -q 'sol.*ct I' "$tmp/s80x24" ||
	{ status=1; echo "FAIL: 80x24: solver.nostruct not cut in its middle"; }

screen e 80x24 "$tmp/a${esc}b" "$tmp/c${esc}d" "$b-alpha"
! grep -q "$esc" "$tmp/e" || { status=1; echo "FAIL: an escape on screen"; }
exit $status
