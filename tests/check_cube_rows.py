#!/usr/bin/env python3
"""check_cube_rows: the bottom-up view's function rows of a Cube profile,
against pycubexr's values (../shared/expected/cube).  A row stands for the
call paths (cnodes) of one region: inclusive, those without an ancestor of
the same region; exclusive, all of them.  Checked for the MINDOUBLE
and MAXDOUBLE metrics: the row's value is the minimum (maximum) of those
cnodes' values, as Cube aggregates these data types (a minimum over call
paths is a minimum; the rows used to add them up).
The cnodes' values are the reference's `total.incl` / `total.excl` (over
locations); cnodes without a value are left out.

Usage: check_cube_rows.py CALLSCOPE SHARED CUBEX_REL...
Prints FAIL lines and exits 1 on a mismatch."""
import gzip
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)


def load_ref(shared, rel):
    base = os.path.join(shared, "expected", "cube", rel.replace("/", "__"))
    if os.path.exists(base + ".json"):
        return json.load(open(base + ".json"))
    return json.load(gzip.open(base + ".json.gz"))


def near(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def check(cs, shared, rel):
    ref = load_ref(shared, rel)
    cnodes = {c["id"]: c for c in ref["cnodes"]}
    # per-cnode lists follow the pre-order of ref["cnodes"], not the ids
    pos = {c["id"]: k for k, c in enumerate(ref["cnodes"])}
    regions = {r["id"]: r["name"] for r in ref["regions"]}
    # per region name: (inclusive cnodes, exclusive cnodes); a name that
    # several regions share is left out
    names = {}
    for r in ref["regions"]:
        names.setdefault(r["name"], set()).add(r["id"])
    rows = {}
    for c in ref["cnodes"]:
        reg = c["region"]
        name = regions[reg]
        if len(names[name]) > 1:
            continue
        inc, exc = rows.setdefault(name, ([], []))
        up, outer = c["parent"], True
        while up is not None:
            if cnodes[up]["region"] == reg:
                outer = False
            up = cnodes[up]["parent"]
        if outer:
            inc.append(c["id"])
        exc.append(c["id"])
    out = subprocess.run([cs, "report", os.path.join(shared, "corpus", rel),
                          "--view", "bottom-up", "--depth", "1", "--format",
                          "json", "--metric", "all"],
                         stdout=subprocess.PIPE, check=False)
    if out.returncode != 0:
        fail("%s: callscope report exited %d" % (rel, out.returncode))
        return 0, 1
    rep = json.loads(out.stdout)
    checked = bad = 0
    for i, col in enumerate(rep["columns"]):
        metric = col["metric"]
        v = ref["values"].get(metric)
        if not v or v.get("status") != "ok" or \
                v["aggregate"] not in ("min", "max"):
            continue
        kind = "incl" if col["kind"] == "inclusive" else "excl"
        tot = v["total"].get(kind)
        if tot is None:
            continue
        how = {"min": min, "max": max}[v["aggregate"]]
        for node in rep["nodes"]:
            if node["depth"] != 1 or node["name"] not in rows:
                continue
            ids = rows[node["name"]][0 if kind == "incl" else 1]
            xs = [tot[pos[c]] for c in ids if pos[c] < len(tot) and
                  isinstance(tot[pos[c]], (int, float))]
            want = how(xs) if xs else None
            got = node["values"][i]
            checked += 1
            if (want is None) != (got is None) or \
                    (want is not None and not near(got, want)):
                fail("%s: bottom-up %s, %s: callscope %r, %s over its "
                     "call paths %r" % (rel, node["name"], col["name"],
                                         got, v["aggregate"], want))
                bad += 1
    return checked, bad


def main():
    cs, shared = sys.argv[1], sys.argv[2]
    total = bad = 0
    for rel in sys.argv[3:]:
        c, b = check(cs, shared, rel)
        total += c
        bad += b
    if total == 0:
        fail("no row checked")
        return 1
    if not bad:
        print("ok: %d bottom-up cells of %d Cube files" %
              (total, len(sys.argv) - 3))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
