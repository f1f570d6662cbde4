#!/usr/bin/python3
"""gen_otf2: OTF2 archives with known answers, written with the OTF2
library's Python bindings (python3-otf2), for tests/check_otf2.py.

    gen_otf2.py OUTDIR            the cases below, each OUTDIR/CASE/ with
                                  traces.otf2, traces.def, traces/ and
                                  expect.json
    gen_otf2.py --hostile OUTDIR  damaged archives, OUTDIR/NAME/traces.otf2,
                                  and OUTDIR/hostile.txt: NAME per line
    gen_otf2.py --extrap OUTDIR   runs of a known law, OUTDIR/app.pP.rR
                                  (Extra-P's directory names)
    gen_otf2.py --systree OUTDIR  named system tree (tab, CSI), OUTDIR/traces.otf2
    gen_otf2.py --markers OUTDIR  the "nested" case with a marker file,
                                  its answers in expect.json "marks"
    gen_otf2.py --fanout OUTDIR   one call of three messages (FANOUT)

Every location's calls are written from a nested description (region,
enter, leave, children); the answers are computed from that description,
not by replaying the events: a call path's inclusive time is the sum of
its calls' (leave - enter), its exclusive time that less its children's
inclusive times, its visits the number of its calls; the call running at
a time t on a location is the deepest call with enter <= t < leave.
Exit 77 when the bindings are not installed."""
import json
import os
import shutil
import sys

try:
    import otf2
    import _otf2  # the marker writer (no binding of its own)
    from otf2.enums import Type  # noqa: F401  (the bindings are complete)
except ImportError:
    print("python3-otf2 is not installed: skipped")
    sys.exit(77)


def call(name, enter, leave, *children):
    return (name, enter, leave, list(children))


# Case "nested": timer of 1 GHz (ticks are ns).  Recursion (foo in foo), a
# zero-length call, a call that begins when its sibling ends and one that
# ends with its caller, a caller and callee entered at the same tick, two
# threads of one rank, a second rank with an empty location, MPI messages.
NESTED = {
    "resolution": 1000000000,
    "groups": ["rank 0", "rank 1"],
    "locations": [
        ("rank 0", "thread 0", [
            call("main", 1000, 2000,
                 call("foo", 1100, 1400,
                      call("bar", 1150, 1200),
                      call("foo", 1200, 1300,
                           call("bar", 1210, 1210))),
                 call("bar", 1400, 1500),
                 call("baz", 1600, 2000))]),
        ("rank 0", "thread 1", [
            call("main", 1050, 1900,
                 call("foo", 1100, 1800,
                      call("bar", 1200, 1700)))]),
        ("rank 1", "thread 0", [
            call("main", 1000, 1500,
                 call("baz", 1000, 1500,
                      call("bar", 1000, 1100),
                      call("bar", 1100, 1200),
                      call("bar", 1300, 1500))),
            call("other", 1600, 1700)]),
        ("rank 1", "idle", []),
    ],
    # (location index, time, send?, partner rank, tag, bytes): inside a call
    "messages": [(1, 1250, True, 1, 7, 4096), (2, 1050, False, 0, 7, 4096)],
}

# Case "fanout" (--fanout): one call of rank 0 holds three messages to
# rank 1 (tags 1, 2, 3), each received by a call of its own, in order; a
# receive of rank 0 in a call of one message.
FANOUT = {
    "resolution": 1000000000,
    "groups": ["rank 0", "rank 1"],
    "locations": [
        ("rank 0", "thread 0", [
            call("main", 1000, 3000,
                 call("MPI_Waitall", 1100, 1400),
                 call("MPI_Recv", 2000, 2600))]),
        ("rank 1", "thread 0", [
            call("main", 1000, 3000,
                 call("MPI_Recv", 1200, 1300), call("MPI_Recv", 1500, 1600),
                 call("MPI_Recv", 1700, 1800),
                 call("MPI_Send", 2100, 2200))]),
    ],
    "messages": [(0, 1150, True, 1, 1, 10), (0, 1250, True, 1, 2, 20),
                 (0, 1350, True, 1, 3, 30),
                 (1, 1250, False, 0, 1, 10), (1, 1550, False, 0, 2, 20),
                 (1, 1750, False, 0, 3, 30),
                 (1, 2150, True, 0, 4, 40), (0, 2550, False, 1, 4, 40)],
}

