#!/usr/bin/env python3
"""Hostile names reach no terminal raw: run every batch command, error
paths that quote input, config warnings and the headless viewer on a
database written by `gen-v4db --hostile --names NAMES`, and check that each
output (stdout and stderr) is valid UTF-8 with no ESC, no C0 control other
than newline and tab, no DEL and no C1 control.  JSON output must parse and
carry the names exactly (invalid UTF-8 bytes as U+FFFD, controls escaped).

usage: hostile_check.py CALLSCOPE DB NAMES CYCLIC_DB"""
import json
import os
import subprocess
import sys
import tempfile

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def unsafe(data):
    """The first unsafe thing in `data` (bytes), or None."""
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        return "invalid UTF-8 at byte %d" % e.start
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 0x20 and ch not in "\n\t") or c == 0x7F or 0x80 <= c <= 0x9F:
            return "control U+%04X at character %d: %r" % (c, i, text[max(0, i - 20):i + 20])
    return None


def run(cs, args, what, want_rc=(0,), stdin=None):
    p = subprocess.run([cs] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL if stdin is None else stdin, timeout=120)
    if p.returncode not in want_rc:
        fail("%s: exit %d (want %s): %s" % (what, p.returncode, want_rc, p.stderr[:300]))
    for name, data in (("stdout", p.stdout), ("stderr", p.stderr)):
        bad = unsafe(data)
        if bad:
            fail("%s: %s: %s" % (what, name, bad))
    return p


def load_names(path):
    """{kind: set of names as JSON carries them (invalid bytes U+FFFD)},
    and {kind: list of the raw names}."""
    names, raw_names = {}, {}
    with open(path) as f:
        for line in f:
            kind, hexed = line.split()
            raw = bytes.fromhex(hexed)
            names.setdefault(kind, set()).add(raw.decode("utf-8", errors="replace"))
            raw_names.setdefault(kind, []).append(raw)
    return names, raw_names


