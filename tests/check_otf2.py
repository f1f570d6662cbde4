#!/usr/bin/python3
"""check_otf2: callscope's OTF2 reader against answers computed apart.

    check_otf2.py generated CALLSCOPE OTF2_DUMP SRCDIR WORKDIR  (1, 2)
    check_otf2.py corpus OTF2_DUMP SHARED                      (3)

1. The archives of tests/gen_otf2.py (answers computed by the generator
   from its call descriptions): per call path the inclusive and exclusive
   time and the visits of `report --format json --metric all`, the path of
   `hotpath` (walked here over the generator's inclusive times), per
   location those of tests/otf2-dump, and there too the MPI messages of
   every call (its path and begin, the attribute's text), the trace lines
   of `info --format
   json` (label, number of calls), and `trace --at T --format json` (the
   call running at T on each line: its depth and path).
   The "records" case: MPI messages matched send to receive (the links),
   collectives, RMA and threading records, metric events as columns and
   counter tracks (also against otf2-print), events not shown counted.
   The "nested" case packed as a .tar.gz opens as its directory does; the
   index kept in the cache gives --no-cache's output, also once damaged
   or stale.
2. The damaged archives of `gen_otf2.py --hostile`: each exits 2 with one
   line on stderr that names the archive, nothing on stdout, no crash.
3. The corpus trace of pipit's ping-pong: per
   region and location the exclusive time and visits summed from
   `otf2-print`'s events, and its MPI messages (location, kind, partner,
   tag, bytes) (parsed here: a stack per location, a region's
   exclusive time its Enter-to-Leave time less its callees'), against
   otf2-dump's per-location exclusive values summed per region.
Exit 77 when python3-otf2 (generator) or otf2-print is missing."""
import json
import os
import re
import shutil
import tarfile
import subprocess
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def report_paths(cs, arch):
    rc, out, err = run([cs, "report", arch, "--format", "json",
                        "--metric", "all"])
    if rc != 0:
        fail("%s: report exit %d: %s" % (arch, rc, err.strip()))
        return {}
    doc = json.loads(out)
    names = [c["name"] for c in doc["columns"]]
    by_id, paths = {}, {}
    for n in doc["nodes"]:
        if n["kind"] == "root":
            continue
        parent = by_id.get(n["parent"], ())
        path = parent + (n["name"],)
        by_id[n["id"]] = path
        paths["/".join(path)] = dict(zip(names, n["values"]))
    return paths


def dump_values(dump, arch):
    rc, out, err = run([dump, arch])
    if rc != 0:
        fail("%s: otf2-dump exit %d: %s" % (arch, rc, err.strip()))
    vals = {}
    for line in out.splitlines():
        if line.startswith("M\t"):
            vals.setdefault("messages", []).append(line.split("\t")[1:])
            continue
        if line.startswith("L\t"):
            vals.setdefault("links", []).append(line.split("\t")[1:])
            continue
        if line.startswith("C\t"):
            vals.setdefault("counters", []).append(line.split("\t")[1:])
            continue
        path, metric, kind, label, value = line.split("\t")
        vals[(path, metric, kind, label)] = float(value)
    return vals


def check_values(cs, dump, arch, exp):
    got = report_paths(cs, arch)
    if set(got) != set(exp["paths"]):
        fail("%s: call paths %s, expected %s" %
             (arch, sorted(got), sorted(exp["paths"])))
    per = dump_values(dump, arch)
    for path, e in exp["paths"].items():
        g = got.get(path, {})
        for col, want in (("time (I)", e["incl"]), ("time (E)", e["excl"]),
                          ("visits (E)", e["visits"])):
            if not close(g.get(col) or 0.0, want):
                fail("%s: %s %s = %s, expected %s" %
                     (arch, path, col, g.get(col), want))
        for label, (incl, excl, visits) in e["per_location"].items():
            for key, want in ((("time", "I"), incl), (("time", "E"), excl),
                              (("visits", "E"), visits)):
                have = per.get((path, key[0], key[1], label), 0.0)
                if not close(have, want):
                    fail("%s: %s %s (%s) at %s = %s, expected %s" %
                         (arch, path, key[0], key[1], label, have, want))
    # the program root's time (I) per location: the sum of the location's
    # top regions (the root has no region of its own)
    root = {}
    for path, e in exp["paths"].items():
        if "/" not in path:
            for label, (incl, _excl, _visits) in e["per_location"].items():
                root[label] = root.get(label, 0.0) + incl
    for label, want in root.items():
        have = per.get(("<program root>", "time", "I", label), 0.0)
        if not close(have, want):
            fail("%s: <program root> time (I) at %s = %s, expected %s" %
                 (arch, label, have, want))
    got = sorted([m[0], m[1], int(m[2]), m[3], m[4]]
                 for m in per.pop("messages", []))
    if got != exp["messages"]:
        fail("%s: messages %s, expected %s" %
             (arch, got[:4], exp["messages"][:4]))
    print("%s: %d call paths, %d per-location values, %d messages checked"
          % (arch, len(exp["paths"]), len(per), len(got)))


