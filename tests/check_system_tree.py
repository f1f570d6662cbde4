#!/usr/bin/env python3
"""Checks the threads pane's system tree (key O) and the system-first
focus (z, then ~) on headless screens: every
row shown (group or context) against values computed here from the
database's own files, independently of callscope's readers:

  v4 DBDIR      an HPCToolkit v4 database (tests/gen-v4db --ranks --threads):
                profile.db read with tests/check_v4db.py; the root's
                inclusive CPUTIME per profile, grouped NODE > RANK > THREAD
                by the profiles' identifier tuples.
  cube FILE     a Cube profile with pycubexr's incl.csv beside it
                (blast.p64.r1, time.p4.n2000.x1.r0) or its values in
                FILE.csv (gen_cube.py --incl-csv): cnode 0 (the tree's
                second row), `time` summed and `max_time` maxed over each
                group of the anchor's system tree (machine > ... > node >
                process > thread, read here from anchor.xml), each group
                labelled by its Cube name (sanitized); every group and
                context must be shown, at its level.

Each group's value must be its contexts' values combined (sum or max) to
the 4 digits shown, its percent of the thread sum to the tenth shown, its
"(N)" the number of contexts below it, its indentation its level.  Run at
80x24 and 200x50, scrolling (PgDn) through the rows.

usage: check_system_tree.py CALLSCOPE v4|cube DB
"""
import csv
import os
import re
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_v4db  # noqa: E402

failures = []
checked = 0


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "\u00b5s": 1e-6, "ns": 1e-9}
SI = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def parse_value(text):
    text = text.strip()
    m = re.fullmatch(r"([-0-9.,e+]+)\s*(\S*)", text)
    if not m:
        return None
    num = float(m.group(1).replace(",", ""))
    unit = m.group(2)
    if unit in UNITS:
        return num * UNITS[unit]
    if unit in SI:
        return num * SI[unit]
    if unit == "":
        return num
    return None