def write_sources(db, files):
    """Source files with hostile lines where the viewer looks for them:
    relative names (the hostile prefixes make most so) under the database
    directory."""
    made = 0
    for name in files:
        if name.startswith(b"/") or len(name) > 200:
            continue
        path = os.path.join(os.fsencode(db), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            for i in range(1, 2500):
                f.write(b"line %d \x1b]0;pwned\x07 \x1b[2J \xc2\x9b31m \x7f \xff\xfe \t end\r\n" % i)
        made += 1
    return made


def json_strings(v, out):
    if isinstance(v, str):
        out.add(v)
    elif isinstance(v, list):
        for x in v:
            json_strings(x, out)
    elif isinstance(v, dict):
        for k, x in v.items():
            json_strings(k, out)
            json_strings(x, out)
    return out


def check_json(p, what):
    try:
        return json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        fail("%s: output is not JSON: %s" % (what, e))
        return None


def main():
    cs, db, names_path, cyclic = sys.argv[1:5]
    names, raw_names = load_names(names_path)
    if write_sources(db, raw_names["file"]) == 0:
        fail("no source file could be written")

    # every batch command, every format
    outputs = {}
    for args in (["info", db], ["info", db, "--format", "json"]):
        outputs[" ".join(args)] = run(cs, args, " ".join(args))
    for view in ("top-down", "bottom-up", "flat"):
        for fmt in ("text", "csv", "json"):
            args = ["report", db, "--view", view, "--metric", "all", "--format", fmt]
            outputs[" ".join(args)] = run(cs, args, " ".join(args))
    for fmt in ("text", "json"):
        args = ["hotpath", db, "--format", fmt]
        outputs[" ".join(args)] = run(cs, args, " ".join(args))
        args = ["trace", db, "--at", "+1ms", "--depth", "50", "--format", fmt]
        outputs[" ".join(args)] = run(cs, args, " ".join(args))
        args = ["trace", db, "--from", "+0", "--to", "+1s", "--columns", "40", "--format", fmt]
        outputs[" ".join(args)] = run(cs, args, " ".join(args))

    # JSON carries the real names, escaped
    info = check_json(outputs["info %s --format json" % db], "info json")
    if info is not None:
        if info.get("title") not in names["title"]:
            fail("info json: title %r is not the one written" % info.get("title"))
        metrics = {c["metric"] for c in info.get("columns", [])}
        if metrics != names["metric"]:
            fail("info json: metrics %r, want %r" % (sorted(metrics), sorted(names["metric"])))
    flat = check_json(outputs["report %s --view flat --metric all --format json" % db], "flat json")
    if flat is not None:
        seen = {"function": set(), "file": set(), "module": set()}
        for n in flat["nodes"]:
            if n["kind"] in ("function", "file", "module"):
                seen[n["kind"]].add(n["name"])
            for key in ("file", "module"):
                if n.get(key) is not None and n[key] not in names[key]:
                    fail("flat json: %s %r was not written" % (key, n[key]))
        for kind, got in seen.items():
            if not got or not got <= names[kind]:
                fail("flat json: %s names %r are not the ones written" % (kind, sorted(got - names[kind])[:3]))
        if not any(len(s) >= 10000 for s in seen["function"]):
            fail("flat json: the 10,000-character function name is missing")
    top = check_json(outputs["report %s --view top-down --metric all --format json" % db], "report json")
    if top is not None:
        entries = {n["name"] for n in top["nodes"] if n["kind"] == "entry"}
        if not entries or not entries <= names["entry"]:
            fail("report json: entry names %r are not the ones written" % sorted(entries))
    trace = check_json(outputs["trace %s --at +1ms --depth 50 --format json" % db], "trace json")
    if trace is not None:
        labels = " ".join(line["label"] for line in trace["lines"])
        if not any(k in labels for k in names["kind"]):
            fail("trace json: no identifier kind name in the labels %r" % labels[:200])
    for what, p in outputs.items():
        if "json" in what:
            check_json(p, what)
    # text output shows the hostile parts as visible escapes
    text = outputs["info %s" % db].stdout.decode()
    if "\\x1b]0;pwned\\x07" not in text:
        fail("info text: the title's OSC sequence is not shown as \\x1b]0;pwned\\x07")

    # error messages that quote input
    evil = "\x1b]0;pwned\x07\x1b[2J\x9b\x7f"
    run(cs, ["info", "/nonexistent/" + evil], "missing database named with escapes", want_rc=(2,))
    run(cs, ["report", db, "--metric", evil], "unknown metric with escapes", want_rc=(1,))
    run(cs, ["report", db, "--format", evil], "unknown format with escapes", want_rc=(1,))
    run(cs, ["report", db, "--view", evil], "unknown view with escapes", want_rc=(1,))
    run(cs, ["trace", db, "--at", evil], "bad time with escapes", want_rc=(1,))
    run(cs, [evil, db], "unknown command with escapes", want_rc=(1, 2))
    run(cs, ["report", cyclic], "cyclic context tree", want_rc=(2,))
    run(cs, ["--headless", "--keys-file", "/nonexistent/" + evil, db], "keys file named with escapes",
        want_rc=(1,))
    old_term = os.environ.get("TERM")
    os.environ["TERM"] = "x" + evil
    run(cs, ["--headless", "--keys", "q", db], "TERM with escapes", want_rc=(1, 2))
    os.environ["TERM"] = old_term or "xterm-256color"

    # config warnings that quote the config file
    with tempfile.TemporaryDirectory() as tmp:
        conf = os.path.join(tmp, "config\x1b[2J")
        with open(conf, "wb") as f:
            f.write(b"set \x1b]0;pwned\x07 = 1\nbind \x9b\x7f quit\ncolor \xff\xfe red\n"
                    b"theme \x1b[31mnone\nderive \x1b]0;x\x07 = $1 +\n")
        run(cs, ["--headless", "--config", conf, "--keys", "jj", db], "config warnings", want_rc=(0, 1))

    # the headless viewer: tree, expanded hot path, every view, thread and
    # source panes, help, search, a derived column named with escapes
    for keys in ("EjjjjH", "3EjjjjjT", "2Ejjjo", "jjjo", "jjT", "?", "/main<Enter>n",
                 ":derive \x1b[2Jx = $1<Enter>", "c", "<Resize:30x8>jjE"):
        run(cs, ["--headless", "--no-config", "--size", "200x50", "--dump-each", "--keys", keys, db],
            "headless %r" % keys)
    # source lines: some line context's file is one written above
    shown = False
    for k in range(2, 40):
        p = run(cs, ["--headless", "--no-config", "--size", "200x50", "--keys", "E" + "j" * k + "o", db],
                "headless source after %d rows" % k)
        if b"line " in p.stdout and b"end" in p.stdout:
            shown = True
            if b"\\x1b]0;pwned\\x07" not in p.stdout:
                fail("source pane: the OSC sequence of a source line is not shown as text")
            break
    if not shown:
        fail("no source line was shown")
    print("%s: %d failures" % (db, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
