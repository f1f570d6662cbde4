#!/usr/bin/env python3
"""Writes the generated part of the seed corpora of the legacy fuzz targets
(tests/fuzz/corpus/legacy-values, legacy-trace, sparse2020) and copies the
small real files of ../shared/corpus next to them.  Run from the source
tree's root when the formats or the targets' input framing change; the
output is committed.  Layouts: doc/hpctoolkit-legacy-binaries.md."""
import os
import shutil
import struct

C = "tests/fuzz/corpus"
S = "../shared/corpus"
END = b"\xff\xff\xff\xff\xde\xad\xf0\x0d"


def put(target, name, data):
    os.makedirs(os.path.join(C, target), exist_ok=True)
    with open(os.path.join(C, target, name), "wb") as f:
        f.write(data)


def copy(target, name, src):
    if os.path.exists(os.path.join(S, src)):
        shutil.copyfile(os.path.join(S, src), os.path.join(C, target, name))


def metricdb(nodes, metrics, base):
    b = b"HPCPROF-metricdb__00.10b" + struct.pack(">II", nodes, metrics)
    for i in range(nodes * metrics):
        b += struct.pack(">d", 0.0 if i % 3 == 0 else base + i)
    return b


def merged(files, ids, typ, marker=True):
    head = 8 + 16 * len(files)
    out, offs = b"", []
    for f in files:
        offs.append(head + len(out))
        out += f
    t = struct.pack(">II", typ, len(files))
    for (r, th), o in zip(ids, offs):
        t += struct.pack(">IIQ", r, th, o)
    return t + out + (END if marker else b"")


def hpctrace(version, samples, flags=0, dc=False):
    b = b"HPCRUN-trace______" + version + b"b"
    if version == b"01.01":
        b += struct.pack(">Q", flags)
    for t, c in samples:
        b += struct.pack(">QI", t, c) + (struct.pack(">I", 7) if dc else b"")
    return b


put("legacy-values", "gen-metricdb", metricdb(4, 2, 10.0))
put("legacy-values", "gen-mdb", merged(
    [metricdb(3, 2, 1.0), metricdb(3, 2, 100.0)], [(0, 0), (0, 1)], 2))
put("legacy-values", "gen-mdb-empty", merged([], [], 1))
copy("legacy-values", "cpi-metric-db",
     "hpctoolkit-xml/hatchet/hatchet/tests/data/hpctoolkit-cpi-database/"
     "1.cpi-000000-000-a8c00270-160443-0.metric-db")
copy("legacy-values", "inline-mdb",
     "hpctoolkit-xml/hpcviewer.e4/tests/resources/xml/inline.xml.db/"
     "experiment-1.mdb")

us = [(1298921560137365 + 50 * k, 40 + k % 5) for k in range(6)]
ns = [(1661356915698623343 + 5000 * k, 1311 + k) for k in range(5)]
put("legacy-trace", "gen-0100", hpctrace(b"01.00", us))
put("legacy-trace", "gen-0101", hpctrace(b"01.01", ns))
put("legacy-trace", "gen-0101-datacentric",
    hpctrace(b"01.01", ns, flags=1, dc=True))
put("legacy-trace", "gen-mt", merged(
    [hpctrace(b"01.01", ns), hpctrace(b"01.01", ns[:2]),
     hpctrace(b"01.01", [])], [(0, 0), (0, 1), (0, 500)], 2))
put("legacy-trace", "gen-mt-0100", merged(
    [hpctrace(b"01.00", us), hpctrace(b"01.00", us[:3])], [(0, 0), (1, 0)],
    1))
copy("legacy-trace", "vectorAdd-500-hpctrace",
     "hpctoolkit-xml/hpcviewer.e4/tests/resources/xml/vectorAdd/"
     "vectorAdd-000000-500-2a803c80-4067513-0.hpctrace")


def sparse(prof, cct, trace):
    return struct.pack(">II", len(prof), len(cct)) + prof + cct + trace


def gen_sparse():
    # profile.db: summary + one thread, contexts 0 and 2, metrics 1 and 4
    tuples = [[(0, 0, 0)], [(2, 3, 3), (0xC003, 0, 1)]]
    idt = b""
    tptr = []
    base_idt = 56 + 2 * 52
    for t in tuples:
        tptr.append(base_idt + len(idt))
        idt += struct.pack(">H", len(t)) + b"".join(
            struct.pack(">HQQ", *e) for e in t)
    blocks = b""
    infos = b""
    base_blk = base_idt + len(idt)
    for p in range(2):
        vals = [(0, [(1, 1.5 + p), (4, 2.5)]), (2, [(1, 3.5 + p)])]
        vb, cb, n = b"", b"", 0
        for c, ms in vals:
            cb += struct.pack(">IQ", c, n)
            for m, v in ms:
                vb += struct.pack(">dH", v, m)
                n += 1
        cb += struct.pack(">IQ", 0x656E6421, n)
        infos += struct.pack(">QQQQQIQ", tptr[p], 0, 0, 0, n, len(vals),
                             base_blk + len(blocks))
        blocks += vb + cb
    prof = (b"HPCPROF-profdb__\x01\x00" + struct.pack(">IH", 2, 2) +
            struct.pack(">QQQQ", 104, 56, len(idt), base_idt) + infos + idt +
            blocks + b"PROFDBft")
    cct = (b"HPCPROF-cctdb___\x01\x00" + struct.pack(">IH", 3, 1) +
           struct.pack(">QQ", 66, 40) + bytes(66) + b"CCTDBftr")
    samples = b"".join(struct.pack(">QI", 1600000000000000000 + 10 * k, k)
                       for k in range(4))
    trace = (b"HPCPROF-tracedb_\x01\x00" + struct.pack(">IH", 1, 1) +
             struct.pack(">QQ", 22, 40) +
             struct.pack(">IHQQ", 1, 0, 62, 62 + len(samples)) + samples +
             b"TRACDBft")
    return prof, cct, trace


prof, cct, trace = gen_sparse()
put("sparse2020", "gen", sparse(prof, cct, trace))
put("sparse2020", "gen-no-trace", sparse(prof, cct, b""))
d = os.path.join(S, "hpctoolkit-sparse-2020/hpcviewer.e4/tests/resources/"
                 "prof2/empty-trace")
if os.path.isdir(d):
    parts = []
    for n in ("profile.db", "cct.db", "trace.db"):
        with open(os.path.join(d, n), "rb") as f:
            parts.append(f.read())
    put("sparse2020", "empty-trace", sparse(*parts))
