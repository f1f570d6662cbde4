#!/usr/bin/python3
"""Derived (CubePL) metrics of tests/gen_cube_derived.py's files against
the values it computed apart: totals per call path and kind, and at the
synthetic root, from `callscope report --format json --metric all`;
per-location values from tests/cube-dump.  With --hostile KIND: the file
opens, the metric "bad" has a warning that names it and no value, and the
other metrics are still right.  KIND "aggr": the file as CubeLib writes
custom aggregations and rowwise=false (attribute values unquoted) opens
with no warning about them, and the metric with its own aggregation is
right too.  KIND "own-aggr" (three seeds, the third on 200 call paths):
every kind of own aggregation
on both prederived kinds and POSTDERIVED aggr, applied (no warning),
beside one that reads a metric and an untyped one (a warning each); also
their flat and bottom-up rows (report --view) and the tree under the
system-first focus (z, headless) on the group and on each location.  The aggr-* kinds: an own
aggregation that cannot be run ("bad", as the hostile kinds).

check_cube_derived.py CALLSCOPE CUBE-DUMP GEN_CUBE_DERIVED TMPDIR [KIND...]
"""
import csv
import io
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_system_tree import parse_value  # noqa: E402


def close(a, b):
    if a is None or b is None:
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def shown_tol(text):
    """Relative tolerance of a value shown with the digits of `text`
    ("47.71 s": 4 significant digits, "-1.55e12 s": 3)."""
    mant = re.split(r"[eE]", text.split()[0])[0]
    digits = len(mant.replace("-", "").replace(".", "").lstrip("0")) or 1
    return max(6e-4, 10.0 ** (1 - digits))


def check_own_aggr(cs, path, ans, tag):
    """The own-aggregation metrics (agg_*) in `report --format csv`, and
    on the threads pane (headless, 80x24, T then O): at the first root
    sorted by the column, each location's value, the groups' (m, p0:
    every location folded by aggr) and the line comparing that fold with
    the summary."""
    fails = checked = 0
    rc, out, err = run([cs, "report", path, "--format", "csv",
                        "--metric", "all"])
    if rc != 0:
        print(f"FAIL {tag}: csv report exit {rc}: {err[:300]}")
        return 1
    rows = list(csv.reader(io.StringIO(out)))
    head = rows[0]
    for r in rows[1:]:
        for i, h in enumerate(head[8:], 8):
            m, k = h[:-4], h[-2]
            if not m.startswith("agg_") or (not r[0] and k == "E"):
                continue
            exp = ans["root"][m] if not r[0] else \
                ans["totals"][f"{m} {k} {r[0]}"]
            checked += 1
            if not r[i] or not close(float(r[i]), exp):
                print(f"FAIL {tag}: csv cnode {r[0] or 'root'} {h}: "
                      f"{r[i]!r} != {exp!r}")
                fails += 1
    value = re.compile(r"^\s*(-?[0-9.]+(?:e[+-]?\d+)? ?\S*)\s+-?[0-9.]+%"
                       r"\s+(?:[\u25b8\u25be] )?(.*?)\s*$")
    for col in ("agg_incl (I)", "agg_incl (E)", "agg_excl (I)",
                "agg_minus (E)", "agg_post (I)", "agg_post2 (E)"):
        m, k = col[:-4], col[-2]
        tot = {c: ans["totals"][f"{m} {k} {c}"] for c in ans["roots"]}
        first = max(ans["roots"], key=lambda c: tot[c])
        if sum(1 for c in tot if tot[c] == tot[first]) > 1:
            continue  # a tie: which root comes first is not known here
        keys = "s" * head[8:].index(col) + "jTO"
        r = subprocess.run([cs, "--headless", "--no-config", "--size",
                            "80x24", "--keys", keys, path],
                           capture_output=True, text=True, timeout=120)
        lines = r.stdout.splitlines()
        if r.returncode != 0 or len(lines) < 5 or \
                f"{col} per execution context: main" not in lines[2]:
            print(f"FAIL {tag}: threads pane of {col}: {lines[:3]}")
            fails += 1
            continue
        want = {f"p0: t{j}": x for j, x in
                enumerate(ans["cells"][f"{m} {k} {first}"])}
        want["m (3)"] = want["p0 (3)"] = tot[first]
        got, tol = {}, {}
        for ln in lines[5:]:
            g = value.match(ln)
            if g and g.group(2) in want:
                got[g.group(2)] = parse_value(g.group(1))
                tol[g.group(2)] = shown_tol(g.group(1))
        line = re.search(r"threads by the metric's own aggr (\S+ ?\S*) = "
                         r"stored summary", lines[4])
        got["line"] = parse_value(line.group(1)) if line else None
        tol["line"] = shown_tol(line.group(1)) if line else 0
        want["line"] = tot[first]
        for lab, exp in want.items():
            checked += 1
            g = got.get(lab)
            if g is None or not math.isclose(g, exp, rel_tol=tol[lab],
                                             abs_tol=1e-3):
                print(f"FAIL {tag}: threads pane {col} {lab}: {g!r} != "
                      f"{exp!r}\n" + "\n".join(lines[:14]))
                fails += 1
    print(f"{tag}: {checked} csv and threads-pane values, {fails} failures")
    return fails


