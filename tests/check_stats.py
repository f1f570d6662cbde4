#!/usr/bin/python3
"""Check `callscope stats --format json` against plain SQL over the same
file: per kind and name, the instances, total, mean, median, minimum,
maximum, sample standard deviation and percent of the kind's time,
computed here from the rows the SQL returns (Python's statistics module,
not callscope's code), and each kind's rows sorted by total.

usage: check_stats.py CALLSCOPE FILE...

FILE is an Nsight Systems export (.sqlite), a rocmProfileData .rpd file
or a rocprofv3 database (.db: its GPU kinds, kernels and copies).  Nsight (doc/nsight.md): kernels by coalesce(demangledName,
shortName) (nsys stats' default names), copies by copy kind, memsets,
CUDA API calls of eventClass 0 and 1 by name, NVTX push/pop and
start/end ranges with an end by coalesce(text, StringIds[textId]), OS
runtime calls by name.  .rpd (doc/rocpd.md): rocpd_op rows by
description (else their op type), KernelExecution as kernels, Copy* as
copies, Fill* as memory sets; rocpd_api rows by name, UserMarker rows
with a duration as roctx ranges named by their arguments.  Exits 1 on the
first file with a difference, after printing its differences."""
import json
import math
import sqlite3
import statistics
import subprocess
import sys

COPY_KINDS = ["unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
              "DtoA", "DtoD", "HtoH", "PtoP"]
# (table row filter applied by the readers: integer times, end >= start)
GOOD = ("typeof(start) = 'integer' AND typeof(\"end\") = 'integer' AND "
        "start >= 0 AND \"end\" >= start")


def rows(con, sql):
    return con.execute(sql).fetchall()


def tables(con):
    return {r[0] for r in rows(con, "SELECT name FROM sqlite_master")}


def cols(con, t):
    return {r[1] for r in rows(con, "PRAGMA table_info(%s)" % t)}


def nsight(con):
    """{(group, kind): {name: [durations]}}"""
    out = {}
    have = tables(con)

    def add(group, kind, name, d):
        out.setdefault((group, kind), {}).setdefault(name, []).append(d)

    k = "CUPTI_ACTIVITY_KIND_KERNEL"
    if k in have:
        name = ("coalesce(demangledName, shortName)"
                if "demangledName" in cols(con, k) else "shortName")
        for n, d in rows(con, "SELECT (SELECT value FROM StringIds WHERE "
                         "id = %s), \"end\" - start FROM %s WHERE %s"
                         % (name, k, GOOD)):
            add("GPU", "kernels", n, d)
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in have:
        for kind, d in rows(con, "SELECT copyKind, \"end\" - start FROM "
                            "CUPTI_ACTIVITY_KIND_MEMCPY WHERE " + GOOD):
            add("GPU", "memory copies", "[memcpy %s]" % (
                COPY_KINDS[kind] if isinstance(kind, int) and
                0 <= kind < len(COPY_KINDS) else "other"), d)
    if "CUPTI_ACTIVITY_KIND_MEMSET" in have:
        for (d,) in rows(con, "SELECT \"end\" - start FROM "
                         "CUPTI_ACTIVITY_KIND_MEMSET WHERE " + GOOD):
            add("GPU", "memory sets", "[memset]", d)
    if "CUPTI_ACTIVITY_KIND_RUNTIME" in have:
        for n, d in rows(con, "SELECT s.value, r.\"end\" - r.start FROM "
                         "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
                         "s.id = r.nameId WHERE r.eventClass IN (0, 1) AND "
                         + GOOD.replace("start", "r.start")
                         .replace("\"end\"", "r.\"end\"")):
            add("host", "CUDA API", n, d)
    if "NVTX_EVENTS" in have:
        c = cols(con, "NVTX_EVENTS")
        text = "text" if "text" in c else "NULL"
        tid = ("(SELECT value FROM StringIds WHERE id = textId)"
               if "textId" in c else "NULL")
        for n, d in rows(con, "SELECT coalesce(%s, %s, '<unnamed>'), "
                         "\"end\" - start FROM NVTX_EVENTS WHERE eventType "
                         "IN (59, 60) AND \"end\" IS NOT NULL AND %s"
                         % (text, tid, GOOD)):
            add("host", "NVTX ranges", n, d)
    if "OSRT_API" in have:
        for n, d in rows(con, "SELECT s.value, o.\"end\" - o.start FROM "
                         "OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                         "WHERE " + GOOD.replace("start", "o.start")
                         .replace("\"end\"", "o.\"end\"")):
            add("host", "OS runtime", n, d)
    return out


def rpd(con):
    out = {}

    def add(group, kind, name, d):
        out.setdefault((group, kind), {}).setdefault(name, []).append(d)

    for desc, optype, d in rows(
            con, "SELECT (SELECT string FROM rocpd_string WHERE id = "
            "description_id), (SELECT string FROM rocpd_string WHERE id = "
            "opType_id), \"end\" - start FROM rocpd_op WHERE " + GOOD):
        name = desc if desc else optype
        kind = ("kernels" if optype == "KernelExecution"
                else "memory copies" if "Copy" in optype
                else "memory sets" if "Fill" in optype or "Memset" in optype
                else "other GPU work")
        add("GPU", kind, name, d)
    for name, args, d in rows(
            con, "SELECT (SELECT string FROM rocpd_string WHERE id = "
            "apiName_id), (SELECT string FROM rocpd_string WHERE id = "
            "args_id), \"end\" - start FROM rocpd_api WHERE " + GOOD):
        if name == "UserMarker":
            if d == 0:
                continue  # an instant: not an interval
            add("host", "roctx ranges", args, d)
        else:
            add("host", "API calls", name, d)
    return out