# Case "clock": a microsecond timer and long calls, so that seconds and
# nanoseconds come from a resolution other than 1 GHz.
CLOCK = {
    "resolution": 1000000,
    "groups": ["process"],
    "locations": [
        ("process", "main thread", [
            call("main", 5000000, 17500000,
                 call("compute", 5000001, 12000000,
                      call("kernel", 6000000, 11000000)),
                 call("io", 12000000, 17400000))]),
        ("process", "helper", [
            call("worker", 5200000, 9000000,
                 call("kernel", 5300000, 8000000))]),
    ],
    "messages": [],
}


def long_messages(loc, n, start):
    """Messages of location `loc` in long_calls(n, start): every 997th step
    sends one in the step (before its inner call) and one in main (after
    the step): main's are past main's block, so the reader keeps them at
    its index pass."""
    out = []
    for i in range(0, n, 997):
        t = start + 5 + 15 * i
        out.append((loc, t + 1, True, 1, i % 7, 64 + i))
        out.append((loc, t + 14, False, 1, 3, 8 + i))
    return out


def long_calls(n, start):
    """main with n calls of step > (work | wait), 10 ticks apart."""
    calls, t = [], start + 5
    for i in range(n):
        inner = call("work" if i % 3 else "wait", t + 2, t + 7 + i % 5)
        calls.append(call("step", t, t + 13, inner))
        t += 15
    return [call("main", start, t + 5, *calls)]


# Case "long": event files of several OTF2 chunks (256 KiB, the smallest),
# so that reading a block of calls back seeks across chunks; the trace is
# asked at a few times only ("queries").
LONG = {
    "resolution": 1000000000,
    "groups": ["rank 0", "rank 1"],
    "locations": [("rank 0", "main", long_calls(30000, 1000)),
                  ("rank 1", "main", long_calls(20000, 1003))],
    "messages": long_messages(0, 30000, 1000),
    "chunk": 256 * 1024,
    "queries": 12,
}

CASES = {"nested": NESTED, "clock": CLOCK, "long": LONG}

# Case "systree" (--systree): Score-P's system tree (classes "machine" and
# "node") and names holding a tab, an escape sequence (CSI) and a C1
# control (a checker reads them from SYSTREE itself).
SYSTREE = {
    "resolution": 1000000000,
    "systree": (("Linux\tbox", "machine"), ("quartz\x1b[31m10", "node")),
    "groups": ["MPI Rank 0", "MPI\x9bRank\x1b[2J 1"],
    "locations": [
        ("MPI Rank 0", "Master thread", [call("main", 1000, 2000)]),
        ("MPI\x9bRank\x1b[2J 1", "Master\tthread", [call("main", 1100, 1900)]),
    ],
    "messages": [],
}


def events_of(calls, out):
    """(time, 'enter'|'leave', region) in stream order (depth first)."""
    for name, enter, leave, children in calls:
        out.append((enter, "enter", name))
        events_of(children, out)
        out.append((leave, "leave", name))
    return out


def walk(calls, prefix, out):
    """Call path -> [inclusive, exclusive, visits] in ticks."""
    for name, enter, leave, children in calls:
        path = prefix + (name,)
        incl = leave - enter
        excl = incl - sum(c[2] - c[1] for c in children)
        v = out.setdefault(path, [0, 0, 0])
        v[0] += incl
        v[1] += excl
        v[2] += 1
        walk(children, path, out)
    return out


def running(calls, t, prefix=()):
    """The deepest call path running at tick t, or None."""
    for name, enter, leave, children in calls:
        if enter <= t < leave:
            path = prefix + (name,)
            return running(children, t, path) or path
    return None


def intervals(calls):
    return sum(1 + intervals(c[3]) for c in calls)


