#!/usr/bin/python3
"""Generate Nsight Systems SQLite exports with answers known independently
of any SQL: the answers are counted while the rows are made.

usage: gen_nsight.py OUTDIR [--kernels N] [--seed S] [--ranks R]
                     [--hostile-names] [--no-answers]

Writes OUTDIR/rankK.sqlite (the table layout of a 2024 export: the
metadata table is META_DATA_EXPORT; StringIds, PROCESSES, ThreadNames,
CUPTI_ACTIVITY_KIND_KERNEL / RUNTIME / MEMCPY / MEMSET, NVTX_EVENTS,
OSRT_API; every API call with a backtrace is written twice, the second
time as eventClass 67, as nsys does) and OUTDIR/expected/<name>.txt in
the layout of ../shared/expected/nsight/, so that check_nsight.py checks
both.  Each host thread runs NVTX ranges "step I" holding kernel launches
(cudaLaunchKernel, kernel on a stream of device 0), cudaMemcpy calls
(one copy each) and a cudaMemset; OS runtime calls (ioctl) lie inside some
launches.  --hostile-names puts control characters and escape sequences
into kernel, range and thread names (no answers are written then)."""
import bisect
import os
import random
import sqlite3
import sys

KERNELS = ["gemm_tile", "reduce_sum", "stencil3d", "scan_block",
           "transpose"]


