"""`callscope trace --from --to --columns` in text: the legend after the
lines names every context id the cells print (critique b9: raw ids with
no key).  Recomputed here from the printed cells: each id's cell count and
share of all cells, most cells first (ties by id), no id left out, none
extra; each id's name is the last frame of the path `callscope trace --at`
gives at the start of a cell holding it (same line and depth); id 0 is
"(idle)".

usage: check_trace_legend.py CALLSCOPE DB FROM_NS TO_NS COLUMNS [DEPTH]
(FROM_NS, TO_NS: nanoseconds after the trace's start)
(exit 1 on a mismatch)
"""
import json
import re
import subprocess
import sys
from collections import Counter

cs, db, f_ns, t_ns, cols = sys.argv[1:6]
depth = sys.argv[6:7]
f_ns, t_ns, cols = int(f_ns), int(t_ns), int(cols)
t_from, t_to = "+%dns" % f_ns, "+%dns" % t_ns
verified = []


def trace_json(more):
    return json.loads(subprocess.run(
        [cs, "trace", db, "--format", "json"] + more +
        (["--depth", depth[0]] if depth else []),
        capture_output=True, text=True, check=True).stdout)


def trace_at(line, t):
    return trace_json(["--at", "+%dns" % t, "--lines", str(line)])["lines"][0]


# which lines are counters (their cells are values, not contexts)
kinds = {l["line"]: l.get("kind") for l in trace_json(
    ["--from", t_from, "--to", t_to, "--columns", "1"])["lines"]}
args = [cs, "trace", db, "--from", t_from, "--to", t_to, "--columns",
        str(cols)] + (["--depth", depth[0]] if depth else [])
text = subprocess.run(args, capture_output=True, text=True,
                      check=True).stdout
out = text.split("\n")
fails = []

# the lines: "    N  LABEL: c c c" (a counter line "LABEL (unit): v v")
cells = {}  # line index -> [ids]
counter = set()
i = 0
while i < len(out) and out[i]:
    m = re.match(r"^ *(\d+)  (.*): (.*)$", out[i])
    if not m:
        if out[i].startswith("       instants: "):
            i += 1
            continue
        sys.exit("%s: not a line of cells: %r" % (db, out[i]))
    vals = m.group(3).split(" ")
    if len(vals) != cols:
        sys.exit("%s: %d cells, not %d: %r" % (db, len(vals), cols, out[i]))
    if kinds.get(int(m.group(1))) != "counter":
        cells[int(m.group(1))] = [int(v) for v in vals]
    else:
        counter.add(int(m.group(1)))
    i += 1
want = Counter(c for row in cells.values() for c in row)
total = sum(want.values())
legend = out[i + 1:] if i + 1 < len(out) else []
legend = [l for l in legend if l]
if not want:
    if legend:
        fails.append("a legend with no context cells: %r" % legend[:2])
else:
    if not legend or not re.match(r"^ *ctx +cells +share +name", legend[0]):
        sys.exit("%s: no legend after the lines: %r" % (db, out[i:i + 3]))
    rows = []
    for l in legend[1:]:
        m = re.match(r"^ *(\d+) +(\d+) +(\d+\.\d)% {2}(.*)$", l)
        if not m:
            sys.exit("%s: not a legend row: %r" % (db, l))
        rows.append((int(m.group(1)), int(m.group(2)), m.group(3),
                     m.group(4)))
    order = sorted(want.items(), key=lambda kv: (-kv[1], kv[0]))
    if [(r[0], r[1]) for r in rows] != order:
        fails.append("legend %s, cells give %s" %
                     ([(r[0], r[1]) for r in rows][:8], order[:8]))
    for ctx, n, share, name in rows:
        if share != "%.1f" % (100.0 * n / total):
            fails.append("ctx %d: share %s%%, %d of %d cells" %
                         (ctx, share, n, total))
        if ctx == 0:
            if name != "(idle)":
                fails.append("ctx 0 named %r" % name)
            continue
        # a cell holding ctx: the path `trace --at` gives at the cell's
        # start names it (a wide cell may show a context met later in it:
        # up to 5 cells are tried)
        tried = 0
        for line, row in sorted(cells.items()):
            for k in [k for k, c in enumerate(row) if c == ctx]:
                if tried == 5:
                    break
                tried += 1
                t = f_ns + (t_ns - f_ns) * k // cols
                at = trace_at(line, t)
                if at["ctx"] != ctx:
                    # an interval shorter than the cell: where in the
                    # cell, at a thousandth of it
                    t2 = f_ns + (t_ns - f_ns) * (k + 1) // cols
                    sub = trace_json(["--from", "+%dns" % t, "--to",
                                      "+%dns" % t2, "--columns", "1000",
                                      "--lines", str(line)])
                    sub = sub["lines"][0]["cells"]
                    if ctx not in sub:
                        continue
                    at = trace_at(line,
                                  t + (t2 - t) * sub.index(ctx) // 1000)
                    if at["ctx"] != ctx:
                        continue
                verified.append(ctx)
                if not at["path"] or at["path"][-1] != name:
                    fails.append("ctx %d named %r, trace --at: %r" %
                                 (ctx, name, at["path"][-1:]))
                tried = 5
            if tried == 5:
                break
    named = [r[0] for r in rows if r[0]]
    if named and len(set(verified)) * 5 < len(named) * 4:
        fails.append("only %d of %d ids found by trace --at" %
                     (len(set(verified)), len(named)))
if fails:
    print("%s:\n  %s" % (db, "\n  ".join(fails[:10])))
    sys.exit(1)
print("%s: %d cells, %d ids named" % (db, total, len(want)))