def query_times(calls):
    """Each call's enter and midpoint, where the answer is unambiguous."""
    ts = []
    for _, enter, leave, children in calls:
        ts += [enter, (enter + leave) // 2]
        ts += query_times(children)
    return sorted(set(ts))


def write_case(case, outdir):
    res = case["resolution"]
    if os.path.exists(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    all_events = [events_of(l[2], []) for l in case["locations"]]
    first = min((e[0][0] for e in all_events if e), default=0)
    with otf2.writer.open(outdir, timer_resolution=res,
                          chunk_size_events=case.get("chunk", 1 << 20)) \
            as trace:
        defs = trace.definitions
        (mname, mcls), (nname, ncls) = case.get(
            "systree", (("machine", ""), ("node0", "")))
        machine = defs.system_tree_node(mname, class_name=mcls)
        node = defs.system_tree_node(nname, class_name=ncls, parent=machine)
        groups = {g: defs.location_group(g, system_tree_parent=node)
                  for g in case["groups"]}
        regions = {}
        locs = []
        for (g, name, _), evs in zip(case["locations"], all_events):
            loc = defs.location(name, group=groups[g])
            locs.append(loc)
            trace.event_writer_from_location(loc)
        world = None
        if case["messages"]:
            members = [locs[i] for i in range(len(locs))]
            grp = defs.group("world", group_type=otf2.GroupType.COMM_LOCATIONS,
                             paradigm=otf2.Paradigm.MPI, members=members)
            world = defs.comm("MPI_COMM_WORLD", group=grp)
        for i, evs in enumerate(all_events):
            w = trace.event_writer_from_location(locs[i])
            msgs = sorted(m for m in case["messages"] if m[0] == i)
            for t, kind, name in evs:
                while msgs and msgs[0][1] < t:  # never at an event's time
                    _, mt, send, partner, tag, size = msgs.pop(0)
                    if send:
                        w.mpi_send(mt, partner, world, tag, size)
                    else:
                        w.mpi_recv(mt, partner, world, tag, size)
                if name not in regions:
                    regions[name] = defs.region(name, source_file="gen.c",
                                                begin_line_number=10 +
                                                len(regions))
                (w.enter if kind == "enter" else w.leave)(t, regions[name])
    expect_write(case, outdir, first)


def expect_write(case, outdir, first):
    res = case["resolution"]

    def ns(t):
        return (t - first) * 1000000000 // res

    paths = {}
    lines = []
    for g, name, calls in case["locations"]:
        label = "%s: %s" % (g, name)
        per = walk(calls, (), {})
        for path, (incl, excl, visits) in per.items():
            p = paths.setdefault("/".join(path), {
                "incl": 0.0, "excl": 0.0, "visits": 0, "per_location": {}})
            p["incl"] += incl / res
            p["excl"] += excl / res
            p["visits"] += visits
            p["per_location"][label] = [incl / res, excl / res, visits]
        queries = []
        times = query_times(calls)
        if "queries" in case:  # evenly spread, the last call's too
            k = case["queries"]
            times = [times[i * (len(times) - 1) // (k - 1)]
                     for i in range(k)]
        for t in times:
            path = running(calls, t)
            if path:
                queries.append([ns(t), len(path) - 1, list(path)])
        lines.append({"label": label, "intervals": intervals(calls),
                      "queries": queries})
    messages = []
    for li, t, send, partner, tag, size in case["messages"]:
        g, name, calls = case["locations"][li]
        path = running(calls, t)
        begin = innermost(calls, t)[1]
        messages.append(["%s: %s" % (g, name), "/".join(path), ns(begin),
                         "MPI send" if send else "MPI receive",
                         "%d bytes %s rank %d, tag %d, MPI_COMM_WORLD" %
                         (size, "to" if send else "from", partner, tag)])
    with open(os.path.join(outdir, "expect.json"), "w") as f:
        json.dump({"paths": paths, "lines": lines,
                   "messages": sorted(messages)}, f, indent=1)


def innermost(calls, t):
    """The deepest call (name, enter, leave, children) running at t."""
    for c in calls:
        if c[1] <= t < c[2]:
            return innermost(c[3], t) or c
    return None


# ---- case "records": messages matched, records, metrics ------------------

# Calls per location (1 GHz ticks); every call's metric events are written
# just before its Enter and its Leave, as Score-P writes them.
REC_CALLS = [
    ("rank 0", "thread 0", [
        call("main", 1000, 3000,
             call("MPI_Send", 1100, 1200), call("MPI_Send", 1300, 1400),
             call("MPI_Recv", 1500, 1700), call("MPI_Allreduce", 1800, 1900),
             call("io", 2000, 2100), call("omp", 2200, 2400),
             call("rma", 2500, 2600))]),
    ("rank 1", "thread 0", [
        call("main", 1000, 3000,
             call("MPI_Recv", 1150, 1250), call("MPI_Recv", 1350, 1500),
             call("MPI_Send", 1550, 1600), call("MPI_Allreduce", 1800, 1900),
             call("work", 2000, 2900))]),
]
# (location, time, send?, partner rank, tag, bytes); the two sends of tag 5
# are received in their order (MPI's non-overtaking rule)
REC_MESSAGES = [(0, 1110, True, 1, 5, 4), (0, 1310, True, 1, 5, 8),
                (1, 1240, False, 0, 5, 4), (1, 1490, False, 0, 5, 8),
                (1, 1560, True, 0, 9, 16), (0, 1690, False, 1, 9, 16)]


def rate(region):
    """PAPI_TOT_INS grows by this many a tick in `region`'s own time."""
    return len(region)


def rec_samples(calls):
    """(time, value) of the accumulated counter before each Enter/Leave:
    its growth in a span is the innermost call's rate times the span."""
    evs = events_of(calls, [])
    out, value, stack, last = [], 0, [], None
    for t, kind, name in evs:
        if last is not None and stack:
            value += rate(stack[-1]) * (t - last)
        last = t
        out.append((t, value))
        if kind == "enter":
            stack.append(name)
        else:
            stack.pop()
    return out


def write_records(outdir):
    if os.path.exists(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    E = otf2.enums
    with otf2.writer.open(outdir, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node0")
        groups = {g: defs.location_group(g, system_tree_parent=node)
                  for g in ("rank 0", "rank 1")}
        locs = [defs.location(name, group=groups[g])
                for g, name, _ in REC_CALLS]
        grp = defs.group("world", group_type=E.GroupType.COMM_LOCATIONS,
                         paradigm=E.Paradigm.MPI, members=locs)
        world = defs.comm("MPI_COMM_WORLD", group=grp)
        tgrp = defs.group("team", group_type=E.GroupType.COMM_LOCATIONS,
                          paradigm=E.Paradigm.OPENMP, members=locs[:1])
        team = defs.comm("omp team", group=tgrp)
        win = defs.rma_win("win", comm=world)
        papi = defs.metric_member("PAPI_TOT_INS", "", E.MetricType.PAPI,
                                  E.MetricMode.ACCUMULATED_START,
                                  E.Type.UINT64, E.Base.DECIMAL, 0, "#")
        mem = defs.metric_member("mem", "", E.MetricType.OTHER,
                                 E.MetricMode.ABSOLUTE_POINT, E.Type.DOUBLE,
                                 E.Base.BINARY, 10, "bytes")
        cpapi = defs.metric_class([papi],
                                  E.MetricOccurrence.SYNCHRONOUS_STRICT,
                                  E.RecorderKind.CPU)
        cmem = defs.metric_class([mem], E.MetricOccurrence.ASYNCHRONOUS,
                                 E.RecorderKind.ABSTRACT)
        par = defs.parameter("iterations", E.ParameterType.INT64)
        regions = {}
        for i, (g, name, calls) in enumerate(REC_CALLS):
            w = trace.event_writer_from_location(locs[i])
            samples = dict(rec_samples(calls))
            msgs = sorted(m for m in REC_MESSAGES if m[0] == i)
            extra = sorted(r for r in rec_extra(world, team, win)
                           if r[0] == i)
            for t, kind, rname in events_of(calls, []):
                while msgs and msgs[0][1] < t:
                    _, mt, send, partner, tag, size = msgs.pop(0)
                    (w.mpi_send if send else w.mpi_recv)(
                        mt, partner, world, tag, size)
                while extra and extra[0][1] < t:
                    _, xt, fn = extra.pop(0)
                    fn(w, xt)
                if rname not in regions:
                    regions[rname] = defs.region(rname)
                w.metric(t, cpapi, [samples[t]])
                if kind == "enter":
                    w.metric(t, cmem, [t / 2.0])
                (w.enter if kind == "enter" else w.leave)(t, regions[rname])
                if kind == "enter" and rname == "main":
                    w.parameter_int(t + 1, par, 42)
    records_expect(outdir)


def rec_extra(world, team, win):
    """(location, time, writer call) of the records other than messages."""
    E = otf2.enums
    return [
        (0, 1890, lambda w, t: w.mpi_collective_end(
            t, E.CollectiveOp.ALLREDUCE, world, 0, 64, 32)),
        (0, 2210, lambda w, t: w.thread_fork(t, E.Paradigm.OPENMP, 4)),
        (0, 2220, lambda w, t: w.thread_team_begin(t, team)),
        (0, 2380, lambda w, t: w.thread_team_end(t, team)),
        (0, 2390, lambda w, t: w.thread_join(t, E.Paradigm.OPENMP)),
        (0, 2510, lambda w, t: w.rma_put(t, win, 1, 128, 7)),
        (0, 2520, lambda w, t: w.rma_get(t, win, 1, 256, 8)),
    ]


# the attribute each record of rec_extra shows: (location, time, key, text)
REC_TEXTS = [
    (0, 1890, "MPI collective", "allreduce, root 0, 64 bytes sent, 32 "
     "received, MPI_COMM_WORLD"),
    (0, 2210, "thread fork", "OpenMP, 4 threads requested"),
    (0, 2220, "thread team begin", "team omp team"),
    (0, 2380, "thread team end", "team omp team"),
    (0, 2390, "thread join", "OpenMP"),
    (0, 2510, "RMA put", "128 bytes to rank 1, window 0"),
    (0, 2520, "RMA get", "256 bytes from rank 1, window 0"),
]


def records_expect(outdir):
    first = 1000
    labels = ["%s: %s" % (g, n) for g, n, _ in REC_CALLS]
    paths = {}
    for g, name, calls in REC_CALLS:
        for path, (incl, excl, visits) in walk(calls, (), {}).items():
            p = paths.setdefault("/".join(path), {"excl": 0, "incl": 0})
            p["excl"] += rate(path[-1]) * excl
    # inclusive: the path's and its descendants' exclusive growth
    for k, v in paths.items():
        v["incl"] = sum(x["excl"] for q, x in paths.items()
                        if q == k or q.startswith(k + "/"))
    # links: the nth send from A to B with a tag is the nth receive on B
    # from A with it; each end is the innermost call at its time
    def where(li, t):
        return [labels[li], innermost(REC_CALLS[li][2], t)[1] - first]
    sends, recvs, links = {}, {}, []
    for li, t, send, partner, tag, _ in REC_MESSAGES:
        key = (li, partner, tag) if send else (partner, li, tag)
        (sends if send else recvs).setdefault(key, []).append((li, t))
    for key, ss in sends.items():
        for (a, ta), (b, tb) in zip(ss, recvs.get(key, [])):
            links.append(where(a, ta) + where(b, tb))
            links.append(where(b, tb) + where(a, ta))
    records = []
    for li, t, send, partner, tag, size in REC_MESSAGES:
        records.append(where(li, t) + [
            "MPI send" if send else "MPI receive",
            "%d bytes %s rank %d, tag %d, MPI_COMM_WORLD" %
            (size, "to" if send else "from", partner, tag)])
    for li, t, key, text in REC_TEXTS:
        records.append(where(li, t) + [key, text])
    counters = []
    for li, (g, name, calls) in enumerate(REC_CALLS):
        for t, v in rec_samples(calls):
            counters.append([labels[li] + ": PAPI_TOT_INS", t - first, v])
        for t, kind, _ in events_of(calls, []):
            if kind == "enter":
                counters.append([labels[li] + ": mem", t - first,
                                 t / 2.0 * 1024])
    with open(os.path.join(outdir, "expect.json"), "w") as f:
        json.dump({"metric": paths, "links": sorted(links),
                   "records": sorted(records), "counters": sorted(counters),
                   "unshown": 2}, f, indent=1)


# ---- hostile archives --------------------------------------------------

def copy_case(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)


def write_raw_defs(outdir, extra):
    """A one-location archive whose global definitions end with `extra`
    (a function of the library's DefinitionWriter: raw ids, no checks)."""
    registry_write = otf2.registry.DefinitionRegistry.write

    def write(self, writer):
        registry_write(self, writer)
        extra(writer)

    otf2.registry.DefinitionRegistry.write = write
    try:
        write_case({"resolution": 1000, "groups": ["p"], "messages": [],
                    "locations": [("p", "t", [call("main", 10, 20)])]},
                   outdir)
    finally:
        otf2.registry.DefinitionRegistry.write = registry_write


def hostile(outdir):
    os.makedirs(outdir, exist_ok=True)
    base = os.path.join(outdir, "base")
    write_case(NESTED, base)
    names = []

    def made(name):
        names.append(name)
        return os.path.join(outdir, name)

    def corrupt(name, parts, change):
        """The case NAME: the base case with its file PARTS (a path
        below the case) replaced by change(its bytes)."""
        d = made(name)
        copy_case(base, d)
        a = os.path.join(d, *parts)
        with open(a, "rb") as f:
            data = f.read()
        with open(a, "wb") as f:
            f.write(change(data))

    def half(data):
        return data[:len(data) // 2]

    # the anchor cut in the middle
    corrupt("truncated-anchor", ["traces.otf2"], half)
    # an empty anchor (its name still says OTF2)
    corrupt("empty-anchor", ["traces.otf2"], lambda data: b"")
    # a major version from the future (bytes 9-11: major, minor, bugfix)
    corrupt("wrong-version", ["traces.otf2"],
            lambda data: data[:9] + bytes([99]) + data[10:])
    # a location's event file gone
    d = made("missing-location-file")
    copy_case(base, d)
    os.unlink(os.path.join(d, "traces", "1.evt"))
    # the global definitions cut in the middle
    corrupt("truncated-defs", ["traces.def"], half)
    # a location's events cut in the middle
    corrupt("truncated-events", ["traces", "0.evt"], half)
    # system tree nodes whose parents form a cycle
    write_raw_defs(made("stn-cycle"), lambda w: (
        w.write_system_tree_node(100, 0, 0, 101),
        w.write_system_tree_node(101, 0, 0, 100)))
    # a region id in the billions
    write_raw_defs(made("huge-region-id"), lambda w: w.write_region(
        3000000000, 0, 0, 0, otf2.RegionRole.FUNCTION, otf2.Paradigm.NONE,
        otf2.RegionFlag.NONE, 0, 0, 0))
    # a region named by a string that is not defined
    write_raw_defs(made("dangling-string"), lambda w: w.write_region(
        50, 77777, 0, 0, otf2.RegionRole.FUNCTION, otf2.Paradigm.NONE,
        otf2.RegionFlag.NONE, 0, 0, 0))
    shutil.rmtree(base)
    with open(os.path.join(outdir, "hostile.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


def extrap_set(outdir):
    """OUTDIR/app.pP.rR for p = 2 .. 32 and repetitions at 1.0, 1.1 and
    0.9 times the law: main's one call of solve lasts (3 + 2 p log2 p) us
    times the repetition's factor (mean over the repetitions: the law);
    main's own time is 1 us at every point."""
    for p in (2, 4, 8, 16, 32):
        law = 3 + 2 * p * (p.bit_length() - 1)
        for r, f in ((1, 10), (2, 11), (3, 9)):
            d = law * 100 * f  # ns: law us x f / 10
            write_case({"resolution": 1000000000, "groups": ["rank 0"],
                        "messages": [], "locations": [
                            ("rank 0", "main", [
                                call("main", 1000, 2000 + d,
                                     call("solve", 2000, 2000 + d))])]},
                       os.path.join(outdir, "app.p%d.r%d" % (p, r)))


# Markers added to a written "nested" case as otf2-marker adds them (a
# marker file beside the anchor): (location index or None for the whole
# run, time in ticks, category, text).  At a call's enter, at a call's
# end where a sibling begins, at a zero-length call's time, two at one
# time, at a call's end with nothing after it, on a location with no
# calls, one with no text, one of the whole run (no line).
MARKERS = [(None if loc == "-" else int(loc), int(t)) + tuple(m.split("|"))
           for loc, t, m in (x.split(" ", 2) for x in """\
0 1000 Argument error|at main's enter
0 1150 Argument error|in bar
0 1200 Leak|bar ends, foo begins
0 1210 Leak|at a zero-length call
0 1400 Leak|foo ends, bar begins
0 1700 Argument error|twice at one time
0 1700 Leak|
0 2000 Leak|main ends
1 1800 Argument error|foo ends
1 1500 Argument error|in the inner bar
3 1200 Leak|on an idle location
- 1300 Leak|the whole run""".splitlines())]


def write_markers(outdir):
    """The "nested" case with MARKERS in its marker file; expect.json
    gains "marks": per call path the markers counted there (the deepest
    call of the marker's location with enter <= t < leave, by the
    description), "outside" (a location's markers in no call),
    "unshown" (of no location) and per line the instants (ns, name)."""
    write_case(NESTED, outdir)
    anchor = os.path.join(outdir, "traces.otf2")
    rd = _otf2.Reader_Open(anchor)
    _otf2.Reader_SetSerialCollectiveCallbacks(rd)
    w = _otf2.Reader_GetMarkerWriter(rd)
    cats = sorted({m[2] for m in MARKERS})
    for i, c in enumerate(cats):
        _otf2.MarkerWriter_WriteDefMarker(w, i, "gen", c,
                                          _otf2.SEVERITY_LOW)
    for loc, t, cat, text in MARKERS:
        scope = (_otf2.MARKER_SCOPE_GLOBAL if loc is None
                 else _otf2.MARKER_SCOPE_LOCATION)
        _otf2.MarkerWriter_WriteMarker(w, t, 0, cats.index(cat), scope,
                                       loc or 0, text)
    _otf2.Reader_CloseMarkerWriter(rd, w)
    _otf2.Reader_Close(rd)
    first = min(e[0][0] for e in (events_of(li[2], [])
                                  for li in NESTED["locations"]) if e)
    marks, outside, unshown, lines = {}, 0, 0, {}
    for loc, t, cat, text in MARKERS:
        if loc is None:
            unshown += 1
            continue
        g, name, calls = NESTED["locations"][loc]
        path = running(calls, t)
        if path:
            k = "/".join(path)
            marks[k] = marks.get(k, 0) + 1
        else:
            outside += 1
        lines.setdefault("%s: %s" % (g, name), []).append(
            [(t - first) * 1000000000 // NESTED["resolution"],
             "%s: %s" % (cat, text) if text else cat])
    with open(os.path.join(outdir, "expect.json")) as f:
        exp = json.load(f)
    exp["marks"] = {"paths": marks, "outside": outside, "unshown": unshown,
                    "instants": {k: sorted(v) for k, v in lines.items()}}
    with open(os.path.join(outdir, "expect.json"), "w") as f:
        json.dump(exp, f, indent=1)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--markers":
        write_markers(sys.argv[2])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--hostile":
        hostile(sys.argv[2])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--fanout":
        write_case(FANOUT, sys.argv[2])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--systree":
        write_case(SYSTREE, sys.argv[2])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--extrap":
        extrap_set(sys.argv[2])
        return 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    for name, case in CASES.items():
        write_case(case, os.path.join(sys.argv[1], name))
    write_records(os.path.join(sys.argv[1], "records"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