def metric_print(anchor):
    """Every metric event's values from `otf2-print` (and its members'
    base and exponent from `otf2-print -G`): (location, ns, member, value
    x base^exponent) sorted, and the clock's first tick."""
    defs = run(["otf2-print", "-G", anchor])[1]
    scale = {}
    for m in re.finditer(r'METRIC_MEMBER\s+\d+\s+Name: "([^"]*)".*?'
                         r'Base: (\w+), Exponent: (-?\d+)', defs):
        scale[m.group(1)] = (2.0 if m.group(2) == "BINARY" else 10.0) \
            ** int(m.group(3))
    offset = int(re.search(r"Global Offset: (\d+)", defs).group(1))
    out = []
    for line in run(["otf2-print", anchor])[1].splitlines():
        parts = line.split(None, 3)
        if len(parts) < 4 or parts[0] != "METRIC":
            continue
        for v in re.finditer(r'\("([^"]*)" <\d+>; \w+; ([-\d.e+]+)\)',
                             parts[3]):
            out.append((int(parts[1]), int(parts[2]) - offset, v.group(1),
                        float(v.group(2)) * scale[v.group(1)]))
    return sorted(out)


def check_records(cs, dump, arch, cache):
    """The "records" case: MPI messages matched (the links both ways),
    the other records' texts, the accumulated metric as columns (the
    generator's rate x own time), every metric event as a counter value
    (against the generator and against otf2-print), the events not shown
    counted in a warning; and the same from the index kept in the
    cache."""
    with open(os.path.join(arch, "expect.json")) as f:
        exp = json.load(f)
    got = report_paths(cs, arch)
    for path, e in exp["metric"].items():
        for col, want in (("PAPI_TOT_INS (E)", e["excl"]),
                          ("PAPI_TOT_INS (I)", e["incl"])):
            if not close(got.get(path, {}).get(col) or 0.0, want):
                fail("%s: %s %s = %s, expected %s" %
                     (arch, path, col, got.get(path, {}).get(col), want))
    if any(c.startswith("mem") for v in got.values() for c in v):
        fail("%s: an absolute metric (mem) has a column" % arch)
    rc, _, err = run([cs, "report", arch, "--no-cache"])
    if "%d events of kinds callscope does not show" % exp["unshown"] \
            not in err:
        fail("%s: no warning of %d events not shown: %s" %
             (arch, exp["unshown"], err.strip()))
    anchor = os.path.join(arch, "traces.otf2")
    labels = {}
    for m in re.finditer(r"LOCATION\s+(\d+)\s+Name: \"([^\"]*)\".*"
                         r"Group: \"([^\"]*)\"",
                         run(["otf2-print", "-G", anchor])[1]):
        labels[int(m.group(1))] = "%s: %s" % (m.group(3), m.group(2))
    printed = sorted([labels[loc], t, v] for loc, t, name, v in
                     metric_print(anchor) if name == "PAPI_TOT_INS") + \
        sorted([labels[loc] + ": mem", t, v] for loc, t, name, v in
               metric_print(anchor) if name == "mem")
    for how in ("", "cached", "cached again"):
        rc, out, err = run([dump, arch] + ([cache] if how else []))
        if rc != 0:
            fail("%s: otf2-dump %s exit %d: %s" % (arch, how, rc, err))
        lines = [l.split("\t") for l in out.splitlines()]
        links = sorted([l[1], int(l[2]), l[3], int(l[4])]
                       for l in lines if l[0] == "L")
        recs = sorted([l[1], int(l[3]), l[4], l[5]]
                      for l in lines if l[0] == "M")
        ctrs = sorted([l[1], int(l[2]), float(l[3])]
                      for l in lines if l[0] == "C")
        if links != exp["links"]:
            fail("%s %s: links %s, expected %s" %
                 (arch, how, links, exp["links"]))
        if recs != exp["records"]:
            fail("%s %s: records %s, expected %s" %
                 (arch, how, recs, exp["records"]))
        if ctrs != exp["counters"]:
            fail("%s %s: counters %s, expected %s" %
                 (arch, how, ctrs[:3], exp["counters"][:3]))
        papi = sorted([c[0].rsplit(": ", 1)[0], c[1], c[2]]
                      for c in ctrs if c[0].endswith("PAPI_TOT_INS"))
        mem = sorted(c for c in ctrs if c[0].endswith(": mem"))
        if papi + mem != printed:
            fail("%s %s: counters differ from otf2-print's metric events"
                 % (arch, how))
    print("%s: %d links, %d records, %d counter values (= otf2-print), "
          "%d metric paths checked, also from the cache" %
          (arch, len(exp["links"]), len(exp["records"]),
           len(exp["counters"]), len(exp["metric"])))


