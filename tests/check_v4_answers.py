#!/usr/bin/env python3
"""Compare callscope's batch output for an HPCToolkit v4 database with
reference values computed independently of callscope's reader: the files in
../shared/expected (HPCToolkit's own Python reader) or the answers written by
tests/gen-v4db.

usage: check_v4_answers.py CALLSCOPE DB ANSWERS.json

Checks: every context of the reference exists with the same parent; every
column whose source statistic the reference has equals it at every context
(relative tolerance 1e-9); the global context; trace line count, sample
count and every probe (`trace --at`); and, when the answers carry them, the
hot paths and the flat view's top functions.  Prints one line per problem
and exits 1 if there is any."""
import json
import math
import subprocess
import sys
from collections import defaultdict

problems = []


def fail(msg):
    problems.append(msg)
    if len(problems) <= 30:
        print("FAIL: " + msg)


def run(cs, *args):
    p = subprocess.run([cs, *args], capture_output=True, timeout=300)
    if p.returncode != 0:
        raise SystemExit("callscope %s exited %d: %s" % (
            " ".join(args), p.returncode, p.stderr.decode(errors="replace")))
    return json.loads(p.stdout)


def close(a, b):
    if a is None or b is None:
        return (a or 0) == (b or 0)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def key_of(col):
    s = col.get("source")
    if not s:
        return None
    return "%s|%s|%s|%s" % (s.get("metric", col["metric"]), s["scope"], s["formula"], s["combine"])


def main():
    cs, db, answers_path = sys.argv[1:4]
    ans = json.load(open(answers_path))
    rep = run(cs, "report", db, "--metric", "all", "--format", "json")
    cols = [key_of(c) for c in rep["columns"]]
    nodes = {n["id"]: n for n in rep["nodes"]}
    if len(nodes) != len(rep["nodes"]):
        fail("duplicate node ids in the top-down report")
    compared = 0
    for cid, ref in ans["contexts"].items():
        cid = int(cid)
        node = nodes.get(cid)
        if node is None:
            fail("context %d missing" % cid)
            continue
        want_parent = ref.get("parent") or 0
        if (node["parent"] or 0) != want_parent:
            fail("context %d: parent %s, reference %s" % (cid, node["parent"], want_parent))
        for i, key in enumerate(cols):
            if key is None:
                continue
            want = ref["summary"].get(key)
            got = node["values"][i]
            if not close(got, want):
                fail("context %d column %s: %r, reference %r" % (cid, key, got, want))
            compared += 1
    root = nodes.get(0)
    for i, key in enumerate(cols):
        if key is not None and key in ans.get("global", {}):
            if root is None or not close(root["values"][i], ans["global"][key]):
                fail("global %s: %r, reference %r" % (
                    key, root and root["values"][i], ans["global"][key]))
    if not any(k for k in cols):
        fail("no column reads a summary statistic")

    trace = ans.get("trace")
    if trace:
        info = run(cs, "info", db, "--format", "json")
        t = info.get("trace") or {}
        if t.get("lines") != trace["lines"]:
            fail("trace lines %r, reference %r" % (t.get("lines"), trace["lines"]))
        if t.get("samples") != trace["elements"]:
            fail("trace samples %r, reference %r" % (t.get("samples"), trace["elements"]))
        by_time = defaultdict(list)
        for p in trace.get("probes", []):
            by_time[p["t"]].append(p)
        for when, probes in sorted(by_time.items()):
            out = run(cs, "trace", db, "--at", str(when), "--format", "json")
            lines = {l["line"]: l for l in out["lines"]}
            for p in probes:
                got = lines.get(p["line"])
                if got is None:
                    fail("probe line %d missing" % p["line"])
                    continue
                want = p["ctx"]
                if (got["ctx"] or 0) != (want or 0):
                    fail("probe line %d t=%d: ctx %r, reference %r" % (
                        p["line"], when, got["ctx"], want))
                if "prof_index" in p and got["profile"] != p["prof_index"]:
                    fail("probe line %d: profile %r, reference %r" % (
                        p["line"], got["profile"], p["prof_index"]))

    first_incl = next((i for i, c in enumerate(rep["columns"])
                       if c["kind"] == "inclusive"), None)
    for key, threshold in (("hotpath", "50"), ("hotpath0", "0")):
        if key in ans and first_incl is not None:
            hp = run(cs, "hotpath", db, "--metric", str(first_incl),
                     "--threshold", threshold, "--format", "json")
            ids = [n["id"] for n in hp["nodes"]]
            if ids[:1] != [0] or ids[1:] != ans[key]:
                fail("%s %r, reference %r" % (key, ids, ans[key]))
    if "flat_functions" in ans:
        flat = run(cs, "report", db, "--view", "flat", "--metric", "all",
                   "--format", "json")
        excl = next((i for i, c in enumerate(flat["columns"])
                     if c["kind"] == "exclusive"), None)
        sums = defaultdict(float)
        for n in flat["nodes"]:
            if n["kind"] == "function" and n["values"][excl] is not None:
                sums[n["name"]] += n["values"][excl]
        for f in ans["flat_functions"]:
            if not close(sums.get(f["name"]), f["exclusive"]):
                fail("flat function %s exclusive %r, reference %r" % (
                    f["name"], sums.get(f["name"]), f["exclusive"]))

    print("%s: %d contexts, %d values compared, %d problems" % (
        db, len(ans["contexts"]), compared, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
