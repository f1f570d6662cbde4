#!/bin/sh
# Start-up benchmark (issue 28: `callscope --version` <= 5 ms, a one-line
# trace probe of a local HPCToolkit trace <= 10 ms, process included):
# two builds side by side, the median wall time and the median CPU time
# (user + system, from wait4: less disturbed by a loaded machine) of each
# command over RUNS runs (default 31), the two programs alternating run by
# run so that both see the same machine.  The commands: --version; `trace DB --at +0 --lines
# 0` on an HPCToolkit v4 database with a trace; `info` on one input of
# each format (the corpus's, and a DCPI file written by tests/gen_dcpi.py
# for the NEW program's own image).  Also the number of shared objects each
# program starts with (ldd).  Times are of a posix_spawn and wait from
# Python (its own cost, about 0.3 ms, is in both columns).
# usage: bench/bench-startup.sh OLD_CALLSCOPE NEW_CALLSCOPE [SHARED]
#        (SHARED: the folder with corpus/, default ../../shared; RUNS=N)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
old=${1:?usage: bench-startup.sh OLD_CALLSCOPE NEW_CALLSCOPE [SHARED]}
new=${2:?usage: bench-startup.sh OLD_CALLSCOPE NEW_CALLSCOPE [SHARED]}
shared=${3:-$here/../../shared}
runs=${RUNS:-31}
[ -d "$shared/corpus" ] || { echo "no $shared/corpus" >&2; exit 2; }
bench_tmp
export XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
c=$shared/corpus
# one input per format: LABEL PATH
cat >"$tmp/inputs" <<EOF
hpctoolkit-v4 $c/hpctoolkit-v4/hpctoolkit/tests/data/dbase/loops-cputime-t.d
hpctoolkit-xml $c/hpctoolkit-xml/hatchet-pr135/hatchet/tests/data/hpctoolkit-kripke-trace-database
hpctoolkit-sparse-2020 $c/hpctoolkit-sparse-2020/hpcviewer.e4/tests/resources/prof2/empty-trace
cube $c/cube/pycubexr/data/call_tree_test/call_tree_test.cubex
rocpd $c/rocpd-schema/synthetic-NOT-REAL/empty_schema_v3.db
rpd $c/rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result_large.rpd
nsight $c/nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
otf2 $c/otf2/pipit/pipit/tests/data/ping-pong-otf2/traces.otf2
extrap-text $c/extra-p/extrap/tests/data/text/three_parameter_1.txt
extrap-json $c/extra-p/extrap/tests/data/json/new/input1.json
EOF
if /usr/bin/python3 "$here/../tests/gen_dcpi.py" "$new" "$tmp/prof.dcpi" \
	--seed 1 --layout file >/dev/null 2>&1; then
	echo "dcpi $tmp/prof.dcpi" >>"$tmp/inputs"
fi
probe=$c/hpctoolkit-v4/hpctoolkit/tests/data/dbase/loops-cputime-t.d
bench_machine load
echo "shared objects at start (ldd): old $(ldd "$old" | wc -l), new $(ldd "$new" | wc -l)"
/usr/bin/python3 - "$old" "$new" "$runs" "$probe" "$tmp/inputs" <<'PY'
import os, statistics, sys, time
old, new, runs, probe, inputs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
cmds = [("--version", ["--version"]),
        ("trace probe (v4 trace, 1 line)", ["trace", probe, "--at", "+0", "--lines", "0"])]
for line in open(inputs):
    label, path = line.split(None, 1)
    cmds.append(("info " + label, ["info", path.strip()]))
null = os.open(os.devnull, os.O_WRONLY)
fa = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]

def once(argv):
    t = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=fa)
    _, status, ru = os.wait4(pid, 0)
    wall = (time.perf_counter() - t) * 1000
    cpu = (ru.ru_utime + ru.ru_stime) * 1000
    return wall, cpu, os.waitstatus_to_exitcode(status)

print("%-32s %21s %21s" % ("", "wall ms", "CPU ms"))
print("%-32s %7s %7s %5s %7s %7s %5s" % ("command (median of %d)" % runs,
      "old", "new", "x", "old", "new", "x"))
for label, args in cmds:
    wall = {old: [], new: []}
    cpu = {old: [], new: []}
    codes = set()
    for prog in (old, new):  # warm the page cache
        once([prog] + args)
    for _ in range(runs):
        for prog in (old, new):
            w, c, code = once([prog] + args)
            wall[prog].append(w)
            cpu[prog].append(c)
            codes.add(code)
    wo, wn = statistics.median(wall[old]), statistics.median(wall[new])
    co, cn = statistics.median(cpu[old]), statistics.median(cpu[new])
    note = "" if codes == {0} else "  (exit %s)" % sorted(codes)
    print("%-32s %7.2f %7.2f %5.1f %7.2f %7.2f %5.1f%s" %
          (label, wo, wn, wo / wn, co, cn, co / max(cn, 0.001), note))
PY
