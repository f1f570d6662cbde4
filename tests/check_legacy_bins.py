#!/usr/bin/env python3
"""Every pre-v4 HPCToolkit binary file in ../shared/corpus (metric-db sets,
experiment-1.mdb, hpctrace sets, experiment.mt, the 2020 sparse profile.db /
cct.db / trace.db) is opened by tests/test-legacy-dump, and what it prints is
compared with this script's own decoding (the struct module, written from
doc/hpctoolkit-legacy-binaries.md, not from the C code): profile and line
counts, ranks and threads, per-context value sums, sample counts, first and
last samples.  It also checks the binaries against their experiment.xml:
trace times against <TraceDB db-min-time/db-max-time> and, for the cpi
database, inline <M> values against sums over threads.

usage: check_legacy_bins.py TEST-LEGACY-DUMP SHARED-DIR TMPDIR"""
import array
import glob
import os
import re
import struct
import subprocess
import sys
import tarfile
from pathlib import Path

dump, shared, tmp = sys.argv[1:4]
failures = []
checked = {"metric-db sets": 0, "mdb": 0, "hpctrace sets": 0, "mt": 0,
           "sparse": 0}


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run(*args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([dump] + list(args), capture_output=True, text=True,
                       env=e)
    if p.returncode != 0:
        fail("legacy-dump %s: %s" % (" ".join(args[:2]), p.stderr.strip()))
        return None
    return p.stdout.splitlines()


NAME = re.compile(r"^(?:\d+\.)?.+-(\d+)-(\d+)-[0-9a-f]+-\d+-\d+\.[a-z-]+$")


def name_ids(path):
    m = NAME.match(os.path.basename(path))
    return (int(m.group(1)), int(m.group(2))) if m else (-1, -1)


# --- metric-db -----------------------------------------------------------
def metricdb(b, off=0):
    """(nNodes, nMetrics, doubles) of the metric-db at b[off:]."""
    assert b[off:off + 18] == b"HPCPROF-metricdb__", "magic"
    assert b[off + 18:off + 24] == b"00.10b", "version"
    n, m = struct.unpack_from(">II", b, off + 24)
    v = array.array("d", b[off + 32:off + 32 + 8 * n * m])
    if sys.byteorder == "little":
        v.byteswap()
    return n, m, v


def same_lines(lines, want, what):
    """Whether the dump's lines are want; fails at the first line where
    they differ."""
    if lines == want:
        return True
    bad = next((i for i, (a, b) in enumerate(zip(lines, want))
                if a != b), min(len(lines), len(want)))
    fail("%s: line %d: got %r, want %r" % (
        what, bad, lines[bad] if bad < len(lines) else None,
        want[bad] if bad < len(want) else None))
    return False


def expect_values(lines, what, profiles):
    """profiles: list of (rank, thread, nNodes, nMetrics, doubles)."""
    n, m = profiles[0][2], profiles[0][3]
    want = ["profiles %d" % len(profiles), "contexts %d" % (n + 1),
            "metrics %d" % m]
    for i, p in enumerate(profiles):
        want.append("profile %d rank %d thread %d" % (i, p[0], p[1]))
    for row in range(n):
        for k in range(m):
            s, any_ = 0.0, False
            for p in profiles:
                x = p[4][row * m + k]
                if x != 0:
                    s += x
                    any_ = True
            if any_:
                want.append("sum %d %d %.17g" % (row + 1, k, s))
    same_lines(lines, want, what)
    return want


def table(b):
    t, n = struct.unpack_from(">II", b, 0)
    ents = [struct.unpack_from(">IIQ", b, 8 + 16 * i) for i in range(n)]
    end = len(b) - 8 if b[-8:] == b"\xff\xff\xff\xff\xde\xad\xf0\x0d" \
        else len(b)
    offs = [e[2] for e in ents] + [end]
    return [(e[0], e[1], offs[i], offs[i + 1]) for i, e in enumerate(ents)]


# --- traces --------------------------------------------------------------
def hpctrace(b, off, end):
    """(n, first (ns, ctx), last (ns, ctx)) by version: 01.00 stores
    microseconds, 01.01 nanoseconds."""
    assert b[off:off + 18] == b"HPCRUN-trace______", "magic"
    ver = b[off + 18:off + 23]
    assert b[off + 23:off + 24] == b"b"
    if ver == b"01.00":
        head, mult = 24, 1000
    else:
        assert ver == b"01.01"
        head, mult = 32, 1
        assert struct.unpack_from(">Q", b, off + 24)[0] == 0
    n = (end - off - head) // 12
    if n == 0:
        return 0, (0, 0), (0, 0)
    t0, c0 = struct.unpack_from(">QI", b, off + head)
    t1, c1 = struct.unpack_from(">QI", b, off + head + 12 * (n - 1))
    return n, (t0 * mult, c0), (t1 * mult, c1)


def expect_lines(lines, what, want_lines):
    want = ["lines %d" % len(want_lines)]
    for i, (r, t, n, first, last) in enumerate(want_lines):
        want.append("line %d rank %d thread %d n %d tmin %d tmax %d "
                    "first %d %d last %d %d" % (
                        i, r, t, n, first[0] if n else 0,
                        last[0] if n else 0, first[0], first[1], last[0],
                        last[1]))
    same_lines(lines, want, what)


def xml_trace_range(d, want_lines):
    """<TraceDB db-min-time db-max-time [u]> against the samples."""
    xml = os.path.join(d, "experiment.xml")
    if not os.path.exists(xml):
        return
    with open(xml, errors="replace") as f:
        m = re.search(r"<TraceDB [^>]*>", f.read())
    if not m or not any(w[2] for w in want_lines):
        return
    tag = m.group(0)
    u = re.search(r' u="(\d+)"', tag)
    ns = 10 ** 9 // int(u.group(1)) if u else 1000
    lo = int(re.search(r'db-min-time="(\d+)"', tag).group(1)) * ns
    hi = int(re.search(r'db-max-time="(\d+)"', tag).group(1)) * ns
    got_lo = min(w[3][0] for w in want_lines if w[2])
    got_hi = max(w[4][0] for w in want_lines if w[2])
    if (got_lo, got_hi) != (lo, hi):
        fail("%s: samples span [%d, %d] ns, experiment.xml says [%d, %d]"
             % (d, got_lo, got_hi, lo, hi))


# --- the per-directory checks ----------------------------------------------
def check_dir(d):
    rel = os.path.relpath(d, tmp) if d.startswith(tmp) else \
        os.path.relpath(d, shared)
    mdbs = sorted(glob.glob(os.path.join(d, "*.metric-db")))
    if mdbs:
        profs = []
        for p in mdbs:
            b = Path(p).read_bytes()
            profs.append(name_ids(p) + metricdb(b))
        lines = run("metricdb", *mdbs)
        if lines is not None:
            expect_values(lines, rel + " metric-db", profs)
            checked["metric-db sets"] += 1
        if rel.endswith("hpctoolkit-cpi-database"):
            check_cpi_xml(d, profs)
    mdb = os.path.join(d, "experiment-1.mdb")
    if os.path.exists(mdb):
        b = Path(mdb).read_bytes()
        profs = [(r, t) + metricdb(b, off) for r, t, off, _ in table(b)]
        lines = run("mdb", mdb)
        if lines is not None:
            expect_values(lines, rel + " experiment-1.mdb", profs)
            checked["mdb"] += 1
    traces = sorted(glob.glob(os.path.join(d, "*.hpctrace")))
    if traces:
        want = []
        for p in traces:
            b = Path(p).read_bytes()
            want.append(name_ids(p) + hpctrace(b, 0, len(b)))
        lines = run("hpctrace", *traces)
        if lines is not None:
            expect_lines(lines, rel + " hpctrace", want)
            checked["hpctrace sets"] += 1
        xml_trace_range(d, want)
    mt = os.path.join(d, "experiment.mt")
    if os.path.exists(mt):
        b = Path(mt).read_bytes()
        want = [(r, t) + hpctrace(b, off, end) for r, t, off, end in table(b)]
        lines = run("mt", mt)
        if lines is not None:
            expect_lines(lines, rel + " experiment.mt", want)
            checked["mt"] += 1
        xml_trace_range(d, want)
    if os.path.exists(os.path.join(d, "profile.db")):
        check_sparse(d, rel)


def check_cpi_xml(d, profs):
    """Inline <M n="2"> (the first metric) of each node equals the sum over
    threads of metric-db metric 0 at row id-1."""
    with open(os.path.join(d, "experiment.xml"), errors="replace") as f:
        text = f.read()
    n = 0
    for m in re.finditer(r'<(?:PF|C|S|L|Pr|A) i="(\d+)"[^>]*>\s*'
                         r'<M n="2" v="([^"]+)"/>', text):
        node, v = int(m.group(1)), float(m.group(2))
        s = sum(p[4][(node - 1) * p[3]] for p in profs)
        if abs(s - v) > 1e-5 * abs(v):
            fail("cpi: node %d: sum over threads %g, XML <M> %g"
                 % (node, s, v))
        n += 1
    if n < 10:
        fail("cpi: only %d inline values compared" % n)


def check_sparse(d, rel):
    p = Path(os.path.join(d, "profile.db")).read_bytes()
    assert p[:16] == b"HPCPROF-profdb__" and p[16] == 1
    nprof, = struct.unpack_from(">I", p, 18)
    pi_ptr, = struct.unpack_from(">Q", p, 32)
    want = ["profiles %d" % nprof]
    vals = {}  # (ctx, metric) -> {profile: value}
    max_ctx = max_metric = 0
    for i in range(nprof):
        idt, = struct.unpack_from(">Q", p, pi_ptr + 52 * i)
        nv, nz, off = struct.unpack_from(">QIQ", p, pi_ptr + 52 * i + 32)
        ln, = struct.unpack_from(">H", p, idt)
        ids = [struct.unpack_from(">HQQ", p, idt + 2 + 18 * k)
               for k in range(ln)]
        want.append("profile %d summary %d ids" % (i, i == 0) + "".join(
            " %d:%d:%d" % (k & 0x3fff, ph, lo) for k, ph, lo in ids))
        ctxs = [struct.unpack_from(">IQ", p, off + 10 * nv + 12 * k)
                for k in range(nz + 1)]
        for k in range(nz):
            c, a = ctxs[k]
            for j in range(a, ctxs[k + 1][1]):
                v, mid = struct.unpack_from(">dH", p, off + 10 * j)
                if v != 0:
                    vals.setdefault((c, mid), {})[i] = v
                    max_ctx, max_metric = max(max_ctx, c), max(max_metric,
                                                               mid)
    for c in range(max_ctx + 1):
        for m in range(max_metric + 1):
            byp = vals.get((c, m), {})
            if 0 in byp:
                want.append("summary %d %d %.17g" % (c, m, byp[0]))
            for i in sorted(byp):
                if i:
                    want.append("value %d %d %d %.17g" % (c, m, i, byp[i]))
    tr = os.path.join(d, "trace.db")
    if os.path.exists(tr):
        t = Path(tr).read_bytes()
        n, = struct.unpack_from(">I", t, 18)
        hp, = struct.unpack_from(">Q", t, 32)
        want.append("lines %d" % n)
        for i in range(n):
            prof, typ, a, e = struct.unpack_from(">IHQQ", t, hp + 22 * i)
            cnt = (e - a) // 12
            t0 = struct.unpack_from(">Q", t, a)[0] if cnt else 0
            t1 = struct.unpack_from(">Q", t, a + 12 * (cnt - 1))[0] \
                if cnt else 0
            want.append("line %d profile %d n %d tmin %d tmax %d"
                        % (i, prof, cnt, t0, t1))
    else:
        want.append("lines 0")
    lines = run("sparse", d, env={"LEGACY_DUMP_MAX_CTX": str(max_ctx),
                                  "LEGACY_DUMP_MAX_METRIC": str(max_metric)})
    if lines is None:
        return
    if same_lines(lines, want, rel + " sparse"):
        checked["sparse"] += 1


def walk(root):
    for d, _, files in sorted(os.walk(root)):
        if any(f.endswith((".metric-db", ".mdb", ".hpctrace", ".mt"))
               or f == "profile.db" for f in files):
            check_dir(d)


walk(os.path.join(shared, "corpus", "hpctoolkit-xml"))
walk(os.path.join(shared, "corpus", "hpctoolkit-sparse-2020"))
for tgz in sorted(glob.glob(os.path.join(shared, "corpus", "hpctoolkit-xml",
                                         "**", "*.tar.gz"), recursive=True)):
    out = os.path.join(tmp, os.path.basename(tgz))
    os.makedirs(out)
    with tarfile.open(tgz) as tf:
        tf.extractall(out)
    walk(out)
    subprocess.run(["rm", "-rf", out])

print(", ".join("%d %s" % (v, k) for k, v in checked.items()))
want_min = {"metric-db sets": 5, "mdb": 7, "hpctrace sets": 5, "mt": 7,
            "sparse": 1}
for k, v in want_min.items():
    if checked[k] < v:
        fail("only %d %s checked (corpus has %d)" % (checked[k], k, v))
sys.exit(1 if failures else 0)
