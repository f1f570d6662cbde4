#!/usr/bin/env python3
"""diff_v4_check: the truth of `callscope diff` and `callscope check` on
two gen-v4db databases, computed from the generator's answers files (not
from any reader): the merged tree by the documented keys (doc/compare.md),
each run's inclusive (execution Sum) and exclusive (function Sum) values
summed per path, the status of every path, and the regressions `check`
must list.

  diff_v4_check.py diff A.json B.json DIFF.json
  diff_v4_check.py check A.json B.json CHECK.json THRESHOLD MIN_SHARE
"""
import json
import math
import os
import re
import sys

METRIC = "CPUTIME (sec)"
INCL = METRIC + "|execution|$$|sum"
EXCL = METRIC + "|function|$$|sum"


def norm(name):
    name = re.sub(r"(?<![0-9A-Za-z_])0[xX][0-9a-fA-F]+", "0x?", name)
    name = re.sub(r"#[0-9]+", "#N", name)
    name = re.sub(r"\$_[0-9]+", "$_N", name)
    name = re.sub(r"(?<=[A-Za-z_])\.[0-9]+(?=$|[.( ])", ".N", name)
    return name


def base(path):
    return os.path.basename(path or "")


def key(kind, name, module, file, line):
    if kind == "entry":
        return ("e", name)
    if kind in ("function", "region"):
        # the answers name no function's module (one module per name in
        # gen-v4db): the module part of the key is left out here
        return ("f", norm(name))
    if kind == "loop":
        return ("l", base(file), line or 0)
    if kind == "line":
        return ("n", base(file), line or 0)
    return ("i", base(module))


def answers_paths(path):
    a = json.load(open(path))
    ctx = a["contexts"]
    out = {(): {"incl": a["global"].get(INCL), "excl": None}}
    memo = {}

    def path_of(cid):
        if cid in (0, None, "0"):
            return ()
        cid = str(cid)
        if cid not in memo:
            c = ctx[cid]
            memo[cid] = path_of(c["parent"]) + (
                key(c["lexical"], c["name"], c.get("module"), c.get("file"),
                    c.get("line")),)
        return memo[cid]

    for cid, c in ctx.items():
        p = path_of(cid)
        e = out.setdefault(p, {"incl": None, "excl": None})
        for k, name in (("incl", INCL), ("excl", EXCL)):
            v = c["summary"].get(name)
            if v is not None:
                e[k] = (e[k] or 0) + v
    return out, a["global"].get(INCL)


def close(x, y):
    return abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))


def check_diff(a, b, doc):
    ra, _ = answers_paths(a)
    rb, _ = answers_paths(b)
    cols = doc["columns"]

    def col(kind, run=None, role=None):
        for i, c in enumerate(cols):
            if c["kind"] == kind and c.get("run") == run and \
                    c.get("role") == role:
                return i
        raise SystemExit("no column %s %s %s" % (kind, run, role))

    nodes = {n["id"]: n for n in doc["nodes"]}
    paths = {}
    for n in doc["nodes"]:
        p, m = [], n
        while m["parent"] is not None:
            p.append(key(m["kind"], m["name"], m["module"], m["file"],
                         m["line"]))
            m = nodes[m["parent"]]
        p = tuple(reversed(p))
        if p in paths:
            raise SystemExit("path twice in the diff: %r" % (p,))
        paths[p] = n
    want = set(ra) | set(rb)
    if set(paths) != want:
        raise SystemExit("paths differ: only in diff %r, only in truth %r" %
                         (sorted(set(paths) - want)[:5],
                          sorted(want - set(paths))[:5]))
    checked = 0
    for p, n in paths.items():
        status = "both" if p in ra and p in rb else \
            ("gone" if p in ra else "new")
        if p == ():
            status = "both"
        if n["status"] != status:
            raise SystemExit("%r: status %s, want %s" % (p, n["status"], status))
        for kind, k in (("inclusive", "incl"), ("exclusive", "excl")):
            vb = ra.get(p, {}).get(k)
            vn = rb.get(p, {}).get(k)
            if p == () and kind == "exclusive":
                continue
            got_b = n["values"][col(kind, run="base")]
            got_n = n["values"][col(kind, run="new")]
            got_d = n["values"][col(kind, role="delta")]
            for got, w, what in ((got_b, vb, "base"), (got_n, vn, "new")):
                if (got is None) != (w is None) or \
                        (w is not None and not close(got, w)):
                    raise SystemExit("%r %s %s: %r, want %r" %
                                     (p, kind, what, got, w))
            if vb is None and vn is None:
                if got_d is not None:
                    raise SystemExit("%r: a delta without values" % (p,))
            elif not close(got_d, (vn or 0) - (vb or 0)):
                raise SystemExit("%r %s delta %r, want %r" %
                                 (p, kind, got_d, (vn or 0) - (vb or 0)))
            checked += 1
    print("diff: %d paths, %d values checked against the answers" %
          (len(paths), checked))


def check_check(a, b, doc, threshold, min_share):
    ra, total = answers_paths(a)
    rb, _ = answers_paths(b)
    want = []
    for p in set(ra) | set(rb):
        vb = ra.get(p, {}).get("incl")
        vn = rb.get(p, {}).get("incl")
        if vb is None and vn is None:
            continue
        share = max(abs(vb or 0), abs(vn or 0)) / abs(total) * 100
        if share < min_share:
            continue
        if vb is None:
            bad = vn > 0
        elif vn is None:
            bad = False
        else:
            bad = vn - vb > 0 and (vb == 0 or
                                   (vn - vb) / abs(vb) * 100 > threshold)
        if bad:
            want.append((round(vb or 0, 9), round(vn, 9)))
    got = [(round(r["base"] or 0, 9), round(r["new"], 9))
           for r in doc["regressions"]]
    if sorted(got) != sorted(want):
        raise SystemExit("regressions %r, want %r" % (sorted(got), sorted(want)))
    if doc["result"] != ("regressed" if want else "ok"):
        raise SystemExit("result %s with %d regressions" %
                         (doc["result"], len(want)))
    print("check: %d regressions as expected" % len(want))
    return len(want)


if __name__ == "__main__":
    if sys.argv[1] == "diff":
        check_diff(sys.argv[2], sys.argv[3], json.load(open(sys.argv[4])))
    else:
        n = check_check(sys.argv[2], sys.argv[3], json.load(open(sys.argv[4])),
                        float(sys.argv[5]), float(sys.argv[6]))
        sys.exit(0 if n == 0 else 10)
