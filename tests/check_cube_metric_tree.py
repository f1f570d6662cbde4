#!/usr/bin/env python3
"""Checks Cube's metric tree on headless screens: a file written by
tests/gen_cube.py --metric-tree CSV, whose CSV holds, per call node,
metric, call-tree flavour (incl, excl) and metric-tree state (collapsed,
expanded), the value the Cube GUI shows, computed by the generator from
the values it wrote (never by callscope).

For each metric with sub-metrics, both states, and two leaf metrics (one
derived: CubePL): the
column chooser (c) is driven as a user would (every metric opened with
Right, every column but the metric's two hidden with Space, the metric
closed again with Left for the collapsed state, Esc), and each call node's
row of the tree (E expands it all; PgDn pages through it) must show the
CSV's value in the metric's inclusive and exclusive columns, to the 4
digits shown (an empty cell is 0), and its percent of the root's value
of the same form; the header must name the stored metric collapsed and
its open form "NAME/own" expanded.  The batch report (JSON, every
column) must hold the same values: the stored column collapsed, NAME/own
expanded.

usage: check_cube_metric_tree.py CALLSCOPE FILE CSV SIZE...
"""
import csv
import json
import re
import subprocess
import sys

failures = []
checked = 0

UNITS = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0,
         "B": 1.0, "KB": 1e3, "kB": 1e3, "MB": 1e6, "GB": 1e9, "k": 1e3,
         "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
CHOOSER = re.compile(r"^ ( *)(?:([\u25b8\u25be]) )?\[([x ])\] \$(\d+)  "
                     r"(.+?) \(([IE])\)  \((.*)\)$")
