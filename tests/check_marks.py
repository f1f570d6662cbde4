#!/usr/bin/python3
"""Check the Marks column of GPU runs (NVTX marks of Nsight exports,
UserMarker instants of .rpd files, roctxMark regions of rocpd v3 files)
against plain SQL over the same file.

usage: check_marks.py CALLSCOPE FILE...

A mark's context is, on its thread, the innermost host interval (NVTX
range, CUDA or OS runtime call; .rpd API call or UserMarker range) that
holds its time half-open (start <= t < end, as the trace places instants),
else the thread; in a rocpd v3 file the region its event links to
(parent_stack_id), else the thread.  Computed here by SQL, then compared
with callscope's flat view (exclusive marks per range or call name), its
root (inclusive: every mark) and the marks counted at threads (the root's
minus the ranges' and calls').  Exits 1 on any difference."""
import json
import sqlite3
import subprocess
import sys
from collections import Counter

NSIGHT = """
WITH iv(g, s, e, src, id, name) AS (
  SELECT globalTid, start, "end", 3, rowid,
         COALESCE({text}, (SELECT value FROM StringIds WHERE id = {textid}),
                  '<unnamed>')
    FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND "end" IS NOT NULL
  {more})
SELECT (SELECT name FROM iv WHERE iv.g = m.globalTid AND iv.s <= m.start
          AND m.start < iv.e
        ORDER BY iv.s DESC, iv.e ASC, iv.src DESC, iv.id DESC LIMIT 1)
  FROM NVTX_EVENTS m WHERE m.eventType = 34 AND m.start >= 0
"""
RUNTIME = """UNION ALL SELECT globalTid, start, "end", 4, rowid,
  (SELECT value FROM StringIds WHERE id = nameId)
  FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)"""
OSRT = """UNION ALL SELECT globalTid, start, "end", 5, rowid,
  (SELECT value FROM StringIds WHERE id = nameId) FROM OSRT_API"""

RPD = """
WITH iv(pid, tid, s, e, id, name) AS (
  SELECT a.pid, a.tid, a.start, a."end", a.id,
         CASE WHEN n.string = 'UserMarker' THEN
              (SELECT string FROM rocpd_string WHERE id = a.args_id)
         ELSE n.string END
    FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id
   WHERE NOT (n.string = 'UserMarker' AND a.start = a."end"))
SELECT (SELECT name FROM iv WHERE iv.pid = m.pid AND iv.tid = m.tid
          AND iv.s <= m.start AND m.start < iv.e
        ORDER BY iv.s DESC, iv.e ASC, iv.id DESC LIMIT 1)
  FROM rocpd_api m JOIN rocpd_string n ON n.id = m.apiName_id
 WHERE n.string = 'UserMarker' AND m.start = m."end"
"""

V3 = """
SELECT (SELECT COALESCE(json_extract(pe.extdata, '$.message'), ps.string)
          FROM {region} p JOIN {event} pe ON pe.id = p.event_id
          JOIN {string} ps ON ps.id = p.name_id
         WHERE p.id = e.parent_stack_id)
  FROM {region} r JOIN {string} s ON s.id = r.name_id
  LEFT JOIN {event} e ON e.id = r.event_id
 WHERE r.start = r."end" AND s.string LIKE 'roctxMark%'
"""


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
        sql = NSIGHT.format(
            text="text" if "text" in nv else "NULL",
            textid="textId" if "textId" in nv else "NULL",
            more=(RUNTIME if "CUPTI_ACTIVITY_KIND_RUNTIME" in t else "") +
            (OSRT if "OSRT_API" in t else ""))
    elif "rocpd_api" in t:
        sql = RPD
    else:
        sets = sorted(n[len("rocpd_region"):] for n in t
                      if n.startswith("rocpd_region_"))
        sql = " UNION ALL ".join(
            V3.format(region="rocpd_region" + x, event="rocpd_event" + x,
                      string="rocpd_string" + x) for x in sets)
    out = [r[0] for r in db.execute(sql)]
    db.close()
    return out


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