def check_rows(cs, path, ans, tag):
    """Flat and bottom-up rows (several call paths each) against the
    generator's: a prederived metric's row folds its call paths' totals
    by its own aggr (else sums them), a POSTDERIVED one's is its
    expression over them (per location and folded by its aggr when it
    has one)."""
    fails = checked = 0
    for view, key in (("flat", "flat"), ("bottom-up", "bottom_up")):
        rc, out, err = run([cs, "report", path, "--format", "json",
                            "--metric", "all", "--view", view])
        if rc != 0:
            print(f"FAIL {tag}: {view} report exit {rc}: {err[:300]}")
            return fails + 1
        rep = json.loads(out)
        cols = [(c["metric"], c["kind"][0].upper()) for c in rep["columns"]]
        by_id = {nd["id"]: nd for nd in rep["nodes"]}
        rows = 0
        for nd in rep["nodes"]:
            if nd["name"] == "<program root>":
                continue
            if view == "flat":
                if nd["kind"] not in ("region", "module"):
                    continue
                want = ans[key].get(nd["name"])
            else:
                names, x = [], nd
                while x and x["name"] != "<program root>":
                    names.append(x["name"])
                    x = by_id.get(x["parent"])
                want = ans[key].get(" <- ".join(reversed(names)))
            if want is None:
                print(f"FAIL {tag}: {view} row {nd['name']!r} unknown")
                fails += 1
                continue
            rows += 1
            for (m, k), got in zip(cols, nd["values"]):
                if f"{m} {k}" not in want:
                    continue
                exp = want[f"{m} {k}"]
                checked += 1
                if not close(got, exp):
                    print(f"FAIL {tag}: {view} row {nd['name']!r} "
                          f"{m} ({k}): {got!r} != {exp!r}")
                    fails += 1
        if rows < len(ans[key]) - (1 if view == "flat" else 0):
            print(f"FAIL {tag}: {view}: {rows} rows of {len(ans[key])}")
            fails += 1
    print(f"{tag}: {checked} flat and bottom-up values, {fails} failures")
    return fails


