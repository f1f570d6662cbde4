#!/usr/bin/python3
"""compare_screen_check.py CSV SCREEN: every number of a compare view's
screen (`callscope BASE NEW --compare`, the whole tree expanded, NO_COLOR)
against `callscope diff BASE NEW --format csv`.

Each screen row is matched to the CSV node of the same parent whose label
(directories left out) is the row's and whose values are the row's; then
for the columns base, new, delta and delta% (inclusive): a value the CSV
lacks is blank on screen, one it has reads as the CSV's to the digits
shown; a delta or delta% above 0 reads with a '+', below 0 with a '-' (the
mark that needs no colour); a node new or gone is marked [+] / [-]
whatever its kind; and siblings come by |delta| largest first.  Exits 1
with the first mismatch."""
import csv
import re
import sys

UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "\u00b5s": 1e-6, "ns": 1e-9}
ROLES = ["base (I)", "new (I)", "delta (I)", "delta% of base total (I)"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def short(name):
    """A label as the tree shows it: every directory left out."""
    return re.sub(r"(?<!\S)/?(?:[^/\s]*/)+", "", name)


def label_fits(screen, name):
    """The screen's label (maybe cut in its middle at an ellipsis) is
    the CSV name's short form."""
    s = short(name)
    if "\u2026" not in screen:
        return screen == s or screen == name
    head, tail = screen.split("\u2026", 1)
    return s.startswith(head) and s.endswith(tail)


def parse(text, percent):
    text = text.strip()
    if not text:
        return None
    m = re.match(r"^([+-]?)([0-9.]+(?:e[+-]?\d+)?)(?: (\S+))?$", text)
    if not m:
        fail("unreadable value %r" % text)
    v = float(m.group(2)) * (1.0 if percent or not m.group(3)
                             else UNITS[m.group(3)])
    return (-v if m.group(1) == "-" else v), m.group(1)


def close(shown, want, percent):
    if percent:
        return abs(shown - want) <= 0.0051
    # four significant digits shown
    return abs(shown - want) <= 6e-4 * abs(want) + 1e-15


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    metric = [k for k in rows[0] if k.endswith(":base (I)")][0][:-len(":base (I)")]
    nodes, kids = {}, {}
    for r in rows:
        vals = []
        for role in ROLES:
            cell = r[metric + ":" + role]
            vals.append(float(cell) if cell != "" else None)
        r["v"] = vals
        nodes[r["id"]] = r
        kids.setdefault(r["parent"], []).append(r)
    screen = open(sys.argv[2]).read().splitlines()
    hdr_i = [i for i, l in enumerate(screen) if "Name (top-down" in l][0]
    hdr = screen[hdr_i]
    name_x = hdr.index("Name (")
    ends = [m.end() for m in re.finditer(r" [IE](?:\u25bc|\u25b2|v|\^)?(?= |$)",
                                         hdr[:name_x])]
    if len(ends) != 4:
        fail("want 4 columns, header %r" % hdr)
    stack, used, seen = [], set(), 0
    last_delta = {}
    for line in screen[hdr_i + 1:]:
        if line.startswith("Name  ") or len(line) <= name_x + 2:
            break
        rest = line[name_x:]
        m = re.match(r"^((?:[\u2502 ] )*(?:[\u251c\u2514]\u2500)?)"
                     r"([\u25be\u25b8 ]) (.*)$", rest)
        if not m:
            fail("unreadable row %r" % line)
        depth = len(m.group(1)) // 2
        label = m.group(3).rstrip()
        mark = None
        if label.startswith("[+] ") or label.startswith("[-] "):
            mark, label = label[:3], label[4:]
        shown, signs, start = [], [], 0
        for i, end in enumerate(ends):
            p = parse(line[start:end], i == 3)
            shown.append(p[0] if p else None)
            signs.append(p[1] if p else "")
            start = end
        parent = stack[depth - 1]["id"] if depth > 0 else ""
        cands = [r for r in kids.get(parent, [])
                 if r["id"] not in used and label_fits(label, r["name"])
                 and all((s is None) == (w is None) and
                         (s is None or close(s, w, i == 3))
                         for i, (s, w) in enumerate(zip(shown, r["v"])))]
        if not cands:
            fail("no CSV node under %r for row %r" % (parent, line))
        node = cands[0]
        used.add(node["id"])
        del stack[depth:]
        stack.append(node)
        seen += 1
        want_mark = {"new": "[+]", "gone": "[-]"}.get(node["status"])
        if mark != want_mark:
            fail("mark %r, status %s: %r" % (mark, node["status"], line))
        for i in (2, 3):
            w = node["v"][i]
            if w is None:
                continue
            want = "+" if w > 0 and shown[i] != 0 else "-" if w < 0 else ""
            if signs[i] != want and not (shown[i] == 0 and not signs[i]):
                fail("sign %r for %g: %r" % (signs[i], w, line))
        d = abs(node["v"][2] or 0.0)
        if parent in last_delta and d > last_delta[parent] + 1e-12:
            fail("not by |delta|: %r after |delta| %g" % (line, last_delta[parent]))
        last_delta[parent] = d
    if seen != len(rows):
        fail("%d rows on screen, %d nodes in the CSV" % (seen, len(rows)))
    print("compare screen = CSV: %d rows, 4 columns, marks, signs, |delta| order"
          % seen)


main()