PARENTS = ["time", "execution", "mpi", "bytes", "max_time", "min_time"]
LEAVES = ["comm", "io"]  # io: PREDERIVED_EXCLUSIVE, CubePL
MINMAX = {"max_time", "max_mpi", "min_time", "min_mpi"}


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def screen(cs, db, size, keys):
    out = subprocess.run([cs, "--headless", "--size", size, "--keys", keys,
                          db], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        fail("%s %s: exit %d: %s" % (size, keys, out.returncode,
                                     out.stderr.strip()))
    return out.stdout.splitlines()


def chooser_rows(cs, db, keys):
    """The chooser's rows after `keys`: dicts of mark, shown, metric (the
    title without "/own" and the kind), kind, own (the open form)."""
    rows = []
    for ln in screen(cs, db, "200x80", keys):
        m = CHOOSER.match(ln)
        if not m:
            continue
        title = m.group(5)
        rows.append(dict(mark=m.group(2) or "", shown=m.group(3) == "x",
                         metric=title[:-4] if title.endswith("/own")
                         else title, kind=m.group(6),
                         own=title.endswith("/own")))
    return rows


def at(i):
    return "g" + "j" * i


def drive(cs, db, metric, expanded):
    """Keys that leave the tree showing only `metric`'s two columns, open
    (expanded) or closed in the metric tree."""
    keys = "Ec"
    for _ in range(64):  # open every metric, top first
        rows = chooser_rows(cs, db, keys)
        closed = [i for i, r in enumerate(rows) if r["mark"] == "\u25b8"]
        if not closed:
            break
        keys += at(closed[0]) + "<Right>"
    rows = chooser_rows(cs, db, keys)
    mine = [i for i, r in enumerate(rows) if r["metric"] == metric]
    if len(mine) != 2:
        fail("%s: %d chooser rows, want 2 (I and E)" % (metric, len(mine)))
        return None
    for i, r in enumerate(rows):
        if r["shown"] and r["metric"] != metric:
            keys += at(i) + " "
    if not expanded:
        for i in reversed(mine):
            if rows[i]["mark"]:
                keys += at(i) + "<Left>"
    return keys + "<Esc>"


def parse_value(text):
    text = text.strip()
    if not text:
        return 0.0  # absent: Cube's zero
    m = re.fullmatch(r"(-?[0-9.,]+(?:e[+-]?\d+)?) ?(\S*)", text)
    if not m or (m.group(2) and m.group(2) not in UNITS):
        return None
    return float(m.group(1).replace(",", "")) * UNITS.get(m.group(2), 1.0)


def tree_rows(lines):
    """(header titles, {name: [(value text, percent or None)] * 2})."""
    head = next((i for i, ln in enumerate(lines) if "Name (top-down)" in ln),
                None)
    if head is None:
        return None, {}
    name_at = lines[head].index("Name (top-down)")
    # a column ends where its title does ("time I", the sort mark after)
    ends = [m.end() for m in re.finditer(r"[IE][\u25bc\u25b2]?(?= |$)",
                                         lines[head][:name_at])]
    spans = list(zip([0] + ends[:-1], ends))
    titles = [lines[head][a:b].strip().rstrip("\u25bc\u25b2")
              for a, b in spans]
    rows = {}
    for ln in lines[head + 1:]:
        if len(ln) <= name_at:
            break
        name = ln[name_at:].lstrip(" \u2502\u251c\u2514\u2500\u25b8\u25be")
        if not re.fullmatch(r"f\d+", name):
            continue
        cells = []
        for a, b in spans:
            cell = ln[a:b].strip()
            pct = None
            g = re.fullmatch(r"(.*?) +(-?[0-9.]+)%", cell)
            if g:
                cell, pct = g.group(1), float(g.group(2))
            cells.append((cell, pct))
        rows[name] = cells
    return titles, rows


def close(got, want):
    if got is None:
        return False
    return abs(got - want) <= 6e-4 * abs(want) + 1e-9


def check(cs, db, truth, size, metric, expanded, keys):
    global checked
    if keys is None:
        return
    form = "expanded" if expanded else "collapsed"
    where = "%s %s %s" % (size, metric, form)
    seen, titles = {}, None
    last = None
    # until PgDn shows the same rows again (the first PgDn only moves the
    # cursor to the page's last row)
    for page in range(32):
        t, rows = tree_rows(screen(cs, db, size, keys + "<PgDn>" * page))
        titles = titles or t
        for name, cells in rows.items():
            seen.setdefault(name, cells)
        if set(rows) == last and page > 1:
            break
        last = set(rows)
    want_titles = ["%s%s %s" % (metric, "/own" if expanded else "", k)
                   for k in "IE"]
    # a title cut to its column ("max_t\u2026 I") names the start of it
    if len(titles or []) != 2 or any(
            not (g == w or ("\u2026" in g and w.startswith(
                g.split("\u2026")[0]) and g.endswith(w[-2:])))
            for g, w in zip(titles, want_titles)):
        fail("%s: header %r, want %r" % (where, titles, want_titles))
        return
    names = {k[0] for k in truth}
    if len(seen) != len(names):
        fail("%s: %d call nodes seen of %d" % (where, len(seen), len(names)))
    for name, cells in sorted(seen.items()):
        for (text, pct), call in zip(cells, ("incl", "excl")):
            want = truth[(name, metric, call, form)]
            got = parse_value(text)
            checked += 1
            if not close(got, want):
                fail("%s: %s %s shows %r, the generator's %.10g"
                     % (where, name, call, text, want))
            if metric in MINMAX or (not text and pct is None):
                continue
            base = truth[("f0", metric, "incl", form)]
            if pct is None or (base and abs(pct - want / base * 100) > 0.051):
                fail("%s: %s %s percent %r, want %.3f" % (
                    where, name, call, pct, want / base * 100 if base
                    else 0))


def check_batch(cs, db, truth):
    """`callscope report --format json --metric all`: each metric's stored
    columns hold the collapsed values, "NAME/own" the expanded ones of a
    metric with sub-metrics (a leaf has none), to 1e-9."""
    global checked
    out = subprocess.run([cs, "report", db, "--format", "json", "--metric",
                          "all", "--depth", "1000"], capture_output=True,
                         text=True, timeout=120)
    if out.returncode != 0:
        fail("report: exit %d: %s" % (out.returncode, out.stderr.strip()))
        return
    doc = json.loads(out.stdout)
    col = {c["name"]: i for i, c in enumerate(doc["columns"])}
    metrics = {k[1] for k in truth}
    for m in sorted(metrics):
        has_own = "%s/own (I)" % m in col
        if has_own != (m in PARENTS):
            fail("report: %s/own %s" % (m, "present for a leaf" if has_own
                                        else "missing"))
    names = set()
    for nd in doc["nodes"]:
        if not re.fullmatch(r"f\d+", nd["name"]):
            continue
        names.add(nd["name"])
        for m in sorted(metrics):
            for call, k in (("incl", "I"), ("excl", "E")):
                for form, title in (("collapsed", "%s (%s)" % (m, k)),
                                    ("expanded", "%s/own (%s)" % (m, k))):
                    if title not in col:
                        continue
                    got = nd["values"][col[title]] or 0.0
                    want = truth[(nd["name"], m, call, form)]
                    checked += 1
                    if abs(got - want) > 1e-9 * abs(want) + 1e-12:
                        fail("report: %s %s is %r, the generator's %r"
                             % (nd["name"], title, got, want))
    if len(names) != len({k[0] for k in truth}):
        fail("report: %d call nodes of %d" % (len(names),
                                              len({k[0] for k in truth})))


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    cs, db, csv_path, sizes = sys.argv[1], sys.argv[2], sys.argv[3], \
        sys.argv[4:]
    truth = {}
    with open(csv_path) as f:
        for r in csv.DictReader(f):
            truth[(r["name"], r["metric"], r["call"], r["form"])] = \
                float(r["value"])
    check_batch(cs, db, truth)
    cases = [(m, e) for m in PARENTS for e in (False, True)]
    cases += [(m, False) for m in LEAVES]
    keys = {c: drive(cs, db, *c) for c in cases}  # the same at any size
    for size in sizes:
        for metric, expanded in cases:
            check(cs, db, truth, size, metric, expanded,
                  keys[(metric, expanded)])
    print("%d values checked, %d failures" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
