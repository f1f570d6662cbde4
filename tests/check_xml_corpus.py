#!/usr/bin/env python3
"""check_xml_corpus: one experiment.xml database (directory or lone .xml)
against callscope's output, with every answer computed here, independently
of the reader:

- the tree: Python's xml.etree reads the call path elements (PF, Pr, C, L,
  S); `callscope report --format json --metric all` must list the same
  nodes (ids, parents, kinds);
- values: where the XML has inline <M> values, every column of a metric
  without a formula (or with the identity formula) equals them at every
  node, and formula columns (Mean, StdDev, CfVar, #N ratios) equal the
  formula evaluated here at the root; without inline values, the Sum
  columns equal sums over the per-thread files (*.metric-db, the mdb) or
  the summary profile of profile.db, decoded here with `struct`;
- traces: the line count and sample total equal those of the trace files
  (hpctrace, mt, trace.db) counted here, and every context `callscope trace
  --at` reports is a node the XML gives a trace id (`it`).

Usage: check_xml_corpus.py CALLSCOPE DB [--empty]  (--empty: no values
expected).  Prints FAIL lines and exits 1 on a mismatch."""
import array
import glob
import json
import math
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import xml.parsers.expat

TREE = {"PF": "function", "Pr": "function", "C": "line", "L": "loop",
        "S": "line"}
VARIANTS = ("Sum", "Mean", "StdDev", "CfVar", "Min", "Max", "PARTIAL")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: %s" % msg)


def expat_walk(path, start, end):
    """Parse the XML file at path with expat: start(name, attributes) and
    end(name) for every element."""
    p = xml.parsers.expat.ParserCreate()
    p.StartElementHandler = start
    p.EndElementHandler = end
    with open(path, "rb") as f:
        p.ParseFile(f)


def run(*args):
    out = subprocess.run(args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, timeout=600)
    if out.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(args[1:3]), out.returncode,
                                  out.stderr.decode(errors="replace")))
        return None
    return json.loads(out.stdout)


def split_name(n):
    """'T (us):Mean (I)' -> ('T (us)', 'Mean', 'inclusive' or None)"""
    kind = None
    if n.endswith(" (I)") or n.endswith(" (E)"):
        kind = "inclusive" if n[-2] == "I" else "exclusive"
        n = n[:-4]
    for i, c in enumerate(n):
        if c == ":" and n[i + 1:].startswith(VARIANTS):
            return n[:i], n[i + 1:], kind
    return n, "", kind


class Xml:
    def __init__(self, path):
        self.nodes = {}       # id -> (parent id, kind)
        self.order = []
        self.values = {}      # (ctx, metric id) -> value
        self.metrics = []     # dicts
        self.dbs = []
        self.traced = set()   # ids of elements with an `it`
        self.trace_db = None
        stack = []
        for ev, el in ET.iterparse(path, events=("start", "end")):
            tag = el.tag
            if ev == "end":
                if tag in TREE or tag == "SecCallPathProfileData":
                    stack.pop()
                if tag in ("M", "PF", "Pr", "C", "L", "S", "Procedure",
                           "File", "LoadModule"):
                    el.clear()
                continue
            a = el.attrib
            if tag == "Metric":
                self.metrics.append(dict(a, formulas={}))
            elif tag == "MetricFormula" and self.metrics:
                self.metrics[-1]["formulas"][a.get("t", "finalize")] = \
                    a["frm"]
            elif tag == "MetricDB":
                self.dbs.append(a)
            elif tag == "TraceDB":
                self.trace_db = a
            elif tag == "SecCallPathProfileData":
                stack.append(0)
            elif tag in TREE and stack:
                # i="-N" (4.0) shares context N's values and trace id;
                # reports show it as -N, so ids are unique
                i = int(a["i"])
                self.nodes.setdefault(i, [])
                self.nodes[i].append((stack[-1], TREE[tag]))
                self.order.append(i)
                if "it" in a:
                    self.traced.add(abs(i))
                stack.append(i)
            elif tag == "M" and stack:
                self.values[(abs(stack[-1]), int(a["n"]))] = float(a["v"])

    def metric(self, mid):
        return next((m for m in self.metrics if int(m["i"]) == mid), None)


