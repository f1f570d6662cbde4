#!/usr/bin/env python3
"""Check callscope on the fixtures of gen_rocpd.py against its answers, and
on the real .rpd corpus files against plain SQL over the same files.

usage: check_rocpd.py CALLSCOPE FIXTURE_DIR [CORPUS_RPD...]
"""
import json
import os
import sqlite3
import subprocess
import sys

fails = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL:", msg)


def run(cs, *args, code=0):
    p = subprocess.run([cs] + list(args), capture_output=True)
    if p.returncode != code:
        fail("%s: exit %d, wanted %d: %s" % (" ".join(args), p.returncode, code,
                                             p.stderr.decode(errors="replace")))
    return p


def report(cs, view, *paths):
    p = run(cs, "report", "--view", view, "--format", "json", *paths)
    return json.loads(p.stdout) if p.returncode == 0 else None


def col(rep, name):
    for i, c in enumerate(rep["columns"]):
        if c["name"] == name:
            return i
    raise KeyError(name)


def kernel_summary(rep):
    g, c = col(rep, "GPU time (ns) (E)"), col(rep, "Calls (E)")
    out = {}
    for n in rep["nodes"]:
        if n["kind"] == "kernel":
            out[n["name"]] = [round(n["values"][c] or 0), round(n["values"][g] or 0)]
    return out


def root_value(rep, name):
    return rep["nodes"][0]["values"][col(rep, name)]


def check_summary(what, rep, kernels, gpu_total):
    got = kernel_summary(rep)
    want = {k: list(v) for k, v in kernels.items()}
    if got != want:
        fail("%s: kernel summary %s, wanted %s" % (what, got, want))
    tot = root_value(rep, "GPU time (ns) (I)")
    if round(tot) != gpu_total:
        fail("%s: GPU time total %s, wanted %s" % (what, tot, gpu_total))


def main():
    cs, d = sys.argv[1], sys.argv[2]
    A = json.load(open(os.path.join(d, "answers.json")))
    run_dir = os.path.join(d, "run")
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(run_dir) for f in fs)
    if len(files) <= 10:
        fail("the run must have more than 10 files, not %d" % len(files))
    # a directory and the same files as paths: one run, same numbers
    rep = report(cs, "flat", run_dir)
    if rep:
        check_summary("run directory", rep, A["kernels"], A["gpu_total"])
    rep2 = report(cs, "flat", *files)
    if rep and rep2 and kernel_summary(rep) != kernel_summary(rep2):
        fail("paths and directory differ")
    td = report(cs, "top-down", run_dir)
    if td:
        procs = [n["name"] for n in td["nodes"] if n["depth"] == 1]
        if len(procs) != len(files):
            fail("%d processes in the tree, wanted %d: %s" % (len(procs), len(files), procs))
        if not all(" rank " in p and " pid " in p for p in procs):
            fail("processes not labelled host/pid/rank: %s" % procs[:3])
        if round(root_value(td, "Bytes (I)")) != A["bytes"]:
            fail("bytes %s, wanted %s" % (root_value(td, "Bytes (I)"), A["bytes"]))
    info = run(cs, "info", "--format", "json", run_dir)
    if info.returncode == 0:
        j = json.loads(info.stdout)
        warn = " ".join(j.get("warnings", []))
        if str(A["unlinked"]) not in warn:
            fail("the warning should count %d unlinked kernels: %s" % (A["unlinked"], warn))
    # what is active at probe times: begin, end, depth and the path
    by_t = {}
    for p in A["probes"]:
        by_t.setdefault(p["t"], []).append(p)
    n_checked = 0
    for t, ps in sorted(by_t.items()):
        r = run(cs, "trace", "--at", str(t), "--format", "json", run_dir)
        if r.returncode:
            continue
        lines = {l["label"]: l for l in json.loads(r.stdout)["lines"]}
        for p in ps:
            l = lines.get(p["label"])
            if l is None:
                fail("no line %r" % p["label"])
                continue
            n_checked += 1
            if l["path"] != p["path"]:
                fail("at %d on %r: %s, wanted %s" % (t, p["label"], l["path"], p["path"]))
            if p["path"] and not (l["begin"] <= t < l["end"]):
                fail("at %d on %r: interval [%s, %s) does not hold t" % (t, p["label"], l["begin"], l["end"]))
            if p["path"] and "depth" not in l:
                fail("no depth on %r" % p["label"])
    print("probes checked:", n_checked)
    # merged file: two table sets
    rep = report(cs, "flat", os.path.join(d, "merged.db"))
    if rep:
        check_summary("merged file", rep, A["merged"]["kernels"], A["merged"]["gpu_total"])
    # generated .rpd
    rep = report(cs, "flat", os.path.join(d, "gen.rpd"))
    if rep:
        check_summary("gen.rpd", rep, A["rpd"]["kernels"], A["rpd"]["gpu_total"])
        td = report(cs, "top-down", os.path.join(d, "gen.rpd"))
        if td and round(root_value(td, "Bytes (I)")) != A["rpd"]["bytes"]:
            fail("gen.rpd bytes %s, wanted %s" % (root_value(td, "Bytes (I)"), A["rpd"]["bytes"]))
        if td and not any(n["name"] == "step" and n["kind"] == "region" for n in td["nodes"]):
            fail("gen.rpd: the UserMarker range 'step' is not a region")
    # an unknown layout: exit 2, one line naming what is missing
    r = run(cs, "info", os.path.join(d, "unknown.db"), code=2)
    err = r.stderr.decode(errors="replace").strip().split("\n")
    if len(err) != 1 or "no column" not in err[0]:
        fail("unknown layout message: %r" % err)
    # control characters in kernel names never reach the output
    r = run(cs, "report", "--view", "flat", os.path.join(d, "hostile.db"))
    if b"\x1b" in r.stdout or b"\x07" in r.stdout:
        fail("a control character reached the output")
    if b"evil" not in r.stdout:
        fail("the hostile kernel is missing")
    # the real corpus files: plain SQL over the same file
    for rpd in sys.argv[3:]:
        db = sqlite3.connect("file:%s?mode=ro&immutable=1" % rpd, uri=True)
        want = {}
        for name, calls, total in db.execute(
                "SELECT d.string, COUNT(*), SUM(o.\"end\" - o.start) FROM rocpd_op o "
                "JOIN rocpd_string d ON d.id = o.description_id "
                "JOIN rocpd_string t ON t.id = o.opType_id "
                "WHERE t.string = 'KernelExecution' GROUP BY d.string"):
            want[name] = [calls, total]
        gpu = db.execute("SELECT SUM(\"end\" - start) FROM rocpd_op").fetchone()[0]
        napi = db.execute("SELECT COUNT(*) FROM rocpd_api WHERE NOT (start = \"end\" AND apiName_id IN (SELECT id FROM rocpd_string WHERE string = 'UserMarker'))").fetchone()[0]
        nop = db.execute("SELECT COUNT(*) FROM rocpd_op").fetchone()[0]
        db.close()
        rep = report(cs, "flat", rpd)
        if rep:
            check_summary(os.path.basename(rpd), rep, want, gpu)
            calls = root_value(rep, "Calls (I)")
            if round(calls) != napi + nop:
                fail("%s: calls %s, wanted %d API + %d ops" % (rpd, calls, napi, nop))
            print("%s: %d kernels, %d ops, %d API calls match" % (os.path.basename(rpd), len(want), nop, napi))
    print("fails:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