def check_hotpath(cs, arch, exp):
    """hotpath's path against the one walked here over the generator's
    inclusive times: the largest child while it holds at least PCT percent
    of its parent (the generated times have no ties)."""
    incl = {tuple(p.split("/")): e["incl"] for p, e in exp["paths"].items()}
    for pct in (30, 50, 90):
        cur, value, want = (), sum(v for p, v in incl.items()
                                   if len(p) == 1), []
        while True:
            kids = [(v, p) for p, v in incl.items()
                    if len(p) == len(cur) + 1 and p[:len(cur)] == cur]
            if not kids:
                break
            v, p = max(kids)
            if v < pct / 100.0 * value:
                break
            cur, value = p, v
            want.append(p[-1])
        rc, out, err = run([cs, "hotpath", arch, "--threshold", str(pct),
                            "--format", "json"])
        got = [n["name"] for n in json.loads(out)["nodes"]][1:] \
            if rc == 0 else err
        if got != want:
            fail("%s: hotpath --threshold %d: %s, expected %s" %
                 (arch, pct, got, want))
    print("%s: hot paths checked" % arch)


def check_trace(cs, arch, exp):
    rc, out, err = run([cs, "info", arch, "--format", "json"])
    if rc != 0:
        fail("%s: info exit %d: %s" % (arch, rc, err.strip()))
        return
    info = json.loads(out)
    lines = info["trace"]["line_list"]
    want = [(l["label"], l["intervals"]) for l in exp["lines"]]
    have = [(l["label"], l["samples"]) for l in lines]
    if have != want:
        fail("%s: trace lines %s, expected %s" % (arch, have, want))
    n = 0
    # the calls are read back in blocks (the lazy trace): one call per
    # block, two, and the default (one block for these archives)
    for opt in (["--option", "otf2:calls-per-block=1"],
                ["--option", "otf2:calls-per-block=2"], []):
        for li, line in enumerate(exp["lines"]):
            for t, depth, path in line["queries"]:
                rc, out, err = run([cs, "trace", arch, "--at", str(t),
                                    "--lines", str(li), "--format",
                                    "json"] + opt)
                doc = json.loads(out) if rc == 0 else {"lines": []}
                hit = [l for l in doc["lines"] if l["line"] == li]
                got = (hit[0].get("depth"), hit[0].get("path")) \
                    if hit else None
                n += 1
                if got != (depth, path):
                    fail("%s %s: line %d at %d ns: %s, expected %s" %
                         (arch, " ".join(opt), li, t, got, (depth, path)))
    print("%s: %d lines, %d trace queries checked" % (arch, len(lines), n))