def make(path, rank, n_kernels, seed, hostile, answers=True):
    rnd = random.Random(seed * 1000 + rank)
    if os.path.exists(path):
        os.unlink(path)
    db = sqlite3.connect(path)
    c = db.cursor()
    # no rollback journal and no fsync: the file is made in one
    # transaction and is thrown away if the script fails
    c.execute("PRAGMA journal_mode=OFF")
    c.execute("PRAGMA synchronous=OFF")
    c.executescript("""
CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER,
    globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL,
    end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
    shortName INTEGER NOT NULL, mangledName INTEGER,
    registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,
    gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,
    blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
    staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL,
    end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,
    correlationId INTEGER, nameId INTEGER NOT NULL,
    returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL,
    end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,
    copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL,
    end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL,
    bytes INTEGER NOT NULL, memKind INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER,
    eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER,
    color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
    textId INTEGER, domainId INTEGER);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL, globalTid INTEGER,
    nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL,
    nestingLevel INTEGER, callchainId INTEGER NOT NULL);
""")
    c.execute("INSERT INTO META_DATA_EXPORT VALUES "
              "('EXPORT_SCHEMA_VERSION', '3.11.0')")
    strings = {}

    def sid(s):
        if s not in strings:
            strings[s] = len(strings) + 1
        return strings[s]

    pid = 4000 + rank
    gpid = pid << 24 | 1 << 56
    c.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)",
              (gpid, pid, "app\x1b[31m" if hostile else "app"))
    kname = [("k\x1b]0;pwn\x07\n%s\x7f" % k) if hostile else k
             for k in KERNELS]
    api_names = {"launch": "cudaLaunchKernel_v7000",
                 "memcpy": "cudaMemcpy_v3020",
                 "memset": "cudaMemset_v3020"}
    ans_k, ans_api, ans_nvtx = {}, {}, {}
    ans_copy = {1: [0, 0, 0], 2: [0, 0, 0]}
    ans_set = [0, 0, 0]
    osrt = [0, 0]

    def add(d, k, dur):
        e = d.setdefault(k, [0, 0])
        e[0] += 1
        e[1] += dur

    kernels, runtime, copies, sets, nvtx, osrt_rows = [], [], [], [], [], []
    marks = []  # (t, globalTid, text)
    corr = 0
    threads = 2
    per_thread = max(1, n_kernels // threads)
    gpu_t = {s: 1000 for s in range(7, 7 + threads)}
    for t in range(threads):
        tid = pid + t
        gtid = gpid | tid
        c.execute("INSERT INTO ThreadNames VALUES (?, 0, ?)",
                  (sid("worker\x1b[2J%d" % t if hostile else "worker %d" % t),
                   gtid))
        now = 1000 + rank * 7
        stream = 7 + t
        done = 0
        step = 0
        while done < per_thread:
            batch = min(per_thread - done, rnd.randint(1, 8))
            rstart = now
            # NVTX marks (eventType 34) at equal times with a range's
            # begin (two at the first), and below at its end
            if step % 2 == 0:
                marks.append((rstart, gtid, "mark %d" % step))
                if step == 0:
                    marks.append((rstart, gtid, "mark first"))
            now += 50
            for i in range(batch):
                corr += 1
                dur = rnd.randint(200, 2000)
                runtime.append((now, now + dur, 0, gtid, corr,
                                sid(api_names["launch"]), 0, None))
                if corr % 3 == 0:  # with a backtrace: written twice
                    runtime.append((now, now + dur, 67, gtid, corr,
                                    sid("cudaLaunchKernel"), 0, corr))
                add(ans_api, api_names["launch"], dur)
                if i == 0 and step % 4 == 0:
                    od = rnd.randint(10, dur - 10)
                    osrt_rows.append((now + 5, now + 5 + od, 0, gtid,
                                      sid("ioctl"), 0, 0, 1))
                    osrt[0] += 1
                    osrt[1] += od
                k = rnd.randrange(len(KERNELS))
                kd = rnd.randint(1000, 90000)
                ks = max(gpu_t[stream], now + dur) + rnd.randint(0, 500)
                gpu_t[stream] = ks + kd
                # the first kernel is a template instantiated twice:
                # one shortName, two demangled and mangled names (nsys
                # stats tells them apart); the others have no
                # mangledName (C linkage)
                if k == 0:
                    ty = "float" if corr % 2 else "double"
                    dem = "void %s<%s>(%s*)" % (kname[k], ty, ty)
                    man = sid("_Z%d%sI%sEvP%s" % (len(kname[k]), kname[k],
                                                  ty[0], ty[0]))
                else:
                    dem = kname[k] + "(float*)"
                    man = None
                kernels.append((ks, ks + kd, 0, 1, stream, corr, gpid,
                                sid(dem), sid(kname[k]),
                                man, 32, 128, 1, 1, 256, 1, 1, 0, 1024))
                add(ans_k, kname[k], kd)
                now += dur + rnd.randint(10, 100)
            done += batch
            if step % 3 == 0:  # a copy and a memset each third step
                for kind in (1, 2):
                    corr += 1
                    dur = rnd.randint(500, 5000)
                    runtime.append((now, now + dur, 0, gtid, corr,
                                    sid(api_names["memcpy"]), 0, None))
                    add(ans_api, api_names["memcpy"], dur)
                    nbytes = rnd.randint(1, 1 << 20)
                    cs = now + 10
                    cd = dur - 20
                    copies.append((cs, cs + cd, 0, 1, stream, corr, gpid,
                                   nbytes, kind, 0, 1))
                    ans_copy[kind][0] += 1
                    ans_copy[kind][1] += nbytes
                    ans_copy[kind][2] += cd
                    now += dur + 20
                corr += 1
                dur = rnd.randint(300, 900)
                runtime.append((now, now + dur, 0, gtid, corr,
                                sid(api_names["memset"]), 0, None))
                add(ans_api, api_names["memset"], dur)
                sets.append((now + 5, now + 105, 0, 1, stream, corr, gpid,
                             0, 4096, 1))
                ans_set[0] += 1
                ans_set[1] += 4096
                ans_set[2] += 100
                now += dur + 20
            now += 50
            name = ("step\x1b[1m\r%d" % (step % 5)) if hostile else \
                "step %d" % (step % 5)
            nvtx.append((rstart, now, 59, None, None, None, name, gtid,
                         None, None, None))
            add(ans_nvtx, name, now - rstart)
            if step % 5 == 1:
                marks.append((now, gtid, "end %d" % step))
            step += 1
            now += 100
    c.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
                  "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", kernels)
    c.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES "
                  "(?,?,?,?,?,?,?,?)", runtime)
    c.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES "
                  "(?,?,?,?,?,?,?,?,?,?,?)", copies)
    c.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES "
                  "(?,?,?,?,?,?,?,?,?,?)", sets)
    c.executemany("INSERT INTO NVTX_EVENTS VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                  nvtx)
    # a domain-create row and a mark: not ranges
    c.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
              "globalTid) VALUES (10, NULL, 75, 'domain', ?)", (gpid | pid,))
    marks.insert(0, (20, gpid | pid, "mark"))
    c.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
                  "globalTid) VALUES (?, NULL, 34, ?, ?)",
                  [(t, text, g) for t, g, text in marks])
    c.executemany("INSERT INTO OSRT_API VALUES (?,?,?,?,?,?,?,?)",
                  osrt_rows)
    c.executemany("INSERT INTO StringIds VALUES (?, ?)",
                  [(i, s) for s, i in strings.items()])
    db.commit()
    db.close()
    if hostile or not answers:
        return None
    out = ["# generated by gen_nsight.py", "## kernel summary (by shortName)",
           "name\tn\ttotal_ns"]
    for k, (n, tot) in sorted(ans_k.items()):
        out.append("%s\t%d\t%d" % (k, n, tot))
    out += ["## kernels without a captured API call (LEFT JOIN on "
            "correlationId)", "n", "0"]
    out += ["## memcpy by copyKind", "copyKind\tn\tbytes\ttotal_ns"]
    for kind, (n, b, tot) in sorted(ans_copy.items()):
        if n:
            out.append("%d\t%d\t%d\t%d" % (kind, n, b, tot))
    out += ["## memset", "n\tbytes\ttotal_ns", "%d\t%d\t%d" % tuple(ans_set)]
    out += ["## CUDA API summary (eventClass 0 and 1 only)",
            "name\tn\ttotal_ns"]
    for k, (n, tot) in sorted(ans_api.items()):
        out.append("%s\t%d\t%d" % (k, n, tot))
    out += ["## NVTX by eventType", "eventType\tn\twith_end",
            "34\t%d\t0" % len(marks), "59\t%d\t%d" % (len(nvtx), len(nvtx)),
            "75\t1\t0"]
    # each mark: the first mark of its thread at its time (rowid order),
    # how many, and the host interval it lies in, by brute force over the
    # thread's ranges, calls (class 0) and OS runtime calls in callscope's
    # order (begin, end descending, NVTX < API < OS runtime): the last one
    # running at t
    host = [(r[0], r[1], 0, r[7]) for r in nvtx] + \
        [(r[0], r[1], 1, r[3]) for r in runtime if r[2] in (0, 1)] + \
        [(r[0], r[1], 2, r[3]) for r in osrt_rows]
    host.sort(key=lambda h: (h[3], h[0], -h[1], h[2]))
    # per thread: the begins (for bisection) and the running maximum of the
    # ends, so that the walk back from the last interval beginning at or
    # before t stops once no earlier interval reaches past t
    by_tid = {}
    for h in host:
        b = by_tid.setdefault(h[3], ([], [], []))
        b[0].append(h[0])
        b[1].append(h)
        b[2].append(max(h[1], b[2][-1]) if b[2] else h[1])
    at = {}  # (t, globalTid) -> [first text in rowid order, count]
    for t, g, text in marks:
        a = at.setdefault((t, g), [text, 0])
        a[1] += 1
    out += ["## NVTX marks (eventType 34)",
            "tid\tt\tfirst\tn_at_t\tbegin\tend"]
    for t, g, text in marks:
        first, n_at = at[(t, g)]
        enc = None
        begins, hs, maxend = by_tid.get(g, ([], [], []))
        i = bisect.bisect_right(begins, t) - 1
        while i >= 0 and maxend[i] > t:
            if hs[i][1] > t:  # the last one in host order running at t
                enc = hs[i]
                break
            i -= 1
        out.append("%d\t%d\t%s\t%d\t%s\t%s" % (
            g & 0xffffff, t, first, n_at,
            enc[0] if enc else "-", enc[1] if enc else "-"))
    out += ["## NVTX push/pop ranges (eventType 59) by name",
            "name\tn\ttotal_ns"]
    for k, (n, tot) in sorted(ans_nvtx.items()):
        out.append("%s\t%d\t%d" % (k, n, tot))
    out += ["## OS runtime API", "n\ttotal_ns", "%d\t%d" % tuple(osrt)]
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    outdir = args[0]
    opts = {"--kernels": 1000, "--seed": 1, "--ranks": 1}
    hostile = "--hostile-names" in args
    i = 1
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = int(args[i + 1])
            i += 2
        else:
            i += 1
    os.makedirs(os.path.join(outdir, "expected"), exist_ok=True)
    for r in range(opts["--ranks"]):
        name = "rank%d.sqlite" % r
        answers = "--no-answers" not in args
        text = make(os.path.join(outdir, name), r, opts["--kernels"],
                    opts["--seed"], hostile, answers)
        if text is not None:
            with open(os.path.join(outdir, "expected", name + ".txt"),
                      "w", encoding="utf-8") as f:
                f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
