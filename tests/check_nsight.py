#!/usr/bin/python3
"""Check callscope's reading of Nsight Systems exports against the plain-SQL
summaries in ../shared/expected/nsight/ (one .txt per corpus export).

usage: check_nsight.py CALLSCOPE CORPUS_DIR EXPECTED_DIR

For every corpus export that has an expected file (and every expected file
must have its export), compares the flat view of `callscope report` with:
the kernel summary by shortName (calls, total ns), copies by copy kind
(calls, bytes, ns), memsets, the CUDA API summary (eventClass 0 and 1:
calls, inclusive ns), NVTX push/pop ranges by name (calls, ns), the number
of kernels without a captured API call, and the total number of intervals
(NVTX + API + OS runtime + kernels + copies + memsets) against Calls at the
root.  Exits 1 on the first file with a difference (after printing all of
its differences)."""
import json
import math
import os
import sqlite3
import subprocess
import sys

COPY_KINDS = ["unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
              "DtoA", "DtoD", "HtoH", "PtoP"]


def sections(path):
    """{section title: [rows as lists of strings]} (header row dropped)."""
    out, cur = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                cur = line[3:]
                out[cur] = []
                header = True
            elif line.startswith("#") or cur is None:
                continue
            elif header:
                header = False
            else:
                out[cur].append(line.split("\t"))
    return out


def run(cs, args):
    p = subprocess.run([cs] + args, capture_output=True, text=True,
                       timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s %s: exit %d: %s" % (cs, " ".join(args),
                                                  p.returncode, p.stderr))
    return json.loads(p.stdout)


