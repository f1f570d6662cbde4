#!/usr/bin/env python3
"""gen_rocprof_sys.py SCHEMA_DIR OUT.db ANSWERS.json: a rocpd database as
rocprof-sys (rocprofiler-systems) writes one, from its own schema SQL
(the shared corpus' projects/rocprofiler-systems/.../schema): one thread
with an API call, CPU samples written as rocprof-sys writes them (one
region per stack frame, all over the same [begin, end], plus a
rocpd_sample row of the same event: notes/rocpd.md 1.2) and a roctx-style
mark (a sample whose event has no region).  ANSWERS.json: the intervals
(name, start, end) and the instants (name, time) a reader must show, each
once."""
import json
import os
import sqlite3
import sys

schema, out, answers = sys.argv[1:4]
sfx = "_0f0e0d0c_0b0a_4908_8706_050403020100"
guid = "0f0e0d0c-0b0a-4908-8706-050403020100"
if os.path.exists(out):
    os.unlink(out)
db = sqlite3.connect(out)
for name in ("rocpd_tables.sql", "rocpd_indexes.sql", "rocpd_views.sql",
             "data_views.sql"):
    text = open(os.path.join(schema, name)).read()
    db.executescript(text.replace("{{uuid}}", sfx).replace("{{guid}}", guid))
db.execute("PRAGMA foreign_keys = OFF")
nid, pid, tid = 1, 4242, 4242
db.execute(f'INSERT INTO "rocpd_info_node{sfx}" (id, hash, machine_id, hostname) VALUES (1, 1, "m", "host")')
db.execute(f'INSERT INTO "rocpd_info_process{sfx}" (id, nid, ppid, pid, command, environment) VALUES (1,?,1,?,"app","{{}}")', (nid, pid))
db.execute(f'INSERT INTO "rocpd_info_thread{sfx}" (id, nid, ppid, pid, tid) VALUES (1,?,1,?,?)', (nid, pid, tid))
strings = ["", "hipMalloc", "main", "compute", "CPU_SAMPLE",
           "MARKER_CORE_API", "HIP_RUNTIME_API"]
db.executemany(f'INSERT INTO "rocpd_string{sfx}" (id, string) VALUES (?,?)',
               [(i + 1, s) for i, s in enumerate(strings)])
sid = {s: i + 1 for i, s in enumerate(strings)}
state = {"ev": 0, "region": 0}
want = {"intervals": [], "instants": []}


def event(cat, extdata="{}"):
    state["ev"] += 1
    db.execute(f'INSERT INTO "rocpd_event{sfx}" (id, category_id, stack_id, parent_stack_id, correlation_id, extdata) VALUES (?,?,0,0,0,?)',
               (state["ev"], sid[cat], extdata))
    return state["ev"]


def region(start, end, name, eid):
    state["region"] += 1
    db.execute(f'INSERT INTO "rocpd_region{sfx}" (id, nid, pid, tid, start, "end", name_id, event_id) VALUES (?,?,?,?,?,?,?,?)',
               (state["region"], nid, pid, tid, start, end, sid[name], eid))
    want["intervals"].append([name, start, end])


T = 10**15
region(T + 100, T + 900, "hipMalloc", event("HIP_RUNTIME_API"))
db.execute(f'INSERT INTO "rocpd_track{sfx}" (id, nid, pid, tid, name_id) VALUES (1,?,?,?,?)',
           (nid, pid, tid, sid["CPU_SAMPLE"]))
db.execute(f'INSERT INTO "rocpd_track{sfx}" (id, nid, pid, tid, name_id) VALUES (2,?,?,?,?)',
           (nid, pid, tid, sid["MARKER_CORE_API"]))
for k in range(3):
    begin, end = T + 1000 * (k + 1), T + 1000 * (k + 1) + 500
    eid = event("CPU_SAMPLE")
    for frame in ("main", "compute"):
        region(begin, end, frame, eid)
    db.execute(f'INSERT INTO "rocpd_sample{sfx}" (track_id, timestamp, event_id) VALUES (1,?,?)',
               (begin, eid))
db.execute(f'INSERT INTO "rocpd_sample{sfx}" (track_id, timestamp, event_id) VALUES (2,?,?)',
           (T + 5000, event("MARKER_CORE_API", json.dumps({"message": "checkpoint"}))))
want["instants"].append(["checkpoint", T + 5000])
# a mark inside the second CPU sample's period (its frames' regions hold
# its time: the Marks column counts it in the innermost, tests/check_marks.py)
db.execute(f'INSERT INTO "rocpd_sample{sfx}" (track_id, timestamp, event_id) VALUES (2,?,?)',
           (T + 2200, event("MARKER_CORE_API", json.dumps({"message": "in a sample"}))))
want["instants"].append(["in a sample", T + 2200])
want["origin"] = T + 100
db.commit()
json.dump(want, open(answers, "w"))
