#!/usr/bin/python3
"""Write Cube4 .cubex files from the format notes, with answers computed
here, apart from the reader (tests/test-cube-hostile.sh, bench/).

gen_cube.py OUT.cubex [--seed N] [--cnodes N] [--locs N] [--zlib]
            [--big-endian] [--gzip-anchor] [--dense] [--cube48]
            [--answers FILE] [--system nodes|named|cube3|flat]
            [--incl-csv FILE] [--metric-tree CSV] [--scale-func]
            [--hostile KIND] [--bench] [--sparse-set [--chain]]

Metrics: visits (EXCLUSIVE UINT64), time (INCLUSIVE DOUBLE), min_time
(EXCLUSIVE MINDOUBLE), bytes (EXCLUSIVE INT64, sparse: every third call
node), and with --bench four more (8 in all).  --answers writes
{cnode id: {metric: [incl, excl]}} (totals over locations).  --hostile
KIND writes a damaged file instead (see HOSTILE).  --bench writes call
nodes x 8 metrics x locations with ZCUBEX rows compressed once per
distinct row (fast to write, honest to read).  --system shapes the system
tree (see system_tree); --incl-csv writes pycubexr's incl.csv layout for
call node 0's time per location (tests/check_system_tree.py).
--metric-tree CSV writes a nested metric tree instead (see metric_tree),
and CSV.threads the own values per location (see write_threads)
and the values its metrics show collapsed and expanded into CSV.
--scale-func adds a fifth metric, scaling (EXCLUSIVE SCALE_FUNC), in
CubeLib's cell layout (scale_func_cell); --scale-csv FILE writes the
ranking codes the Cube GUI shows (scale_codes: terms of equal (b, c, d)
added over locations and the subtree, then the dominant term's code);
--scale-damage terms|zero-c|measurements damages the last row's last
cell (31 terms, a term with c = 0, 11 measurements); --scale-inclusive
stores the metric INCLUSIVE (each row its subtree's functions added).
"""
import gzip
import io
import json
import random
import struct
from fractions import Fraction
import sys
import tarfile
import zlib

HOSTILE = ["checksum", "trunc-header", "trunc-member", "trunc-end",
           "count", "ztable", "xml", "entity", "region", "no-anchor",
           "zrow", "tree-index", "dtype-size", "endian"]


def tree(n, rnd):
    parent = [-1]
    for i in range(1, n):
        # mostly deep-ish random trees; bounded fan-out
        parent.append(rnd.randrange(max(0, i - 8), i))
    children = [[] for _ in range(n)]
    for i in range(1, n):
        children[parent[i]].append(i)
    return parent, children


def wide_order(children, n):
    """CubeWideSearchEnumerator: root, then a node's children as a block,
    then each child's subtree the same way."""
    order = [0]
    stack = [0]
    while stack:
        x = stack.pop()
        order.extend(children[x])
        stack.extend(reversed(children[x]))
    return order


# Names of the "named" system tree, as XML text: a tab, CSI (U+009B, which
# a terminal takes for ESC [), markup, wide characters, a trailing space.
NAMES = ["rank&#9;tab", "&#x9b;31mred", "&lt;b&gt;bold&lt;/b&gt;",
         "\u30ce\u30fc\u30c9 \u4e00", "spaced ", "plain\u00e9",
         "n&#x9b;2J", "no\u00a0break"]


