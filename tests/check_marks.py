#!/usr/bin/python3
"""Check the Marks column of GPU runs (NVTX marks of Nsight exports,
UserMarker instants of .rpd files, roctxMark regions and rocpd_sample
instants of rocpd v3 files) against plain SQL and a sweep over the same
file.

usage: check_marks.py CALLSCOPE FILE...

A mark's context is, on its thread, the innermost host interval (NVTX
range, CUDA or OS runtime call; .rpd API call or UserMarker range) that
holds its time half-open (start <= t < end, as the trace places instants;
the one begun last, ties to the shorter, then the later source and row),
else the thread; in a rocpd v3 file the region its event links to
(parent_stack_id), else the innermost region of its thread holding its
time (half-open), else the thread.  Computed here, then compared
with callscope's flat view (exclusive marks per range or call name), its
root (inclusive: every mark) and the marks counted at threads (the root's
minus the ranges' and calls').  Linear scans of the tables and a sweep in
time order (O(n log n)): a file of 100,000 marks is checked in seconds.
Exits 1 on any difference."""
import heapq
import json
import sqlite3
import subprocess
import sys
from collections import Counter

# Nsight: the intervals (NVTX ranges, CUDA and OS runtime calls) with
# their rank among those of one start and end (source, then row id), and
# the marks; one scan of each table (the names by their primary key)
NSIGHT_IV = """
SELECT globalTid, start, "end", 3, rowid,
       COALESCE({text}, (SELECT value FROM StringIds WHERE id = {textid}),
                '<unnamed>')
  FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND "end" IS NOT NULL
"""
RUNTIME = """SELECT globalTid, start, "end", 4, rowid,
  (SELECT value FROM StringIds WHERE id = nameId)
  FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)"""
OSRT = """SELECT globalTid, start, "end", 5, rowid,
  (SELECT value FROM StringIds WHERE id = nameId) FROM OSRT_API"""
NSIGHT_MARKS = """SELECT globalTid, start FROM NVTX_EVENTS
 WHERE eventType = 34 AND start >= 0"""

# .rpd: API calls and UserMarker ranges (named by their message), and the
# UserMarker instants
RPD_IV = """
SELECT a.pid, a.tid, a.start, a."end", a.id,
       CASE WHEN n.string = 'UserMarker' THEN
            (SELECT string FROM rocpd_string WHERE id = a.args_id)
       ELSE n.string END
  FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id
 WHERE NOT (n.string = 'UserMarker' AND a.start = a."end")
"""
RPD_MARKS = """
SELECT m.pid, m.tid, m.start
  FROM rocpd_api m JOIN rocpd_string n ON n.id = m.apiName_id
 WHERE n.string = 'UserMarker' AND m.start = m."end"
"""

V3_REGIONS = """
SELECT r.id, r.pid, r.tid, r.start, r."end",
       CASE WHEN s.string LIKE 'roctxMark%' AND r.start = r."end" THEN 1
            ELSE 0 END,
       COALESCE(NULLIF(CASE WHEN json_valid(e.extdata) THEN
                json_extract(e.extdata, '$.message') END, ''), s.string),
       e.parent_stack_id
  FROM {region} r JOIN {string} s ON s.id = r.name_id
  LEFT JOIN {event} e ON e.id = r.event_id
"""
V3_SAMPLES = """
SELECT t.pid, t.tid, s.timestamp, e.parent_stack_id
  FROM {sample} s JOIN {track} t ON t.id = s.track_id
  LEFT JOIN {event} e ON e.id = s.event_id
 WHERE t.pid IS NOT NULL AND t.tid IS NOT NULL
   AND (s.event_id IS NULL OR s.event_id NOT IN
        (SELECT event_id FROM {region} WHERE event_id IS NOT NULL))
"""


def innermost(intervals, marks):
    """The context of each mark: intervals {thread: [(start, end, rank,
    name)]}, marks [(thread, t)] -> [name of the interval of the mark's
    thread holding t half-open (start <= t < end) that began last (ties:
    the shorter, then the higher rank), or None].  A sweep in time order
    with a heap of the intervals begun so far, those ended dropped from its
    top: O((intervals + marks) log intervals)."""
    out = [None] * len(marks)
    by_thread = {}
    for i, (th, t) in enumerate(marks):
        by_thread.setdefault(th, []).append((t, i))
    for th, ms in by_thread.items():
        ivs = sorted(intervals.get(th, ()))
        ms.sort()
        heap, k = [], 0
        for t, i in ms:
            while k < len(ivs) and ivs[k][0] <= t:
                s, e, rank, name = ivs[k]
                heapq.heappush(heap, (-s, e, tuple(-x for x in rank), name))
                k += 1
            while heap and heap[0][1] <= t:
                heapq.heappop(heap)
            if heap:
                out[i] = heap[0][3]
    return out


