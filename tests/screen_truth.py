"""Screen truth: every number the tree pane and the threads pane draw,
read back from a headless screen (units, digit groups and SI prefixes
parsed back), equals the batch value of the same node and column
(`callscope report --format json`, `callscope hotpath --format json`) at
the precision the screen shows; no value cell is a cut prefix (an
ellipsis, a '~' or anything that does not read as a whole number).

usage: screen_truth.py CALLSCOPE DB SIZE...   (exit 1 on a mismatch)
"""
import json
import re
import subprocess
import sys

CS, DB, SIZES = sys.argv[1], sys.argv[2], sys.argv[3:]
failures = []
checked = 0

SUFFIX = {"ns": ("t", 1e-9), "us": ("t", 1e-6), "ms": ("t", 1e-3),
          "s": ("t", 1.0), "B": ("b", 1.0), "KB": ("b", 1e3),
          "MB": ("b", 1e6), "GB": ("b", 1e9), "TB": ("b", 1e12),
          "PB": ("b", 1e15), "EB": ("b", 1e18), "k": ("c", 1e3),
          "M": ("c", 1e6), "G": ("c", 1e9), "T": ("c", 1e12),
          "P": ("c", 1e15), "E": ("c", 1e18), "%": ("c", 1.0)}
NUM = r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[+-]?\d+)?"
VALUE = re.compile(r"(%s|nan|inf|-inf)(?: ?(%s))?" % (
    NUM, "|".join(sorted(SUFFIX, key=len, reverse=True))))


def fail(msg):
    failures.append(msg)


def run(*args):
    return subprocess.run([CS, *args], capture_output=True, text=True,
                          check=True).stdout


def time_scale(metric):
    """Seconds per unit of a metric, from its name (as HPCToolkit, Nsight
    and rocpd name them); Cube's time metrics are in seconds."""
    for tag, s in (("(sec)", 1), ("(s)", 1), ("(ms)", 1e-3),
                   ("(msec)", 1e-3), ("(us)", 1e-6), ("(usec)", 1e-6),
                   ("(ns)", 1e-9), ("(nsec)", 1e-9)):
        if tag in metric:
            return s
    return 1.0


def parse(text, metric):
    """(value in the metric's unit, half a unit of the last digit shown),
    or None when TEXT is not a whole number."""
    m = VALUE.fullmatch(text)
    if not m:
        return None
    num, suf = m.group(1), m.group(2)
    x = float(num.replace(",", ""))
    mant = num.split("e")[0]
    dec = len(mant.split(".")[1]) if "." in mant else 0
    exp = int(num.split("e")[1]) if "e" in num else 0
    half = 0.5 * 10.0 ** (exp - dec)
    factor = 1.0
    if suf:
        kind, f = SUFFIX[suf]
        factor = f / time_scale(metric) if kind == "t" else f
    return x * factor, half * factor


def agree(shown, half, want):
    return abs(shown - want) <= half * (1 + 1e-9) + abs(want) * 1e-12


def screen(size, keys):
    return run("--headless", "--no-config", "--size", size, "--keys", keys,
               DB).split("\n")


def basenames(name):
    return re.sub(r"[^ \[]*/", "", name)


def name_matches(shown, name):
    forms = {name, basenames(name)}
    ell = "\u2026" if "\u2026" in shown else "~" if "~" in shown else None
    if ell:
        head, _, tail = shown.partition(ell)
        return any(f.startswith(head) and f.endswith(tail) and
                   len(f) >= len(head) + len(tail) for f in forms)
    return shown in forms


GUIDE = set("\u2502\u251c\u2514\u2500\u25be\u25b8 ")


def title_matches(title, col):
    """TITLE ("time I", "Mean E", "min_t\u2026 I", "WALLCLOCK I\u25bc") is
    the header of the report column COL."""
    t = re.fullmatch(r"(.*) ([IE])[\u25bc\u25b2^v]?", title)
    if not t or t.group(2) != col["kind"][0].upper():
        return False
    stem = t.group(1)
    if col["variant"] not in ("", "Sum"):
        names = {col["variant"]}
    else:
        names = {col["metric"], re.sub(r" \([^()]*\)$", "", col["metric"])}
    ell = "\u2026" if "\u2026" in stem else "~" if "~" in stem else None
    if ell:
        head, _, tail = stem.partition(ell)
        return any(n.startswith(head) and n.endswith(tail) for n in names)
    return stem in names