def system_tree(w, locs, kind):
    """The <system> tree: 4 threads a process; kind None: one machine;
    "nodes": 2 machines of 2 nodes each (classes machine, node), the
    processes dealt round the 4 nodes; "cube3": Cube 3's element names
    (machine > node > process > thread, no classes), 2 nodes; "flat": the
    processes right under <system>, no node at all; "named": as "nodes",
    the nodes and processes named with what a terminal must not see raw
    (a tab, the C1 control CSI U+009B, markup, wide characters) and one
    machine's name blank (NAMES)."""
    per = 4
    ngroups = (locs + per - 1) // per
    node_of = {None: lambda g: 0, "flat": lambda g: None,
               "nodes": lambda g: g % 4, "named": lambda g: g % 4,
               "cube3": lambda g: g % 2}[kind]
    named = kind == "named"

    def name(text, k):
        return NAMES[k % len(NAMES)] if named else text
    stn, node, grp, loc = (("machine", "node", "process", "thread")
                           if kind == "cube3" else
                           ("systemtreenode", "systemtreenode",
                            "locationgroup", "location"))
    cls = kind != "cube3"

    def groups(node):
        for g in range(ngroups):
            if node_of(g) != node:
                continue
            w(f'<{grp} Id="{g}"><name>{name("Rank %d" % g, g)}</name>'
              f'<rank>{g}</rank>'
              '<type>process</type>\n')
            for t in range(g * per, min(locs, g * per + per)):
                w(f'<{loc} Id="{t}"><name>thread {t - g * per}</name>'
                  f'<rank>{t - g * per}</rank><type>thread</type>'
                  f'</{loc}>\n')
            w(f'</{grp}>\n')

    if kind == "flat":
        groups(None)
        return
    nmach, nnode = {None: (1, 0), "nodes": (2, 2), "named": (2, 2),
                    "cube3": (1, 2)}[kind]
    for m in range(nmach):
        mname = "machine" + ("" if kind is None else " %d" % m)
        w(f'<{stn} Id="{m}"><name>{"  " if named and m else mname}'
          '</name>' + ('<class>machine</class>\n' if cls else '\n'))
        if not nnode:
            groups(0)
        for k in range(m * nnode, (m + 1) * nnode):
            w(f'<{node} Id="{nmach + k}">'
              f'<name>{name("node %d" % k, k + 4)}</name>' +
              ('<class>node</class>\n' if cls else '\n'))
            groups(k)
            w(f'</{node}>\n')
        w(f'</{stn}>\n')