def v3_expected(db, sfx):
    """Marks of one v3 table set: roctxMark regions and rocpd_sample
    instants (a sample whose event is a region's is a rocprof-sys CPU
    sample, shown as its regions).  A mark's context is the region its
    event links to (parent_stack_id), else the innermost region of its
    thread holding its time, else the thread."""
    names = dict(region="rocpd_region" + sfx, event="rocpd_event" + sfx,
                 string="rocpd_string" + sfx, sample="rocpd_sample" + sfx,
                 track="rocpd_track" + sfx)
    target, ivs, marks, links = {}, {}, [], []
    for rid, pid, tid, s, e, mark, name, up in db.execute(
            V3_REGIONS.format(**names)):
        if mark:
            marks.append(((pid, tid), s))
            links.append(up)
            continue
        target[rid] = name
        if s < e:
            ivs.setdefault((pid, tid), []).append((s, e, (rid,), name))
    if ("rocpd_sample" + sfx) in tables(db):
        for pid, tid, t, up in db.execute(V3_SAMPLES.format(**names)):
            marks.append(((pid, tid), t))
            links.append(up)
    by_time = innermost(ivs, marks)
    return [target[up] if up in target else by_time[i]
            for i, up in enumerate(links)]


def tables(db):
    return {r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}


def columns(db, table):
    return {r[1] for r in db.execute('PRAGMA table_info("%s")' % table)}


def expected(path):
    """[context name or None (the thread)] per mark of the file."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    t = tables(db)
    if "NVTX_EVENTS" in t:
        nv = columns(db, "NVTX_EVENTS")
        ivs = {}
        for sql in [NSIGHT_IV.format(
                text="text" if "text" in nv else "NULL",
                textid="textId" if "textId" in nv else "NULL")] + \
                ([RUNTIME] if "CUPTI_ACTIVITY_KIND_RUNTIME" in t else []) + \
                ([OSRT] if "OSRT_API" in t else []):
            for g, s, e, src, rid, name in db.execute(sql):
                ivs.setdefault(g, []).append((s, e, (src, rid), name))
        marks = [(g, m) for g, m in db.execute(NSIGHT_MARKS)]
    elif "rocpd_api" in t:
        ivs = {}
        for pid, tid, s, e, rid, name in db.execute(RPD_IV):
            ivs.setdefault((pid, tid), []).append((s, e, (rid,), name))
        marks = [((pid, tid), m) for pid, tid, m in db.execute(RPD_MARKS)]
    else:
        out = []
        for x in sorted(n[len("rocpd_region"):] for n in t
                        if n.startswith("rocpd_region_")):
            out += v3_expected(db, x)
        db.close()
        return out
    db.close()
    return innermost(ivs, marks)


def check(cs, path):
    errs = []
    want = expected(path)
    if not want:
        return ["%s: the file has no marks (a bad fixture)" % path]
    p = subprocess.run([cs, "report", path, "--view", "flat", "--format",
                        "json", "--metric", "Marks"], capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0:
        return ["%s: exit %d: %s" % (path, p.returncode, p.stderr)]
    rep = json.loads(p.stdout)
    names = [c["name"] for c in rep["columns"]]
    if names != ["Marks (I)", "Marks (E)"]:
        return ["%s: columns %s" % (path, names)]
    got = Counter()
    root = None
    for n in rep["nodes"]:
        if n["depth"] == 0:
            root = n["values"][0]
        elif n["depth"] == 3 and n["values"][1]:
            got[n["name"]] += int(n["values"][1])
    exp = Counter(w for w in want if w is not None)
    at_threads = sum(1 for w in want if w is None)
    if root != len(want):
        errs.append("%s: %s marks at the root, SQL %d" %
                    (path, root, len(want)))
    if got != exp:
        errs.append("%s: marks per context %s, SQL %s" %
                    (path, dict(got), dict(exp)))
    if root is not None and root - sum(got.values()) != at_threads:
        errs.append("%s: %d marks at threads, SQL %d" %
                    (path, root - sum(got.values()), at_threads))
    if not errs:
        print("ok %s: %d marks, %d in %d contexts, %d at threads" %
              (path, len(want), sum(exp.values()), len(exp), at_threads))
    return errs


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    errs = []
    for path in argv[2:]:
        errs += check(argv[1], path)
    for e in errs:
        print("FAIL", e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
