#!/usr/bin/env python3
"""Generate ROCm profile fixtures (NOT-REAL) and their answers.

rocprofv3 "rocpd" v3 databases are instantiated from the real schema SQL
(SHARED/corpus/rocpd-schema/rocm-systems@2025-08-09/.../rocprofiler-sdk-rocpd/,
SHARED the shared/ beside the project or one of its parents, or
$CALLSCOPE_SHARED; a missing schema file is an error, never skipped)
and filled with rocprofv3's conventions (notes/rocpd.md 6): process.id = pid,
thread.id = tid, region.id = event.stack_id = the correlation id,
parent_stack_id = the enclosing range or API call, dispatch events with
stack_id = the launching API's id, roctx ranges as MARKER_CORE_RANGE_API
regions with extdata {"message": ...}.  .rpd files take the DDL of the real
corpus .rpd.  The answers are computed here, from the generator's own
records, never by reading the files back:

  kernels:  display name -> [calls, total ns]  (flat kernel summary)
  totals:   GPU ns (kernels + copies), copies bytes
  probes:   [{"t": ns, "label": line label, "path": [...] or []}]
  instants: [{"label", "t", "name", "count" (instants of the line at t),
              "first" (the name of the first of them),
              "path" (the enclosing interval's path + name), "interval"}]

usage: gen_rocpd.py OUTDIR [--seed N] [--procs N] [--iters N]
                    [--kernels-per-iter N] [--bench] [--sql-views]
Writes OUTDIR/run/HOST/PID_results.db (one per process; stray files
beside them), OUTDIR/index.yaml and OUTDIR/optiq.yaml (the run's index in
rocpd package's and roc-optiq's forms), OUTDIR/merged.db
(two table sets in one file), OUTDIR/unknown.db (a 4.x-like layout),
OUTDIR/gen.rpd and OUTDIR/answers.json.
"""
import json
import os
import random
import sqlite3
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # the project's root (tests/ is in it)
SCHEMA_REL = ("corpus", "rocpd-schema", "rocm-systems@2025-08-09", "projects",
              "rocprofiler-sdk", "source", "share", "rocprofiler-sdk-rocpd")
RPD_DDL_REL = ("corpus", "rocpd-rpd", "rocmProfileData", "examples",
               "rocm-profile-data", "results", "matmul_result.rpd")


def shared_dir():
    """The shared material: $CALLSCOPE_SHARED when set, else the first
    shared/ with a corpus/ beside the project's root or beside one of its
    parents (ROOT/../shared in a worktree, also a copy of the project
    deeper in a tree).  Exits with a message naming where it looked when
    there is none: the schema is not optional."""
    env = os.environ.get("CALLSCOPE_SHARED")
    if env:
        if not os.path.isdir(os.path.join(env, "corpus")):
            sys.exit("gen_rocpd: CALLSCOPE_SHARED=%s has no corpus/" % env)
        return env
    looked = []
    for root in (ROOT, os.path.realpath(ROOT)):
        d = os.path.dirname(root)
        while True:
            cand = os.path.join(d, "shared")
            if cand not in looked:
                looked.append(cand)
                if os.path.isdir(os.path.join(cand, "corpus")):
                    return cand
            up = os.path.dirname(d)
            if up == d:
                break
            d = up
    sys.exit("gen_rocpd: no shared/corpus beside the project %s or its "
             "parents (looked at %s); set CALLSCOPE_SHARED"
             % (ROOT, ", ".join(looked)))


def shared_file(rel):
    """A file of the shared corpus, which must exist (exits naming it)."""
    path = os.path.join(shared_dir(), *rel)
    if not os.path.exists(path):
        sys.exit("gen_rocpd: missing %s" % path)
    return path


SQL_FILES = ["rocpd_tables.sql", "rocpd_indexes.sql", "rocpd_views.sql",
             "data_views.sql", "marker_views.sql", "summary_views.sql"]

KERNELS = ["gemm_kernel(float*, float const*, int)", "reduce_sum<256>",
           "elementwise_add", "softmax_fwd", "layernorm_fwd",
           "copy_kernel_\u00e9t\u00e9"]  # one non-ASCII name


def schema_sql(suffix, guid, views=True):
    out = []
    for name in SQL_FILES if views else SQL_FILES[:2]:
        path = shared_file(SCHEMA_REL + (name,))
        text = open(path).read()
        out.append(text.replace("{{uuid}}", suffix).replace("{{guid}}", guid))
    return "\n".join(out)


