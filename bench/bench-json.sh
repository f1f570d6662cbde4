#!/bin/sh
# Benchmark of the full JSON report (issue 28): `callscope report --format
# json` with every context of a 196,000-context generated HPCToolkit
# database (gen-v4db --seed 5 --contexts 196000, no trace), old binary
# against new in one run, their outputs compared byte for byte; beside it
# the 3.1-million-context `report --depth 3` (target <= 1.0 s) when
# bench/make-big-db.sh's contexts-3m is in DIR.  Target: the full JSON
# report >= 100 times faster than HPCToolkit's own Python reader
# (hpctesttool's Database.from_dir, which only reads the database into
# objects): set HPCTESTTOOL to a directory holding its `hpctesttool`
# package to time it (not installable here; doc/PERFORMANCE.md says how
# it was measured).
# usage: bench/bench-json.sh OLD_BIN NEW_BIN [DIR]   (DIR default bench/out;
# RUNS default 5; PYTHON default /usr/bin/python3)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
bench_old_new 16 "$@"
py=${PYTHON:-/usr/bin/python3}
db="$out/contexts-196k"
[ -f "$db/profile.db" ] ||
	"$gen" -o "$db" --seed 5 --contexts 196000 --no-trace >/dev/null
bench_tmp
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
bench_machine load
echo "database: $db ($(du -sh "$db" | cut -f1))"
cat "$db"/*.db >/dev/null # warm the page cache
"$old" report --format json "$db" >"$tmp/old.json"
"$new" report --format json "$db" >"$tmp/new.json"
if cmp -s "$tmp/old.json" "$tmp/new.json"; then
	echo "outputs: identical ($(wc -c <"$tmp/new.json") bytes)"
else
	echo "outputs: DIFFER"
	status=1
fi
# old and new interleaved, so that both see the same load
$m --label "old: full report --format json" -- "$old" report --format json "$db"
$m --label "new: full report --format json" -- "$new" report --format json "$db"
$m --label "old: again" -- "$old" report --format json "$db"
$m --label "new: again" -- "$new" report --format json "$db"
# CPU time, which a loaded machine disturbs less than wall time
for b in old new; do
	eval bin=\$$b
	/usr/bin/time -f "$b: full report --format json, CPU %U s user + %S s system" \
		"$bin" report --format json "$db" >/dev/null
done
big="$out/contexts-3m"
if [ -f "$big/profile.db" ]; then
	cat "$big"/*.db >/dev/null
	$m --label "old: 3M report --depth 3" -- "$old" report --depth 3 "$big"
	$m --label "new: 3M report --depth 3" -- "$new" report --depth 3 "$big"
	$m --label "old: 3M report --depth 3 json" -- "$old" report --depth 3 --format json "$big"
	$m --label "new: 3M report --depth 3 json" -- "$new" report --depth 3 --format json "$big"
fi
if [ -n "${HPCTESTTOOL:-}" ]; then
	"$py" - "$HPCTESTTOOL" "$db" <<'PY'
import resource, sys, time
from pathlib import Path
sys.setrecursionlimit(1000000)
sys.path.insert(0, sys.argv[1])
from hpctesttool.formats.v4 import Database
t = time.perf_counter()
db = Database.from_dir(Path(sys.argv[2]))
n = len(db.meta.context_map)
wall = time.perf_counter() - t
ru = resource.getrusage(resource.RUSAGE_SELF)
print("hpctesttool Database.from_dir: %.1f s, CPU %.1f s user + %.1f s system"
      " (%d contexts, %d profiles)" % (wall, ru.ru_utime, ru.ru_stime, n,
                                       len(db.profile.ProfileInfos.profiles)))
PY
fi
exit ${status:-0}
