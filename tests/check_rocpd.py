#!/usr/bin/env python3
"""Check callscope on the fixtures of gen_rocpd.py against its answers, and
on the real .rpd corpus files against plain SQL over the same files
(kernels, calls, statistics, and the SMI counter lines of rocpd_monitor).

usage: check_rocpd.py CALLSCOPE FIXTURE_DIR [CORPUS_RPD...]
"""
import json
import math
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


def check_counters(what, rep, counters):
    """Hardware counter columns (hidden by default: `--metric all`): per
    kernel name in the flat view, each counter's sum over the dispatches
    equals the generator's; the root's inclusive value is their total."""
    names = [c["name"] for c in rep["columns"]]
    rows = {n["name"]: n for n in rep["nodes"] if n["kind"] == "kernel"}
    checked = 0
    for counter in ("SQ_WAVES", "TCC_HIT_sum"):
        if counter + " (E)" not in names:
            fail("%s: no column %s (E): %s" % (what, counter, names))
            continue
        ci = names.index(counter + " (E)")
        for kernel, want in sorted(counters.items()):
            got = rows[kernel]["values"][ci] if kernel in rows else None
            w = want.get(counter)
            if (got is None) != (w is None) or (
                    w is not None and abs(got - w) > 1e-9 * max(1, abs(w))):
                fail("%s: %s of %s is %s, wanted %s" % (what, counter, kernel, got, w))
            checked += 1
    return checked


def kernel_durations(path):
    """{kernel name: [durations]} by plain SQL over one file: .rpd
    KernelExecution ops by description; v3 dispatches of every table set
    by display name (else the mangled name), as the reader names them."""
    db = sqlite3.connect("file:%s?mode=ro&immutable=1" % path, uri=True)
    out = {}
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")]
    if "rocpd_op" in tables:
        sqls = ["SELECT d.string, o.\"end\" - o.start FROM rocpd_op o "
                "JOIN rocpd_string d ON d.id = o.description_id "
                "JOIN rocpd_string t ON t.id = o.opType_id "
                "WHERE t.string = 'KernelExecution' AND o.start >= 0 "
                "AND o.\"end\" >= o.start"]
    else:
        sqls = []
        for t in tables:
            if not t.startswith("rocpd_kernel_dispatch_"):
                continue
            suffix = t[len("rocpd_kernel_dispatch"):]
            sqls.append(
                "SELECT COALESCE(NULLIF(s.display_name, ''), s.kernel_name),"
                " k.\"end\" - k.start FROM %s k JOIN "
                "rocpd_info_kernel_symbol%s s ON s.id = k.kernel_id "
                "WHERE k.start >= 0 AND k.\"end\" >= k.start"
                % (t, suffix))
    for sql in sqls:
        for name, d in db.execute(sql):
            out.setdefault(name, []).append(d)
    db.close()
    return out


def check_stats(what, rep, durations):
    """The flat view's kernel rows: calls, total, Duration mean, min, max
    and sample standard deviation equal the same computed here from the
    rows that plain SQL returns (two passes, no sum of squares)."""
    names = [c["name"] for c in rep["columns"]]
    cols = [names.index(n) for n in (
        "Calls (E)", "GPU time (ns) (E)", "Duration (ns):Mean (E)",
        "Duration (ns):Min (E)", "Duration (ns):Max (E)",
        "Duration (ns):Stddev (E)")]
    rows = {n["name"]: n for n in rep["nodes"] if n["kind"] == "kernel"}
    if set(rows) != set(durations):
        fail("%s: kernels %s, SQL says %s"
             % (what, sorted(rows), sorted(durations)))
    for name, ds in sorted(durations.items()):
        node = rows.get(name)
        if not node:
            continue
        n, total = len(ds), sum(ds)
        mean = total / n
        sd = (math.sqrt(sum((d - mean) ** 2 for d in ds) / (n - 1))
              if n > 1 else 0.0)
        want = (n, total, mean, min(ds), max(ds), sd)
        tol = (0.5, 0.5, 1e-9 * mean, 0.5, 0.5,
               1e-9 * sd + 1e-6 * mean + 1e-6)
        for label, c, w, t in zip(("calls", "total", "mean", "min", "max",
                                   "stddev"), cols, want, tol):
            g = node["values"][c] or 0
            if abs(g - w) > t:
                fail("%s: kernel %s %s %r, SQL says %r"
                     % (what, name, label, g, w))
    return len(durations)


