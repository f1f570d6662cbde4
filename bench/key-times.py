#!/usr/bin/env python3
"""The per-key frame times of a `callscope --headless --timing FILE` run:
one row a key (its action, how many, p50, p99 and max in ms), the slowest
p99 first.  Used by bench/bench-lib.sh's bench_key_times.

usage: key-times.py FILE trace|tree   (the key names of the trace pane's
script or of the tree's)"""
import sys
from collections import defaultdict

NAMES = {
    "trace": {"W": "first trace frame", "F": "trace full screen",
              "t": "trace pane", "+": "zoom in", "-": "zoom out",
              ">": "pan right", "}": "lines zoom in", "{": "lines zoom out",
              ")": "depth deeper", "(": "depth up", ".": "next change",
              ",": "previous change", "u": "undo", "C-r": "redo",
              "Right": "cursor right", "Down": "cursor down",
              "Up": "cursor up", "0": "home"},
    "tree": {"j": "move down", "k": "move up", "PgDn": "page down",
             "PgUp": "page up", "l": "expand", "h": "collapse",
             "H": "hot path", "g": "first row", "s": "sort (next column)",
             "r": "reverse sort", "Right": "expand", "Left": "collapse",
             "z": "zoom", "Z": "zoom out", "n": "search next",
             "N": "search previous", "v": "view switch",
             "1": "top-down view", "2": "bottom-up view", "3": "flat view",
             "Enter": "search (first pass)"},
}


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in NAMES:
        raise SystemExit(__doc__)
    names = NAMES[sys.argv[2]]
    t = defaultdict(list)
    for line in open(sys.argv[1]):
        k, us = line.rsplit(" ", 1)
        t[k].append(float(us) / 1000)
    print("%-8s %-22s %5s %9s %9s %9s"
          % ("key", "action", "n", "p50 ms", "p99 ms", "max ms"))
    for k, v in sorted(t.items(), key=lambda kv: -pct(kv[1], 99)):
        print("%-8s %-22s %5d %9.2f %9.2f %9.2f"
              % (k, names.get(k, ""), len(v), pct(v, 50), pct(v, 99), max(v)))


if __name__ == "__main__":
    main()
