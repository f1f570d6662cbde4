#!/usr/bin/env python3
"""Headless UI scenarios: replay keys into `callscope --headless` on a
generated database and check the screen against the generator's answers.

usage: ui_headless_check.py CALLSCOPE DB ANSWERS.json
The expected names come from `callscope report --format json` of the ids
the generator computed independently (the hot path), so the check is:
the viewer's H lands on the context the generator says is hot."""
import json
import re
import subprocess
import sys

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def screen(cs, db, keys, size="120x40", env=None, each=False):
    cmd = [cs, "--headless", "--no-config", "--size", size, "--keys", keys, db]
    if each:
        cmd.insert(4, "--dump-each")
    p = subprocess.run(cmd, capture_output=True, timeout=60, env=env)
    if p.returncode != 0:
        fail("%r exited %d: %s" % (keys, p.returncode, p.stderr.decode()[:300]))
    return p.stdout.decode("utf-8", errors="replace")


def shows(cs, db, keys, want, msg):
    """The screen after keys; fails with msg unless it holds want."""
    s = screen(cs, db, keys)
    if want not in s:
        fail(msg)
    return s


def detail_name(text):
    for line in text.splitlines():
        if line.startswith("Name "):
            return line[5:].strip()
    return None


def main():
    cs, db, answers = sys.argv[1:4]
    ans = json.load(open(answers))
    rep = json.loads(subprocess.run([cs, "report", db, "--format", "json"],
                                    capture_output=True, check=True).stdout)
    names = {n["id"]: n["name"] for n in rep["nodes"]}
    metric = ans["metrics"][0]

    # first frame: title, tabs, column headers, the tree, the status line
    s = screen(cs, db, "")
    for want in ("callscope", "Top-down", "Bottom-up", "Flat", "Threads",
                 metric[:8], "<program root>", "main thread", "q quit"):
        if want not in s:
            fail("first frame lacks %r" % want)

    # H with threshold 0 reaches the generator's hot leaf (threshold 0 path)
    leaf = names[ans["hotpath0"][-1]]
    s = screen(cs, db, ":threshold 0<Enter>H")
    got = detail_name(s)
    if got != leaf:
        fail("H reached %r, the answers say %r" % (got, leaf))
    # and with the default 50 %, the 50 % answer
    leaf50 = names[ans["hotpath"][-1]]
    s = screen(cs, db, "H")
    if detail_name(s) != leaf50:
        fail("H (50%%) reached %r, the answers say %r" % (detail_name(s), leaf50))

    # search finds a name deep in a collapsed subtree and reveals it
    target = names[ans["hotpath0"][-1]]
    pattern = re.escape(target)[:40]
    s = screen(cs, db, "/" + pattern + "<Enter>")
    if detail_name(s) != target:
        fail("search /%s selected %r" % (pattern, detail_name(s)))
    if "matches" not in s:
        fail("search reports no match count")

    # views switch: the header names the view
    s = shows(cs, db, "v", "Name (bottom-up)",
              "v does not switch to bottom-up")
    s = shows(cs, db, "vv", "Name (flat)", "vv does not switch to flat")
    top_fn = ans["flat_functions"][0]["name"]
    s = shows(cs, db, "2", top_fn,
              "bottom-up view does not list the hottest function %r" % top_fn)

    # thread view: every execution context of the hot leaf
    s = screen(cs, db, ":threshold 0<Enter>HT")
    labels = [p for p in json.loads(subprocess.run(
        [cs, "info", db, "--format", "json"], capture_output=True,
        check=True).stdout)["profiles"] if not p["summary"]]
    m = re.search(r"(\d+) (?:execution )?contexts by", s)
    if not m or int(m.group(1)) != len(labels):
        fail("thread view count %r, want %d" % (m and m.group(1), len(labels)))
    for p in labels[:30]:
        if p["label"] not in s:
            fail("thread view lacks %r" % p["label"])

    # resize to 80x20 and to 40x10: still draws
    s = screen(cs, db, "jj<Resize:80x20>j", size="120x40")
    lines = s.splitlines()
    if len(lines) != 20 or "callscope" not in lines[0]:
        fail("after resize to 80x20: %d lines, first %r" % (len(lines), lines[:1]))
    s = screen(cs, db, "jjjH", size="40x10")
    if len(s.splitlines()) != 10:
        fail("40x10 screen has %d lines" % len(s.splitlines()))

    # help lists every action with its keys, grouped by pane; q quits
    s = screen(cs, db, "?", size="120x100")
    for want in ("hot-path", "search", "quit"):
        if want not in s:
            fail("help lacks %r" % want)
    s = shows(cs, db, "?G", ":derive NAME = FORMULA",
              "help lacks the commands")
    screen(cs, db, "q")

    # derived column, column chooser, sort, zoom
    s = shows(cs, db, ":derive ratio = $1 / $3<Enter>", "ratio",
              ":derive adds no column")
    s = shows(cs, db, "c", "[x] $1", "column chooser lacks its list")
    s = shows(cs, db, "jjjz", "zoomed", "z does not zoom")

    # themes switch; a broken config names its file and line, and the
    # viewer carries on with defaults
    s = shows(cs, db, ":theme mono<Enter>", "theme mono",
              ":theme mono gave no confirmation")
    s = shows(cs, db, ":theme no-such-theme<Enter>", "no-such-theme",
              ":theme with an unknown name says nothing")
    import os
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
        f.write("set threshold = 80\nbind tree x no-such-action\ncolour tree red\n")
        bad = f.name
    p = subprocess.run([cs, "--headless", "--config", bad, "--size", "120x30",
                        "--keys", "", db], capture_output=True, timeout=60)
    out = p.stdout.decode("utf-8", errors="replace")
    os.unlink(bad)
    if p.returncode != 0 or "program root" not in out:
        fail("a broken config stops the viewer: %d" % p.returncode)
    if (os.path.basename(bad) + ":2") not in out and (os.path.basename(bad) + ":3") not in out:
        fail("the config error does not name file and line: %r" % out.splitlines()[-1:])

    # ASCII fallback under LANG=C: no UTF-8 line drawing
    env = {"PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "TERM": "xterm"}
    s = screen(cs, db, "jj", env=env)
    if "\u2502" in s or "\u25be" in s:
        fail("LANG=C screen has UTF-8 line drawing")
    print("%s: %d failures" % (db, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