def check_monitor(cs, rpd):
    """SMI counter lines against plain SQL over the same file: at every
    sample's start (and one ns before and after), before the first and
    after the last, `trace --at T --format json` gives per (deviceType,
    deviceId, monitorType) the value of the last rocpd_monitor row with
    start <= T (ties: the larger id), and its start as "time"; a window's
    cells give the same at each cell's start.  Returns the values checked."""
    db = sqlite3.connect("file:%s?mode=ro&immutable=1" % rpd, uri=True)
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'rocpd_monitor'").fetchone():
        db.close()
        return 0
    groups = db.execute("SELECT DISTINCT deviceType, deviceId, monitorType "
                        "FROM rocpd_monitor").fetchall()
    starts = sorted({r[0] for r in db.execute("SELECT start FROM rocpd_monitor")})

    def want(g, t):
        r = db.execute("SELECT value, start FROM rocpd_monitor WHERE deviceType = ? "
                       "AND deviceId = ? AND monitorType = ? AND start <= ? "
                       "ORDER BY start DESC, id DESC LIMIT 1", g + (t,)).fetchone()
        return (float(r[0]), r[1]) if r else (None, None)

    def label(g):
        return "SMI %s %d %s" % g
    name = os.path.basename(rpd)
    probes = set()
    for t in starts:
        probes.update((t - 1, t, t + 1))
    probes.add(starts[-1] + 10**9)
    checked = 0
    for t in sorted(probes):
        r = run(cs, "trace", "--at", str(t), "--format", "json", rpd)
        if r.returncode:
            continue
        lines = {l["label"]: l for l in json.loads(r.stdout)["lines"]}
        for g in groups:
            l = lines.get(label(g))
            if l is None or l.get("kind") != "counter":
                fail("%s: no counter line %r at %d" % (name, label(g), t))
                continue
            value, start = want(g, t)
            if l["value"] != value or l["time"] != start or "unit" not in l:
                fail("%s at %d on %r: value %s time %s, SQL %s at %s" % (
                    name, t, label(g), l["value"], l["time"], value, start))
            checked += 1
    # text: "t=START  value=V", and before the first value "t=-  value=-"
    for t in (starts[0] - 1, starts[len(starts) // 2]):
        r = run(cs, "trace", "--at", str(t), rpd)
        text = r.stdout.decode(errors="replace")
        for g in groups:
            value, start = want(g, t)
            tail = ("  t=-  value=-  (before the first value)" if value is None
                    else "  t=%d  value=%s" % (start, ("%d" % value) if value == int(value)
                                               else repr(value)))
            if not any(l.strip().split("  ", 1)[-1] == label(g) + tail
                       for l in text.splitlines()):
                fail("%s: text at %d on %r: wanted %r in\n%s" % (
                    name, t, label(g), label(g) + tail, text))
            checked += 1
    # a window over the samples: each cell's value at the cell's start
    lo, hi, w = starts[0] - 1000, starts[-1] + 1000, 317
    r = run(cs, "trace", "--from", str(lo), "--to", str(hi), "--columns",
            str(w), "--format", "json", rpd)
    if r.returncode == 0:
        lines = {l["label"]: l for l in json.loads(r.stdout)["lines"]}
        for g in groups:
            l = lines.get(label(g))
            cells = l and l.get("kind") == "counter" and l["cells"]
            if not cells or len(cells) != w:
                fail("%s: window: no counter cells on %r" % (name, label(g)))
                continue
            for k in range(w):
                t = lo + (hi - lo) * k // w
                if cells[k] != want(g, t)[0]:
                    fail("%s: window cell %d (t=%d) on %r: %s, SQL %s" % (
                        name, k, t, label(g), cells[k], want(g, t)[0]))
                    break
                checked += 1
    db.close()
    return checked


def check_hostile_yaml(cs, d):
    """Index YAML files that must be refused: exit 2, one line that
    names the file and the problem."""
    one = sorted(os.path.relpath(os.path.join(r, f), d)
                 for r, _, fs in os.walk(os.path.join(d, "run"))
                 for f in fs if f.endswith(".db"))[0]
    cases = {
        "notalist": ("files: %s\n" % one, "files: is not a list"),
        "toplist": ("- %s\n" % one, "a list, not a mapping"),
        "nofiles": ("name: x\n", "no files: list"),
        "missing": ("files: [%s, run/none.db]\n" % one, "'run/none.db', which does not exist"),
        "absolute": ("files: [%s]\n" % os.path.abspath(os.path.join(d, one)), "absolute path"),
        "dotdot": ("files: [run/../%s]\n" % one, "'..'"),
        "many": ("files:\n" + "".join("- f%d.db\n" % i for i in range(10000)), "more than 4096"),
        "bomb": ("a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
            "a%d: &a%d [*a%s, *a%s, *a%s, *a%s]\n" % (i, i, i - 1 if i else "", i - 1 if i else "",
                                                    i - 1 if i else "", i - 1 if i else "")
            for i in range(12)) + "files: *a11\n", "anchors and aliases"),
        "dir": ("files: [run]\n", "not a file"),
        "escape": ("files: [\"\\e]0;x\\a.db\"]\n", "does not exist"),
        "yamlerror": ("files: [%s\n" % one, "YAML error"),
    }
    for name, (text, what) in sorted(cases.items()):
        path = os.path.join(d, "hostile-%s.yaml" % name)
        with open(path, "w") as f:
            f.write(text)
        for cmd in (["info"], ["report", "--view", "flat"], ["trace", "--at", "0"]):
            r = run(cs, *(cmd + [path]), code=2)
            err = r.stderr.decode(errors="replace").strip().split("\n")
            if len(err) != 1 or path not in err[0] or what not in err[0]:
                fail("%s %s: %r, wanted one line naming it and %r" % (cmd[0], name, err, what))
            if b"\x1b" in r.stderr or b"\x07" in r.stderr:
                fail("%s: a control character reached stderr" % name)
        os.unlink(path)


def trace_at(cs, t, path, *extra):
    r = run(cs, "trace", "--at", str(t), "--format", "json", *(list(extra) + [path]))
    if r.returncode:
        return {}
    return {l["label"]: l for l in json.loads(r.stdout)["lines"]}


def lines_at_probes(cs, run_dir, probes, every=1):
    """For every `every`-th probe time: the time, its probes and the lines
    `callscope trace --at` shows then ({label: line}); a time the command
    refuses (a failure already said) is passed over."""
    by_t = {}
    for p in probes:
        by_t.setdefault(p["t"], []).append(p)
    for t, ps in sorted(by_t.items())[::every]:
        r = run(cs, "trace", "--at", str(t), "--format", "json", run_dir)
        if r.returncode:
            continue
        yield t, ps, {l["label"]: l for l in json.loads(r.stdout)["lines"]}


def check_instants(cs, d, A):
    """Instants (rocpd_sample rows, roctxMarkA regions with start ==
    end; .rpd UserMarkers with start == end) at their times: the first
    of those at t, how many, the path of the interval each lies in (the
    generator's brute force), and the interval lookup at t unchanged by
    them; a span before and after; a window's cells; the counts against
    plain SQL.  Returns the number of checks."""
    run_dir = os.path.join(d, "run")
    n = 0
    inst = A["instants"]
    by_line = {}
    for i in inst:
        by_line.setdefault(i["label"], []).append(i)
    for i in inst[::7]:
        lines = trace_at(cs, i["t"], run_dir)
        l = lines.get(i["label"])
        if l is None:
            fail("instants: no line %r" % i["label"])
            continue
        got = l.get("instant")
        want_path = i["path"][:-1] + [i["first"]]
        if not got or got["name"] != i["first"] or got["time"] != i["t"] or \
                got["path"] != want_path or l.get("instants") != i["count"]:
            fail("instant at %d on %r: %s (%s), wanted %r x%d %s" % (
                i["t"], i["label"], got, l.get("instants"), i["first"], i["count"], want_path))
        # the interval lookup among them
        if i["interval"]:
            if [l["begin"], l["end"]] != i["interval"]:
                fail("interval at instant %d on %r: [%s, %s), wanted %s" % (
                    i["t"], i["label"], l["begin"], l["end"], i["interval"]))
        elif l["path"] != []:
            fail("interval at instant %d on %r: %s, wanted none" % (i["t"], i["label"], l["path"]))
        # a span that holds t from before; none just after (unless one is)
        lines = trace_at(cs, i["t"] - 5, run_dir, "--span", "10ns")
        l = lines.get(i["label"], {})
        if not l.get("instant") or l["instant"]["time"] != i["t"] or l.get("instants", 0) < i["count"]:
            fail("instant in [%d, %d) on %r: %s" % (i["t"] - 5, i["t"] + 5, i["label"], l.get("instant")))
        if not any(j["t"] == i["t"] + 1 for j in by_line[i["label"]]):
            lines = trace_at(cs, i["t"] + 1, run_dir)
            if lines.get(i["label"], {}).get("instant", "missing") is not None:
                fail("instant at %d on %r: %s, wanted null" % (
                    i["t"] + 1, i["label"], lines.get(i["label"], {}).get("instant", "missing")))
        n += 1
    # a window over one line: per cell the first instant in its span
    label = sorted(by_line)[0]
    ivs = sorted(by_line[label], key=lambda i: i["t"])
    lo, hi, cols = ivs[0]["t"] - 100, ivs[-1]["t"] + 100, 97
    r = run(cs, "trace", "--from", str(lo), "--to", str(hi), "--columns", str(cols),
            "--format", "json", run_dir)
    if r.returncode == 0:
        lines = {l["label"]: l for l in json.loads(r.stdout)["lines"]}
        got = lines[label].get("instants")
        want = []
        for k in range(cols):
            a = lo + k * (hi - lo) // cols
            b = lo + (k + 1) * (hi - lo) // cols if k + 1 < cols else hi
            inside = [i for i in ivs if a <= i["t"] < max(b, a + 1)]
            first = min(inside, key=lambda i: (i["t"], i["first"] != i["name"])) if inside else None
            want.append(first["first"] if first else None)
        if got != want:
            fail("window instants on %r: %s, wanted %s" % (label, got, want))
        n += 1
        if not any(isinstance(l.get("instants"), list) for lb, l in lines.items() if lb != label):
            fail("no other line has instants in the window")
    # every instant of every line against plain SQL: the count after the
    # first instant of the run's first file
    files = sorted(os.path.join(r_, f) for r_, _, fs in os.walk(run_dir)
                   for f in fs if f.endswith(".db"))
    db = sqlite3.connect("file:%s?mode=ro&immutable=1" % files[0], uri=True)
    tabs = [x[0] for x in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    sfx = [t[len("rocpd_sample"):] for t in tabs if t.startswith("rocpd_sample_")][0]
    per = {}
    for tid, t in db.execute('SELECT t.tid, s.timestamp FROM "rocpd_sample%s" s JOIN "rocpd_track%s" t ON t.id = s.track_id' % (sfx, sfx)):
        per.setdefault(tid, []).append(t)
    for tid, t in db.execute('SELECT r.tid, r.start FROM "rocpd_region%s" r JOIN "rocpd_string%s" s ON s.id = r.name_id WHERE r.start = r."end" AND s.string LIKE \'roctxMark%%\'' % (sfx, sfx)):
        per.setdefault(tid, []).append(t)
    db.close()
    for tid, ts in sorted(per.items()):
        lab = [lb for lb in by_line if lb.endswith(" tid %d" % tid)]
        lines = trace_at(cs, min(ts), files[0], "--span", "1000s")
        got = [l for lb, l in lines.items() if lb.endswith(" tid %d" % tid)]
        if len(got) != 1 or got[0].get("instants") != len(ts):
            fail("tid %d: %s instants, SQL says %d" % (tid, got and got[0].get("instants"), len(ts)))
        n += 1
    # the tree holds no instant
    td = report(cs, "top-down", run_dir)
    names = {i["name"] for i in inst}
    if td and any(nd["name"] in names for nd in td["nodes"]):
        fail("an instant is in the tree")
    # .rpd instant UserMarkers
    rpd = os.path.join(d, "gen.rpd")
    for i in A["rpd"]["instants"]:
        l = trace_at(cs, i["t"], rpd).get(i["label"])
        got = l and l.get("instant")
        if not got or got["name"] != i["name"] or got["time"] != i["t"] or l["instants"] != 1:
            fail("gen.rpd instant at %d: %s, wanted %r" % (i["t"], got, i["name"]))
        elif (i["interval"] and [l["begin"], l["end"]] != i["interval"]) or \
                (not i["interval"] and l["path"] != []):
            fail("gen.rpd interval at instant %d: [%s, %s), wanted %s" % (
                i["t"], l["begin"], l["end"], i["interval"]))
        n += 1
    return n


def stream_counts_sql(path):
    """{(pid, stream): GPU work} by plain SQL over one v3 file (dispatches
    and copies of every table set with integer times), or for an .rpd
    file {stream text or None: ops} through each op's API arguments."""
    db = sqlite3.connect("file:%s?mode=ro&immutable=1" % path, uri=True)
    tabs = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    out = {}
    if "rocpd_op" in tabs:
        for stream, n in db.execute(
                "SELECT COALESCE((SELECT k.stream FROM rocpd_api_ops ao JOIN rocpd_kernelapi k "
                "ON k.api_ptr_id = ao.api_id WHERE ao.op_id = o.id), (SELECT c.stream FROM "
                "rocpd_api_ops ao JOIN rocpd_copyapi c ON c.api_ptr_id = ao.api_id WHERE "
                "ao.op_id = o.id)) AS s, COUNT(*) FROM rocpd_op o WHERE typeof(o.start) = "
                "'integer' AND typeof(o.\"end\") = 'integer' AND o.\"end\" >= o.start GROUP BY s"):
            out[stream] = n
    else:
        for t in tabs:
            for base in ("rocpd_kernel_dispatch", "rocpd_memory_copy"):
                if t.startswith(base + "_"):
                    for pid, stream, n in db.execute(
                            'SELECT pid, stream_id, COUNT(*) FROM "%s" WHERE typeof(start) = '
                            '\'integer\' AND typeof("end") = \'integer\' AND "end" >= start '
                            'GROUP BY pid, stream_id' % t):
                        out[(pid, stream)] = out.get((pid, stream), 0) + n
    db.close()
    return out


def line_list(cs, *paths):
    r = run(cs, "info", "--format", "json", *paths)
    return json.loads(r.stdout)["trace"]["line_list"] if r.returncode == 0 else []


def check_streams(cs, d, A, corpus):
    """GPU lines by stream (trace --gpu-lines stream): what is active per
    stream at the generator's probe times; the lines of each grouping
    shown by --gpu-lines; per stream the count of GPU work against plain
    SQL (v3 run, generated and corpus .rpd files).  Returns the checks."""
    run_dir = os.path.join(d, "run")
    n = 0
    by_t = {}
    for p in A["stream_probes"]:
        by_t.setdefault(p["t"], []).append(p)
    for t, ps in sorted(by_t.items()):
        lines = trace_at(cs, t, run_dir, "--gpu-lines", "stream")
        for p in ps:
            l = lines.get(p["label"])
            if l is None:
                fail("no stream line %r" % p["label"])
                continue
            if l["path"] != p["path"] or (p["interval"] and [l["begin"], l["end"]] != p["interval"]):
                fail("stream %r at %d: %s [%s, %s), wanted %s %s" % (
                    p["label"], t, l["path"], l["begin"], l["end"], p["path"], p["interval"]))
            n += 1
    # which lines each grouping prints: host lines always
    t0 = A["stream_probes"][0]["t"]
    labels = {g: set(trace_at(cs, t0, run_dir, *(["--gpu-lines", g] if g else [])))
              for g in ("", "queue", "stream", "all")}
    if labels[""] != labels["queue"]:
        fail("rocpd runs do not show GPU lines by queue by default")
    if not any(l.endswith(" stream 1") for l in labels["stream"]) or \
            any(" queue 0x" in l for l in labels["stream"]) or \
            any(l.endswith(" copies") for l in labels["stream"]):
        fail("--gpu-lines stream: %s" % sorted(labels["stream"])[:8])
    if labels["all"] != labels["queue"] | labels["stream"] or \
            not any(l.endswith(" tid %d" % int(l.split()[2])) for l in labels["stream"]):
        fail("--gpu-lines all or the host lines: %s" % sorted(labels["all"])[:8])
    # per stream, the count of dispatches and copies: plain SQL
    files = sorted(os.path.join(r_, f) for r_, _, fs in os.walk(run_dir)
                   for f in fs if f.endswith(".db"))
    want = {}
    for f in files:
        for k, v in stream_counts_sql(f).items():
            want[k] = want.get(k, 0) + v
    got = {}
    import re
    for l in line_list(cs, run_dir):
        m = re.search(r" pid (\d+) rank \d+ stream (\d+)$", l["label"])
        if m:
            if l.get("group") != "stream":
                fail("line %r is not in the stream grouping" % l["label"])
            got[(int(m.group(1)), int(m.group(2)))] = l["samples"]
    if got != want:
        fail("GPU work per (pid, stream) %s, SQL says %s" % (sorted(got.items())[:6], sorted(want.items())[:6]))
    n += len(want)
    # .rpd: the generated file's probes, then every .rpd against SQL
    rpd = os.path.join(d, "gen.rpd")
    for p in A["rpd"]["stream_probes"]:
        l = trace_at(cs, p["t"], rpd, "--gpu-lines", "stream").get(p["label"])
        if l is None or (p["interval"] and [l["begin"], l["end"]] != p["interval"]) or \
                (not p["interval"] and l["begin"] is not None):
            fail("gen.rpd stream %r at %d: %s, wanted %s" % (p["label"], p["t"], l, p["interval"]))
        n += 1
    for f in [rpd] + list(corpus):
        want = stream_counts_sql(f)
        got = {}
        for l in line_list(cs, f):
            m = re.search(r"GPU -?\d+ stream (\S+)$", l["label"])
            if m:
                s = None if m.group(1) == "?" else m.group(1)
                got[s] = got.get(s, 0) + l["samples"]
        # streams are parsed as numbers: compare them so
        norm = {(int(k, 0) if k is not None else None): v for k, v in want.items()}
        gotn = {(int(k, 0) if k is not None else None): v for k, v in got.items()}
        if gotn != norm:
            fail("%s: ops per stream %s, SQL says %s" % (os.path.basename(f), gotn, norm))
        n += 1
    return n


def main():
    cs, d = sys.argv[1], sys.argv[2]
    A = json.load(open(os.path.join(d, "answers.json")))
    run_dir = os.path.join(d, "run")
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(run_dir)
                   for f in fs if f.endswith(".db"))
    if len(files) <= 10:
        fail("the run must have more than 10 files, not %d" % len(files))
    # a directory and the same files as paths: one run, same numbers
    rep = report(cs, "flat", run_dir)
    if rep:
        check_summary("run directory", rep, A["kernels"], A["gpu_total"])
    rep2 = report(cs, "flat", *files)
    if rep and rep2 and kernel_summary(rep) != kernel_summary(rep2):
        fail("paths and directory differ")
    # the run's index YAML files (both forms) name the same run; a
    # hostile one is refused with one line naming it, exit 2
    for y in ("index.yaml", "optiq.yaml"):
        rep3 = report(cs, "flat", os.path.join(d, y))
        if rep3:
            check_summary(y, rep3, A["kernels"], A["gpu_total"])
    check_hostile_yaml(cs, d)
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
    n_checked = 0
    for t, ps, lines in lines_at_probes(cs, run_dir, A["probes"]):
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
    # --align-clocks: each host starts at the run's first event, so a
    # probe of a line of host H at t is found at t - (first(H) - first)
    first = A["host_first"]
    if len(first) < 2:
        fail("the run must have several hosts: %s" % first)
    run_first = min(first.values())
    aligned = 0
    for p in A["probes"][:40]:
        host = p["label"].split()[0]
        if host not in first or not p["path"]:
            continue
        t = p["t"] - (first[host] - run_first)
        r = run(cs, "--align-clocks", "trace", "--at", str(t), "--format", "json", run_dir)
        if r.returncode:
            continue
        if "shifted" not in r.stderr.decode():
            fail("--align-clocks: no warning that times were shifted")
        lines = {l["label"]: l for l in json.loads(r.stdout)["lines"]}
        l = lines.get(p["label"])
        if l is None or l["path"] != p["path"] or not (l["begin"] <= t < l["end"]):
            fail("--align-clocks at %d on %r: %s, wanted %s" % (
                t, p["label"], l and (l["path"], l["begin"], l["end"]), p["path"]))
        aligned += 1
    print("aligned probes checked:", aligned)
    # counter lines (copies in flight, allocated memory): the value in
    # force at probe times, from the generator's own steps
    counters = 0
    for t, ps, lines in lines_at_probes(cs, run_dir, A["counter_probes"], 7):
        for p in ps:
            l = lines.get(p["label"])
            if l is None:
                fail("no counter line %r" % p["label"])
                continue
            got = l.get("value")
            if got != p["value"] and not (
                    got is not None and p["value"] is not None and
                    abs(got - p["value"]) < 1e-9):
                fail("counter %r at %d: %s, wanted %s" % (p["label"], t, got, p["value"]))
            counters += 1
    print("counter values checked:", counters)
    print("instant checks:", check_instants(cs, d, A))
    print("stream checks:", check_streams(cs, d, A, sys.argv[3:]))
    plain = run(cs, "info", run_dir)
    if "hosts whose clocks are independent" not in plain.stderr.decode():
        fail("no warning that the run's hosts have independent clocks")
    # merged file: two table sets
    rep = report(cs, "flat", os.path.join(d, "merged.db"))
    if rep:
        check_summary("merged file", rep, A["merged"]["kernels"], A["merged"]["gpu_total"])
    # kernel statistics against plain SQL: the run (12 files), the merged
    # file (two table sets), the generated .rpd
    stats = 0
    merged = {}
    for f in files:
        for k, v in kernel_durations(f).items():
            merged.setdefault(k, []).extend(v)
    rep = report(cs, "flat", "--metric", "all", run_dir)
    if rep:
        stats += check_stats("run directory", rep, merged)
        print("counter sums checked:", check_counters("run directory", rep, A["counters"]))
    rep = report(cs, "flat", "--metric", "all", os.path.join(d, "merged.db"))
    if rep:
        check_counters("merged file", rep, A["merged"]["counters"])
    for f in ("merged.db", "gen.rpd"):
        rep = report(cs, "flat", "--metric", "all", os.path.join(d, f))
        if rep:
            stats += check_stats(f, rep,
                                 kernel_durations(os.path.join(d, f)))
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
    # nor in an instant's name (a roctxMark 1 ns after the first
    # iteration begins), text and JSON, at its time and in a window
    hdb = os.path.join(d, "hostile.db")
    first = trace_at(cs, "+0", hdb, "--span", "1ms")
    main = [l for lb, l in first.items() if lb.endswith(" tid 666")]
    t_evil = main[0]["instant"]["time"] + 1 if main and main[0].get("instant") else None
    if t_evil is None:
        fail("hostile.db: no instant on the main thread")
    else:
        for fmt in ("text", "json"):
            r = run(cs, "trace", "--at", str(t_evil), "--format", fmt, hdb)
            r2 = run(cs, "trace", "--from", str(t_evil), "--to", str(t_evil + 1),
                     "--columns", "1", "--format", fmt, hdb)
            for out in (r.stdout, r2.stdout):
                if b"\x1b" in out or b"\x07" in out:
                    fail("a control character of an instant's name reached the output (%s)" % fmt)
                if b"mark" not in out:
                    fail("the hostile instant is missing (%s): %r" % (fmt, out[:300]))
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
            stats += check_stats(os.path.basename(rpd),
                                 report(cs, "flat", "--metric", "all", rpd),
                                 kernel_durations(rpd))
            calls = root_value(rep, "Calls (I)")
            if round(calls) != napi + nop:
                fail("%s: calls %s, wanted %d API + %d ops" % (rpd, calls, napi, nop))
            print("%s: %d kernels, %d ops, %d API calls match" % (os.path.basename(rpd), len(want), nop, napi))
        n = check_monitor(cs, rpd)
        print("%s: %d SMI counter values equal to SQL's" % (os.path.basename(rpd), n))
    print("kernel statistics equal to SQL's:", stats)
    print("fails:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
