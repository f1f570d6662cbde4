#!/usr/bin/python3
"""Compare callscope's Cube values with ../shared/expected/cube (pycubexr's
values, confirmed by an independent decoder and by cube_dump's CSVs).

For every .cubex of the corpus: `callscope report FILE --format json
--metric all` gives the per-cnode totals (inclusive and exclusive) through
the top-down view; `tests/cube-dump FILE` gives the per-location values
the thread pane shows.  Both are compared with the reference within float
tolerance.  Two documented differences (doc/cube.md) are recognised and
counted, never hidden:
  clamp:    pycubexr clamps an unsigned exclusive value at 0 at each
            subtraction; callscope computes the difference (negative).
  negative: UINT64 cells above 0xFFFFFFFFFFFFFBFF are small negative
            counts; pycubexr reads 0, callscope the int64 value.
  cube_dump: where the corpus has cube_dump's incl.csv / excl.csv (CubeLib
            itself) and pycubexr disagrees with it, callscope must equal
            cube_dump (MIN/MAXDOUBLE inclusive values per location).
Exclusive values of metrics stored inclusive are differences of sums: their
tolerance is relative to the inclusive value (the reference subtracts per
location, then sums; callscope sums, then subtracts).
Exit status 1 on any other difference.

usage: check_cube_corpus.py CALLSCOPE CUBE_DUMP SHARED_DIR [FILE...]
"""
import gzip
import json
import math
import os
import subprocess
import sys

UNSIGNED = {"UINT8", "UINT16", "UINT32", "UINT64", "CHAR",
            "UNSIGNED SHORT INT", "UNSIGNED INT", "UNSIGNED INTEGER"}


def close(a, b, scale=0.0):
    if a is None or b is None:
        return False
    return math.isclose(a, b, rel_tol=1e-9,
                        abs_tol=1e-12 * max(1.0, abs(b)) + 1e-12 * scale)


def load_csvs(path):
    """cube_dump -s csv2 output next to the file: (cnode, loc, metric,
    'I'|'E') -> value"""
    out = {}
    d = os.path.dirname(path)
    for kind, name in (("I", "incl.csv"), ("E", "excl.csv")):
        f = os.path.join(d, name)
        if not os.path.exists(f):
            continue
        with open(f) as fh:
            head = [h.strip() for h in fh.readline().split(",")]
            for line in fh:
                cells = line.strip().split(",")
                if len(cells) != len(head):
                    continue
                c, l = int(cells[0]), int(cells[1])
                for h, x in zip(head[2:], cells[2:]):
                    try:
                        out[(c, l, h, kind)] = float(x)
                    except ValueError:
                        pass
    return out


def csv_close(val, x):
    return abs(val - x) <= 5e-6 * abs(x) + 1e-300 or (x == 0 and val == 0)


def scalar(x):
    """NDOUBLES and COMPLEX: callscope shows the first component."""
    while isinstance(x, list):
        x = x[0] if x else 0.0
    return float(x)


def load_ref(shared, rel):
    base = os.path.join(shared, "expected", "cube", rel.replace("/", "__"))
    if os.path.exists(base + ".json"):
        with open(base + ".json") as f:
            return json.load(f)
    with gzip.open(base + ".json.gz", "rt") as f:
        return json.load(f)


class Ref:
    """The reference of one metric with the documented variants."""

    def __init__(self, ref, name, v):
        self.v = v
        cn = ref["cnodes"]
        self.pos = {c["id"]: i for i, c in enumerate(cn)}
        self.children = [[self.pos[k] for k in c["children"]] for c in cn]
        nloc = len(ref["locations"])
        incl = [[scalar(x) for x in row] for row in v["incl"]]
        excl = [[scalar(x) for x in row] for row in v["excl"]]
        self.incl, self.excl = incl, excl
        self.alt_incl, self.alt_excl = None, None
        unsigned = v["dtype"] in UNSIGNED
        raw = v.get("raw_uint64_as_int64") or {}
        if v["stored_as"] == "INCLUSIVE" and (unsigned or raw):
            ai = [row[:] for row in incl]
            for key, val in raw.items():
                c, l = (int(x) for x in key.split("/"))
                ai[self.pos[c]][l] = float(val)
            ae = []
            for p, row in enumerate(ai):
                e = row[:]
                for ch in self.children[p]:
                    for l in range(nloc):
                        e[l] -= ai[ch][l]
                ae.append(e)
            self.alt_incl, self.alt_excl = ai, ae
        elif v["stored_as"] == "EXCLUSIVE" and raw:
            ae = [row[:] for row in excl]
            for key, val in raw.items():
                c, l = (int(x) for x in key.split("/"))
                ae[self.pos[c]][l] = float(val)
            ai = [row[:] for row in ae]
            for p in range(len(ai) - 1, -1, -1):
                for ch in self.children[p]:
                    for l in range(nloc):
                        ai[p][l] += ai[ch][l]
            self.alt_incl, self.alt_excl = ai, ae
        self.agg = v["aggregate"]

    def total(self, rows, p):
        r = rows[p]
        if self.agg == "min":
            return min(r)
        if self.agg == "max":
            return max(r)
        return math.fsum(r)

    def expect(self, kind, p, loc=None):
        """(reference, alternative or None)"""
        main = self.incl if kind == "I" else self.excl
        alt = self.alt_incl if kind == "I" else self.alt_excl
        if loc is None:
            if kind == "I":
                t = scalar(self.v["total"]["incl"][p])
            else:
                t = scalar(self.v["total"]["excl"][p])
            return t, (self.total(alt, p) if alt else None)
        return main[p][loc], (alt[p][loc] if alt else None)