def by_order(x, order, exclusive):
    for m in x.metrics:
        if m.get("o") == str(order):
            if exclusive and m.get("t") != "exclusive" and "partner" in m:
                return x.metric(int(m["partner"]))
            return m
    return None


def evaluate(x, m, ctx, leaf):
    """The finalize/view formula of metric m at ctx; leaf(mid) gives a
    metric's stored value (0 when absent)."""
    frm = m["formulas"].get("finalize") or m["formulas"].get("view")
    if not frm:
        return leaf(int(m["i"]))
    excl = m.get("t") == "exclusive"
    seen = []

    def leaf_seen(i):
        v = leaf(i)
        seen.append(v is not None)
        return v or 0.0
    frm = re.sub(r"#(\d+)", lambda g: "$%s" % by_order(
        x, int(g.group(1)), excl)["i"], frm)
    expr = re.sub(r"\$(\d+)", lambda g: "leaf(%s)" % g.group(1), frm)
    expr = expr.replace("^", "**")

    def div(a, b):
        return 0.0 if b == 0 else a / b
    # a / b with the zero rule: rewrite through a tiny float subclass
    class F(float):
        def __truediv__(s, o):
            return F(div(float(s), float(o)))

        def __rtruediv__(s, o):
            return F(div(float(o), float(s)))

        def _op(f):
            return lambda s, o: F(f(float(s), float(o)))
        __add__ = _op(lambda a, b: a + b)
        __radd__ = _op(lambda a, b: b + a)
        __sub__ = _op(lambda a, b: a - b)
        __rsub__ = _op(lambda a, b: b - a)
        __mul__ = _op(lambda a, b: a * b)
        __rmul__ = _op(lambda a, b: b * a)
        __pow__ = _op(lambda a, b: a ** b)
    env = {"leaf": lambda i: F(leaf_seen(int(i))),
           "sqrt": lambda v: F(math.sqrt(v)) if v >= 0 else F(float("nan")),
           "pow": lambda a, b: F(float(a) ** float(b)),
           "min": lambda *a: F(min(a)), "max": lambda *a: F(max(a)),
           "sum": lambda *a: F(sum(a))}
    expr = re.sub(r"(?<![\w.])(\d+(\.\d*)?([eE][-+]?\d+)?)", r"F(\1)", expr)
    env["F"] = F
    v = float(eval(expr, env))  # formulas of the corpus files only
    return v if any(seen) else None


def close(a, b):
    if a is None or b is None:
        return a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def shown(x, ctx, mid):
    """The inline value of metric `mid` at `ctx` as a viewer shows it:
    hpcprof writes DBL_MIN (2.22507e-308) as the Min / Max of a context
    where no thread has a value, and a ":num-src" count where the sum it
    divides ("BASE:Mean:num-src (E)" -> "BASE:Mean (E)") has none; both
    mean "no value"."""
    ctx = abs(ctx)
    w = x.values.get((ctx, mid))
    m = x.metric(mid)
    if w is None or m is None:
        return w
    base, var, _ = split_name(m["n"])
    comb = m["formulas"].get("combine", "")
    if (var in ("Min", "Max") or comb.startswith(("min(", "max("))) and \
            abs(w) < 1e-300:
        return None
    if ":num-src" in m["n"]:
        gate = next((g for g in x.metrics
                     if g["n"] == m["n"].replace(":num-src", "", 1)), None)
        if gate is not None and (ctx, int(gate["i"])) not in x.values:
            return None
    return w


# --- per-thread files, decoded here --------------------------------------
def metricdb(b, off=0):
    if b[off:off + 18] != b"HPCPROF-metricdb__":
        raise ValueError("metric-db magic")
    n, m = struct.unpack_from(">II", b, off + 24)
    v = array.array("d", b[off + 32:off + 32 + 8 * n * m])
    if sys.byteorder == "little":
        v.byteswap()
    return n, m, v