def check_tree(size, keys, view):
    global checked
    rep = json.loads(run("report", DB, "--format", "json", "--view", view,
                         "--depth", "64"))
    cols = rep["columns"]
    nodes = {n["id"]: n for n in rep["nodes"]}
    children = {}
    for n in rep["nodes"]:
        children.setdefault(n["parent"], []).append(n)
    lines = screen(size, keys)
    head_i = next((i for i, l in enumerate(lines) if " Name (" in l), None)
    if head_i is None:
        fail("%s %s: no tree header" % (size, keys))
        return
    head = lines[head_i]
    name_x = head.index(" Name (") + 1
    # the column the rows are sorted by is one of those drawn, marked
    if not re.search(r" [IE][\u25bc\u25b2^v](?= |$)", head[:name_x]):
        fail("%s %s: no column drawn is marked as the sort column: %r" %
             (size, keys, head))
    ends = [m.end() - 1 for m in
            re.finditer(r" [IE][\u25bc\u25b2^v]?(?= |$)", head[:name_x])]
    if len(ends) > len(cols):
        fail("%s %s: %d columns on screen, %d in the report" %
             (size, keys, len(ends), len(cols)))
        return
    # Extra-P: the models' columns come first, the tree's after them
    models = bool(ends) and "Model of" in head[:ends[0]]
    spans, left = [], 0
    for e in ends:
        spans.append((left, e + 1))
        left = e + 2
    # each drawn column is the report's column of its title: the drawn
    # ones are those that fit, in the report's order, and the sort column
    # (kept when others make room for it)
    titles = [re.split(r"  +", head[a:b].strip())[-1].rstrip("\u25bc\u25b2")
              for a, b in spans]
    if len(set(titles)) != len(titles):
        fail("%s %s: columns drawn under the same title: %r" %
             (size, keys, head[:name_x]))
    index, ci = [], 0
    for a, b in spans:
        title = re.split(r"  +", head[a:b].strip())[-1]
        while ci < len(cols) and not title_matches(title, cols[ci]):
            ci += 1
        if ci == len(cols):
            fail("%s %s: column %r is none of the report's" %
                 (size, keys, title))
            return
        index.append(ci)
        ci += 1
    stack = []  # the report nodes of the rows above, by depth
    for line in lines[head_i + 1:]:
        if len(line) <= name_x or not line[name_x:].strip() or \
           re.match(r"(Name|Where|Path) ", line):
            break  # the end of the tree pane, the detail lines
        rest = line[name_x:]
        k = 0
        while k < len(rest) and rest[k] in GUIDE:
            k += 1
        if rest.startswith("\u2026") or rest.startswith("~"):
            break  # deep rows drop guides: depth unknown from here
        depth = k // 2 - 1
        shown = rest[k:].rstrip()
        if depth < 0:
            fail("%s %s: row %r has no tree guides" % (size, keys, line))
            break
        if depth == 0 or 0 < depth <= len(stack):
            cands = children.get(stack[depth - 1]["id"] if depth else None,
                                 [])
        else:  # scrolled: the rows above are off screen
            cands = [n for n in rep["nodes"] if n["depth"] == depth]
        cands = [c for c in cands if name_matches(shown, c["name"])]
        del stack[depth:]
        if not cands:
            fail("%s %s: row %r (depth %d) is no report node" %
                 (size, keys, shown, depth))
            break
        row_ok = []
        for cand in cands:
            ok, msgs = True, []
            for si, (a, b) in enumerate(spans):
                ci = index[si]
                cell = line[a:b].strip()
                if si == 0 and models:
                    m = re.search(r"(?:^|  )(\S+(?: \S+)?(?: +-?\d+\.\d%)?)$",
                                  line[a:b].rstrip())
                    cell = m.group(1) if m else cell
                if "\u2026" in cell or "~" in cell or "#" in cell:
                    fail("%s %s: %r: cut value cell %r" %
                         (size, keys, shown, cell))
                pct = re.search(r" *-?\d+\.\d%$", cell)
                if pct:
                    cell = cell[:pct.start()].strip()
                want = cand["values"][ci]
                if not cell:
                    continue
                got = parse(cell, cols[ci]["metric"])
                if got is None:
                    fail("%s %s: %r: %r is not a number" %
                         (size, keys, shown, cell))
                    ok = False
                    continue
                if want is None or not agree(got[0], got[1], want):
                    ok = False
                    msgs.append("%s: screen %r, report %r" %
                                (cols[ci]["name"], cell, want))
            row_ok.append((ok, msgs, cand))
        good = [r for r in row_ok if r[0]]
        if not good:
            fail("%s %s: %r: %s" % (size, keys, shown,
                                     "; ".join(row_ok[0][1])))
            stack.append(row_ok[0][2])
        else:
            stack.append(good[0][2])
            checked += len(spans)