def check_file(cs, db, expected):
    errs = []
    exp = sections(expected)
    # the expected files name kernels by shortName: --kernel-names base
    flat = run(cs, ["--kernel-names", "base", "report", db, "--view",
                    "flat", "--format", "json", "--metric", "all"])
    names = [c["name"] for c in flat["columns"]]
    col = {n: i for i, n in enumerate(names)}

    def val(node, name):
        v = node["values"][col[name]]
        return 0 if v is None else v

    def by_name(flat):
        by = {}
        for n in flat["nodes"]:
            by.setdefault((n["kind"], n["name"]), n)
        return by

    by = by_name(flat)
    root = next(n for n in flat["nodes"] if n["kind"] == "root")

    def want(what, got, expect):
        if abs(got - expect) > 0.5:  # integers, exact in a double
            errs.append("%s: %s, expected %s" % (what, got, expect))

    total_intervals = 0
    ks = exp.get("kernel summary (by shortName)", [])
    kernels_seen = {n["name"] for n in flat["nodes"] if n["kind"] == "kernel"}
    if kernels_seen != {r[0] for r in ks}:
        errs.append("kernel names %s, expected %s"
                    % (sorted(kernels_seen), sorted(r[0] for r in ks)))
    for name, n, total, *_ in ks:
        node = by.get(("kernel", name))
        if not node:
            continue
        want("kernel %s calls" % name, val(node, "Calls (E)"), int(n))
        want("kernel %s GPU time" % name, val(node, "GPU time (ns) (E)"),
             int(total))
        total_intervals += int(n)
    for kind, n, nbytes, total in exp.get("memcpy by copyKind", []):
        k = int(kind)
        name = "[memcpy %s]" % (COPY_KINDS[k] if 0 <= k < len(COPY_KINDS)
                                else "other")
        node = by.get(("function", name))
        if not node:
            errs.append("no %s" % name)
            continue
        want(name + " calls", val(node, "Calls (E)"), int(n))
        want(name + " bytes", val(node, "Bytes (E)"), int(nbytes))
        want(name + " GPU time", val(node, "GPU time (ns) (E)"), int(total))
        total_intervals += int(n)
    for n, nbytes, total in exp.get("memset", []):
        node = by.get(("function", "[memset]"))
        if int(n) == 0:
            if node:
                errs.append("a [memset] node where there is none")
            continue
        if not node:
            errs.append("no [memset]")
            continue
        want("memset calls", val(node, "Calls (E)"), int(n))
        want("memset bytes", val(node, "Bytes (E)"), int(nbytes))
        want("memset GPU time", val(node, "GPU time (ns) (E)"), int(total))
        total_intervals += int(n)
    for name, n, total in exp.get("CUDA API summary (eventClass 0 and 1 only)",
                                  []):
        node = by.get(("function", name))
        if not node:
            errs.append("no API function %s" % name)
            continue
        want("API %s calls" % name, val(node, "Calls (E)"), int(n))
        want("API %s time" % name, val(node, "API time (ns) (I)"), int(total))
        total_intervals += int(n)
    nvtx_by_type = {int(r[0]): (int(r[1]), int(r[2]))
                    for r in exp.get("NVTX by eventType", [])}
    ranges = exp.get("NVTX push/pop ranges (eventType 59) by name", [])
    for name, n, total in ranges:
        node = by.get(("region", name))
        if not node:
            errs.append("no NVTX range %s" % name)
            continue
        want("NVTX %s calls" % name, val(node, "Calls (E)"), int(n))
        want("NVTX %s time" % name, val(node, "API time (ns) (I)"),
             int(total))
    total_intervals += sum(w for t, (n, w) in nvtx_by_type.items()
                           if t in (59, 60))
    # OS runtime calls: the functions that are neither API calls nor GPU
    # work (names in brackets)
    api = {r[0] for r in
           exp.get("CUDA API summary (eventClass 0 and 1 only)", [])}
    osrt = [n for n in flat["nodes"] if n["kind"] == "function" and
            n["name"] not in api and not n["name"].startswith("[")]
    for n, total in exp.get("OS runtime API", []):
        total_intervals += int(n)
        want("OS runtime calls", sum(val(x, "Calls (E)") for x in osrt),
             int(n))
        want("OS runtime time", sum(val(x, "API time (ns) (I)")
                                    for x in osrt), int(total))
    want("intervals (Calls at the root)", val(root, "Calls (I)"),
         total_intervals)
    # kernels without a captured API call: under the <GPU work ...> nodes
    rows = exp.get("kernels without a captured API call (LEFT JOIN on "
                   "correlationId)")
    if rows:
        td = run(cs, ["report", db, "--format", "json", "--metric",
                      "Calls"])
        nodes = {n["id"]: n for n in td["nodes"]}
        unlinked = 0
        for n in td["nodes"]:
            if n["kind"] != "kernel":
                continue
            p = nodes.get(n["parent"])
            if p and p["name"].startswith("<GPU work without"):
                unlinked += n["values"][1] or 0
        want("kernels without an API call", unlinked, int(rows[0][0]))
    # by default kernels are named by demangledName (nsys stats)
    errs += check_summaries(db, by_name(run(
        cs, ["report", db, "--view", "flat", "--format", "json", "--metric",
             "all"])), val, "coalesce(k.demangledName, k.shortName)"
        if "demangledName" in columns(db, "CUPTI_ACTIVITY_KIND_KERNEL")
        else "k.shortName")
    errs += check_kernel_names(cs, db)
    errs += check_marks(cs, db, exp)
    errs += check_contexts(cs, db)
    return errs


