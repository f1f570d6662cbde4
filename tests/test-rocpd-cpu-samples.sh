#!/bin/sh
# rocprof-sys CPU samples (issue 29, GPU runs): rocprof-sys writes each
# as a region per stack frame plus a rocpd_sample of the same event; the
# viewer shows the regions and not, besides them, an instant per sample.
# A database from rocprofiler-systems' own schema SQL
# (tests/gen_rocprof_sys.py, which also writes what a reader must show),
# exported as a Chrome trace and read back with Python's json: every
# interval once, the one real mark (a sample with an event of its own) as
# the only instant.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
cs="$top_builddir/callscope"
schema="$top_srcdir/../shared/corpus/rocpd-schema/rocm-systems@2025-08-09/projects/rocprofiler-systems/source/lib/core/rocpd/data_storage/schema"
[ -f "$schema/rocpd_tables.sql" ] || { echo "no rocprofiler-systems schema: skipped"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
"$py" "$top_srcdir/tests/gen_rocprof_sys.py" "$schema" "$tmp/sys.db" "$tmp/want.json" || exit 99
"$cs" export "$tmp/sys.db" --to chrome-trace -o "$tmp/trace.json" 2>"$tmp/err" ||
	{ echo "FAIL: export: $(cat "$tmp/err")"; exit 1; }
"$py" - "$tmp/trace.json" "$tmp/want.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
ev = d["traceEvents"] if isinstance(d, dict) else d
# Chrome trace times are microseconds from the run's first event
us = lambda t: (t - want["origin"]) / 1000.0
got_i = sorted((e["name"], round(e["ts"], 3)) for e in ev if e.get("ph") in ("i", "I"))
want_i = sorted((n, round(us(t), 3)) for n, t in want["instants"])
got_x = sorted((e["name"], round(e["ts"], 3), round(e["dur"], 3)) for e in ev if e.get("ph") == "X")
want_x = sorted((n, round(us(s), 3), round((e - s) / 1000.0, 3)) for n, s, e in want["intervals"])
bad = 0
if got_i != want_i:
    print("FAIL: instants %s, want %s" % (got_i, want_i)); bad = 1
else:
    print("ok: the only instant is the mark: %s" % got_i)
if got_x != want_x:
    print("FAIL: intervals %s, want %s" % (got_x, want_x)); bad = 1
else:
    print("ok: %d intervals, each CPU sample's frames once" % len(got_x))
sys.exit(bad)
PY
