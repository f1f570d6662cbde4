#!/usr/bin/env python3
"""check_hatchet_diff: `callscope diff` against hatchet's graph-frame
subtraction, an independent implementation (LLNL's hatchet, Python and
pandas), on pairs of HPCToolkit databases.

  check_hatchet_diff.py CALLSCOPE BASE NEW [BASE NEW]...

For each pair, hatchet reads both databases (its v4 reader for a meta.db
directory, its experiment.xml reader otherwise) and computes
`gf_new - gf_base` (GraphFrame.sub: the union of both graphs, then the
metric columns subtracted row by row); callscope computes
`diff BASE NEW --format json --no-normalize` on the same time metric.
The inclusive delta of every node is compared, nodes matched by their path
of hatchet frames: callscope's nodes are given the frame hatchet's reader
makes of the same context (doc/compare.md lists the rules), and where
several nodes of one side share a path (hatchet's union pairs sibling
nodes of one frame in order, callscope merges them) their deltas are
summed on that side.  Every path falls in one of:

  agree      both have the same delta (within 1e-9 of the base total; for
             experiment.xml within 5e-6 of the node's values too: the XML
             writes its summaries with 6 significant digits, callscope
             reads them, hatchet sums the .metric-db files), or neither
             has one;
  nan-new    hatchet has no delta (NaN) where the new run has no value
             (a gone node, or a node with no sample in the new run): its
             `DataFrame.update` keeps NaN, callscope gives -base; checked:
             callscope's new value is null and its delta is -base;
  zero       hatchet's delta is 0 where callscope has no value in either
             run (a .metric-db stores an absent value as 0.0, which
             callscope reads as absent);
  site       experiment.xml: a statement hatchet keeps apart from the
             call site of its line, which callscope merges into one node
             (hatchet puts the callees under the procedure); not compared;
  other      anything else: a failure, listed.

The variant: `check_hatchet_diff.py --xml-variant SRC DST` writes an
experiment.xml database like SRC, every context's values times 1.0 to
2.0 (by its id) in the .metric-db files and the XML, and the first call
site two procedures down removed with its subtree.

Nodes outside the main thread (other entry points: hatchet's v4 reader
reads only the entry of kind 1) are left out and counted.  Exit status:
0 when no path is other; 1 otherwise; 77 when no
hatchet can be imported (HATCHET_PATH names a directory holding the
`hatchet` package, else `import hatchet` as installed).
"""
import json
import math
import os
import re
import subprocess
import sys

TIME_NAMES = ("cputime", "realtime", "cycles")
XML_ROUNDING = 5e-6


def import_hatchet():
    path = os.environ.get("HATCHET_PATH")
    if path:
        sys.path.insert(0, path)
    try:
        import hatchet  # noqa: F401
    except Exception as e:  # ImportError, or its own dependencies missing
        print("no hatchet importable (%s): skipped" % e)
        sys.exit(77)
    return hatchet


def hatchet_name(name):
    """The function name hatchet's v4 reader keeps (its _parse_function)."""
    if re.fullmatch("P?MPI_.+", name):
        name = name[: re.match("^P?MPI_[a-zA-Z_]+", name).end()]
    for item in [" [", ".", "@", "(", "<"]:
        if item in name and not name.startswith(item):
            name = name[: name.index(item)]
    return name


def hatchet_file(path):
    return path[3:] if path.startswith("src") else path


def key(attrs):
    """A frame's attributes as a comparable key."""
    return tuple(sorted((k, str(v)) for k, v in attrs.items()))


def frame_v4(node):
    """The frame hatchet's v4 reader makes of a callscope node, or None
    when it makes none."""
    kind, name = node["kind"], node["name"] or ""
    if kind == "entry":
        return {"type": "entry", "name": "entry"}
    if kind == "function":
        return {"type": "function", "name": "function: " + hatchet_name(name)}
    if kind in ("loop", "line"):
        if node["file"] is None:
            return None
        line = node["line"] or 0  # callscope gives no line 0 (unknown)
        return {"type": kind,
                "name": "%s %s:%d" % (kind, hatchet_file(node["file"]), line)}
    if kind == "instruction":
        m = re.search(r"@0x([0-9a-fA-F]+)$", name)
        if not m or node["module"] is None:
            return None
        return {"type": "instruction",
                "name": "%s:%d" % (node["module"], int(m.group(1), 16))}
    return None


SKIP = {}  # a callscope node hatchet's reader makes no node of


def frame_xml(node, parent, calls):
    """The frame hatchet's experiment.xml reader makes of a callscope node:
    a procedure "LINE:NAME" (LINE the line of the XML element around it:
    the call site's, a loop's, an enclosing procedure's, when not 0), a
    loop or a statement by file and line; SKIP for a call site (a <C>, a
    line with procedures under it: hatchet puts its callees under its
    parent); None when it makes none."""
    kind, name = node["kind"], node["name"] or ""
    if kind == "function":
        line = parent["line"] if parent and parent["kind"] != "root" else None
        return {"type": "function",
                "name": "%d:%s" % (line, name) if line else name}
    if kind == "line" and calls:
        return SKIP
    if kind in ("loop", "line") and node["file"] is not None:
        return {"type": "loop" if kind == "loop" else "statement",
                "file": node["file"], "line": node["line"] or 0}
    return None