def anchor(n, locs, parent, children, metrics, bad=None, system=None):
    out = io.StringIO()
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    if bad == "entity":
        w('<!DOCTYPE cube [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n')
    w('<cube version="4.4">\n<attr key="Creator" value="gen_cube.py"/>\n')
    w('<metrics>\n')
    # (name, type, dtype[, parent id, uom]): a metric's sub-metrics nest
    # in it; ids are in document order
    depth = []
    for mid, (name, mtype, dtype, *rest) in enumerate(metrics):
        par, uom = rest if rest else (None, "occ")
        while depth and depth[-1] != par:  # close the finished ones
            depth.pop()
            w('</metric>\n')
        kids = any(r[3:4] == (mid,) for r in metrics)
        pl = f'<cubepl>{DERIVED[name][0]}</cubepl>' if name in DERIVED \
            else ''
        w(f'<metric id="{mid}" type="{mtype}"><disp_name>{name.title()}'
          f'</disp_name><uniq_name>{name}</uniq_name><dtype>{dtype}</dtype>'
          f'<uom>{uom}</uom><descr>{name}</descr>{pl}' +
          ('\n' if kids else '</metric>\n'))
        if kids:
            depth.append(mid)
    w('</metric>\n' * len(depth))
    w('</metrics>\n<program>\n')
    nreg = min(n, 1000)
    for r in range(nreg):
        w(f'<region id="{r}" mod="gen.c" begin="{r + 1}" end="-1">'
          f'<name>f{r}</name></region>\n')
    # call nodes, nested, iteratively
    stack = [(0, False)]
    while stack:
        x, closing = stack.pop()
        if closing:
            w('</cnode>\n')
            continue
        callee = 999999 if bad == "region" and x == n - 1 else x % nreg
        w(f'<cnode id="{x}" calleeId="{callee}">\n')
        stack.append((x, True))
        for c in reversed(children[x]):
            stack.append((c, False))
    w('</program>\n<system>\n')
    system_tree(w, locs, system)
    w('</system>\n</cube>\n')
    text = out.getvalue()
    if bad == "xml":
        text = text[: len(text) // 2]
    return text.encode()


def pack_value(dtype, x, be):
    e = ">" if be else "<"
    return struct.pack(e + {"UINT64": "Q", "INT64": "q", "DOUBLE": "d",
                            "MINDOUBLE": "d", "MAXDOUBLE": "d"}[dtype], x)


def member_bytes(rows_by_tree, dtype, locs, be, z, dense, ntree):
    """index and data for {tree index: [values per location]}"""
    e = ">" if be else "<"
    tis = sorted(rows_by_tree)
    idx = b"CUBEX.INDEX" + struct.pack(e + "I", 1) + struct.pack(e + "H", 0)
    if dense:
        assert tis == list(range(ntree))
        idx += b"\x03"
    else:
        idx += b"\x01" + struct.pack(e + "I", len(tis))
        idx += b"".join(struct.pack(e + "I", t) for t in tis)
    rows = [b"".join(pack_value(dtype, v, be) for v in rows_by_tree[t])
            for t in tis]
    if not z:
        return idx, b"CUBEX.DATA" + b"".join(rows)
    table, streams, off = [], [], 0
    for i, r in enumerate(rows):
        c = zlib.compress(r)
        table.append(struct.pack(e + "QQQ", i * len(r), off, len(c)))
        streams.append(c)
        off += len(c)
    return idx, (b"ZCUBEX.DATA" + struct.pack(e + "Q", len(rows)) +
                 b"".join(table) + b"".join(streams))


def scale_func_cell(terms, be):
    """One SCALE_FUNC cell as CubeScaleFuncValue::toStream writes it:
    uint32 terms, uint32 measurements (0 here), per term double a, int32
    b, uint32 c, int32 d (the term a * x^(b/c) * log2(x)^d), then zeros up
    to getSize(): 30 terms of 20 bytes, 2 counts of 4, 10 measurements of
    24 = 848 bytes."""
    e = ">" if be else "<"
    cell = struct.pack(e + "II", len(terms), 0)
    cell += b"".join(struct.pack(e + "diIi", *t) for t in terms)
    return cell + bytes(848 - len(cell))


def scale_func_member(n, locs, rnd, be, damage=None, stored=None):
    """index and data of a SCALE_FUNC metric over every call node (dense
    in tree order), 1 to 3 random terms a cell, and the terms by row (in
    document order).  stored = (wide order, subtree of each cnode, the
    document order): the metric is stored INCLUSIVE, each row in the wide
    order holding the sum of its subtree's functions (c at most 2: at
    most 24 distinct terms, within a cell's 30)."""
    e = ">" if be else "<"
    idx = (b"CUBEX.INDEX" + struct.pack(e + "I", 1) + struct.pack(e + "H", 0)
           + b"\x03")
    cells, terms_of = [], []
    for _ in range(n * locs):
        terms = [(rnd.uniform(0.5, 9.0), rnd.randrange(0, 4),
                  rnd.randrange(1, 3 if stored else 4), rnd.randrange(0, 3))
                 for _ in range(rnd.randrange(1, 4))]
        terms_of.append(terms)
        cells.append(scale_func_cell(terms, be))
    if stored:
        wide, sub, pre = stored
        own = {c: terms_of[t * locs:(t + 1) * locs] for t, c in enumerate(pre)}
        cells = [scale_func_cell([(a,) + k for k, a in scale_merge(
            own[x][l] for x in sub[c]).items()], be)
            for c in wide for l in range(locs)]
    if damage == "terms":  # 31 terms: the count CubeLib cannot hold
        cells[-1] = struct.pack(e + "II", 31, 0) + cells[-1][8:]
    elif damage == "zero-c":
        cells[-1] = scale_func_cell([(1.0, 1, 0, 0)], be)
    elif damage == "measurements":
        cells[-1] = struct.pack(e + "II", 1, 11) + cells[-1][8:]
    rows = [terms_of[t * locs:(t + 1) * locs] for t in range(n)]
    return idx, b"CUBEX.DATA" + b"".join(cells), rows


def scale_merge(cells):
    """Functions added: the coefficients of equal (b, c, d) summed."""
    out = {}
    for terms in cells:
        for a, b, c, d in terms:
            out[(b, c, d)] = out.get((b, c, d), 0.0) + a
    return out


def scale_code(fn):
    """ScaleFuncValue::getDouble: 1000 b/c + d + a/1000 of the dominant
    term (the largest b/c, then d, then a); None for no term."""
    if not fn:
        return None
    (b, c, d), a = max(fn.items(), key=lambda t: (Fraction(t[0][0],
                                                           t[0][1]),
                                                  t[0][2], t[1]))
    return 1000.0 * b / c + d + a / 1000.0


def subtrees(n, children):
    sub = [None] * n
    for c in range(n - 1, -1, -1):  # children have larger ids
        sub[c] = [c] + [x for k in children[c] for x in sub[k]]
    return sub


def scale_codes(path, n, locs, children, rows_of):
    """CSV: cnode (or root), I/E, location (or all), the code."""
    sub = subtrees(n, children)
    with open(path, "w") as f:
        f.write("cnode,kind,loc,code\n")
        roots = [("root", "I", list(range(n)))]
        nodes = [(str(c), k, sub[c] if k == "I" else [c])
                 for c in range(n) for k in "IE"]
        for name, kind, cs in roots + nodes:
            for loc in ["all"] + list(range(locs)):
                ls = range(locs) if loc == "all" else [loc]
                code = scale_code(scale_merge(rows_of[c][l]
                                              for c in cs for l in ls))
                if code is not None:
                    f.write("%s,%s,%s,%r\n" % (name, kind, loc, code))


def write_tar(path, members, bug=False):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mtime = 0
            t.addfile(ti, io.BytesIO(data))
    raw = bytearray(buf.getvalue())
    return raw


def small(args, rnd):
    n, locs = args["cnodes"], args["locs"]
    be, z = args["big_endian"], args["zlib"]
    parent, children = tree(n, rnd)
    metrics = [("visits", "EXCLUSIVE", "UINT64"),
               ("time", "INCLUSIVE", "DOUBLE"),
               ("min_time", "EXCLUSIVE", "MINDOUBLE"),
               ("bytes", "EXCLUSIVE", "INT64")]
    excl = {
        "visits": [[rnd.randrange(1, 1000) for _ in range(locs)]
                   for _ in range(n)],
        "time": [[rnd.uniform(0.001, 2.0) for _ in range(locs)]
                 for _ in range(n)],
        "min_time": [[rnd.uniform(0.001, 2.0) for _ in range(locs)]
                     for _ in range(n)],
        "bytes": [[rnd.randrange(-50, 10**6) if c % 3 == 0 else 0
                   for _ in range(locs)] for c in range(n)],
    }
    incl = {}
    for name, (_, _, dtype) in zip(excl, metrics):
        agg = min if dtype == "MINDOUBLE" else None
        inc = [row[:] for row in excl[name]]
        for c in range(n - 1, 0, -1):
            p = parent[c]
            for l in range(locs):
                inc[p][l] = agg(inc[p][l], inc[c][l]) if agg else \
                    inc[p][l] + inc[c][l]
        incl[name] = inc
    wide = wide_order(children, n)
    pre, stack = [], [0]  # document order: the EXCLUSIVE tree index
    while stack:
        x = stack.pop()
        pre.append(x)
        stack.extend(reversed(children[x]))
    members = []
    for mid, (name, mtype, dtype) in enumerate(metrics):
        if mtype == "INCLUSIVE":
            rows = {t: incl[name][c] for t, c in enumerate(wide)}
        else:
            rows = {t: excl[name][c] for t, c in enumerate(pre)
                    if name != "bytes" or c % 3 == 0}
        dense = args["dense"] and len(rows) == n
        idx, data = member_bytes(rows, dtype, locs, be, z, dense, n)
        members += [(f"{mid}.index", idx), (f"{mid}.data", data)]
    if args.get("scale_func"):
        stored = (wide, subtrees(n, children), pre) \
            if args.get("scale_inclusive") else None
        idx, data, rows = scale_func_member(n, locs, rnd, be,
                                            args.get("scale_damage"), stored)
        if args.get("scale_csv"):
            rows_of = {c: rows[t] for t, c in enumerate(pre)}
            scale_codes(args["scale_csv"], n, locs, children, rows_of)
        members += [(f"{len(metrics)}.index", idx),
                    (f"{len(metrics)}.data", data)]
        metrics = metrics + [("scaling", "INCLUSIVE" if stored else
                              "EXCLUSIVE", "SCALE_FUNC")]
    a = anchor(n, locs, parent, children, metrics, args["hostile"],
               args["system"])
    if args["gzip_anchor"]:
        a = gzip.compress(a)
    if args["hostile"] != "no-anchor":
        members.append(("anchor.xml", a))
    if args["incl_csv"]:
        with open(args["incl_csv"], "w") as f:
            f.write("Cnode ID, Thread ID,time\n")
            for t in range(locs):
                f.write("0,%d,%r\n" % (t, incl["time"][0][t]))
    answers = {}
    for c in range(n):
        d = {}
        for name, (_, mtype, dtype) in zip(excl, metrics):
            agg = min if dtype == "MINDOUBLE" else sum
            ie = agg(incl[name][c])
            ee = agg(excl[name][c])
            if mtype == "INCLUSIVE":
                ee = sum(incl[name][c]) - sum(sum(incl[name][k])
                                              for k in children[c])
            d[name] = [ie, ee]
        answers[c] = d
    return members, answers


# --metric-tree: Score-P's and Scalasca's shape, (name, type, dtype,
# parent id, uom) in document order: time > execution > mpi > comm,
# execution > io (PREDERIVED_EXCLUSIVE: DERIVED's CubePL, half of comm),
# time > overhead; visits; bytes > bytes_sent (every third call node);
# max_time > max_mpi (MAXDOUBLE); min_time > min_mpi (MINDOUBLE).  Stored
# INCLUSIVE and EXCLUSIVE along the call tree, all of them metric-inclusive
# (a parent holds its sub-metrics; execution holds io too).
TREE = [("time", "INCLUSIVE", "DOUBLE", None, "sec"),
        ("execution", "EXCLUSIVE", "DOUBLE", 0, "sec"),
        ("mpi", "INCLUSIVE", "DOUBLE", 1, "sec"),
        ("comm", "EXCLUSIVE", "DOUBLE", 2, "sec"),
        ("io", "PREDERIVED_EXCLUSIVE", "DOUBLE", 1, "sec"),
        ("overhead", "EXCLUSIVE", "DOUBLE", 0, "sec"),
        ("visits", "EXCLUSIVE", "UINT64", None, "occ"),
        ("bytes", "EXCLUSIVE", "UINT64", None, "bytes"),
        ("bytes_sent", "EXCLUSIVE", "UINT64", 7, "bytes"),
        ("max_time", "EXCLUSIVE", "MAXDOUBLE", None, "sec"),
        ("max_mpi", "EXCLUSIVE", "MAXDOUBLE", 9, "sec"),
        ("min_time", "EXCLUSIVE", "MINDOUBLE", None, "sec"),
        ("min_mpi", "EXCLUSIVE", "MINDOUBLE", 11, "sec")]
AGG = {"MAXDOUBLE": max, "MINDOUBLE": min}
DERIVED = {"io": ("metric::comm() * 0.5", "comm", 0.5)}


def tree_values(n, locs, parent, rnd):
    """Call-exclusive values [metric][cnode][location]: each metric's own
    share plus its sub-metrics' (for MAXDOUBLE and MINDOUBLE the maximum
    or minimum of them); bytes' share may be below zero (a noisy counter:
    bytes_sent above bytes; bytes itself is never below 0)."""
    kids = [[k for k, t in enumerate(TREE) if t[3] == m]
            for m in range(len(TREE))]
    excl = [None] * len(TREE)
    depth = [0] * len(TREE)
    for m, t in enumerate(TREE):
        depth[m] = 0 if t[3] is None else depth[t[3]] + 1
    # deepest first: sub-metrics before their parents, comm before io
    for m in sorted(range(len(TREE)), key=lambda k: (-depth[k], -k)):
        name, _, dtype = TREE[m][:3]
        rows = []
        if name in DERIVED:
            src = [t[0] for t in TREE].index(DERIVED[name][1])
            excl[m] = [[v * DERIVED[name][2] for v in row]
                       for row in excl[src]]
            continue
        for c in range(n):
            row = []
            for lc in range(locs):
                sub = [excl[k][c][lc] for k in kids[m]]
                if dtype in AGG:
                    v = AGG[dtype]([rnd.uniform(0.001, 2.0)] + sub)
                elif dtype == "DOUBLE":
                    v = rnd.uniform(0.001, 2.0) + sum(sub)
                elif name.startswith("bytes"):
                    # bytes' own share is often below zero
                    v = max(0, rnd.randrange(-600 if sub else 0, 1000) +
                            sum(sub)) if c % 3 == 0 else 0
                else:
                    v = rnd.randrange(1, 1000) + sum(sub)
                row.append(v)
            rows.append(row)
        excl[m] = rows
    return excl, kids


def metric_tree(args, rnd):
    """--metric-tree: the TREE metrics over a random call tree, and the
    values the Cube GUI shows per call node (over all locations: summed,
    or the maximum or minimum) for each metric, call-tree inclusive and
    exclusive, collapsed in the metric tree (the stored value) and
    expanded (CubeLib's Cube::get_sev with CUBE_CALCULATE_EXCLUSIVE for
    the metric: the stored value less each sub-metric's, where for
    MAXDOUBLE "less" is a minimum and for MINDOUBLE a maximum,
    Cube{Max,Min}DoubleValue::operator-=), into the CSV: cnode, name,
    metric, call (incl, excl), form (collapsed, expanded), value."""
    n, locs = args["cnodes"], args["locs"]
    parent, children = tree(n, rnd)
    excl, kids = tree_values(n, locs, parent, rnd)
    incl = []
    for m, (_, _, dtype, _, _) in enumerate(TREE):
        inc = [row[:] for row in excl[m]]
        agg = AGG.get(dtype)
        for c in range(n - 1, 0, -1):
            p = parent[c]
            for lc in range(locs):
                inc[p][lc] = agg(inc[p][lc], inc[c][lc]) if agg else \
                    inc[p][lc] + inc[c][lc]
        incl.append(inc)
    wide = wide_order(children, n)
    pre, stack = [], [0]
    while stack:
        x = stack.pop()
        pre.append(x)
        stack.extend(reversed(children[x]))
    members = []
    for m, (name, mtype, dtype, _, _) in enumerate(TREE):
        if name in DERIVED:
            continue  # computed by the reader from its CubePL
        if mtype == "INCLUSIVE":
            rows = {t: incl[m][c] for t, c in enumerate(wide)}
        else:
            rows = {t: excl[m][c] for t, c in enumerate(pre)
                    if not name.startswith("bytes") or c % 3 == 0}
        idx, data = member_bytes(rows, dtype, locs, args["big_endian"],
                                 args["zlib"], False, n)
        members += [(f"{m}.index", idx), (f"{m}.data", data)]
    members.append(("anchor.xml", anchor(n, locs, parent, children, TREE,
                                         None, args["system"])))
    with open(args["metric_tree"], "w") as f:
        f.write("cnode,name,metric,call,form,value\n")
        for c in range(n):
            for call, vals in (("incl", incl), ("excl", excl)):
                tot = [AGG.get(t[2], sum)(vals[m][c])
                       for m, t in enumerate(TREE)]
                for m, t in enumerate(TREE):
                    own = tot[m]
                    for k in kids[m]:
                        own = (min(own, tot[k]) if t[2] == "MAXDOUBLE" else
                               max(own, tot[k]) if t[2] == "MINDOUBLE" else
                               own - tot[k])
                    for form, v in (("collapsed", tot[m]),
                                    ("expanded", own)):
                        f.write("%d,f%d,%s,%s,%s,%r\n" % (
                            c, c, t[0], call, form, v))
    write_threads(args["metric_tree"] + ".threads", n, locs, incl, excl, kids)
    return members


def write_threads(path, n, locs, incl, excl, kids):
    """CSV.threads: each call node's expanded (own) value per location of
    every metric with sub-metrics, as CubeLib computes it for one
    location: the location's stored value less each sub-metric's at the
    location (MAXDOUBLE: their minimum, MINDOUBLE: their maximum)."""
    with open(path, "w") as f:
        f.write("cnode,name,metric,call,loc,value\n")
        for c in range(n):
            for call, vals in (("incl", incl), ("excl", excl)):
                for m, t in enumerate(TREE):
                    if not kids[m]:
                        continue
                    for lc in range(locs):
                        own = vals[m][c][lc]
                        for k in kids[m]:
                            v = vals[k][c][lc]
                            own = (min(own, v) if t[2] == "MAXDOUBLE" else
                                   max(own, v) if t[2] == "MINDOUBLE" else
                                   own - v)
                        f.write("%d,f%d,%s,%s,%d,%r\n" % (
                            c, c, t[0], call, lc, own))


def damage(raw, kind, members):
    raw = bytearray(raw)
    # offsets of members in the tar (header at data - 512)
    offs = {}
    off = 0
    while off + 512 <= len(raw) and any(raw[off:off + 512]):
        name = raw[off:off + 100].split(b"\0")[0].decode()
        size = int(raw[off + 124:off + 136].split(b"\0")[0] or b"0", 8)
        offs[name] = off + 512
        off += 512 + (size + 511) // 512 * 512
    if kind == "checksum":
        raw[600 + 512 * 0] ^= 0  # keep member bytes
        raw[1] ^= 0x20  # name byte of the first header, checksum unchanged
    elif kind == "trunc-header":
        raw = raw[:offs["1.index"] - 512 + 100]
    elif kind == "trunc-member":
        raw = raw[:offs["1.data"] + 10]
    elif kind == "trunc-end":
        raw = raw[:offs["anchor.xml"] + 20]
    elif kind == "count":
        o = offs["0.index"] + 18
        raw[o:o + 4] = b"\xff\xff\xff\x7f"
    elif kind == "ztable":
        o = offs["0.data"] + 11
        raw[o:o + 8] = b"\xff" * 7 + b"\x0f"
    elif kind == "zrow":
        o = offs["1.data"]
        n = struct.unpack("<Q", raw[o + 11:o + 19])[0]
        s = o + 19 + 24 * n
        for i in range(2, 12):
            raw[s + i] ^= 0x5a
    elif kind == "tree-index":
        o = offs["0.index"] + 22
        raw[o:o + 4] = b"\xff\xff\xff\x00"
    elif kind == "dtype-size":
        o = offs["0.data"]
        size = int(raw[o - 512 + 124:o - 512 + 136].split(b"\0")[0], 8)
        # shorten the data member: rows no longer fit
        hdr = bytearray(raw[o - 512:o])
        newsize = 12
        hdr[124:136] = b"%011o\0" % newsize
        hdr[148:156] = b"        "
        hdr[148:156] = b"%06o\0 " % sum(hdr)
        raw[o - 512:o] = hdr
        del raw[o + 512:o + (size + 511) // 512 * 512]
    elif kind == "endian":
        o = offs["0.index"] + 11
        raw[o:o + 4] = b"\x07\x00\x00\x00"
    return bytes(raw)


def cube48(raw):
    """Every header's checksum 32 below the correct one: the Cube 4.8
    writer's bug (corpus bt-mz_sum.p2.r1/cube4.8_with_checksum_bug)."""
    raw = bytearray(raw)
    off = 0
    while off + 512 <= len(raw) and any(raw[off:off + 512]):
        h = raw[off:off + 512]
        h[148:156] = b"        "
        raw[off + 148:off + 156] = b"%06o\0 " % (sum(h) - 32)
        size = int(raw[off + 124:off + 136].split(b"\0")[0] or b"0", 8)
        off += 512 + (size + 511) // 512 * 512
    return bytes(raw)


def bench(args, out):
    """n call nodes x 8 metrics x locs: ZCUBEX, rows repeated from a few
    distinct compressed rows; INCLUSIVE time rows are consistent with
    EXCLUSIVE ones only in shape (a speed and memory benchmark)."""
    n, locs = args["cnodes"], args["locs"]
    rnd = random.Random(args["seed"])
    parent = [-1] + [(i - 1) // 4 for i in range(1, n)]  # depth ~10
    children = [[] for _ in range(n)]
    for i in range(1, n):
        children[parent[i]].append(i)
    metrics = [("time", "INCLUSIVE", "DOUBLE"),
               ("visits", "EXCLUSIVE", "UINT64"),
               ("min_time", "EXCLUSIVE", "MINDOUBLE"),
               ("max_time", "EXCLUSIVE", "MINDOUBLE"),
               ("bytes_sent", "EXCLUSIVE", "UINT64"),
               ("bytes_received", "EXCLUSIVE", "UINT64"),
               ("PAPI_TOT_CYC", "INCLUSIVE", "UINT64"),
               ("PAPI_TOT_INS", "INCLUSIVE", "UINT64")]
    a = anchor(n, locs, parent, children, metrics)
    with tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as t:
        def add(name, data):
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
        for mid, (name, mtype, dtype) in enumerate(metrics):
            distinct = []
            for k in range(16):
                v = [rnd.uniform(1, 2) if "DOUBLE" in dtype
                     else rnd.randrange(1, 100) for _ in range(locs)]
                distinct.append(zlib.compress(
                    b"".join(pack_value(dtype, x, False) for x in v), 9))
            idx = (b"CUBEX.INDEX" + struct.pack("<IH", 1, 0) + b"\x03")
            table = bytearray(struct.pack("<Q", n))
            offs, acc = [], 0
            for d in distinct:
                offs.append(acc)
                acc += len(d)
            rowbytes = locs * 8
            entries = [struct.pack("<QQQ", i * rowbytes, offs[i % 16],
                                   len(distinct[i % 16])) for i in range(n)]
            table += b"".join(entries)
            add(f"{mid}.index", idx)
            add(f"{mid}.data", b"ZCUBEX.DATA" + bytes(table) +
                b"".join(distinct))
        add("anchor.xml", a)


def sparse_set(args, out):
    """--sparse-set: n call nodes (4 children each, or a chain with
    --chain) x locs locations, one EXCLUSIVE DOUBLE metric "time" with rows
    for the first 4 call nodes only (value 1 + location); a Cube-set
    reader must not cost call nodes x locations."""
    n, locs = args["cnodes"], args["locs"]
    if args["chain"]:
        parent = [-1] + [i - 1 for i in range(1, n)]
    else:
        parent = [-1] + [(i - 1) // 4 for i in range(1, n)]
    children = [[] for _ in range(n)]
    for i in range(1, n):
        children[parent[i]].append(i)
    metrics = [("time", "EXCLUSIVE", "DOUBLE")]
    pre, stack = [], [0]
    while stack:
        x = stack.pop()
        pre.append(x)
        stack.extend(reversed(children[x]))
    rows = {t: [1.0 + l for l in range(locs)] for t in range(min(4, n))}
    idx, data = member_bytes(rows, "DOUBLE", locs, False, False, False, n)
    members = [("0.index", idx), ("0.data", data),
               ("anchor.xml", anchor(n, locs, parent, children, metrics))]
    with open(out, "wb") as f:
        f.write(write_tar(out, members))


def main():
    argv = sys.argv[1:]
    args = dict(seed=1, cnodes=40, locs=4, zlib=False, big_endian=False,
                gzip_anchor=False, dense=False, answers=None, hostile=None,
                bench=False, chain=False, system=None, incl_csv=None,
                metric_tree=None)
    out = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--seed", "--cnodes", "--locs"):
            args[a[2:]] = int(argv[i + 1])
            i += 2
        elif a in ("--answers", "--hostile", "--system", "--incl-csv",
                   "--metric-tree", "--scale-csv", "--scale-damage"):
            args[a[2:].replace("-", "_")] = argv[i + 1]
            i += 2
        elif a.startswith("--"):
            args[a[2:].replace("-", "_")] = True
            i += 1
        else:
            out = a
            i += 1
    if not out:
        print(__doc__, file=sys.stderr)
        return 64
    if args["bench"]:
        bench(args, out)
        return 0
    if args.get("sparse_set"):
        sparse_set(args, out)
        return 0
    rnd = random.Random(args["seed"])
    if args["metric_tree"]:
        with open(out, "wb") as f:
            f.write(write_tar(out, metric_tree(args, rnd)))
        return 0
    members, answers = small(args, rnd)
    raw = write_tar(out, members)
    if args["hostile"] and args["hostile"] not in ("xml", "entity",
                                                   "region", "no-anchor"):
        raw = damage(raw, args["hostile"], members)
    if args.get("cube48"):
        raw = cube48(raw)
    with open(out, "wb") as f:
        f.write(raw)
    if args["answers"]:
        with open(args["answers"], "w") as f:
            json.dump(answers, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