# Multi-value types shown as components (doc/cube.md): field -> combine
# over locations and over a subtree
COMPONENTS = {
    "TAU_ATOMIC": {"n": "sum", "min": "min", "max": "max", "sum": "sum",
                   "sum2": "sum"},
    "RATE": {"main": "sum", "time": "sum"},
}


def combine(how, xs):
    xs = list(xs)
    if how == "min":
        return min(xs)
    if how == "max":
        return max(xs)
    return math.fsum(xs)


def check_components(rel, ref, name, v, rep, cols, stats):
    """A TAU_ATOMIC or RATE metric (pycubexr: stored values only): each
    component column "NAME/field" against the stored per-location fields,
    combined over locations (and, for the other kind, over the subtree or
    as the row minus its children's rows), and the derived columns (mean,
    stddev, rate) against the same formulas over those expectations."""
    fields = COMPONENTS[v["dtype"]]
    stored = v["excl"] if v["stored_as"] == "EXCLUSIVE" else v["incl"]
    cn = ref["cnodes"]
    pos = {c["id"]: i for i, c in enumerate(cn)}
    kids = [[] for _ in cn]
    for i, c in enumerate(cn):
        if c["parent"] is not None:
            kids[pos[c["parent"]]].append(i)
    want = {}  # (field, kind, position) -> value
    for f, how in fields.items():
        row = [combine(how, (loc[f] for loc in stored[p]))
               for p in range(len(cn))]
        def sub(p):  # the subtree's combination (stored exclusive)
            return combine(how, [row[p]] + [sub(k) for k in kids[p]])
        for p in range(len(cn)):
            if v["stored_as"] == "EXCLUSIVE":
                want[(f, "E", p)] = row[p]
                want[(f, "I", p)] = sub(p)
            else:
                want[(f, "I", p)] = row[p]
                want[(f, "E", p)] = row[p] - math.fsum(row[k]
                                                       for k in kids[p])
    for p in range(len(cn)):
        for kind in "IE":
            g = lambda f: want[(f, kind, p)]
            if v["dtype"] == "RATE":
                want[("rate", kind, p)] = g("main") / g("time") \
                    if g("time") else 0.0
            else:
                mean = g("sum") / g("n") if g("n") else 0.0
                var = g("sum2") / g("n") - mean * mean if g("n") else 0.0
                want[("mean", kind, p)] = mean
                want[("stddev", kind, p)] = math.sqrt(max(var, 0.0))
    index = {(m, k): i for i, (m, k) in enumerate(cols)}
    for (f, kind, p), exp in want.items():
        i = index.get((f"{name}/{f}", kind))
        if i is None:
            print(f"FAIL {rel}: no column {name}/{f} ({kind})")
            stats["fail"] += 1
            continue
        node = [x for x in rep["nodes"] if x["id"] == cn[p]["id"]][0]
        got = node["values"][i]
        got = 0.0 if got is None else got
        stats["components"] += 1
        if not close(got, exp, abs(exp)):
            print(f"FAIL {rel}: cnode {cn[p]['id']} {name}/{f} ({kind}): "
                  f"{got!r} != {exp!r}")
            stats["fail"] += 1