def time_metric(cs, db):
    out = subprocess.run([cs, "info", db, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    for c in json.loads(out)["columns"]:
        n = c.get("metric") or c["name"]
        if n.split("(")[0].strip().lower() in TIME_NAMES:
            return n
    return None


def callscope_paths(cs, base, new, metric, xml):
    out = subprocess.run([cs, "diff", base, new, "--format", "json",
                          "--no-normalize", "--metric", metric],
                         check=True, capture_output=True, text=True).stdout
    d = json.loads(out)
    cols = d["columns"]

    def col(**kw):
        for i, c in enumerate(cols):
            if c.get("kind") == "inclusive" and all(c.get(k) == v for k, v in kw.items()):
                return i
        raise SystemExit("no inclusive %s column in callscope's diff" % kw)
    ib, inew, idel = col(run="base"), col(run="new"), col(role="delta")
    total = cols[idel].get("base_total") or 0.0
    by_id = {n["id"]: n for n in d["nodes"]}
    calls = set(n["parent"] for n in d["nodes"] if n["kind"] == "function")
    paths, outside, unmapped = {}, 0, []
    skipped, sites = 0, set()
    for n in d["nodes"]:
        chain, p = [], n
        while p is not None and p["kind"] != "root":
            chain.append(p)
            p = by_id.get(p["parent"])
        if not chain:
            continue
        chain.reverse()
        entry = chain[0]
        if not xml and (entry["kind"] != "entry" or entry["name"] != "main thread"):
            outside += 1
            continue
        if xml:
            frames = [frame_xml(x, by_id.get(x["parent"]), x["id"] in calls)
                      for x in chain]
            if frames[-1] is SKIP:
                skipped += 1
                # the statement of the same line hatchet may keep apart
                # (by line: its file is the last procedure's or loop's the
                # reader read, a global, not always the enclosing one's)
                stmt = frame_xml(n, None, False)
                rest = [f for f in frames[:-1] if f is not SKIP]
                if stmt and None not in rest:
                    sites.add((tuple(key(f) for f in rest), str(stmt["line"])))
                continue
            frames = [f for f in frames if f is not SKIP]
        else:
            frames = [frame_v4(x) for x in chain]
        if None in frames:
            unmapped.append(n)
            continue
        frames = [key(f) for f in frames]
        v = n["values"]
        paths.setdefault(tuple(frames), []).append((v[ib], v[inew], v[idel], n["status"]))
    return paths, total, outside, unmapped, (skipped, sites)


def hatchet_read(ht, db):
    if os.path.exists(os.path.join(db, "meta.db")):
        # the summary sum only (callscope's Sum columns): hatchet's
        # _operator needs every metric of either run in both
        gf = hatchet_v4(ht, db)
        xml = False
    else:
        gf = ht.GraphFrame.from_hpctoolkit(db)
        gf.drop_index_levels(function=sum_fn())
        xml = True
    # hatchet's v4 reader lists the "name" column among the exclusive
    # metrics; GraphFrame.sub would subtract strings and raise TypeError
    gf.exc_metrics = [m for m in gf.exc_metrics if m != "name"]
    return gf, xml


def hatchet_v4(ht, db):
    from hatchet.readers.hpctoolkit_reader_latest import HPCToolkitReaderLatest
    return HPCToolkitReaderLatest(db, summary_metrics=["sum"]).read()


def sum_fn():
    import numpy as np
    return np.sum


def hatchet_paths(ht, base, new):
    gb, xml = hatchet_read(ht, base)
    gn, _ = hatchet_read(ht, new)
    inc = "time (inc)" if "time (inc)" in gb.inc_metrics else None
    if inc is None:
        raise SystemExit("hatchet found no time (inc) metric in %s" % base)
    d = gn - gb
    df = d.dataframe
    paths = {}
    for node in d.graph.traverse():
        frames, p = [], node
        while p is not None:
            frames.append(key(p.frame.attrs))
            p = p.parents[0] if p.parents else None
        frames.reverse()
        v = df.loc[node, inc]
        if hasattr(v, "iloc"):
            v = v.iloc[0]
        paths.setdefault(tuple(frames), []).append(float(v))
    return paths, xml, len(d.graph)


def describe(frame):
    f = dict(frame)
    return f["name"] if "name" in f else "%s %s:%s" % (f["type"], f["file"], f["line"])


def short(path):
    return "/".join(os.path.normpath(path).split("/")[-2:])


def close(a, b, tol):
    return abs(a - b) <= tol


def compare_pair(ht, cs, base, new):
    hp, xml, nh = hatchet_paths(ht, base, new)
    metric = time_metric(cs, base)
    cp, total, outside, unmapped, (calls, sites) = callscope_paths(
        cs, base, new, metric, xml)
    tol0 = 1e-9 * max(1.0, abs(total))
    counts = {"agree": 0, "nan-new": 0, "zero": 0, "site": 0, "other": 0}
    bad = []
    shared = moved = 0
    for path in sorted(set(hp) | set(cp), key=lambda p: (len(p), p)):
        h, c = hp.get(path), cp.get(path)
        label = " / ".join(describe(f) for f in path)
        last = dict(path[-1])
        if c is None and last.get("type") == "statement" and \
                (path[:-1], last["line"]) in sites:
            counts["site"] += 1
            continue
        if h is None or c is None:
            counts["other"] += 1
            bad.append("only in %s: %s" % ("callscope" if h is None else "hatchet", label))
            continue
        if len(h) > 1 or len(c) > 1:
            shared += 1
        # experiment.xml writes its summaries with 6 significant digits
        # (callscope reads them; hatchet sums the .metric-db files)
        tol = tol0 + (XML_ROUNDING * sum(abs(x[0] or 0) + abs(x[1] or 0) for x in c)
                      if xml else 0)
        hnan = [math.isnan(x) for x in h]
        cd = [x[2] for x in c]
        cnone = all(x is None for x in cd)
        csum = sum(x for x in cd if x is not None)
        cbase = sum(x[0] for x in c if x[0] is not None)
        if (all(hnan) and cnone) or \
           (not any(hnan) and not cnone and close(sum(h), csum, tol)):
            counts["agree"] += 1
            if not any(hnan) and abs(sum(h)) > tol:
                moved += 1
        elif all(hnan) and all(x[1] is None for x in c) and \
                any(x[0] is not None for x in c) and close(csum, -cbase, tol):
            counts["nan-new"] += 1
        elif all(x == 0 for x in h) and \
                all(x[0] is None and x[1] is None for x in c):
            counts["zero"] += 1
        else:
            counts["other"] += 1
            bad.append("%s: hatchet %s, callscope %s" % (label, h, c))
    npaths = sum(counts.values())
    print("%s -> %s: hatchet %d nodes, callscope %d paths %s "
          "(%d nodes outside it, %d without a hatchet frame); %d paths: "
          "%d agree (%d of them non-zero), %d nan-new, %d zero, %d site, %d other "
          "(%d paths of several nodes)"
          % (short(base), short(new), nh, len(cp),
             "(%d call sites left out)" % calls if xml else "in the main thread",
             outside, len(unmapped), npaths,
             counts["agree"], moved, counts["nan-new"],
             counts["zero"], counts["site"], counts["other"],
             shared))
    for b in bad[:20]:
        print("  DIFFER " + b)
    return counts["other"] == 0


def factor(ctx):
    """The variant's factor at context id `ctx`: 1.0 to 2.0."""
    return 1 + (ctx * 7 % 11) / 10.0


def xml_variant(src, dst):
    """An experiment.xml database like SRC in DST: every context's values
    times factor(id), in the .metric-db files (row id - 1) and in the
    XML's inline <M> values (written whole), and the first call site
    inside a procedure inside a procedure (<C> three levels down: cpi's
    MPI_Init) removed with its subtree: its nodes are gone."""
    import shutil
    import struct
    shutil.copytree(src, dst)
    for name in os.listdir(dst):
        if not name.endswith(".metric-db"):
            continue
        path = os.path.join(dst, name)
        data = bytearray(open(path, "rb").read())
        nodes, metrics = struct.unpack(">ii", data[24:32])
        for row in range(nodes):
            for m in range(metrics):
                at = 32 + 8 * (row * metrics + m)
                (v,) = struct.unpack(">d", data[at:at + 8])
                data[at:at + 8] = struct.pack(">d", v * factor(row + 1))
        open(path, "wb").write(bytes(data))
    lines = open(os.path.join(src, "experiment.xml"), encoding="utf-8").read().split("\n")
    out, stack, cut = [], [], None
    inside = done = False
    for line in lines:
        t = line.strip()
        inside = inside or t.startswith("<SecCallPathProfileData")
        m = re.match(r'<(PF|Pr|C|L|S) i="(\d+)"', t) if inside else None
        if m and not t.endswith("/>"):
            stack.append((m.group(1), int(m.group(2))))
            if not done and m.group(1) == "C" and \
                    [k for k, _ in stack].count("PF") >= 2:
                cut, done = len(stack), True
        if cut is None:
            mv = re.match(r'(\s*<M n="\d+" v=")([^"]+)("/>.*)', line)
            if mv and stack:
                line = "%s%.17g%s" % (mv.group(1),
                                     float(mv.group(2)) * factor(stack[-1][1]),
                                     mv.group(3))
            out.append(line)
        if inside and re.match(r"</(PF|Pr|C|L|S)>", t):
            if cut is not None and len(stack) == cut:
                cut = None
            stack.pop()
    open(os.path.join(dst, "experiment.xml"), "w", encoding="utf-8").write("\n".join(out))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--xml-variant":
        xml_variant(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) < 4 or len(sys.argv) % 2:
        print(__doc__.split("\n\n")[1])
        return 2
    ht = import_hatchet()
    cs = sys.argv[1]
    ok = True
    for i in range(2, len(sys.argv), 2):
        ok = compare_pair(ht, cs, sys.argv[i], sys.argv[i + 1]) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