def screen(cs, db, size, keys):
    out = subprocess.run([cs, "--headless", "--size", size, "--keys", keys,
                          db], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        fail("%s %s: exit %d: %s" % (size, keys, out.returncode, out.stderr))
    return out.stdout.splitlines()


ROW = re.compile(r"^[ 0-9.,a-zA-Z\u00b5+-]{10} [ 0-9]{3}\d\.\d% {2}")


def rows_of(lines):
    """The tree rows of a screen: (value text, percent, level, label, n)."""
    out = []
    for ln in lines:
        if len(ln) < 22 or not ROW.match(ln):
            continue
        rest = ln[20:]
        spaces = len(rest) - len(rest.lstrip(" "))
        body = rest.strip()
        # the expand mark (blank for a context), a space, the label,
        # " (N)" for a group
        if body[:1] in ("\u25b8", "\u25be", "+", "-"):
            mark, _, label = body.partition(" ")
            level = spaces // 2
        else:
            mark, label = "", body
            level = (spaces - 2) // 2
        n = None
        g = re.fullmatch(r"(.*) \((\d+)\)", label)
        if g:
            label, n = g.group(1), int(g.group(2))
        out.append(dict(value=ln[0:10], pct=float(ln[11:18].strip()[:-1]),
                        level=level, label=label, n=n, mark=mark))
    return out


def collect(cs, db, size, keys, pages):
    """Rows from the first screen and after each of `pages` PgDn."""
    seen = {}
    for p in range(pages + 1):
        for r in rows_of(screen(cs, db, size, keys + "<PgDn>" * p)):
            seen.setdefault(r["label"], r)
    return seen


def close(shown, want):
    got = parse_value(shown)
    if got is None:
        return False
    return abs(got - want) <= 1e-3 * abs(want) + 1e-12


def check_rows(where, rows, truth, total):
    """truth: label -> (value, n contexts or None for a leaf, level)."""
    global checked
    for label, r in rows.items():
        if label not in truth:
            fail("%s: row %r is no group or context of the database"
                 % (where, label))
            continue
        value, n, level = truth[label]
        if not close(r["value"], value):
            fail("%s: %s shows %r, the contexts give %.10g"
                 % (where, label, r["value"].strip(), value))
        if r["n"] != n:
            fail("%s: %s shows (%s) contexts, the tuples give %s"
                 % (where, label, r["n"], n))
        if r["level"] != level:
            fail("%s: %s at level %d, want %d" % (where, label, r["level"],
                                                  level))
        pct = value / total * 100 if total else 0.0
        if abs(r["pct"] - pct) > 0.051:
            fail("%s: %s shows %.1f%%, want %.2f%%" % (where, label,
                                                      r["pct"], pct))
        checked += 1


def v4_truth(db):
    meta = check_v4db.read_meta(os.path.join(db, "meta.db"))
    profiles = check_v4db.read_profile(os.path.join(db, "profile.db"), meta)
    pid = [p for p, (name, scope) in meta["prop"].items()
           if name == "CPUTIME (sec)" and scope == "execution"][0]
    truth = {}
    total = 0.0
    groups = {}
    for p in profiles[1:]:
        (nk, _, node, _), (rk, _, rank, _), (tk, _, thread, _) = p["tuple"]
        v = p["data"].get(0, {}).get(pid, 0.0)
        total += v
        truth["NODE %d RANK %d THREAD %d" % (node, rank, thread)] = (v, None,
                                                                    2)
        for key in ("NODE %d" % node, "RANK %d" % rank):
            s, n = groups.get(key, (0.0, 0))
            groups[key] = (s + v, n + 1)
    for key, (s, n) in groups.items():
        truth[key] = (s, n, 0 if key.startswith("NODE") else 1)
    return truth, total


def shown(text):
    """`text` as a terminal may show it (src/core/sanitize.h's contract,
    written here apart): C0 controls and DEL as \\xNN, C1 controls as
    \\u{NN}, the rest as is."""
    out = []
    for ch in text:
        c = ord(ch)
        if c < 0x20 or c == 0x7f:
            out.append("\\x%02x" % c)
        elif 0x80 <= c <= 0x9f:
            out.append("\\u{%x}" % c)
        else:
            out.append(ch)
    return "".join(out)


def cube_system(db):
    """The system tree of a .cubex's anchor.xml, read here with tarfile and
    ElementTree: per location Id, (the group labels from the top down, the
    context's label).  A group is a system tree node, then the process; it
    reads as Cube names it, its <name> (unless blank), else a node by its
    class in capitals (without one, as Cube 3's <machine> and <node>:
    MACHINE at the top, NODE below) and its number in document order
    ("NODE 3"), a process as "RANK r"; the context is "process name:
    location name"."""
    with tarfile.open(db) as tar:
        root = ET.fromstring(tar.extractfile("anchor.xml").read())
    locs = {}
    count = [0]

    def named(el, fallback):
        name = el.findtext("name") or ""
        return shown(name) if name.strip(" \t\n\r") else fallback

    def walk(el, path):
        for ch in el:
            if ch.tag in ("systemtreenode", "machine", "node"):
                n = count[0]
                count[0] += 1
                cls = (ch.findtext("class") or "").upper()
                if not cls:
                    cls = "NODE" if path else "MACHINE"
                walk(ch, path + [named(ch, "%s %d" % (cls, n))])
            elif ch.tag in ("locationgroup", "process"):
                rank = int(ch.findtext("rank"))
                for loc in ch.findall("*"):
                    if loc.tag not in ("location", "thread"):
                        continue
                    locs[int(loc.get("Id"))] = (
                            path + [named(ch, "RANK %d" % rank)],
                            shown("%s: %s" % (ch.findtext("name"),
                                              loc.findtext("name"))))

    walk(root.find("system"), [])
    return locs


def cube_csv(db):
    """pycubexr's incl.csv beside the file, or FILE.csv (gen_cube.py
    --incl-csv)."""
    path = os.path.join(os.path.dirname(db), "incl.csv")
    return path if os.path.exists(path) else os.path.splitext(db)[0] + ".csv"


def cube_truth(db, metric, combine):
    """Cnode 0's `metric` per location from cube_csv, every system tree
    group's value its locations' combined."""
    path = cube_csv(db)
    locs = cube_system(db)
    truth = {}
    total = 0.0
    members = {}
    with open(path) as f:
        rd = csv.reader(f)
        head = [h.strip() for h in next(rd)]
        col = head.index(metric)
        for row in rd:
            if int(row[0]) != 0:
                continue
            loc, v = int(row[1]), float(row[col])
            total += v
            groups, label = locs[loc]
            truth[label] = (v, None, len(groups))
            for level, g in enumerate(groups):
                members.setdefault((g, level), []).append(v)
    for (g, level), vs in members.items():
        truth[g] = (combine(vs), len(vs), level)
    return truth, total


def check_focus(cs, db, size):
    """z on the system tree's first row (the node of largest CPUTIME): the
    tree's CPUTIME (I) at each row shown is the sum over that node's
    profiles; ~ brings every context back."""
    global checked
    meta = check_v4db.read_meta(os.path.join(db, "meta.db"))
    profiles = check_v4db.read_profile(os.path.join(db, "profile.db"), meta)
    pid = [p for p, (name, scope) in meta["prop"].items()
           if name == "CPUTIME (sec)" and scope == "execution"][0]
    truth, _ = v4_truth(db)
    top = max((k for k, t in truth.items() if t[2] == 0),
              key=lambda k: truth[k][0])
    node = int(top.split()[1])
    part = [p for p in profiles[1:] if p["tuple"][0][2] == node]
    names = {}
    for cid, c in meta["ctxs"].items():
        names.setdefault(c.get("name"), []).append(cid)
    lines = screen(cs, db, size, "TOz")
    head = [ln for ln in lines if "Name (system:" in ln]
    want = "system: %s, %d contexts" % (top, len(part))
    if size == "80x24":
        want = "system: %s" % top  # the rest is cut at 80 columns
    if not head or want not in head[0]:
        fail("%s focus: header %r lacks %r" % (size, head[:1], want))
        return
    name_x = head[0].index("Name (")
    seen = 0
    for ln in lines[lines.index(head[0]) + 1:]:
        name = ln[name_x:].lstrip("\u2502\u251c\u2514\u2500\u25be\u25b8 ")
        m = re.match(r"^\s*([0-9.,e+]+(?: [a-z\u00b5]+)?)\s+(\d+\.\d)%", ln)
        if not name or not m:
            continue
        ctx = [0] if name == "<program root>" else names.get(name, [])
        if len(ctx) != 1:
            continue
        v = sum(p["data"].get(ctx[0], {}).get(pid, 0.0) for p in part)
        if not close(m.group(1), v):
            fail("%s focus %s: %s shows %r, its profiles give %.10g"
                 % (size, top, name, m.group(1), v))
        seen += 1
        checked += 1
    if seen < 3:
        fail("%s focus: only %d rows checked" % (size, seen))
    back = screen(cs, db, size, "TOz~")
    if any("system:" in ln for ln in back if "Name (" in ln):
        fail("%s: ~ leaves the focus on" % size)


def main():
    cs, kind, db = sys.argv[1:4]
    for size in ("80x24", "200x50"):
        if kind == "v4":
            truth, total = v4_truth(db)
            n_nodes = len(truth)
            # tuple order (s), every row opened (E then Down, on each)
            keys = "TOs" + "Ej" * n_nodes + "g"
            rows = collect(cs, db, size, keys, 3)
            if len(rows) != n_nodes:
                fail("%s: %d rows shown, the tuples give %d"
                     % (size, len(rows), n_nodes))
            check_rows("v4 " + size, rows, truth, total)
            # collapsed: the top level only, by value
            top = collect(cs, db, size, "TOC", 0)
            want = sorted((k for k, t in truth.items() if t[2] == 0),
                          key=lambda k: -truth[k][0])
            got = [r["label"] for r in sorted(top.values(),
                                              key=lambda r: -parse_value(r["value"]))]
            if got != want:
                fail("%s: top level %r, want %r" % (size, got, want))
            check_focus(cs, db, size)
        else:
            # PARALLEL (j), sorted by time (I), then max_time (I) (ssss);
            # every group opened (E then Down, on each)
            with open(cube_csv(db)) as f:
                head = [h.strip() for h in f.readline().split(",")]
            for metric, combine, keys in (("time", sum, "jTO"),
                                          ("max_time", max, "jssssTO")):
                if metric not in head:
                    continue
                truth, total = cube_truth(db, metric, combine)
                keys += "Ej" * len(truth)
                rows = collect(cs, db, size, keys + "g",
                               16 if size == "80x24" else 5)
                missing = [k for k in truth if k not in rows]
                if missing:
                    fail("%s %s: rows not shown: %s" % (size, metric,
                                                       missing[:5]))
                check_rows("cube %s %s" % (metric, size), rows, truth, total)
    print("%d rows checked, %d failures" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