def histogram_rows(path, mid, nloc, nbins):
    """The stored cells of a HISTOGRAM(n) metric, decoded here from the
    tar (plain little-endian CUBEX data, sparse index): {tree index:
    [(min, max, [bins]) per location]}."""
    import struct
    import tarfile
    with tarfile.open(path) as t:
        idx = t.extractfile(f"{mid}.index").read()
        data = t.extractfile(f"{mid}.data").read()
    assert idx[:11] == b"CUBEX.INDEX" and data[:10] == b"CUBEX.DATA"
    end, _, fmt = struct.unpack_from("<IHB", idx, 11)
    assert end == 1 and fmt == 1, "only little-endian sparse indexes"
    count = struct.unpack_from("<I", idx, 18)[0]
    tis = struct.unpack_from(f"<{count}I", idx, 22)
    cell = 8 * (nbins + 2)
    rows = {}
    for r, ti in enumerate(tis):
        row = []
        for l in range(nloc):
            v = struct.unpack_from(f"<{nbins + 2}d", data,
                                   10 + (r * nloc + l) * cell)
            row.append((v[0], v[1], list(v[2:])))
        rows[ti] = row
    return rows


def check_histogram(rel, path, ref, name, v, rep, cols, stats):
    """HISTOGRAM(n) (pycubexr cannot read it): NAME/min, NAME/max and
    NAME/count (the sum of the bins) against the cells decoded here,
    combined over locations and, stored exclusive, over the subtree."""
    nbins = int(v["dtype"][len("HISTOGRAM("):-1])
    cn = ref["cnodes"]
    nloc = len(ref["locations"])
    rows = histogram_rows(path, v["id"], nloc, nbins)
    pos = {c["id"]: i for i, c in enumerate(cn)}
    kids = [[] for _ in cn]
    for i, c in enumerate(cn):
        if c["parent"] is not None:
            kids[pos[c["parent"]]].append(i)
    assert v["stored_as"] == "EXCLUSIVE"
    own = {}
    for p in range(len(cn)):
        cells = rows.get(p)  # exclusive: document order
        if cells is None:
            continue
        own[p] = (min(c[0] for c in cells), max(c[1] for c in cells),
                  math.fsum(math.fsum(c[2]) for c in cells))

    def sub(p):
        xs = [own[p]] if p in own else []
        xs += [s for s in (sub(k) for k in kids[p]) if s]
        if not xs:
            return None
        return (min(x[0] for x in xs), max(x[1] for x in xs),
                math.fsum(x[2] for x in xs))
    index = {(m, k): i for i, (m, k) in enumerate(cols)}
    for p in range(len(cn)):
        node = [x for x in rep["nodes"] if x["id"] == cn[p]["id"]][0]
        for kind, exp in (("E", own.get(p)), ("I", sub(p))):
            for f, want in zip(("min", "max", "count"),
                               exp or (None, None, None)):
                i = index.get((f"{name}/{f}", kind))
                if i is None:
                    print(f"FAIL {rel}: no column {name}/{f} ({kind})")
                    stats["fail"] += 1
                    continue
                got = node["values"][i]
                stats["components"] += 1
                if want is None and got is None:
                    continue
                if got is None or want is None or \
                        not close(got, want, abs(want)):
                    print(f"FAIL {rel}: cnode {cn[p]['id']} {name}/{f} "
                          f"({kind}): {got!r} != {want!r}")
                    stats["fail"] += 1


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def check_file(cs, dump, shared, path, stats):
    rel = os.path.relpath(path, os.path.join(shared, "corpus"))
    ref = load_ref(shared, rel)
    rc, out, err = run([cs, "report", path, "--format", "json",
                        "--metric", "all"])
    if rc != 0:
        print(f"FAIL {rel}: report exit {rc}: {err.strip()}")
        stats["fail"] += 1
        return
    rep = json.loads(out)
    cols = [(c["metric"], c["kind"][0].upper()) for c in rep["columns"]]
    metrics = {}
    for name, v in ref["values"].items():
        if v["status"] == "ok":
            metrics[name] = Ref(ref, name, v)
    shown = {m for m, _ in cols}
    for name, v in ref["values"].items():
        if v["status"] == "ok" and name not in shown:
            print(f"FAIL {rel}: metric {name} has no column")
            stats["fail"] += 1
        if v["status"].startswith("partial") and \
                v["dtype"] in COMPONENTS:
            check_components(rel, ref, name, v, rep, cols, stats)
            continue
        if v["dtype"].startswith("HISTOGRAM("):
            check_histogram(rel, path, ref, name, v, rep, cols, stats)
            continue
        if v["status"] in ("unsupported", "partial") and name in shown \
                and v["dtype"] not in ("NDOUBLES(10)", "COMPLEX",
                                       "SCALE_FUNC"):
            print(f"FAIL {rel}: metric {name} ({v['dtype']}) shown")
            stats["fail"] += 1
    pos = {c["id"]: i for i, c in enumerate(ref["cnodes"])}
    seen = set()
    for node in rep["nodes"]:
        if node["id"] is None:
            continue
        p = pos.get(node["id"])
        if p is None:
            print(f"FAIL {rel}: cnode {node['id']} not in the reference")
            stats["fail"] += 1
            continue
        seen.add(node["id"])
        for (name, kind), val in zip(cols, node["values"]):
            r = metrics.get(name)
            base = ref["values"].get(name.split("/")[0])
            if r is None and base and base["dtype"] == "SCALE_FUNC":
                continue  # ranking codes: tests/test-cube-scalefn.sh
            if r is None and "/" in name and base and \
                    (base["dtype"] in COMPONENTS or
                     base["dtype"].startswith("HISTOGRAM(")):
                continue  # check_components
            if r is None:
                if val not in (None, 0, 0.0):
                    print(f"FAIL {rel}: cnode {node['id']} {name} {kind}: "
                          f"{val} for a metric without data")
                    stats["fail"] += 1
                continue
            exp, alt = r.expect(kind, p)
            stats["totals"] += 1
            got = 0.0 if val is None else val
            scale = abs(r.expect("I", p)[0]) if kind == "E" else 0.0
            if close(got, exp, scale):
                continue
            if alt is not None and close(got, alt):
                stats["explained"] += 1
                continue
            print(f"FAIL {rel}: cnode {node['id']} {name} ({kind}): "
                  f"{got!r} != {exp!r}" + (f" (alt {alt!r})" if alt else ""))
            stats["fail"] += 1
    if len(seen) != len(ref["cnodes"]):
        print(f"FAIL {rel}: {len(seen)} of {len(ref['cnodes'])} cnodes "
              "in the report")
        stats["fail"] += 1
    # per location
    rc, out, err = run([dump, path])
    if rc != 0:
        print(f"FAIL {rel}: cube-dump exit {rc}: {err.strip()}")
        stats["fail"] += 1
        return
    got = {}
    for line in out.splitlines():
        f = line.split()
        if f[0] == "L":
            got[(int(f[1]), f[2], f[3], int(f[4]))] = float(f[5])
    nloc = len(ref["locations"])
    csvs = load_csvs(path)
    for name, r in metrics.items():
        for c in ref["cnodes"]:
            p = pos[c["id"]]
            for kind in "IE":
                for l in range(nloc):
                    exp, alt = r.expect(kind, p, l)
                    val = got.get((c["id"], name, kind, l), 0.0)
                    stats["locs"] += 1
                    scale = abs(r.expect("I", p, l)[0]) if kind == "E" \
                        else 0.0
                    if close(val, exp, scale):
                        continue
                    if alt is not None and close(val, alt, scale):
                        stats["explained"] += 1
                        continue
                    x = csvs.get((c["id"], l, name, kind))
                    if x is not None and csv_close(val, x) and \
                            not csv_close(exp, x):
                        stats["cube_dump"] += 1
                        continue
                    print(f"FAIL {rel}: cnode {c['id']} {name} ({kind}) "
                          f"location {l}: {val!r} != {exp!r}")
                    stats["fail"] += 1
    stats["files"] += 1


def main():
    cs, dump, shared = sys.argv[1:4]
    files = sys.argv[4:]
    if not files:
        for sub in ("cube", "extra-p"):
            for root, _, names in os.walk(os.path.join(shared, "corpus",
                                                       sub)):
                files += [os.path.join(root, n) for n in names
                          if n.endswith(".cubex")]
    files.sort()
    stats = dict(files=0, totals=0, locs=0, explained=0, cube_dump=0,
                 components=0, fail=0)
    for path in files:
        before = stats["fail"]
        check_file(cs, dump, shared, path, stats)
        if stats["fail"] - before > 20:
            print(f"... {stats['fail'] - before} failures in {path}")
    print(f"cube corpus: {stats['files']} files, {stats['totals']} totals "
          f"and {stats['locs']} per-location values compared, "
          f"{stats['components']} values of multi-value components, "
          f"{stats['explained']} documented differences (clamp, negative), "
          f"{stats['cube_dump']} where callscope agrees with cube_dump and "
          "pycubexr does not, "
          f"{stats['fail']} failures")
    return 1 if stats["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