def check_near(cs, arch, srcdir):
    """A zoomed-out window of the "long" case (cells of 15 us over calls
    of 15 ns): each cell is the context the index's time samples give --
    the call running at the first multiple of the grid's spacing (1001
    ticks at 1 GHz, never thinned here) after the location's first event
    that falls in the cell (trace_ops.near), from the generator's calls;
    with the default blocks (8 and 5 of them), the call running at each
    cell's start."""
    sys.path.insert(0, os.path.join(srcdir, "tests"))
    import gen_otf2
    rc, out, err = run([cs, "report", arch, "--format", "json"])
    paths = {}
    for n in json.loads(out)["nodes"]:
        if n["kind"] != "root":
            paths[n["id"]] = paths.get(n["parent"], ()) + (n["name"],)
    defs = run(["otf2-print", "-G", os.path.join(arch, "traces.otf2")])[1]
    offset = int(re.search(r"Global Offset: (\d+)", defs).group(1))
    cols, width = 30, 450000
    # 1000 calls a block: 30 and 20 blocks, more than a location read
    # exactly (OTF2_NEAR_MIN_BLOCKS)
    rc, out, err = run([cs, "trace", arch, "--from", "0", "--to",
                        str(width), "--columns", str(cols), "--format",
                        "json", "--option", "otf2:calls-per-block=1000"])
    n = 0
    for li, line in enumerate(json.loads(out)["lines"]):
        calls = gen_otf2.LONG["locations"][li][2]
        evs = gen_otf2.events_of(calls, [])
        first, last = evs[0][0], evs[-1][0]
        for k, ctx in enumerate(line["cells"]):
            c0 = offset + k * width // cols
            c1 = offset + (k + 1) * width // cols
            g = -(-c0 // 1001) * 1001  # the first grid time >= c0
            while g <= first:
                g += 1001
            if not (g < c1 and g < last):
                continue
            want = gen_otf2.running(calls, g)
            got = paths.get(ctx - 1) if ctx else None  # ids from 0
            n += 1
            if got != want:
                fail("%s: line %d cell %d (%d..%d ticks): %s, the grid's "
                     "sample at %d is %s" % (arch, li, k, c0, c1, got, g,
                                            want))
    if n < cols:
        fail("%s: only %d cells checked" % (arch, n))
    rc, out, err = run([cs, "trace", arch, "--from", "0", "--to",
                        str(width), "--columns", str(cols), "--format",
                        "json"])
    for li, line in enumerate(json.loads(out)["lines"]):
        calls = gen_otf2.LONG["locations"][li][2]
        for k, ctx in enumerate(line["cells"]):
            c0 = offset + k * width // cols
            want = gen_otf2.running(calls, c0)
            if (paths.get(ctx - 1) if ctx else None) != want:
                fail("%s: line %d cell %d at %d: %s, running then: %s" %
                     (arch, li, k, c0, paths.get(ctx - 1), want))
    print("%s: %d wide cells equal the index's time samples" % (arch, n))


def check_archive(cs, arch, work):
    """The archive as a .tar.gz of its experiment directory gives the same
    report and trace as the directory."""
    tgz = os.path.join(work, "scorep.tar.gz")
    with tarfile.open(tgz, "w:gz") as t:
        t.add(arch, arcname="scorep_run")
    for cmd in (["report", "--format", "json", "--metric", "all"],
                ["trace", "--from", "0", "--to", "1000", "--columns", "20"]):
        a = run([cs, cmd[0], arch] + cmd[1:])
        b = run([cs, cmd[0], tgz] + cmd[1:])
        if a[0] != 0 or a[1:2] != b[1:2]:
            fail("%s: %s from the .tar.gz differs: %s" %
                 (tgz, cmd[0], b[2].strip()))
    print("%s: report and trace equal the directory's" % tgz)


def exp_paths(arch):
    with open(os.path.join(arch, "expect.json")) as f:
        return json.load(f)["paths"]


def check_cache(cs, arch):
    """The index kept in the cache: a second open reads it (the file is
    there), a damaged or stale one is replaced, and every open gives the
    output of --no-cache."""
    cdir = os.path.join(os.environ["XDG_CACHE_HOME"], "callscope", "otf2")
    cmd = [cs, "report", arch, "--format", "json", "--metric", "all"]
    want = run(cmd + ["--no-cache"])[1]
    trace = [cs, "trace", arch, "--from", "0", "--to", "2000", "--columns",
             "30", "--option", "otf2:calls-per-block=2"]
    want_trace = run(trace + ["--no-cache"])[1]
    shutil.rmtree(cdir, ignore_errors=True)  # then this archive's only
    run(cmd)
    files = [os.path.join(cdir, f) for f in os.listdir(cdir)] \
        if os.path.isdir(cdir) else []
    if not files:
        fail("%s: no index in %s" % (arch, cdir))
        return
    # the cache is read: a time changed in it (the first call path's
    # exclusive ticks, after the magic, the key, the anchor's real path,
    # 8 words of counts, the tree's count and its parents and regions)
    # shows in the report
    n = len(exp_paths(arch))
    anchor = os.path.realpath(os.path.join(arch, "traces.otf2"))
    with open(files[0], "r+b") as f:
        f.seek(8 * 3 + len(anchor.encode()) + 8 * 8 + 8 + 8 * n)
        f.write((123456789).to_bytes(8, sys.byteorder))
    if run(cmd)[1] == want:
        fail("%s: a time changed in the cache does not show" % arch)
    os.unlink(files[0])
    run(cmd)
    steps = [("cached", None),
             ("truncated", lambda f: open(f, "r+b").truncate(100)),
             ("garbage", lambda f: open(f, "r+b").write(b"x" * 64)),
             ("stale", lambda f: os.utime(os.path.join(arch, "traces",
                                                       "0.evt"),
                                          ns=(1, 1)))]
    for name, damage in steps:
        for f in files:
            if damage:
                damage(f)
        got = run(cmd)
        if got[0] != 0 or got[1] != want or run(trace)[1] != want_trace:
            fail("%s: with the cache %s: %s" % (arch, name, got[2]))
    rc, out, err = run([cs, "cache", "list", "--format", "json"])
    if rc != 0 or anchor not in out:
        fail("cache list does not name %s: %s" % (anchor, out + err))
    print("%s: cache kept, damaged, stale: same output; listed" % arch)


def check_hostile(cs, work, srcdir):
    hdir = os.path.join(work, "hostile")
    rc = subprocess.run(["/usr/bin/python3",
                         os.path.join(srcdir, "tests", "gen_otf2.py"),
                         "--hostile", hdir]).returncode
    if rc != 0:
        fail("gen_otf2.py --hostile: exit %d" % rc)
        return
    with open(os.path.join(hdir, "hostile.txt")) as f:
        names = f.read().split()
    for name in names:
        for arch in (os.path.join(hdir, name),
                     os.path.join(hdir, name, "traces.otf2")):
            rc, out, err = run([cs, "report", arch])
            lines = err.strip().splitlines()
            if rc != 2 or out or len(lines) != 1 or \
                    os.path.join(hdir, name) not in lines[0]:
                fail("%s: exit %d, stdout %d bytes, stderr %r" %
                     (arch, rc, len(out), err))
            else:
                print("%s: %s" % (name, lines[0]))


def otf2_print_truth(anchor):
    """(region, location) -> [exclusive ticks, visits], and the clock."""
    out = subprocess.run(["otf2-print", anchor], capture_output=True,
                         text=True, check=True).stdout
    res = subprocess.run(["otf2-print", "-G", anchor], capture_output=True,
                         text=True, check=True).stdout
    resolution = None
    for line in res.splitlines():
        if line.startswith("CLOCK_PROPERTIES"):
            resolution = int(line.split("Ticks per Seconds:")[1]
                             .split(",")[0])
    offset = int(re.search(r"Global Offset: (\d+)", res).group(1))
    stacks, truth, msgs = {}, {}, []
    ends = []  # (location, send?, partner, tag, the innermost call's enter)
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[0] in ("MPI_SEND", "MPI_RECV"):
            a = re.match(r"(?:Receiver|Sender): (\d+) .*Tag: (\d+), "
                         r"Length: (\d+)", parts[3])
            msgs.append((int(parts[1]), parts[0] == "MPI_SEND",
                         int(a.group(1)), int(a.group(2)),
                         int(a.group(3))))
            st = stacks.get(int(parts[1]))
            ends.append(msgs[-1][:4] + (st[-1][1] if st else None,))
        if len(parts) < 4 or parts[0] not in ("ENTER", "LEAVE"):
            continue
        loc, t = int(parts[1]), int(parts[2])
        region = parts[3].split('Region: "', 1)[1].rsplit('" <', 1)[0]
        st = stacks.setdefault(loc, [])
        if parts[0] == "ENTER":
            st.append([region, t, 0])
            continue
        r, enter, child = st.pop()
        assert r == region, (r, region)
        incl = t - enter
        v = truth.setdefault((region, loc), [0, 0])
        v[0] += incl - child
        v[1] += 1
        if st:
            st[-1][2] += incl
    # the nth send from A to B with a tag is the nth receive on B from A
    # with it (rank n is location n in this trace: MPI_COMM_WORLD)
    def ns(t):
        return (t - offset) * 1000000000 // resolution
    sends, recvs, links = {}, {}, []
    for loc, send, partner, tag, enter in ends:
        key = (loc, partner, tag) if send else (partner, loc, tag)
        (sends if send else recvs).setdefault(key, []).append((loc, enter))
    for key, ss in sends.items():
        for (a, ta), (b, tb) in zip(ss, recvs.get(key, [])):
            links += [(a, ns(ta), b, ns(tb)), (b, ns(tb), a, ns(ta))]
    return truth, resolution, sorted(msgs), sorted(links)


def check_corpus(dump, shared):
    d = os.path.join(shared, "corpus", "otf2", "pipit", "pipit", "tests",
                     "data", "ping-pong-otf2")
    anchor = os.path.join(d, "traces.otf2")
    truth, resolution, msgs, links = otf2_print_truth(anchor)
    per = dump_values(dump, anchor)
    got_links = sorted((int(l[0].split("MPI Rank ")[1].split(":")[0]),
                        int(l[1]),
                        int(l[2].split("MPI Rank ")[1].split(":")[0]),
                        int(l[3])) for l in per.pop("links", []))
    if got_links != links or not links:
        fail("corpus: links %s, from otf2-print %s" %
             (got_links[:3], links[:3]))
    got_msgs = []
    for label, path, begin, key, text in per.pop("messages", []):
        a = re.match(r"(\d+) bytes (?:to|from) rank (\d+), tag (\d+)", text)
        got_msgs.append((int(label.split("MPI Rank ")[1].split(":")[0]),
                         key == "MPI send", int(a.group(2)),
                         int(a.group(3)), int(a.group(1))))
    if sorted(got_msgs) != msgs:
        fail("corpus: messages %s, otf2-print %s" %
             (sorted(got_msgs)[:3], msgs[:3]))
    # location n is profile "MPI Rank n: Master thread" in this trace
    got = {}
    for (path, metric, kind, label), v in per.items():
        if kind != "E":
            continue
        loc = int(label.split("MPI Rank ")[1].split(":")[0])
        key = (path.split("/")[-1], loc)
        g = got.setdefault(key, [0.0, 0.0])
        g[0 if metric == "time" else 1] += v
    if set(got) != set(truth):
        fail("corpus: regions x locations %s, otf2-print %s" %
             (sorted(got), sorted(truth)))
    for key, (ticks, visits) in truth.items():
        g = got.get(key, [0.0, 0.0])
        if not close(g[0], ticks / resolution) or g[1] != visits:
            fail("corpus: %s: time %s visits %s, otf2-print %s and %s" %
                 (key, g[0], g[1], ticks / resolution, visits))
    print("corpus ping-pong: %d (region, location) pairs, %d messages and "
          "%d links equal otf2-print" % (len(truth), len(msgs), len(links)))


def main():
    args = sys.argv[1:]
    if shutil.which("otf2-print") is None:
        print("otf2-print (otf2-tools) is not installed: skipped")
        return 77
    if len(args) == 3 and args[0] == "corpus":
        if not os.path.isdir(os.path.join(args[2], "corpus", "otf2")):
            print("no %s/corpus/otf2: skipped" % args[2])
            return 77
        check_corpus(args[1], args[2])
    elif len(args) == 5 and args[0] == "generated":
        cs, dump, srcdir, work = args[1:]
        gen = os.path.join(srcdir, "tests", "gen_otf2.py")
        rc = subprocess.run(["/usr/bin/python3", gen, work]).returncode
        if rc != 0:
            return rc
        for case in ("nested", "clock", "long"):
            arch = os.path.join(work, case)
            with open(os.path.join(arch, "expect.json")) as f:
                exp = json.load(f)
            check_values(cs, dump, arch, exp)
            check_hotpath(cs, arch, exp)
            check_trace(cs, os.path.join(arch, "traces.otf2"), exp)
        check_records(cs, dump, os.path.join(work, "records"),
                      os.path.join(work, "dump-cache"))
        check_archive(cs, os.path.join(work, "nested"), work)
        check_cache(cs, os.path.join(work, "long"))
        check_near(cs, os.path.join(work, "long"), srcdir)
        check_hostile(cs, work, srcdir)
    else:
        print(__doc__, file=sys.stderr)
        return 64
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
