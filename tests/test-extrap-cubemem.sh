#!/bin/sh
# A Cube set's memory (review finding 9), files from tests/gen_cube.py
# --sparse-set: (1) 20000 call nodes x 2000 locations with rows for four
# nodes only: the reader kept call nodes x locations doubles per file
# (320 MB, peak 337 MB) where the data is four rows; now one row of
# locations at a time (peak 24 MB in a release build).  (2) a chain of
# 20000 call nodes: each callpath was kept twice in full, O(depth^2)
# bytes (2.4 GB); now a child's callpath is its parent's plus one name,
# and a call tree whose callpaths exceed 64 MiB is refused with one line.
# Peak memory is measured with getrusage and must stay under 200 MB
# (room for a sanitizer build).
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v python3 >/dev/null 2>&1 || exit 77
gen="$top_srcdir/tests/gen_cube.py"
mkdir -p "$tmp/wide/s.p1" "$tmp/wide/s.p2" "$tmp/deep/s.p1" "$tmp/deep/s.p2"
python3 "$gen" "$tmp/wide/s.p1/a.cubex" --sparse-set --cnodes 20000 \
	--locs 2000 || exit 1
cp "$tmp/wide/s.p1/a.cubex" "$tmp/wide/s.p2/a.cubex"
python3 "$gen" "$tmp/deep/s.p1/a.cubex" --sparse-set --chain \
	--cnodes 20000 --locs 4 || exit 1
cp "$tmp/deep/s.p1/a.cubex" "$tmp/deep/s.p2/a.cubex"
python3 - "$top_builddir/callscope" "$tmp" <<'PY'
import json, resource, subprocess, sys
cs, tmp = sys.argv[1:3]
limit_kb = 200 * 1024
status = 0

def run(args):
    """exit status, stdout, stderr and the child's peak RSS in KB"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    p = subprocess.run([cs] + args, capture_output=True, text=True,
                       timeout=600)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest so far: run the small ones last
    return p.returncode, p.stdout, p.stderr, max(peak, before)

rc, out, err, peak = run(["points", "--format", "json", tmp + "/wide"])
if rc != 0 or peak > limit_kb:
    print("FAIL: wide set: exit %d, peak %d KB (limit %d)\n%s"
          % (rc, peak, limit_kb, err))
    status = 1
else:
    # f0's row: 1 + location over 2000 locations, at each point
    m = [s for s in json.loads(out)["measurements"] if s["callpath"] == "f0"]
    pts = m[0]["points"] if m else []
    if len(pts) != 2 or any(p["mean"] != 1000.5 or p["maximum"] != 2000
                            for p in pts):
        print("FAIL: wide set: f0 is not the mean of 2000 locations")
        status = 1
rc, out, err, peak = run(["info", tmp + "/deep"])
lines = err.strip().splitlines()
if rc != 2 or len(lines) != 1 or "callpaths of the call tree exceed" \
        not in err or peak > limit_kb:
    print("FAIL: deep set: exit %d, peak %d KB (limit %d), stderr:\n%s"
          % (rc, peak, limit_kb, err))
    status = 1
sys.exit(status)
PY