def thread_files(d):
    """[(nNodes, nMetrics, doubles)] of the *.metric-db or the mdb."""
    mdb = os.path.join(d, "experiment-1.mdb")
    if os.path.exists(mdb):
        b = open(mdb, "rb").read()
        _, n = struct.unpack_from(">II", b, 0)
        offs = [struct.unpack_from(">IIQ", b, 8 + 16 * i)[2]
                for i in range(n)]
        return [metricdb(b, o) for o in offs]
    return [metricdb(open(p, "rb").read())
            for p in sorted(glob.glob(os.path.join(d, "*.metric-db")))]


def sparse_summary(d):
    """(ctx, metric id) -> value of profile.db's summary profile."""
    p = open(os.path.join(d, "profile.db"), "rb").read()
    pi_ptr, = struct.unpack_from(">Q", p, 32)
    nv, nz, off = struct.unpack_from(">QIQ", p, pi_ptr + 32)
    ctxs = [struct.unpack_from(">IQ", p, off + 10 * nv + 12 * k)
            for k in range(nz + 1)]
    out = {}
    for k in range(nz):
        for j in range(ctxs[k][1], ctxs[k + 1][1]):
            v, mid = struct.unpack_from(">dH", p, off + 10 * j)
            out[(ctxs[k][0], mid)] = v
    return out


def trace_counts(d):
    """(lines, samples) of the trace files, or None."""
    files = sorted(glob.glob(os.path.join(d, "*.hpctrace")))
    mt = os.path.join(d, "experiment.mt")
    if os.path.exists(mt):
        b = open(mt, "rb").read()
        _, n = struct.unpack_from(">II", b, 0)
        ents = [struct.unpack_from(">IIQ", b, 8 + 16 * i) for i in range(n)]
        end = len(b) - 8 if b[-8:] == b"\xff\xff\xff\xff\xde\xad\xf0\x0d" \
            else len(b)
        offs = [e[2] for e in ents] + [end]
        blobs = [b[offs[i]:offs[i + 1]] for i in range(n)]
    elif files:
        blobs = [open(f, "rb").read() for f in files]
    else:
        return None
    total = 0
    for t in blobs:
        head = 32 if t[18:23] == b"01.01" else 24
        total += (len(t) - head) // 12
    return len(blobs), total