def check_contexts(cs, db):
    """GPU lines by context (trace --gpu-lines queue; streams are shown
    first): per (pid, device, context) the count of kernels, copies and
    memsets and, at probe times, the interval active (the latest-begun
    running one in callscope's order: begin, end descending, row), both
    from plain SQL over the file."""
    errs = []
    rows = {}
    for src, tab in enumerate(("CUPTI_ACTIVITY_KIND_KERNEL",
                               "CUPTI_ACTIVITY_KIND_MEMCPY",
                               "CUPTI_ACTIVITY_KIND_MEMSET")):
        if not has_table(db, tab) or "contextId" not in columns(db, tab):
            continue
        pid = "(globalPid >> 24) & 16777215" if "globalPid" in columns(db, tab) else "0"
        con = sqlite3.connect("file:%s?mode=ro&immutable=1" % db, uri=True)
        for r in con.execute(
                "SELECT %s, deviceId, contextId, start, \"end\", rowid FROM %s "
                "WHERE typeof(start) = 'integer' AND typeof(\"end\") = "
                "'integer' AND \"end\" >= start AND typeof(contextId) = "
                "'integer'" % (pid, tab)):
            rows.setdefault("pid %d GPU %d context %d" % (r[0], r[1], r[2]),
                            []).append((r[3], r[4], r[5] << 3 | src))
        con.close()
    if not rows:
        return errs
    info = run(cs, ["info", "--format", "json", db])["trace"]["line_list"]
    got = {l["label"]: l["samples"] for l in info if " context " in l["label"]}
    want = {k: len(v) for k, v in rows.items()}
    if got != want:
        errs.append("GPU work per context %s, SQL says %s" % (got, want))
    default = {l["label"] for l in run(cs, ["trace", "--at", "0", "--format",
                                            "json", db])["lines"]}
    if any(" context " in l for l in default):
        errs.append("context lines shown by default: %s" % sorted(default))
    for label, ivs in sorted(rows.items()):
        ivs.sort(key=lambda x: (x[0], -x[1], x[2]))
        times = [ivs[0][0], ivs[0][1], ivs[-1][0], ivs[len(ivs) // 2][0] + 1,
                 (ivs[0][0] + ivs[-1][1]) // 2, ivs[-1][1]]
        for t in times:
            best = None
            for b, e, ev in ivs:
                if b <= t < e:
                    best = (b, e)
            lines = {l["label"]: l for l in run(
                cs, ["trace", "--at", str(t), "--gpu-lines", "queue",
                     "--format", "json", db])["lines"]}
            l = lines.get(label)
            if l is None or (best and [l["begin"], l["end"]] != list(best)) or \
                    (not best and l["begin"] is not None):
                errs.append("%s at %d: %s, SQL says %s" % (
                    label, t, l and [l["begin"], l["end"]], best))
            CHECKED[0] += 1
    return errs


def check_marks(cs, db, exp):
    """NVTX marks (eventType 34) are instants of their thread's line: at
    each mark's time `trace --at` names the first mark there, how many,
    and the host interval it lies in is the one the expected file names;
    per thread the count equals plain SQL's."""
    errs = []
    pid_of = {}
    for tid, t, first, n, b, e in exp.get("NVTX marks (eventType 34)", [])[::3]:
        got = run(cs, ["trace", "--at", t, "--format", "json", db])
        lines = [l for l in got["lines"] if l["label"].endswith(" tid " + tid)]
        if len(lines) != 1:
            errs.append("mark at %s: no line of tid %s" % (t, tid))
            continue
        l = lines[0]
        ins = l.get("instant")
        if not ins or ins["name"] != first or ins["time"] != int(t) or \
                l.get("instants") != int(n):
            errs.append("mark at %s on tid %s: %s x%s, expected %r x%s"
                        % (t, tid, ins, l.get("instants"), first, n))
        if (b == "-" and l["begin"] is not None) or \
                (b != "-" and [l["begin"], l["end"]] != [int(b), int(e)]):
            errs.append("interval at mark %s on tid %s: [%s, %s), expected "
                        "[%s, %s)" % (t, tid, l["begin"], l["end"], b, e))
        CHECKED[0] += 1
    con = sqlite3.connect("file:%s?mode=ro&immutable=1" % db, uri=True)
    if has_table(db, "NVTX_EVENTS"):
        per = con.execute("SELECT globalTid, COUNT(*), MIN(start) FROM "
                          "NVTX_EVENTS WHERE eventType = 34 GROUP BY "
                          "globalTid").fetchall()
        for gtid, n, first in per:
            got = run(cs, ["trace", "--at", str(first), "--span", "1000s",
                           "--format", "json", db])
            lines = [l for l in got["lines"] if l["label"].endswith(
                " tid %d" % (gtid & 0xffffff))]
            if len(lines) != 1 or lines[0].get("instants") != n:
                errs.append("tid %d: %s marks, SQL says %d" % (
                    gtid & 0xffffff, lines and lines[0].get("instants"), n))
            CHECKED[0] += 1
    con.close()
    return errs


CHECKED = [0]  # summary rows compared with SQL, for the "ok" line


def summary(durations):
    """(calls, total, mean, min, max, sample stddev) of the durations,
    computed here from the rows (two passes), not from sums of squares."""
    n = len(durations)
    total = sum(durations)
    mean = total / n
    sd = (math.sqrt(sum((d - mean) ** 2 for d in durations) / (n - 1))
          if n > 1 else 0.0)
    return n, total, mean, min(durations), max(durations), sd


def sql_groups(db, sql):
    """{name: [durations]} of the rows (name, duration) of `sql`."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        out = {}
        for name, d in con.execute(sql):
            out.setdefault(name, []).append(d)
        return out
    finally:
        con.close()


def has_table(db, table):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute("SELECT 1 FROM sqlite_master WHERE name = ?",
                           (table,)).fetchone() is not None
    finally:
        con.close()


def columns(db, table):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return {r[1] for r in con.execute("PRAGMA table_info(%s)" % table)}
    finally:
        con.close()


def check_kernel_names(cs, db):
    """Per --kernel-names choice, the kernels of the flat view and their
    calls against plain SQL grouping by the column nsys stats uses
    (mangled falls back to demangled, then short)."""
    errs = []
    if not has_table(db, "CUPTI_ACTIVITY_KIND_KERNEL"):
        return errs
    cols = columns(db, "CUPTI_ACTIVITY_KIND_KERNEL")
    chain = {"base": ["shortName"],
             "demangled": ["demangledName", "shortName"],
             "mangled": ["mangledName", "demangledName", "shortName"]}
    for choice, names in chain.items():
        expr = "coalesce(%s)" % ", ".join(
            "k." + c for c in names if c in cols) \
            if len([c for c in names if c in cols]) > 1 else \
            "k." + [c for c in names if c in cols][0]
        want = {name: len(d) for name, d in sql_groups(
            db, "SELECT s.value, k.end - k.start FROM "
            "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = %s"
            % expr).items()}
        flat = run(cs, ["--kernel-names", choice, "report", db, "--view",
                        "flat", "--format", "json", "--metric", "Calls"])
        got = {}
        for n in flat["nodes"]:
            if n["kind"] == "kernel":
                got[n["name"]] = got.get(n["name"], 0) + n["values"][1]
        if got != want:
            errs.append("--kernel-names %s: %s, SQL says %s"
                        % (choice, got, want))
        CHECKED[0] += 1
    return errs


def check_summaries(db, by, val, kernel_name="k.shortName"):
    """The flat view's per-name summaries (Calls, the total, Duration
    mean, min, max, stddev; copies: bytes and bandwidth) against plain
    SQL over the export; kernels named by SQL expression
    `kernel_name`."""
    errs = []
    groups = []  # (what, flat kind, total column, {name: durations})
    if has_table(db, "CUPTI_ACTIVITY_KIND_KERNEL"):
        groups.append(("kernel", "kernel", "GPU time (ns) (E)", sql_groups(
            db, "SELECT s.value, k.end - k.start FROM "
            "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
            "s.id = %s" % kernel_name)))
    if has_table(db, "CUPTI_ACTIVITY_KIND_MEMCPY"):
        copies = sql_groups(db, "SELECT copyKind, end - start FROM "
                            "CUPTI_ACTIVITY_KIND_MEMCPY")
        groups.append(("copy", "function", "GPU time (ns) (E)", {
            "[memcpy %s]" % (COPY_KINDS[k] if 0 <= k < len(COPY_KINDS)
                             else "other"): v for k, v in copies.items()}))
    if has_table(db, "CUPTI_ACTIVITY_KIND_RUNTIME"):
        groups.append(("API", "function", "API time (ns) (I)", sql_groups(
            db, "SELECT s.value, r.end - r.start FROM "
            "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
            "s.id = r.nameId WHERE r.eventClass IN (0, 1)")))
    if has_table(db, "NVTX_EVENTS"):
        cols = columns(db, "NVTX_EVENTS")
        text = "n.text" if "text" in cols else "NULL"
        tid = ("(SELECT value FROM StringIds WHERE id = n.textId)"
               if "textId" in cols else "NULL")
        groups.append(("NVTX", "region", "API time (ns) (I)", sql_groups(
            db, "SELECT COALESCE(%s, %s, '<unnamed>'), n.end - n.start "
            "FROM NVTX_EVENTS n WHERE n.eventType IN (59, 60) AND n.end "
            "IS NOT NULL" % (text, tid))))
    checked = 0
    for what, kind, total_col, named in groups:
        for name, durations in sorted(named.items()):
            node = by.get((kind, name))
            if not node:
                errs.append("no %s %s in the flat view" % (what, name))
                continue
            n, total, mean, lo, hi, sd = summary(durations)
            got = [val(node, "Calls (E)"), val(node, total_col),
                   val(node, "Duration (ns):Mean (E)"),
                   val(node, "Duration (ns):Min (E)"),
                   val(node, "Duration (ns):Max (E)"),
                   val(node, "Duration (ns):Stddev (E)")]
            # the mean and deviation are divisions: 1e-9 relative, and
            # the deviation from a sum of squares loses up to 1e-6 of the
            # mean to cancellation
            tol = [0.5, 0.5, 1e-9 * mean, 0.5, 0.5,
                   1e-9 * sd + 1e-6 * mean + 1e-6]
            for label, g, e, t in zip(("calls", "total", "mean", "min",
                                       "max", "stddev"), got,
                                      (n, total, mean, lo, hi, sd), tol):
                if abs(g - e) > t:
                    errs.append("%s %s %s: %r, SQL says %r"
                                % (what, name, label, g, e))
            checked += 1
    if has_table(db, "CUPTI_ACTIVITY_KIND_MEMCPY"):
        for kind, nbytes, ns in sqlite3.connect(
                "file:%s?mode=ro" % db, uri=True).execute(
                    "SELECT copyKind, SUM(bytes), SUM(end - start) FROM "
                    "CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes >= 0 "
                    "GROUP BY copyKind"):
            name = "[memcpy %s]" % (COPY_KINDS[kind]
                                    if 0 <= kind < len(COPY_KINDS)
                                    else "other")
            node = by.get(("function", name))
            if node and ns:
                bw = val(node, "Bandwidth (GB/s) (E)")
                if abs(bw - nbytes / ns) > 1e-9 * (nbytes / ns):
                    errs.append("%s bandwidth %r, SQL says %r"
                                % (name, bw, nbytes / ns))
    if not checked and groups:
        errs.append("no summary row was checked")
    CHECKED[0] += checked
    return errs


def main():
    cs, corpus, expected = sys.argv[1:4]
    corpus = os.path.normpath(corpus)
    exports = {}
    for d, _, files in os.walk(corpus):
        for f in files:
            if f.endswith(".sqlite"):
                p = os.path.join(d, f)
                rel = os.path.relpath(p, corpus).replace(os.sep, "__")
                exports[rel + ".txt"] = p
    expected_files = sorted(f for f in os.listdir(expected)
                            if f.endswith(".txt"))
    if not expected_files:
        print("no expected files in %s" % expected)
        return 1
    status = 0
    for e in expected_files:
        db = exports.get(e)
        if not db:
            print("FAIL: no corpus export for %s" % e)
            status = 1
            continue
        try:
            errs = check_file(cs, db, os.path.join(expected, e))
        except (RuntimeError, ValueError, KeyError) as x:
            errs = [str(x)]
        if errs:
            status = 1
            print("FAIL: %s" % db)
            for x in errs:
                print("  " + x)
        else:
            print("ok: %s (%d per-name summaries equal SQL's)"
                  % (os.path.relpath(db, corpus), CHECKED[0]))
        CHECKED[0] = 0
    return status


if __name__ == "__main__":
    sys.exit(main())
