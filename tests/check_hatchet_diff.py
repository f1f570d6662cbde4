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
several nodes of one side share a path their deltas are summed on that
side.  Every path falls in one of:

  agree      both have the same delta (within 1e-9 of the base total), or
             neither has one;
  nan-new    hatchet has no delta (NaN) where the new run has no value
             (a gone node, or a node with no sample in the new run): its
             `DataFrame.update` keeps NaN, callscope gives -base; checked:
             callscope's new value is null and its delta is -base;
  duplicate  the path is hatchet's for several sibling nodes of one run
             (its reader shortens names: `f(int)`, `f(double)`,
             `f.cold` all become `function: f`), which its union pairs in
             order and callscope keeps apart or merges; checked: the sums
             agree, else counted here and listed;
  other      anything else: a failure, listed.

Nodes outside the main thread (other entry points: hatchet's v4 reader
reads only the entry of kind 1) are left out and counted.  Exit status:
0 when every path is agree, nan-new or duplicate; 1 otherwise; 77 when no
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


def frame_of(node, xml):
    """The (type, name) frame hatchet's reader makes of a callscope node,
    or None when it makes none."""
    kind, name = node["kind"], node["name"] or ""
    if kind == "entry":
        return ("entry", "entry")
    if kind == "function":
        if xml:
            return ("function", name)
        return ("function", "function: " + hatchet_name(name))
    if kind in ("loop", "line"):
        if node["file"] is None:
            return None
        line = node["line"] or 0  # callscope gives no line 0 (unknown)
        if xml:
            return (kind, "%s:%d" % (node["file"], line))
        return (kind, "%s %s:%d" % (kind, hatchet_file(node["file"]), line))
    if kind == "instruction":
        m = re.search(r"@0x([0-9a-fA-F]+)$", name)
        if not m or node["module"] is None:
            return None
        return ("instruction", "%s:%d" % (node["module"], int(m.group(1), 16)))
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
    paths, outside, unmapped = {}, 0, []
    for n in d["nodes"]:
        chain, p = [], n
        while p is not None and p["kind"] != "root":
            chain.append(p)
            p = by_id.get(p["parent"])
        if not chain:
            continue
        chain.reverse()
        entry = chain[0]
        if entry["kind"] != "entry" or entry["name"] != "main thread":
            outside += 1
            continue
        frames = [frame_of(x, xml) for x in chain]
        if None in frames:
            unmapped.append(n)
            continue
        v = n["values"]
        paths.setdefault(tuple(frames), []).append((v[ib], v[inew], v[idel], n["status"]))
    return paths, total, outside, unmapped


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
            frames.append((p.frame["type"], p.frame["name"]))
            p = p.parents[0] if p.parents else None
        frames.reverse()
        v = df.loc[node, inc]
        if hasattr(v, "iloc"):
            v = v.iloc[0]
        paths.setdefault(tuple(frames), []).append(float(v))
    return paths, xml, len(d.graph)


def short(path):
    return "/".join(os.path.normpath(path).split("/")[-2:])


def close(a, b, tol):
    return abs(a - b) <= tol


def compare_pair(ht, cs, base, new):
    hp, xml, nh = hatchet_paths(ht, base, new)
    metric = time_metric(cs, base)
    cp, total, outside, unmapped = callscope_paths(cs, base, new, metric, xml)
    tol = 1e-9 * max(1.0, abs(total))
    counts = {"agree": 0, "nan-new": 0, "duplicate": 0, "other": 0}
    bad = []
    shared = moved = 0
    for path in sorted(set(hp) | set(cp), key=lambda p: (len(p), p)):
        h, c = hp.get(path), cp.get(path)
        label = " / ".join(f[1] for f in path)
        if h is None or c is None:
            counts["other"] += 1
            bad.append("only in %s: %s" % ("callscope" if h is None else "hatchet", label))
            continue
        if len(h) > 1 or len(c) > 1:
            shared += 1
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
        elif len(h) > 1 or len(c) > 1:
            counts["duplicate"] += 1
            print("  duplicate: %s: hatchet %s, callscope %s" % (label, h, cd))
        else:
            counts["other"] += 1
            bad.append("%s: hatchet %s, callscope %s" % (label, h, c))
    npaths = sum(counts.values())
    print("%s -> %s: hatchet %d nodes, callscope %d paths in the main thread "
          "(%d nodes outside it, %d without a hatchet frame); %d paths: "
          "%d agree (%d of them non-zero), %d nan-new, %d duplicate, %d other (%d paths of several nodes)"
          % (short(base), short(new), nh, len(cp), outside, len(unmapped), npaths,
             counts["agree"], moved, counts["nan-new"], counts["duplicate"], counts["other"],
             shared))
    for b in bad[:20]:
        print("  DIFFER " + b)
    return counts["other"] == 0


def main():
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
