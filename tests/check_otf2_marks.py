#!/usr/bin/python3
"""Check an OTF2 archive's markers against the answers gen_otf2.py
--markers wrote (expect.json "marks", computed from the calls'
description, not from the events).

usage: check_otf2_marks.py CALLSCOPE DIR

The Marks column: each call path's exclusive count (top-down), the
root's inclusive count (every marker in some call); the warnings (markers
outside every call, markers of no location); on every line, at each
marker's time, `trace --at` names a marker of that time and counts
those at that time.  Exits 1 on any difference."""
import json
import os
import subprocess
import sys
from collections import Counter


def run(cs, *args):
    p = subprocess.run([cs] + list(args), capture_output=True, text=True,
                       timeout=300)
    if p.returncode != 0:
        raise SystemExit("FAIL %s: exit %d: %s" % (args, p.returncode,
                                                    p.stderr))
    return p


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    cs, d = argv[1], argv[2]
    anchor = os.path.join(d, "traces.otf2")
    want = json.load(open(os.path.join(d, "expect.json")))["marks"]
    errs = []
    p = run(cs, "report", anchor, "--format", "json", "--metric", "Marks")
    rep = json.loads(p.stdout)
    names = [c["name"] for c in rep["columns"]]
    if names != ["Marks (I)", "Marks (E)"]:
        errs.append("columns %s" % names)
    path, got, root = {}, {}, None
    for n in rep["nodes"]:
        if n["depth"] == 0:
            root = n["values"][0]
            continue
        path[n["id"]] = ((path[n["parent"]] + "/") if n["parent"]
                         is not None else "") + n["name"]
        if n["values"][1]:
            got[path[n["id"]]] = int(n["values"][1])
    if got != want["paths"]:
        errs.append("marks per call path %s, expected %s" %
                    (got, want["paths"]))
    if root != sum(want["paths"].values()):
        errs.append("root %s, expected %d" %
                    (root, sum(want["paths"].values())))
    for n, text in ((want["outside"], "lie outside every call"),
                    (want["unshown"], "have a scope other than one")):
        if ("%d %s" % (n, text)) not in p.stderr:
            errs.append("no warning '%d %s' in %r" % (n, text, p.stderr))
    for label, inst in want["instants"].items():
        at = Counter(t for t, _ in inst)
        for t, name in inst:
            tr = json.loads(run(cs, "trace", anchor, "--at", str(t),
                                "--format", "json").stdout)
            line = [x for x in tr["lines"] if x["label"] == label]
            # several at one time: the first in the marker file's order,
            # which the library groups by definition: any of them
            names = {n for tt, n in inst if tt == t}
            if (not line or not line[0].get("instant") or
                    line[0]["instant"]["time"] != t or
                    line[0]["instants"] != at[t]):
                errs.append("%s at %d: %s, expected %d marker(s)" %
                            (label, t, line, at[t]))
            elif line[0]["instant"]["name"] not in names:
                errs.append("%s at %d: '%s', expected one of %s" %
                            (label, t, line[0]["instant"]["name"], names))
    for e in errs:
        print("FAIL", e)
    if not errs:
        print("ok %s: %d markers in %d call paths, %d outside, %d unshown"
              % (d, sum(want["paths"].values()), len(want["paths"]),
                 want["outside"], want["unshown"]))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