def check_focus(cs, path, ans, tag):
    """The system-first focus (z in the threads pane, headless, wide
    enough for every column) on the group m (every location) and on each
    location: the first root's row and its children's (those whose name
    is unique among them) in the tree, each metric with its own
    aggregation and time, against the generator's fold."""
    fails = checked = 0
    name, parent = ans["name"], ans["parent"]
    first = ans["first_root"]
    kids = [c for c in range(len(name)) if parent[c] == first]
    uniq = {name[c]: c for c in kids
            if sum(1 for x in kids if name[x] == name[c]) == 1}
    cols = sorted({k.rsplit(" ", 2)[0] for k in ans["focus"]["all"]})
    for fkey, keys in (("all", "jTOz"), ("0", "jTOsjjz"),
                       ("1", "jTOsjjjz"), ("2", "jTOsjjjjz")):
        r = subprocess.run([cs, "--headless", "--no-config", "--size",
                            "1000x30", "--keys", keys, path],
                           capture_output=True, text=True, timeout=120)
        lines = r.stdout.splitlines()
        label = "m, 3 contexts" if fkey == "all" else \
            f"p0: t{fkey}, 1 context"
        if r.returncode != 0 or len(lines) < 4 or \
                f"Name (system: {label};" not in lines[2]:
            print(f"FAIL {tag}: focus {fkey}: {lines[2:3]}")
            fails += 1
            continue
        head = lines[2]
        at = head.index("Name (system")
        # each column's cells: from the end of the title before to the
        # end of its own (values are right-aligned under the title)
        spans, lo = {}, 0
        for g in re.finditer(r"(\S+) ([IE])[\u25b2\u25bc]?", head[:at]):
            spans[(g.group(1), g.group(2))] = (lo, g.end())
            lo = g.end()
        depth1 = None
        for ln in lines[3:]:
            tree = ln[at:]
            nm = tree.lstrip("\u2502\u251c\u2514\u2500\u25b8\u25be ")
            depth = (len(tree) - len(nm) - 2) // 2
            if depth == 1 and depth1 is None:
                c = first if nm == name[first] else None
                depth1 = c
            elif depth == 1:
                break
            elif depth == 2 and depth1 is not None and nm in uniq:
                c = uniq[nm]
            else:
                continue
            if c is None:
                print(f"FAIL {tag}: focus {fkey}: first root {nm!r}")
                fails += 1
                break
            for (m, k), (lo, hi) in spans.items():
                if m not in cols:
                    continue
                # the value, less the share drawn after it
                cell = re.sub(r"\s+-?[0-9.]+%$", "", ln[lo:hi].strip())
                exp = ans["focus"][fkey][f"{m} {k} {c}"]
                got = parse_value(cell) if cell else None
                if got is not None and math.isinf(got) and exp and \
                        abs(exp) > 1e308:
                    got = exp  # DBL_MAX, shown rounded up
                checked += 1
                if (got is None) != (exp is None) or (
                        exp is not None and not math.isclose(
                            got, exp, rel_tol=shown_tol(cell),
                            abs_tol=1e-3)):
                    print(f"FAIL {tag}: focus {fkey} {name[c]} ({c}) "
                          f"{m} ({k}): {cell!r} != {exp!r}")
                    fails += 1
    print(f"{tag}: {checked} system-focus values, {fails} failures")
    return fails


