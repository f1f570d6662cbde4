#!/usr/bin/env python3
"""The rocpd benchmark run (NOT-REAL): P processes, each a rocprofv3 v3
database made from the real schema SQL (tests/gen_rocpd.py's schema_sql),
with N kernel dispatches each, one hipLaunchKernel region per dispatch and
one roctx range per 1000 launches, filled by INSERT ... SELECT over a
recursive CTE (fast).  usage: gen_rocpd_big.py OUTDIR [PROCS] [DISPATCHES]
Defaults: 16 processes, 10,000,000 dispatches in all."""
import os
import sqlite3
import sys
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from gen_rocpd import schema_sql  # noqa: E402

out = sys.argv[1]
procs = int(sys.argv[2]) if len(sys.argv) > 2 else 16
total = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000_000
n = total // procs
K = 8
for p in range(procs):
    host = "node%02d" % (p // 8)
    d = os.path.join(out, host)
    os.makedirs(d, exist_ok=True)
    pid = 20000 + p
    path = os.path.join(d, "%d_results.db" % pid)
    if os.path.exists(path):
        continue
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.unlink(tmp)
    guid = str(uuid.UUID(int=p + 1))
    s = "_" + guid.replace("-", "_")
    db = sqlite3.connect(tmp)
    db.executescript(schema_sql(s, guid))
    db.executescript("PRAGMA foreign_keys=OFF; PRAGMA synchronous=OFF; PRAGMA journal_mode=OFF;")
    q = lambda t: '"%s%s"' % (t, s)  # noqa: E731
    nid = 3000000000 + p // 8
    db.execute(f"INSERT INTO {q('rocpd_info_node')} (id, hash, machine_id, hostname) VALUES (?,?,?,?)", (nid, nid, "m" + host, host))
    db.execute(f"INSERT INTO {q('rocpd_info_process')} (id, nid, ppid, pid, environment) VALUES (?,?,1,?,?)",
               (pid, nid, pid, '{"OMPI_COMM_WORLD_RANK": "%d"}' % p))
    db.execute(f"INSERT INTO {q('rocpd_info_thread')} (id, nid, pid, tid) VALUES (?,?,?,?)", (pid, nid, pid, pid))
    db.execute(f"INSERT INTO {q('rocpd_info_agent')} (id, nid, pid, type, type_index) VALUES (1,?,?,'GPU',0)", (nid, pid))
    strs = ["", "HIP_RUNTIME_API_EXT", "KERNEL_DISPATCH", "MARKER_CORE_RANGE_API", "hipLaunchKernel", "roctxRangePushA"]
    db.executemany(f"INSERT INTO {q('rocpd_string')} (id, string) VALUES (?,?)", [(i + 1, x) for i, x in enumerate(strs)])
    db.execute(f"INSERT INTO {q('rocpd_info_code_object')} (id, nid, pid) VALUES (1,?,?)", (nid, pid))
    db.executemany(f"INSERT INTO {q('rocpd_info_kernel_symbol')} (id, nid, pid, code_object_id, kernel_name, display_name) VALUES (?,?,?,1,?,?)",
                   [(k + 1, nid, pid, "_Zkernel%d" % k, "kernel_%d" % k) for k in range(K)])
    T0 = 10**15 + p * 1000
    # ranges: j = 0 .. n/1000-1, id j*1001+1; launches i: id (i/1000)*1001+2+i%1000
    cte = "WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x + 1 < %d) "
    nr = (n + 999) // 1000
    db.execute(f"INSERT INTO {q('rocpd_event')} (id, category_id, stack_id, parent_stack_id, correlation_id, extdata) " +
               cte % nr + "SELECT x*1001+1, 4, x*1001+1, 0, 0, '{\"message\":\"step\"}' FROM c")
    db.execute(f"INSERT INTO {q('rocpd_region')} (id, nid, pid, tid, start, \"end\", name_id, event_id) " +
               cte % nr + f"SELECT x*1001+1, {nid}, {pid}, {pid}, {T0} + x*2000000 - 10, {T0} + (x+1)*2000000 - 20, 6, x*1001+1 FROM c")
    db.execute(f"INSERT INTO {q('rocpd_event')} (id, category_id, stack_id, parent_stack_id, correlation_id) " +
               cte % n + "SELECT (x/1000)*1001+2+x%1000, 2, (x/1000)*1001+2+x%1000, (x/1000)*1001+1, 0 FROM c")
    db.execute(f"INSERT INTO {q('rocpd_region')} (id, nid, pid, tid, start, \"end\", name_id, event_id) " +
               cte % n + f"SELECT (x/1000)*1001+2+x%1000, {nid}, {pid}, {pid}, {T0} + x*2000, {T0} + x*2000 + 1000, 5, (x/1000)*1001+2+x%1000 FROM c")
    db.execute(f"INSERT INTO {q('rocpd_event')} (id, category_id, stack_id, parent_stack_id, correlation_id) " +
               cte % n + f"SELECT {nr * 1001 + 10} + x, 3, (x/1000)*1001+2+x%1000, (x/1000)*1001+2+x%1000, 0 FROM c")
    db.execute(f"INSERT INTO {q('rocpd_kernel_dispatch')} (id, nid, pid, tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, \"end\", workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id) " +
               cte % n + f"SELECT x+1, {nid}, {pid}, {pid}, 1, x%{K}+1, x+1, 4096 + (x%2)*256, 0, {T0} + x*2000 + 5000, {T0} + x*2000 + 5000 + 1500 + (x%{K})*50, 256,1,1, 65536,1,1, 1, {nr * 1001 + 10} + x FROM c")
    db.commit()
    db.close()
    os.rename(tmp, path)
    print(path, flush=True)