# --- the checks ------------------------------------------------------------
def main():
    cs, db = sys.argv[1], sys.argv[2]
    empty = "--empty" in sys.argv
    path = os.path.join(db, "experiment.xml") if os.path.isdir(db) else db
    d = os.path.dirname(path)
    x = Xml(path)
    rep = run(cs, "report", db, "--format", "json", "--metric", "all")
    info = run(cs, "info", db, "--format", "json")
    if rep is None or info is None:
        return 1
    # tree
    got = {}
    for n in rep["nodes"]:
        got.setdefault(n["id"], []).append((n["parent"], n["kind"]))
    want = {i: sorted(v) for i, v in x.nodes.items()}
    want[0] = [(None, "root")]
    got = {i: sorted(v) for i, v in got.items()}
    if got != want:
        bad = sorted(set(got) ^ set(want))[:5] or \
            [i for i in want if got.get(i) != want[i]][:5]
        fail("%s: tree differs from the XML at ids %s" % (db, bad))
    ids = [n["id"] for n in rep["nodes"]]
    if len(set(ids)) != len(ids):
        dup = sorted(i for i in set(ids) if ids.count(i) > 1)
        fail("%s: ids are not unique: %s" % (db, dup[:5]))
    if len(rep["nodes"]) != len(x.order) + 1:
        fail("%s: %d nodes, the XML has %d" % (db, len(rep["nodes"]),
                                               len(x.order) + 1))
    cols = rep["columns"]
    values = {n["id"]: n["values"] for n in rep["nodes"]}

    def column_of(m):
        base, var, kind = split_name(m["n"])
        kind = kind or ("exclusive" if m.get("t") == "exclusive"
                        else "inclusive")
        for i, c in enumerate(cols):
            if c["metric"] == base and c["variant"] == var and \
               c["kind"] == kind:
                return i
        return None

    checked = nonzero = 0
    if x.values:
        for m in x.metrics:
            ci = column_of(m)
            mid = int(m["i"])
            if ci is None:
                fail("%s: no column for metric %s" % (db, m["n"]))
                continue
            frm = m["formulas"].get("finalize") or m["formulas"].get("view")
            if frm in (None, "$%d" % mid):
                for ctx in [0] + x.order:
                    w = shown(x, ctx, mid)
                    g = values[ctx][ci]
                    if not close(g, w):
                        fail("%s: %s at %d: %r, XML <M> %r" % (
                            db, m["n"], ctx, g, w))
                        break
                    checked += 1
                    nonzero += bool(w)
            else:
                w = evaluate(x, m, 0, lambda i: shown(x, 0, i))
                g = values[0][ci]
                if not close(g, w):
                    fail("%s: %s (%s) at the root: %r, computed %r" % (
                        db, m["n"], frm, g, w))
                checked += 1
    elif not empty and os.path.exists(os.path.join(d, "profile.db")):
        summ = sparse_summary(d)
        for m in x.metrics:
            base, var, kind = split_name(m["n"])
            dbm = next((b for b in x.dbs if b["n"] == "%s (%s)" % (
                base, "I" if kind == "inclusive" else "E")), None)
            ci = column_of(m)
            fs = m["formulas"]
            if ci is None:
                continue
            if "view" in fs or "finalize" in fs:
                w = evaluate(x, m, 0, lambda i: summ.get((0, i)))
                if not close(values[0][ci], w):
                    fail("%s: %s at the root: %r, computed %r" % (
                        db, m["n"], values[0][ci], w))
                checked += 1
                continue
            for ctx in [0] + x.order:
                # the summary profile is keyed by the <Metric> id
                w = summ.get((abs(ctx), int(m["i"])))
                if not close(values[ctx][ci], w):
                    fail("%s: %s at %d: %r, profile.db %r" % (
                        db, m["n"], ctx, values[ctx][ci], w))
                    break
                checked += 1
                nonzero += bool(w)
    elif not empty:
        files = thread_files(d)
        for m in x.metrics:
            base, var, kind = split_name(m["n"])
            if var != "Sum":
                continue
            dbm = next((b for b in x.dbs if b["n"] == "%s (%s)" % (
                base, "I" if kind == "inclusive" else "E")), None)
            ci = column_of(m)
            k = int(dbm.get("db-id", dbm["i"]))
            for ctx in x.order:
                s = [f[2][(ctx - 1) * f[1] + k] for f in files
                     if f[2][(ctx - 1) * f[1] + k] != 0]
                w = sum(s) if s else None
                if not close(values[ctx][ci], w):
                    fail("%s: %s at %d: %r, sum over %d files %r" % (
                        db, m["n"], ctx, values[ctx][ci], len(files), w))
                    break
                checked += 1
                nonzero += bool(w)
    if not empty and not nonzero:
        fail("%s: no non-zero value checked (%d values)" % (db, checked))
    # traces
    tc = trace_counts(d) if os.path.basename(path) == "experiment.xml" \
        else None
    tr = info.get("trace")
    if tc and (not tr or (tr["lines"], tr["samples"]) != tc):
        fail("%s: trace %r, the files have %r lines/samples" % (
            db, tr and (tr["lines"], tr["samples"]), tc))
    if tr and tr["samples"]:
        mid = (tr["min"] + tr["max"]) // 2
        t = run(cs, "trace", db, "--at", str(mid), "--format", "json")
        for ln in (t or {}).get("lines", []):
            c = ln.get("ctx")
            if c not in (None, 0) and c not in x.traced:
                fail("%s: trace line %d at %d: context %r has no trace id "
                     "in the XML" % (db, ln["line"], mid, c))
    print("%s: %d nodes, %d values checked, %d non-zero, trace %s" % (
        db, len(x.order), checked, nonzero,
        tr and "%d lines" % tr["lines"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