def v3(con):
    """rocprofv3 databases, the GPU kinds: every table set's dispatches by
    kernel symbol, named by display_name (else kernel_name), or by
    kernel_name where symbols with different kernel_names share a
    display_name (doc/rocpd.md); copies by their name string."""
    out = {}
    names = sorted(tables(con))
    for t in names:
        if not t.startswith("rocpd_kernel_dispatch_"):
            continue
        sfx = t[len("rocpd_kernel_dispatch"):]
        syms = {}
        for i, d, k in rows(con, "SELECT id, display_name, kernel_name FROM "
                            "rocpd_info_kernel_symbol%s" % sfx):
            d, k = d or "", k or ""
            syms[i] = (d or k, k or d)
        by_disp = {}
        for d, k in syms.values():
            by_disp.setdefault(d, set()).add(k)
        for kid, d in rows(con, "SELECT kernel_id, \"end\" - start FROM %s "
                           "WHERE %s" % (t, GOOD)):
            disp, mang = syms.get(kid, ("<kernel %d>" % kid,) * 2)
            name = mang if len(by_disp.get(disp, ())) > 1 else disp
            out.setdefault(("GPU", "kernels"), {}).setdefault(
                name, []).append(d)
        c = "rocpd_memory_copy" + sfx
        if c in names:
            for n, d in rows(con, "SELECT coalesce((SELECT string FROM "
                             "rocpd_string%s WHERE id = name_id), "
                             "'MEMORY_COPY'), \"end\" - start FROM %s "
                             "WHERE %s" % (sfx, c, GOOD)):
                out.setdefault(("GPU", "memory copies"), {}).setdefault(
                    n, []).append(d)
    return out


def expect(groups):
    """{(group, kind): [(name, count, total, mean, median, min, max,
    stddev, percent)] sorted by total, descending}"""
    out = {}
    for key, names in groups.items():
        kind_total = sum(sum(d) for d in names.values())
        rs = []
        for name, d in names.items():
            n = len(d)
            rs.append((name, n, sum(d), statistics.fmean(d),
                       statistics.median(d), min(d), max(d),
                       statistics.stdev(d) if n > 1 else 0.0,
                       100.0 * sum(d) / kind_total if kind_total else 0.0))
        rs.sort(key=lambda r: (-r[2], r[0]))
        out[key] = rs
    return out


def close(a, b, rel):
    return abs(a - b) <= rel * max(1.0, abs(b))


def check(cs, path):
    con = sqlite3.connect("file:%s?mode=ro&immutable=1" % path, uri=True)
    try:
        have = tables(con)
        only_gpu = any(t.startswith("rocpd_kernel_dispatch_") for t in have)
        want = expect(rpd(con) if "rocpd_op" in have
                      else v3(con) if only_gpu else nsight(con))
    finally:
        con.close()
    p = subprocess.run([cs, "stats", "--format", "json", path],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return ["exit %d: %s" % (p.returncode, p.stderr.strip())], 0
    got = {(k["group"], k["kind"]): k for k in json.loads(p.stdout)["kinds"]
           if not only_gpu or k["group"] == "GPU"}
    errs = []
    if set(got) != set(want):
        errs.append("kinds %s, SQL says %s" % (sorted(got), sorted(want)))
    checked = 0
    for key, rs in want.items():
        k = got.get(key)
        if not k:
            continue
        names = [r["name"] for r in k["rows"]]
        if names != [r[0] for r in rs]:
            # equal totals may be ordered by name only: compare as sets,
            # then the order of the totals
            if sorted(names) != sorted(r[0] for r in rs):
                errs.append("%s: names %s, SQL says %s"
                            % (key, names, [r[0] for r in rs]))
                continue
        totals = [r["total"] for r in k["rows"]]
        if totals != sorted(totals, reverse=True):
            errs.append("%s: not sorted by total" % (key,))
        by = {r["name"]: r for r in k["rows"]}
        for name, n, total, mean, med, lo, hi, sd, pct in rs:
            r = by[name]
            for label, g, e, rel in (
                    ("count", r["count"], n, 0), ("total", r["total"], total, 0),
                    ("mean", r["mean"], mean, 1e-12),
                    ("median", r["median"], med, 0), ("min", r["min"], lo, 0),
                    ("max", r["max"], hi, 0),
                    ("stddev", r["stddev"], sd, 1e-9),
                    ("percent", r["percent"], pct, 1e-12)):
                if not close(g, e, rel):
                    errs.append("%s %s %s: %r, SQL says %r"
                                % (key, name, label, g, e))
            checked += 1
        if k["count"] != sum(r[1] for r in rs):
            errs.append("%s: count %s" % (key, k["count"]))
    return errs, checked


def main():
    cs = sys.argv[1]
    status = 0
    for path in sys.argv[2:]:
        errs, n = check(cs, path)
        if errs:
            status = 1
            print("FAIL: %s" % path)
            for e in errs[:40]:
                print("  " + e)
        else:
            print("ok: %s (%d names equal SQL's)" % (path, n))
    return status


if __name__ == "__main__":
    sys.exit(main())