def check(cs, dump, gen, tmp, kind, seed):
    tag = kind or "valid"
    path = os.path.join(tmp, f"derived-{tag}-{seed}.cubex")
    ans_path = path + ".json"
    args = [sys.executable, gen, path, ans_path, "--seed", str(seed)]
    if kind == "aggr":
        args += ["--cubelib-aggr"]
    elif kind == "own-aggr":
        # the third seed on 200 call paths: subtrees large enough for
        # the per-location inclusive cache (cube_inclusive.c) to keep
        args += ["--own-aggr"] + (["--nodes", "200"] if seed == 3 else [])
    elif kind:
        args += ["--hostile", kind]
    subprocess.run(args, check=True)
    with open(ans_path) as f:
        ans = json.load(f)
    fails = 0
    rc, out, err = run([cs, "report", path, "--format", "json",
                        "--metric", "all"])
    if kind in ("datadep", "aggr-datadep"):
        # found when a value is asked: exit 2, one line naming it
        last = err.strip().splitlines()[-1] if err.strip() else ""
        if rc != 2 or "bad" not in last or "step limit" not in last:
            print(f"FAIL {tag}: exit {rc}, last line {last!r}")
            return 1
        print(f"{tag}: exit 2, {last}")
        return 0
    if rc != 0:
        print(f"FAIL {tag}: report exit {rc}: {err.strip()[:300]}")
        return 1
    if kind == "aggr":
        # its own aggregation is applied: no line about it (and
        # rowwise=false is read)
        lines = [x for x in err.splitlines() if "aggregation" in x]
        if lines:
            print(f"FAIL {tag}: want no warning about custom: {err[:300]}")
            fails += 1
    elif kind == "own-aggr":
        # agg_ref: its plus reads a metric (reads 0), its untyped one is
        # not applied; nothing about the metrics whose aggregation is
        lines = [x for x in err.splitlines() if "aggregation" in x]
        if len(lines) != 2 or any("agg_ref" not in x for x in lines) or \
                "reads metric nosuch" not in lines[0] or \
                "untyped) is not applied" not in lines[1]:
            print(f"FAIL {tag}: want two warnings about agg_ref: "
                  f"{err[:400]}")
            fails += 1
    elif kind:
        lines = [x for x in err.splitlines() if "bad" in x]
        if not lines or any(len(x) > 400 for x in lines):
            print(f"FAIL {tag}: no one-line warning about bad: {err[:300]}")
            fails += 1
    rep = json.loads(out)
    cols = [(c["metric"], c["kind"][0].upper()) for c in rep["columns"]]
    checked = 0
    for node in rep["nodes"]:
        for (m, k), got in zip(cols, node["values"]):
            if m == "bad":
                if got is not None:
                    print(f"FAIL {tag}: bad has value {got}")
                    fails += 1
                continue
            if m not in ans["derived"]:
                continue
            if node["id"] is None:
                if k != "I":
                    continue
                exp = ans["root"][m]
            else:
                exp = ans["totals"][f"{m} {k} {node['id']}"]
            checked += 1
            if not close(got if got is not None else 0.0, exp):
                print(f"FAIL {tag}: cnode {node['id']} {m} ({k}): "
                      f"{got!r} != {exp!r}")
                fails += 1
    want = len(ans["totals"]) + len(ans["root"])
    if checked != want:
        print(f"FAIL {tag}: {checked} totals checked, {want} expected "
              f"(columns: {sorted(set(m for m, _ in cols))})")
        fails += 1
    if kind in (None, "own-aggr"):
        fails += check_rows(cs, path, ans, f"{tag} seed {seed}")
    if kind == "own-aggr":
        fails += check_own_aggr(cs, path, ans, f"{tag} seed {seed}")
        fails += check_focus(cs, path, ans, f"{tag} seed {seed}")
    rc, out, err = run([dump, path])
    if rc != 0:
        print(f"FAIL {tag}: cube-dump exit {rc}: {err.strip()[:300]}")
        return fails + 1
    got = {}
    for line in out.splitlines():
        f = line.split()
        if f[0] == "L" and f[2] in ans["derived"]:
            got[f"{f[2]} {f[3]} {f[1]}", int(f[4])] = float(f[5])
    ncells = 0
    for key, vals in ans["cells"].items():
        for loc, exp in enumerate(vals):
            ncells += 1
            g = got.pop((key, loc), 0.0)
            if not close(g, exp):
                print(f"FAIL {tag}: cell {key} location {loc}: "
                      f"{g!r} != {exp!r}")
                fails += 1
    for key, g in got.items():
        print(f"FAIL {tag}: unexpected cell {key} = {g}")
        fails += 1
    print(f"{tag} seed {seed}: {checked} totals, {ncells} per-location "
          f"values, {fails} failures")
    return fails


def main():
    cs, dump, gen, tmp = sys.argv[1:5]
    kinds = sys.argv[5:]
    fails = 0
    if not kinds:
        for seed in (1, 2, 3):
            fails += check(cs, dump, gen, tmp, None, seed)
    for kind in kinds:
        for seed in (1, 2, 3) if kind == "own-aggr" else (1,):
            fails += check(cs, dump, gen, tmp, kind, seed)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
