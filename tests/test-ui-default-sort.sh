#!/bin/sh
# The column the viewer opens sorted by (critique b7): a Cube profile opens
# on "time", not on its first column "visits"; its bottom-up view on the
# exclusive time, so that its first row is the function that spends the
# most time itself (computed here from pycubexr's values in
# ../shared/expected/cube), as `perf report --no-children` ranks; `s` to
# another column still changes the sort.  A database whose first column is
# a time (smg2000: WALLCLOCK) keeps it.  Hiding the sort column in the
# chooser sorts by the default of the columns left.
. "${top_srcdir:-.}/tests/test-lib.sh"
rel=cube/pycubexr/data/blast.p64.r1/profile.cubex
db="$shared/corpus/$rel"
ref="$shared/expected/cube/$(printf '%s' "$rel" | sed 's,/,__,g').json"
[ -f "$db" ] && [ -f "$ref" ] || { echo "no ../shared corpus: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
export HOME="$tmp" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"
screen() {
	"$cs" --headless --size 200x12 --no-config --keys "$1" "$2" 2>/dev/null
}
expect() { # NAME SCREEN WANT
	printf '%s\n' "$2" | grep -qF -- "$3" || {
		echo "FAIL: $1: no '$3' in:"
		printf '%s\n' "$2"
		status=1
	}
}
# the region with the largest exclusive time summed over its call paths
top=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = {r["id"]: r["name"] for r in d["regions"]}
excl = d["values"]["time"]["total"]["excl"]
per = {}
for k, c in enumerate(d["cnodes"]):
    if isinstance(excl[k], (int, float)):
        per[names[c["region"]]] = per.get(names[c["region"]], 0) + excl[k]
print(max(per, key=per.get))' "$ref") || exit 1
s=$(screen '' "$db")
expect "top-down header" "$s" "time I▼"
s=$(screen '2' "$db")
expect "bottom-up header" "$s" "time E▼"
first=$(printf '%s\n' "$s" | grep -F '<program root>' -A1 | tail -1)
expect "bottom-up first row" "$first" "$top"
s=$(screen '3' "$db")
expect "flat header" "$s" "time I▼"
# a chosen sort stays: `s` moves from time I to the next column, time E,
# which the flat view keeps (its own default would be time I)
s=$(screen 's' "$db")
expect "s in top-down" "$s" "time E▼"
s=$(screen 's3' "$db")
expect "chosen sort in flat" "$s" "time E▼"
xml="$shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/examples/smg2000-wall-trace.db/smg2000.wall.db"
if [ -d "$xml" ]; then
	# the first column, WALLCLOCK (I), headed "WALLCLOCK I" (its unit is
	# on the values)
	before=$(screen '' "$xml" | grep -F 'Name (top-down)' | sed 's/▼.*//')
	case $before in
	*WALLCLOCK*" I") ;;
	*)
		echo "FAIL: smg2000 sorted by '$before'"
		status=1
		;;
	esac
fi
# hiding the sort column (c, Space on time (I)): the rows are sorted again
# by the default of the columns left (time (E)), marked, in its order
# (the report's time (E) of PARALLEL's children); main kept them sorted by
# the hidden column, no mark on screen, the rows reading unsorted
s=$(screen 'cjj <Esc>' "$db")
expect "hiding the sort column" "$s" "time E▼"
"$cs" report "$db" --metric 'time (E)' --depth 2 --format json >"$tmp/e.json" ||
	status=1
printf '%s\n' "$s" >"$tmp/hidden"
python3 - "$tmp/e.json" "$tmp/hidden" <<'PY' || status=1
import json, re, sys
d = json.load(open(sys.argv[1]))
par = next(n for n in d["nodes"] if n["name"] == "PARALLEL")
kids = [n for n in d["nodes"] if n["parent"] == par["id"]]
want = [n["name"] for n in sorted(kids, key=lambda n: -(n["values"][0] or 0))]
shown = [m.group(1) for l in open(sys.argv[2], encoding="utf-8")
         for m in [re.search(r"  [\u251c\u2514]\u2500. (\S+)$", l)] if m]
if not shown or shown != want[:len(shown)]:
    print("FAIL: rows after hiding the sort column: %r, want %r" %
          (shown, want[:len(shown)]))
    sys.exit(1)
PY
exit $status
