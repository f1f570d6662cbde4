#!/usr/bin/env python3
"""Checks a Cube SCALE_FUNC metric's ranking codes (issue #29) against a
CSV of the codes computed apart from callscope: cnode (or root), I/E,
location (or all), code, as tests/gen_cube.py --scale-csv writes it, or
as this script writes it itself for a plain .cubex (--decode: anchor.xml
and N.data read here, terms of equal (b, c, d) added, the dominant term
ranked 1000 b/c + d + a/1000, as gen_cube.scale_code).

The totals come from `callscope report --format json` and `--format csv`
(the synthetic root's inclusive code too), and for gen_cube.py's files
(call nodes named f<id>) from `callscope diff FILE FILE --format csv`,
which reads every node's code in one pass; the per-location codes from
tests/cube-dump (its L lines); with --text CNODE:KIND:LOC=TEXT, the F line
of that cell must read TEXT.  Exit 1 with one line per mismatch.

usage: check_cube_scalefn.py CALLSCOPE CUBE_DUMP FILE METRIC
           (CSV | --decode) [--text CNODE:KIND:LOC=TEXT]...
"""
import csv
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_cube import scale_code, scale_merge  # noqa: E402

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print("FAIL " + msg)


def close(got, want):
    if got is None or want is None:
        return got is None and want is None
    return abs(got - want) <= 1e-9 * max(1.0, abs(want))


def decode(path, metric):
    """The CSV rows of METRIC of a plain .cubex (an EXCLUSIVE SCALE_FUNC
    metric, rows in document order), computed here."""
    with tarfile.open(path) as t:
        anchor = ET.fromstring(t.extractfile("anchor.xml").read())
        mid = next(m.get("id") for m in anchor.iter("metric")
                   if m.findtext("uniq_name") == metric)
        idx = t.extractfile(mid + ".index").read()
        data = t.extractfile(mid + ".data").read()
    locs = len(list(anchor.iter("location")))
    pre, sub = [], {}

    def walk(el):  # document order; a node's subtree
        cid = int(el.get("id"))
        pre.append(cid)
        sub[cid] = [cid]
        for k in el.findall("cnode"):
            sub[cid] += walk(k)
        return sub[cid]
    for root in anchor.find("program").findall("cnode"):
        walk(root)
    e = "<" if struct.unpack("<I", idx[11:15])[0] == 1 else ">"
    if idx[17] == 1:  # sparse: a count, then the rows' tree indexes
        n = struct.unpack(e + "I", idx[18:22])[0]
        tis = struct.unpack(e + "%dI" % n, idx[22:22 + 4 * n])
    else:
        tis = range(len(pre))
    body = data[len(b"CUBEX.DATA"):]
    cells = {}
    for r, ti in enumerate(tis):
        for l in range(locs):
            c = body[(r * locs + l) * 848:][:848]
            nt = struct.unpack(e + "I", c[:4])[0]
            cells[(pre[ti], l)] = [struct.unpack(e + "diIi",
                                                 c[8 + 20 * i:28 + 20 * i])
                                   for i in range(nt)]
    rows = []
    for name, kind, cs in ([("root", "I", pre)] +
                           [(str(c), k, sub[c] if k == "I" else [c])
                            for c in pre for k in "IE"]):
        for loc in ["all"] + list(range(locs)):
            ls = range(locs) if loc == "all" else [loc]
            code = scale_code(scale_merge(cells.get((c, l), [])
                                          for c in cs for l in ls))
            if code is not None:
                rows.append(dict(cnode=name, kind=kind, loc=str(loc),
                                 code=repr(code)))
    return rows


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(cmd[:3]), r.returncode,
                                  r.stderr.strip()))
    return r.stdout


def check_totals(want, got, where):
    """got: {(cnode, kind): value or None} for every row shown."""
    n = 0
    for key, val in got.items():
        exp = want.get(key + ("all",))
        if not close(val, exp):
            fail("%s: %s %s reads %r, expected %r" % (where, key[0], key[1],
                                                      val, exp))
        n += 1
    if not any(k == ("root", "I") for k in got):
        fail("%s: no root row" % where)
    return n


def main():
    args = sys.argv[1:]
    cs, dump, path, metric, src = args[:5]
    texts = [a for a in args[5:] if a != "--text"]
    rows = decode(path, metric) if src == "--decode" else \
        list(csv.DictReader(open(src)))
    want = {(r["cnode"], r["kind"], r["loc"]): float(r["code"])
            for r in rows}
    rep = json.loads(run([cs, "report", path, "--metric", metric,
                          "--format", "json"]) or "{}")
    cols = [c["kind"][0].upper() for c in rep.get("columns", [])]
    got = {}
    for node in rep.get("nodes", []):
        name = "root" if node["id"] is None else str(node["id"])
        for kind, v in zip(cols, node["values"]):
            got[(name, kind)] = v
    n = check_totals(want, got, "report json")
    out = run([cs, "report", path, "--metric", metric, "--format", "csv"])
    got = {}
    for r in csv.DictReader(io.StringIO(out)):
        name = r["id"] or "root"
        for kind in "IE":
            v = r["%s (%s)" % (metric, kind)]
            got[(name, kind)] = float(v) if v else None
    n += check_totals(want, got, "report csv")
    # every node's code at once (summary_all: one pass, children first),
    # as the diff's base column reads them; gen_cube.py names f<cnode>
    out = run([cs, "diff", path, path, "--metric", metric, "--format",
               "csv"])
    got = {}
    for r in csv.DictReader(io.StringIO(out)):
        name = "root" if r["kind"] == "root" else r["name"][1:]
        if name != "root" and not name.isdigit():
            got = {}
            break
        for kind in "IE":
            v = r["%s:base (%s)" % (metric, kind)]
            got[(name, kind)] = float(v) if v else None
    if got:
        n += check_totals(want, got, "diff csv")
    locs, funcs = {}, {}
    for ln in run([dump, path]).splitlines():
        f = ln.split(" ", 5)
        if f[0] == "L" and f[2] == metric:
            locs[(f[1], f[3], f[4])] = float(f[5])
        elif f[0] == "F" and f[2] == metric:
            funcs[(f[1], f[3], f[4])] = f[5]
    for key, exp in want.items():
        if key[0] == "root" or key[2] == "all":
            continue
        n += 1
        if not close(locs.pop(key, None), exp):
            fail("cube-dump: cnode %s %s location %s: expected %r" %
                 (key + (exp,)))
    for key in locs:
        fail("cube-dump: cnode %s %s location %s: a value where none is"
             % key)
    for t in texts:
        k, text = t.split("=", 1)
        if funcs.get(tuple(k.split(":"))) != text:
            fail("cube-dump: %s reads %r, expected %r" %
                 (k, funcs.get(tuple(k.split(":"))), text))
        n += 1
    print("%s %s: %d codes checked, %d failures" % (os.path.basename(path),
                                                   metric, n, len(FAILS)))
    return 1 if FAILS or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