def check_threads(size):
    """The threads pane on the hot path's end (H T): the stored summary is
    the report's value of that node; the rows' values lie between min and
    max, in order, and their percentages are of the thread sum."""
    global checked
    hot = json.loads(run("hotpath", DB, "--format", "json"))
    col = hot["columns"][0]
    stop = hot["nodes"][-1]
    want = stop["values"][0]
    lines = screen(size, "HT")
    title = next((l for l in lines if "per execution context:" in l), None)
    if title is None:
        return  # no threads pane for this database (a message says why)
    stats = next((l for l in lines if re.search(" contexts? by ", l) and
                  " min " in l), "")
    sums = next((l for l in lines if "thread sum" in l), "")
    # critique b6: the statistics line fits (words shortened, not cut)
    if "\u2026" in stats or "~" in stats:
        fail("%s HT: the statistics line is cut: %r" % (size, stats))
    # a sum that agrees with the summary reads as it does
    e = re.search(r"thread sum (.+?) \(100%\) = stored summary (.+?)\s*$",
                  sums)
    if e and e.group(1) != e.group(2):
        fail("%s HT: sum and summary agree but read %r and %r" %
             (size, e.group(1), e.group(2)))
    metric = col["metric"]
    m = re.search(r"stored summary (.+?)(?: \(by|:|$)", sums)
    if m and m.group(1).strip() != "(none)" and want is not None:
        got = parse(m.group(1).strip(), metric)
        if got is None or not agree(got[0], got[1], want):
            fail("%s HT: stored summary %r, report %r" %
                 (size, m.group(1), want))
        checked += 1
    m = re.search(r"thread sum (.+?) \(100%\)", sums)
    tsum = parse(m.group(1), metric) if m else None
    if m and tsum is None:
        fail("%s HT: thread sum %r is not a number" % (size, m.group(1)))
    if m and tsum and " = stored summary" in sums and want is not None:
        if not agree(tsum[0], tsum[1], want):
            fail("%s HT: thread sum %r = summary, report %r" %
                 (size, m.group(1), want))
        checked += 1
    # critique b11: a sum said to differ from the summary reads apart
    d = re.search(r"thread sum (.+?) \(100%\) [<>] stored summary (.+?)"
                  r"(?: \(by|:)", sums)
    if d and d.group(1) == d.group(2):
        fail("%s HT: thread sum and summary differ but both read %r" %
             (size, d.group(1)))
    lo = re.search(r" min (.+?)   max (.+?)   mean (.+?)   ", stats)
    start = lines.index(sums) + 1 if sums in lines else 0
    prev = None
    for line in lines[start:]:
        r = re.match(r"^(.{10}) +(-?\d+\.\d)%  \S", line)
        if not r:
            continue
        cell = r.group(1).strip()
        got = parse(cell, metric)
        if got is None or "\u2026" in cell or "~" in cell:
            fail("%s HT: thread value %r is not a whole number" %
                 (size, cell))
            continue
        checked += 1
        if lo:
            mn, mx = parse(lo.group(1), metric), parse(lo.group(2), metric)
            if mn and got[0] + got[1] < mn[0] - mn[1] or \
               mx and got[0] - got[1] > mx[0] + mx[1]:
                fail("%s HT: %r outside min %s, max %s" %
                     (size, cell, lo.group(1), lo.group(2)))
        if prev is not None and got[0] - got[1] > prev[0] + prev[1]:
            fail("%s HT: rows not in value order at %r" % (size, cell))
        prev = got
        if tsum and tsum[0] != 0:
            pct = got[0] / tsum[0] * 100
            slack = 0.05 + 100 * (got[1] / abs(tsum[0]) +
                                  abs(got[0]) * tsum[1] / tsum[0] ** 2)
            if abs(pct - float(r.group(2))) > slack + 1e-9:
                fail("%s HT: %r is %.2f%% of the sum, screen %s%%" %
                     (size, cell, pct, r.group(2)))


for size in SIZES:
    check_tree(size, "H", "top-down")
    check_tree(size, "3", "flat")
    check_tree(size, "2", "bottom-up")
    check_threads(size)
for f in failures[:25]:
    print("FAIL: %s: %s" % (DB, f))
if len(failures) > 25:
    print("... and %d more" % (len(failures) - 25))
print("%s: %d values checked, %d failures" % (DB, checked, len(failures)))
sys.exit(1 if failures or checked == 0 else 0)