class V3:
    """One rocprofv3 table set (one process)."""

    def __init__(self, db, rng, host, machine, pid, rank, args, answers,
                 hostile=False, views=True):
        self.db, self.rng, self.args = db, rng, args
        self.host, self.pid, self.rank = host, pid, rank
        self.answers = answers
        self.hostile = hostile
        u = uuid.UUID(int=rng.getrandbits(128))
        self.guid = str(u)
        self.sfx = "_" + self.guid.replace("-", "_")
        db.executescript(schema_sql(self.sfx, self.guid, views))
        db.execute("PRAGMA foreign_keys = OFF")  # rows go in table order
        db.execute("PRAGMA synchronous = OFF")
        self.label = "%s pid %d rank %d" % (host, pid, rank)
        self.strings = {}
        self.event_id = 0
        self.corr = 0
        self.t = 10**15 + rng.randrange(10**9)
        self.nid = 2000000000 + (hash(machine) & 0xffffff)
        db.execute(f'INSERT INTO "rocpd_info_node{self.sfx}" (id, hash, machine_id, hostname) VALUES (?,?,?,?)',
                   (self.nid, self.nid, machine, host))
        env = json.dumps({"OMPI_COMM_WORLD_RANK": str(rank), "PATH": "/bin"})
        db.execute(f'INSERT INTO "rocpd_info_process{self.sfx}" (id, nid, ppid, pid, command, environment) VALUES (?,?,?,?,?,?)',
                   (pid, self.nid, 1, pid, "app", env))
        self.tids = [pid, pid + 1]
        for tid in self.tids:
            db.execute(f'INSERT INTO "rocpd_info_thread{self.sfx}" (id, nid, ppid, pid, tid) VALUES (?,?,?,?,?)',
                       (tid, self.nid, 1, pid, tid))
        # agents: CPU first, then 2 GPUs
        db.execute(f'INSERT INTO "rocpd_info_agent{self.sfx}" (id, nid, pid, type, absolute_index, logical_index, type_index, name) VALUES (0,?,?,"CPU",0,0,0,"cpu")', (self.nid, pid))
        for g in range(2):
            db.execute(f'INSERT INTO "rocpd_info_agent{self.sfx}" (id, nid, pid, type, absolute_index, logical_index, type_index, name) VALUES (?,?,?,"GPU",?,?,?,"gfx942")', (g + 1, self.nid, pid, g + 1, g + 1, g))
        self.queues = [0x7f0000001000 + 0x100 * q for q in range(2)]
        for q in self.queues:
            db.execute(f'INSERT INTO "rocpd_info_queue{self.sfx}" (id, nid, pid, name) VALUES (?,?,?,?)', (q, self.nid, pid, "Queue"))
        db.execute(f'INSERT INTO "rocpd_info_stream{self.sfx}" (id, nid, pid, name) VALUES (0,?,?,"Default Stream")', (self.nid, pid))
        for sid_ in (1, 2):
            db.execute(f'INSERT INTO "rocpd_info_stream{self.sfx}" (id, nid, pid, name) VALUES (?,?,?,"Stream")', (sid_, self.nid, pid))
        db.execute(f'INSERT INTO "rocpd_info_code_object{self.sfx}" (id, nid, pid, agent_id, uri) VALUES (1,?,?,1,"file://a.out")', (self.nid, pid))
        names = list(KERNELS)
        if hostile:
            names.append("evil\x1b[31m_kernel\x07")
        self.kernels = names
        for i, n in enumerate(names):
            db.execute(f'INSERT INTO "rocpd_info_kernel_symbol{self.sfx}" (id, nid, pid, code_object_id, kernel_name, display_name, sgpr_count, arch_vgpr_count, accum_vgpr_count, group_segment_size, private_segment_size) VALUES (?,?,?,1,?,?,?,?,?,?,?)',
                       (i + 1, self.nid, pid, "_Z" + n, n, 32, 64, 0, 1024, 0))
        self.regions, self.dispatches, self.copies = [], [], []
        # instants: (tid, t, kind, message); kind "sample" is a
        # rocpd_sample row on the thread's track, "mark" a roctxMarkA
        # region with start == end
        self.marks = []
        # a roctxMark's enclosing range (parent_stack_id), by (tid, t, msg)
        self.mark_parent = {}
        self.lines = {}  # label -> [(begin, end, path)]

    @staticmethod
    def stream_of(i):
        """The stream of dispatch i: three streams across two queues."""
        return i % 3

    @staticmethod
    def copy_stream_of(i):
        return 1 + i % 2

    def string(self, s):
        if s not in self.strings:
            self.strings[s] = None
        return s

    def ev(self, category, stack, parent, extdata="{}"):
        self.event_id += 1
        self.events.append((self.event_id, category, stack, parent, extdata))
        return self.event_id

    def region(self, tid, start, end, name, parent_corr, path, message=None):
        self.corr += 1
        corr = self.corr
        cat = "MARKER_CORE_RANGE_API" if message else "HIP_RUNTIME_API_EXT"
        ext = json.dumps({"message": message}) if message else "{}"
        eid = self.ev(cat, corr, parent_corr, ext)
        self.regions.append((corr, tid, start, end, name, eid))
        return corr

    def build(self):
        a, rng = self.args, self.rng
        self.events = []
        thread_names = {tid: "thread %d%s" % (tid, " (main)" if tid == self.pid else "") for tid in self.tids}
        qend = {q: 0 for q in self.queues}
        for tid in self.tids:
            t = self.t + rng.randrange(1000)
            base = [self.label, thread_names[tid]]
            for it in range(a.iters):
                it_start = t
                # instants at equal times with interval boundaries: the
                # iteration's begin (twice in the first iteration)
                self.marks.append((tid, t, "sample", "iteration %d begins" % it))
                if it == 0:
                    self.marks.append((tid, t, "sample", "first iteration"))
                if it == 0 and self.hostile:
                    self.marks.append((tid, t + 1, "mark", "evil\x1b]0;x\x07mark\x1b[2J"))
                it_corr = self.region(tid, t, 0, "roctxRangePushA", 0, None, "iteration")
                it_idx = len(self.regions) - 1
                t += 100
                fw_corr = self.region(tid, t, 0, "roctxRangePushA", it_corr, None, "forward")
                fw_idx = len(self.regions) - 1
                t += 50
                for k in range(a.kpi):
                    name = self.kernels[(it + k) % len(self.kernels)]
                    start = t
                    end = t + 40
                    if k == 1:
                        end = start  # equal timestamps: zero-length call
                    path = base + ["iteration", "forward", "hipLaunchKernel"]
                    corr = self.region(tid, start, end, "hipLaunchKernel", fw_corr, path)
                    if k == 0:  # at a call's begin, as a roctxMarkA region
                        self.marks.append((tid, start, "mark", "launch %d" % it))
                        self.mark_parent[(tid, start, "launch %d" % it)] = fw_corr
                    if k == 1:  # at a zero-length call's time
                        self.marks.append((tid, start, "sample", "zero-length call"))
                    t = end + 10
                    q = self.queues[(k + tid) % 2]
                    ks = max(t + 500, qend[q])
                    dur = 1000 + rng.randrange(5000)
                    if k == 2 and it == 0:
                        ks = qend[q] - 300 if qend[q] > 300 else ks  # overlap
                    ke = ks + dur
                    qend[q] = max(qend[q], ke)
                    link = corr
                    kpath = path + [name]
                    if k == 3 and it == 1:
                        link = 0  # missing link: placed by time on tid
                        kpath = None  # resolved below
                    self.dispatches.append([tid, q, name, ks, ke, link, kpath])
                # a copy
                cstart = t
                ccorr = self.region(tid, t, t + 200, "hipMemcpy", fw_corr,
                                    base + ["iteration", "forward", "hipMemcpy"])
                t += 210
                size = 4096 * (it + 1)
                self.copies.append([tid, cstart + 300, cstart + 900, "MEMORY_COPY_HOST_TO_DEVICE", size, ccorr,
                                    base + ["iteration", "forward", "hipMemcpy", "MEMORY_COPY_HOST_TO_DEVICE"]])
                fw_end = t
                # at the forward range's end: lies in the iteration only
                self.marks.append((tid, fw_end, "mark" if it % 2 else "sample",
                                   "forward ends \u00e9" if it == 1 else "forward ends"))
                self.mark_parent[(tid, fw_end, self.marks[-1][3])] = it_corr
                self.regions[fw_idx] = self.regions[fw_idx][:3] + (fw_end,) + self.regions[fw_idx][4:]
                t += 30
                it_end = t
                self.regions[it_idx] = self.regions[it_idx][:3] + (it_end,) + self.regions[it_idx][4:]
                if it == 0:  # between iterations: in no region
                    self.marks.append((tid, t + 10, "sample", "between"))
                t += 20
        self.write()

    def write(self):
        db, sfx = self.db, self.sfx
        strs = sorted(set([""] + [r[4] for r in self.regions] +
                          ["MARKER_CORE_RANGE_API", "HIP_RUNTIME_API_EXT", "KERNEL_DISPATCH",
                           "MEMORY_COPY", "MEMORY_COPY_HOST_TO_DEVICE", "MARKER_CORE_API",
                           "roctxMarkA"]))
        sid = {s: i + 1 for i, s in enumerate(strs)}
        db.executemany(f'INSERT INTO "rocpd_string{sfx}" (id, string) VALUES (?,?)',
                       [(sid[s], s) for s in strs])
        ev_extra = []
        for corr, tid, s, e, name, eid in self.regions:
            db.execute(f'INSERT INTO "rocpd_region{sfx}" (id, nid, pid, tid, start, "end", name_id, event_id) VALUES (?,?,?,?,?,?,?,?)',
                       (corr, self.nid, self.pid, tid, s, e, sid[name], eid))
        # instants: roctxMarkA regions (ids after every other region) and
        # rocpd_sample rows on one MARKER_CORE_API track per thread
        tracks = {}
        for n, (tid, t, kind, msg) in enumerate(self.marks):
            if kind == "mark":
                self.corr += 1
                eid = self.ev("MARKER_CORE_API", self.corr,
                              self.mark_parent.get((tid, t, msg), 0),
                              json.dumps({"message": msg}))
                db.execute(f'INSERT INTO "rocpd_region{sfx}" (id, nid, pid, tid, start, "end", name_id, event_id) VALUES (?,?,?,?,?,?,?,?)',
                           (self.corr, self.nid, self.pid, tid, t, t, sid["roctxMarkA"], eid))
                continue
            if tid not in tracks:
                tracks[tid] = len(tracks) + 1
                db.execute(f'INSERT INTO "rocpd_track{sfx}" (id, nid, pid, tid, name_id) VALUES (?,?,?,?,?)',
                           (tracks[tid], self.nid, self.pid, tid, sid["MARKER_CORE_API"]))
            # a sample's event links to its enclosing range where the
            # generator knows one (rocprofv3 writes the ancestor's
            # correlation id); the others are placed by time
            eid = self.ev("MARKER_CORE_API", 0,
                          self.mark_parent.get((tid, t, msg), 0),
                          json.dumps({"message": msg}))
            db.execute(f'INSERT INTO "rocpd_sample{sfx}" (track_id, timestamp, event_id) VALUES (?,?,?)',
                       (tracks[tid], t, eid))
        rows = []
        for i, (tid, q, name, ks, ke, link, kpath) in enumerate(self.dispatches):
            self.event_id += 1
            ev_extra.append((self.event_id, "KERNEL_DISPATCH", link, link, "{}"))
            kid = self.kernels.index(name) + 1
            start = ks
            if i == 5 and self.args.text_in_int:
                start = "n/a"  # text in an integer column: left out
                self.dispatches[i][6] = "SKIP"
            rows.append((i + 1, self.nid, self.pid, tid, 1 + (self.queues.index(q)), kid, i + 1, q, self.stream_of(i), start, ke,
                         0, 1024, 256, 1, 1, 65536, 1, 1, sid[""], self.event_id))
        db.executemany(f'INSERT INTO "rocpd_kernel_dispatch{sfx}" (id, nid, pid, tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, "end", private_segment_size, group_segment_size, workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)', rows)
        self.counters(rows)
        self.allocations()
        for i, (tid, s, e, name, size, link, path) in enumerate(self.copies):
            self.event_id += 1
            ev_extra.append((self.event_id, "MEMORY_COPY", link, link, "{}"))
            db.execute(f'INSERT INTO "rocpd_memory_copy{sfx}" (id, nid, pid, tid, start, "end", name_id, dst_agent_id, src_agent_id, size, queue_id, stream_id, region_name_id, event_id) VALUES (?,?,?,?,?,?,?,?,?,?,NULL,?,?,?)',
                       (i + 1, self.nid, self.pid, tid, s, e, sid[name], 1, 0, size, self.copy_stream_of(i), sid[""], self.event_id))
        db.executemany(f'INSERT INTO "rocpd_event{sfx}" (id, category_id, stack_id, parent_stack_id, correlation_id, extdata) VALUES (?,?,?,?,0,?)',
                       [(e, sid[c], s, p, x) for (e, c, s, p, x) in self.events + ev_extra])
        self.answer()

    def counters(self, rows):
        """Hardware counters of the dispatches (rocpd_pmc_event): SQ_WAVES
        on every dispatch, written as two instance rows on every third;
        TCC_HIT_sum on all but every fourth; a counter row of an event
        that is no dispatch (ignored).  The expected sums per kernel name
        go to self.pmc."""
        db, sfx = self.db, self.sfx
        for pid_, name in ((1, "SQ_WAVES"), (2, "TCC_HIT_sum")):
            db.execute(f'INSERT INTO "rocpd_info_pmc{sfx}" (id, nid, pid, agent_id, target_arch, name, symbol, description) VALUES (?,?,?,1,"GPU",?,?,?)',
                       (pid_, self.nid, self.pid, name, name, "counter " + name))
        self.pmc = []
        out = []
        for i, row in enumerate(rows):
            event, ke = row[20], row[10]
            ks = self.dispatches[i][3]  # the row may hold text (text_in_int)
            waves = (ke - ks) // 7 + i
            if i % 3 == 0:
                out += [(event, 1, float(waves // 2)), (event, 1, float(waves - waves // 2))]
            else:
                out.append((event, 1, float(waves)))
            hits = None
            if i % 4 != 3:
                hits = 2.5 * (i % 5) + 1
                out.append((event, 2, hits))
            self.pmc.append((waves, hits))
        out.append((10**9, 1, 12345.0))  # no such dispatch event
        db.executemany(f'INSERT INTO "rocpd_pmc_event{sfx}" (event_id, pmc_id, value) VALUES (?,?,?)', out)

    def allocations(self):
        """Memory allocations (rocpd_memory_allocate) on GPU 0 (agent 1):
        ALLOC, a FREE naming only the address, a REALLOC, a SCRATCH block
        freed by RECLAIM, a FREE of an address never allocated.  The
        allocated bytes in force after each change go to self.alloc_steps
        ({level: [(t, bytes)]}), computed here from the list below."""
        t0 = self.t + 5000
        A1, A2, A3 = 0x7f0000100000, 0x7f0000200000, 0x7f0000300000
        rows = [  # (dt, type, level, address, size, agent)
            (0, "ALLOC", "REAL", A1, 1 << 20, 1),
            (100, "ALLOC", "REAL", A2, 4096, 1),
            (200, "FREE", "REAL", A1, 0, None),
            (300, "REALLOC", "REAL", A2, 8192, None),
            (400, "ALLOC", "SCRATCH", A3, 65536, 1),
            (500, "FREE", "REAL", 0xdead0000, 0, None),
            (600, "RECLAIM", "SCRATCH", A3, 0, None),
        ]
        for dt, typ, level, addr, size, agent in rows:
            self.db.execute(f'INSERT INTO "rocpd_memory_allocate{self.sfx}" (nid, pid, tid, agent_id, type, level, start, "end", address, size) VALUES (?,?,?,?,?,?,?,?,?,?)',
                            (self.nid, self.pid, self.pid, agent, typ, level, t0 + dt, t0 + dt + 10, addr, size))
        self.alloc_steps = {
            "REAL": [(t0, 1 << 20), (t0 + 100, (1 << 20) + 4096), (t0 + 200, 4096), (t0 + 300, 8192)],
            "SCRATCH": [(t0 + 400, 65536), (t0 + 600, 0)],
        }

    def answer(self):
        """Expected values, from the records above."""
        A = self.answers
        thread_names = {tid: "thread %d%s" % (tid, " (main)" if tid == self.pid else "") for tid in self.tids}
        # host intervals with their paths: rebuild nesting from the records
        # (the generator knows parents by construction: id order)
        byid = {}
        parent_of = {}
        for (e, c, s, p, x) in self.events:
            parent_of[s] = p
        msgs = {}
        for (e, c, s, p, x) in self.events:
            m = json.loads(x).get("message")
            if m:
                msgs[s] = m
        for corr, tid, s, e, name, eid in self.regions:
            p = parent_of.get(corr, 0)
            label = msgs.get(corr, name)
            path = (byid[p][3] if p in byid else [self.label, thread_names[tid]]) + [label]
            byid[corr] = (tid, s, e, path)
        lines = A.setdefault("lines", {})
        for corr, (tid, s, e, path) in byid.items():
            lines.setdefault(self.label + " tid %d" % tid, []).append((s, e, path))
        # instants: where each lies (the latest-begun interval of its
        # thread running at its time, by brute force), how many share
        # its time
        inst = A.setdefault("instants", [])
        for tid, t, kind, msg in self.marks:
            best = None
            for corr, (t2, s, e, path) in sorted(byid.items()):
                if t2 == tid and s <= t < e and (best is None or s >= best[0]):
                    best = (s, e, path)
            at = [m for m in self.marks if m[0] == tid and m[1] == t]
            # several at one time: roctxMark regions, then samples in
            # the order written
            first = sorted(at, key=lambda m: (m[2] != "mark", self.marks.index(m)))[0]
            inst.append({"label": self.label + " tid %d" % tid, "t": t, "name": msg,
                         "count": len(at), "first": first[3],
                         "path": (best[2] if best else []) + [msg],
                         "interval": [best[0], best[1]] if best else None})
        for i, d in enumerate(self.dispatches):
            tid, q, name, ks, ke, link, kpath = d
            if kpath == "SKIP":
                continue
            waves, hits = self.pmc[i]
            cnt = A.setdefault("counters", {}).setdefault(name, {})
            cnt["SQ_WAVES"] = cnt.get("SQ_WAVES", 0) + waves
            if hits is not None:
                cnt["TCC_HIT_sum"] = cnt.get("TCC_HIT_sum", 0) + hits
            if link == 0:
                # innermost region of the thread running at ks
                best = None
                for corr, (t2, s, e, path) in byid.items():
                    if t2 == tid and s <= ks < e and (best is None or s >= best[0]):
                        best = (s, path)
                kpath = (best[1] if best else [self.label, thread_names[tid]]) + [name]
                A["unlinked"] = A.get("unlinked", 0) + 1
            k = A.setdefault("kernels", {}).setdefault(name, [0, 0])
            k[0] += 1
            k[1] += ke - ks
            A["gpu_total"] = A.get("gpu_total", 0) + (ke - ks)
            qlabel = "%s GPU %d queue 0x%x" % (self.label, self.queues.index(q), q)
            lines.setdefault(qlabel, []).append((ks, ke, kpath))
            # the same dispatch on its stream's line (trace --gpu-lines
            # stream): streams cross queues, so they overlap
            A.setdefault("stream_lines", {}).setdefault(
                "%s stream %d" % (self.label, self.stream_of(i)), []).append((ks, ke, kpath))
        # counter lines: the value in force at probe times (the last
        # change at or before t), from the steps of each line
        probes = A.setdefault("counter_probes", [])
        steps = {}
        ev = []
        for tid, s, e, name, size, link, path in self.copies:
            ev += [(s, size), (e, -size)]
        run, line = 0, []
        for t, d in sorted(ev, key=lambda x: (x[0], x[1])):
            run += d
            if line and line[-1][0] == t:
                line[-1] = (t, run)
            else:
                line.append((t, run))
        steps[self.label + " copies in flight to GPU 0"] = line
        for level, st in self.alloc_steps.items():
            steps["%s GPU 0 memory (%s)" % (self.label, level)] = st
        for label, st in steps.items():
            for i, (t, v) in enumerate(st):
                probes.append({"label": label, "t": t, "value": v})
                nxt = st[i + 1][0] if i + 1 < len(st) else t + 1000
                if nxt - t > 1:
                    probes.append({"label": label, "t": (t + nxt) // 2, "value": v})
            probes.append({"label": label, "t": st[0][0] - 1, "value": None})
        for i, (tid, s, e, name, size, link, path) in enumerate(self.copies):
            A["gpu_total"] = A.get("gpu_total", 0) + (e - s)
            A["bytes"] = A.get("bytes", 0) + size
            lines.setdefault(self.label + " copies", []).append((s, e, path))
            A.setdefault("stream_lines", {}).setdefault(
                "%s stream %d" % (self.label, self.copy_stream_of(i)), []).append((s, e, path))


def probes(answers, rng, n, key="lines"):
    """What is active at probe times: per line, the latest-begun interval
    running at t (brute force over the records)."""
    out = []
    for label, ivs in sorted(answers[key].items()):
        ivs = sorted(ivs, key=lambda x: (x[0], -x[1]))
        times = [iv[0] for iv in ivs[:3]] + [iv[1] for iv in ivs[:3]]
        times += [rng.randrange(ivs[0][0], ivs[-1][1] + 1) for _ in range(n)]
        for t in times:
            best = None
            for i, (b, e, p) in enumerate(ivs):
                if b <= t < e:
                    best = (b, e, p)
            out.append({"t": t, "label": label, "path": best[2] if best else [],
                        "interval": [best[0], best[1]] if best else None})
    return out


def gen_rpd(path, rng, answers):
    """A .rpd (v2) file with the DDL of the real corpus file."""
    src = sqlite3.connect("file:%s?mode=ro" % shared_file(RPD_DDL_REL), uri=True)
    ddl = [r[0] for r in src.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
    src.close()
    db = sqlite3.connect(path)
    for d in ddl:
        db.execute(d)
    strings = [""]

    def s(x):
        if x not in strings:
            strings.append(x)
        return strings.index(x) + 1
    pid, t = 4242, 5 * 10**14
    R = answers.setdefault("rpd", {"kernels": {}, "gpu_total": 0, "bytes": 0,
                                   "instants": [], "stream_lines": {}})
    ticks = []  # instant UserMarkers (start == end): (t, text, enclosing)
    api_id, op_id = 0, 0
    for it in range(6):
        # a UserMarker range holding launches
        api_id += 1
        mk = api_id
        mstart = t
        db.execute("INSERT INTO rocpd_api VALUES (?,?,?,?,?,?,?)", (mk, pid, pid, t, 0, s("UserMarker"), s("step")))
        ticks.append([t, "tick %d" % it, "step"])  # at the range's begin
        t += 10
        for k in range(3):
            api_id += 1
            name = KERNELS[(it + k) % 4]
            db.execute("INSERT INTO rocpd_api VALUES (?,?,?,?,?,?,?)", (api_id, pid, pid, t, t + 30, s("hipLaunchKernel"), s("args %d" % api_id)))
            if k == 0:  # at a call's end: in the range, not the call
                ticks.append([t + 30, "launched %d" % it, "step"])
            op_id += 1
            ks, ke = t + 100, t + 100 + 500 + 10 * k
            db.execute("INSERT INTO rocpd_op VALUES (?,?,?,?,?,?,?,?,?)", (op_id, 2, 0, op_id, "", ks, ke, s(name), s("KernelExecution")))
            db.execute("INSERT INTO rocpd_api_ops (api_id, op_id) VALUES (?,?)", (api_id, op_id))
            stream = "0x%x" % (0x10 + (it + k) % 3)
            db.execute("INSERT INTO rocpd_kernelapi VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (api_id, stream, 64, 1, 1, 64, 1, 1, 0, 0, "", "", "", 0, s(name)))
            R["stream_lines"].setdefault("GPU 2 stream %s" % stream, []).append((ks, ke, []))
            kk = R["kernels"].setdefault(name, [0, 0])
            kk[0] += 1
            kk[1] += ke - ks
            R["gpu_total"] += ke - ks
            t += 700
        # a copy, its size sometimes text
        api_id += 1
        db.execute("INSERT INTO rocpd_api VALUES (?,?,?,?,?,?,?)", (api_id, pid, pid, t, t + 50, s("hipMemcpy"), s("")))
        op_id += 1
        db.execute("INSERT INTO rocpd_op VALUES (?,?,?,?,?,?,?,?,?)", (op_id, 2, 0, op_id, "", t + 60, t + 160, s(""), s("CopyHostToDevice")))
        db.execute("INSERT INTO rocpd_api_ops (api_id, op_id) VALUES (?,?)", (api_id, op_id))
        size = 1 << 20 if it % 2 == 0 else ""
        db.execute("INSERT INTO rocpd_copyapi VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", (api_id, "0x10", size, "", "", 1, "0x1", "0x2", 0, 0, 0, 0))
        R["stream_lines"].setdefault("GPU 2 stream 0x10", []).append((t + 60, t + 160, []))
        R["gpu_total"] += 100
        if size != "":
            R["bytes"] += size
        t += 200
        db.execute("UPDATE rocpd_api SET \"end\" = ? WHERE id = ?", (t, mk))
        ticks.append([t, "step %d done" % it, None])  # at its end: outside
        for tk in ticks:
            if tk[2] == "step":
                tk[2] = [mstart, t]
        t += 50
    for tt, text, enclosing in ticks:
        api_id += 1
        db.execute("INSERT INTO rocpd_api VALUES (?,?,?,?,?,?,?)", (api_id, pid, pid, tt, tt, s("UserMarker"), s(text)))
        R["instants"].append({"label": "pid %d tid %d" % (pid, pid), "t": tt, "name": text,
                              "interval": enclosing})
    db.executemany("INSERT INTO rocpd_string VALUES (?,?)", [(i + 1, x) for i, x in enumerate(strings)])
    db.execute("INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '2')")
    db.commit()
    db.close()


class Args:
    pass


def main():
    a = Args()
    argv = sys.argv[1:]
    if not argv:
        print(__doc__)
        return 2
    out = argv[0]
    a.seed, a.procs, a.iters, a.kpi = 1, 12, 4, 5
    a.text_in_int = True
    i = 1
    while i < len(argv):
        k = argv[i]
        if k in ("--seed", "--procs", "--iters", "--kernels-per-iter"):
            setattr(a, {"--kernels-per-iter": "kpi"}.get(k, k[2:]), int(argv[i + 1]))
            i += 2
        else:
            print("unknown option", k)
            return 2
    rng = random.Random(a.seed)
    answers = {}
    os.makedirs(os.path.join(out, "run"), exist_ok=True)
    for p in range(a.procs):
        host = "node%02d" % (p // 8)
        pid = 1000 + 17 * p
        d = os.path.join(out, "run", host)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "%d_results.db" % pid)
        if os.path.exists(path):
            os.unlink(path)
        db = sqlite3.connect(path)
        v = V3(db, rng, host, "machine-" + host, pid, p, a, answers, hostile=False)
        v.build()
        db.commit()
        db.close()
    # stray files beside the databases (a rocprofv3 log, a note): the
    # directory is still the run; and the run's index YAML files in both
    # forms, entries relative to OUTDIR
    with open(os.path.join(out, "run", "README.txt"), "w") as f:
        f.write("not a database\n")
    with open(os.path.join(out, "run", "node00", "rocprofv3.log"), "w") as f:
        f.write("log\n")
    rel = sorted(os.path.relpath(os.path.join(r, f), out)
                 for r, _, fs in os.walk(os.path.join(out, "run"))
                 for f in fs if f.endswith(".db"))
    with open(os.path.join(out, "index.yaml"), "w") as f:
        f.write("# rocpd package index\nname: gen\nfiles:\n")
        f.writelines("  - %s\n" % r for r in rel)
    with open(os.path.join(out, "optiq.yaml"), "w") as f:
        f.write("rocprofiler-sdk:\n  version: 1\n  rocpd:\n    files: [%s]\n"
                % ", ".join("'%s'" % r for r in rel))
    # a merged file: two table sets, with the UNION views rocpd merge makes
    mpath = os.path.join(out, "merged.db")
    if os.path.exists(mpath):
        os.unlink(mpath)
    manswers = {}
    db = sqlite3.connect(mpath)
    for p in range(2):
        v = V3(db, rng, "merged", "machine-merged", 9000 + p, 100 + p, a, manswers, views=False)
        v.build()
    db.commit()
    db.close()
    answers["merged"] = {"kernels": manswers["kernels"], "gpu_total": manswers["gpu_total"],
                         "counters": manswers["counters"]}
    # hostile names
    hpath = os.path.join(out, "hostile.db")
    if os.path.exists(hpath):
        os.unlink(hpath)
    db = sqlite3.connect(hpath)
    hans = {}
    v = V3(db, rng, "evil", "machine-evil", 666, 0, a, hans, hostile=True)
    v.dispatches = []
    v.build()
    db.execute(f'INSERT INTO "rocpd_kernel_dispatch{v.sfx}" (id, nid, pid, tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, "end", workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, grid_size_z, event_id) VALUES (99999,?,666,666,1,?,1,?,0,?,?,1,1,1,1,1,1,NULL)',
               (v.nid, len(v.kernels), v.queues[0], v.t, v.t + 10))
    db.commit()
    db.close()
    # an unknown layout: rocpd 4.x-like regions with track_id
    upath = os.path.join(out, "unknown.db")
    if os.path.exists(upath):
        os.unlink(upath)
    db = sqlite3.connect(upath)
    db.executescript('CREATE TABLE rocpd_metadata_x (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);'
                     'CREATE TABLE rocpd_region_x (id INTEGER PRIMARY KEY, track_id INTEGER, start_id INTEGER, end_id INTEGER, name_id INTEGER, event_id INTEGER);'
                     'CREATE TABLE rocpd_kernel_dispatch_x (id INTEGER PRIMARY KEY, track_id INTEGER, start_id INTEGER, end_id INTEGER);'
                     'CREATE TABLE rocpd_event_x (id INTEGER PRIMARY KEY);')
    db.commit()
    db.close()
    gen_rpd_path = os.path.join(out, "gen.rpd")
    if os.path.exists(gen_rpd_path):
        os.unlink(gen_rpd_path)
    gen_rpd(gen_rpd_path, rng, answers)
    answers["probes"] = rng.sample(probes(answers, rng, 4), 150)
    # GPU lines by stream (trace --gpu-lines stream): the same brute force
    # over each stream's dispatches and copies (the .rpd's too); drawn
    # from a generator of their own so that the other answers stay put
    srng = random.Random(a.seed + 7)
    answers["stream_probes"] = srng.sample(probes(answers, srng, 4, "stream_lines"), 120)
    answers["rpd"]["stream_probes"] = probes(answers["rpd"], srng, 6, "stream_lines")
    del answers["stream_lines"], answers["rpd"]["stream_lines"]
    # each host's first event (the run's hosts are the first word of the
    # line labels; the .rpd's lines have no host and come last)
    first = {}
    for label, ivs in answers["lines"].items():
        host = label.split()[0]
        if host.startswith("node"):
            first[host] = min([first.get(host, 1 << 62)] + [b for b, e, p in ivs])
    answers["host_first"] = first
    del answers["lines"]
    with open(os.path.join(out, "answers.json"), "w") as f:
        json.dump(answers, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
