#!/usr/bin/env python3
"""Checks the threads pane (T) on a Cube metric's own column (the metric
open in the metric tree: its values less its sub-metrics'): a file written
by tests/gen_cube.py --metric-tree CSV, whose CSV.threads holds each call
node's own value per location, computed by the generator from the values
it wrote (never by callscope).

For each metric with sub-metrics, inclusive and exclusive: the column
chooser leaves only the metric's open form shown (drive() of
check_cube_metric_tree.py), `:sort NAME/own (I)` sorts by it, and on the
first call nodes' rows T must list every location with the CSV's value,
to the 4 digits shown; z there (the system focus on the first context
listed) must show the node's own values, inclusive and exclusive, of
that location in the tree.

usage: check_cube_metric_threads.py CALLSCOPE FILE CSV SIZE...
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_cube_metric_tree as tree  # noqa: E402

THREAD = re.compile(r"^ *(-?[0-9.,]+(?:e[+-]?\d+)? ?\S*?)(?: +-?[0-9.]+%)?"
                    r"  Rank 0: thread (\d+)$")
FOCUS = re.compile(r"Name \(system: Rank 0: thread (\d+), 1 context")
CELL = r"(-?[0-9.,]+(?:e[+-]?\d+)? ?[A-Za-z\u00b5]*|)"
TITLE = re.compile(r"^ (\S+)/own \(([IE])\) per execution context: (f\d+)$")


def check_focus(cs, db, size, keys, truth, metric, node, where):
    """The tree focused on one context (z): the node's two own cells are
    that location's values; the number of values checked."""
    lines = tree.screen(cs, db, size, keys)
    loc = next((int(m.group(1)) for m in map(FOCUS.search, lines) if m),
               None)
    pct = r"(?: +-?[0-9.]+%)?"  # the share the sort column may draw
    row = re.compile(r"^ *%s%s +%s%s +[\u2502\u251c\u2514\u2500\u25b8\u25be ]*"
                     r"%s$" % (CELL, pct, CELL, pct, node))
    cells = next((m.groups() for m in map(row.match, lines) if m), None)
    if loc is None or cells is None:
        tree.fail("%s z: no focused row of %s" % (where, node))
        return 0
    for text, call in zip(cells, ("incl", "excl")):
        want = truth[(node, metric, call, loc)]
        if not tree.close(tree.parse_value(text), want):
            tree.fail("%s z: %s %s of thread %d shows %r, the generator's "
                      "%.10g" % (where, node, call, loc, text, want))
    return 2


def blank_selection(lines, truth, metric, call):
    """T on a blank cell says so instead of listing zeros: true when the
    screen says it and the generator's values of the selected node (the
    detail's Name) are all 0."""
    if not any("has no value in this column" in ln for ln in lines):
        return False
    name = next((ln.split()[1] for ln in lines
                 if ln.startswith("Name ") and len(ln.split()) == 2), None)
    vals = [v for (n, mt, c, _), v in truth.items()
            if n == name and mt == metric and c == call]
    return bool(vals) and all(v == 0 for v in vals)


def main():
    cs, db, csv_path = sys.argv[1:4]
    sizes = sys.argv[4:]
    truth = {}
    with open(csv_path + ".threads") as f:
        for r in csv.DictReader(f):
            truth[(r["name"], r["metric"], r["call"], int(r["loc"]))] = \
                float(r["value"])
    checked = 0
    for metric in tree.PARENTS:
        keys = tree.drive(cs, db, metric, True)
        if keys is None:
            continue
        for kind, call in (("I", "incl"), ("E", "excl")):
            for size in sizes:
                for row in (1, 2, 3):
                    k = "%s:sort %s/own (%s)<Enter>%sT" % (
                        keys, metric, kind, "j" * row)
                    lines = tree.screen(cs, db, size, k)
                    head = [TITLE.match(ln) for ln in lines]
                    head = [h for h in head if h]
                    where = "%s %s %s row %d" % (size, metric, kind, row)
                    if not head and blank_selection(lines, truth, metric,
                                                    call):
                        checked += 1
                        continue
                    if not head or head[0].group(1) != metric or \
                            head[0].group(2) != kind:
                        tree.fail("%s: no threads pane of %s/own (%s)"
                                  % (where, metric, kind))
                        continue
                    node = head[0].group(3)
                    seen = set()
                    for ln in lines:
                        m = THREAD.match(ln)
                        if not m:
                            continue
                        loc = int(m.group(2))
                        seen.add(loc)
                        want = truth[(node, metric, call, loc)]
                        got = tree.parse_value(m.group(1))
                        checked += 1
                        if not tree.close(got, want):
                            tree.fail("%s: %s thread %d shows %r, the "
                                      "generator's %.10g" % (
                                          where, node, loc, m.group(1),
                                          want))
                    checked += check_focus(cs, db, size, k + "z", truth,
                                           metric, node, where)
                    nloc = len({k[3] for k in truth})
                    if len(seen) != nloc:
                        tree.fail("%s: %d threads listed of %d"
                                  % (where, len(seen), nloc))
    if tree.failures:
        sys.exit(1)
    print("ok: %d per-thread own values" % checked)


if __name__ == "__main__":
    main()
