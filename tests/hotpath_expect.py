#!/usr/bin/python3
"""The hot path the viewer's H key should follow, computed here from the
top-down report (`callscope report DB --format json --depth N`, read on
stdin) rather than by the viewer: from the root, take the child with the
largest first-column value while it holds at least PCT percent of the
current row (ties: the lower id), and print, tab-separated:
levels, the largest child's share of the stop row rounded to one
decimal, or to as many more (up to 4) as make it read below PCT,
the largest whole threshold that goes on, the stop row's name and its
largest child's name.  Usage: hotpath_expect.py PCT < report.json"""
import json
import math
import sys


def main():
    pct = float(sys.argv[1])
    doc = json.load(sys.stdin)
    nodes = doc["nodes"]
    kids = {}
    val = {}
    name = {}
    for n in nodes:
        v = n["values"][0]
        val[n["id"]] = v
        name[n["id"]] = n["name"]
        if n["parent"] is not None:
            kids.setdefault(n["parent"], []).append(n["id"])
    cur = nodes[0]["id"]
    levels = 0
    while True:
        cand = [k for k in kids.get(cur, []) if val[k] is not None]
        if not cand:
            sys.exit("the path reaches a leaf: deepen the report")
        best = min(cand, key=lambda k: (-val[k], k))
        mine = val[cur] or 0.0
        if val[best] < pct / 100.0 * mine:
            break
        cur = best
        levels += 1
    share = 100.0 * val[best] / val[cur]
    go_on = math.floor(share)
    while go_on > 0 and val[best] < go_on / 100.0 * val[cur]:
        go_on -= 1
    d = next((d for d in (1, 2, 3) if float("%.*f" % (d, share)) < pct), 4)
    print("%d\t%.*f\t%d\t%s\t%s" % (levels, d, share,
                                     go_on, name[cur], name[best]))


main()
