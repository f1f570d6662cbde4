#!/usr/bin/python3
"""Mechanically damaged Extra-P inputs: every reader must refuse them with
exit 2 and exactly one line on stderr (or read them, exit 0, when the
damage left a valid file), never crash or hang.

usage: check_extrap_hostile.py CALLSCOPE CORPUS_DATA_DIR TMPDIR

Variants per seed file: truncations at evenly spread offsets (every byte
of the first 12), single
bytes overwritten with 0xff / '{', and for Extra-P 3 huge
counts and lengths written over each 4- and 8-byte field of the head.

Nsight sets (two points of nsight/sampled_callchains): one export
truncated or not SQLite, one .ncu-rep truncated, overwritten or garbage
or times at the ends of 64 bits (the one line must name the damaged file
when the exit status is 2), a point directory left empty, every point
directory empty, .ncu-rep reports alone (not supported).

Extra-Prof sets (two points of extra_prof/test3): one profile truncated,
bytes overwritten (0xff, the unused 0xc1, an array32 header claiming 2^32
- 1 items), containers and strings whose counts exceed the file, 5000
nested arrays, and hand-encoded files of the wrong kinds (another magic,
a root that is a map, a node name that is a number, an unknown node type,
a duration that is a string): exit 2 with one line naming the damaged
file, or a valid read."""
import os
import shutil
import sqlite3
import subprocess
import sys

SEEDS = [
    "text/one_parameter_2.txt",
    "text/two_parameter_1.txt",
    "talpas/talpas_1.txt",
    "json/input_4.JSON",
    "json/new/input2.json",
    "jsonlines/matrix_3p.jsonl",
    "input/experiment_3",
]


def run(cs, path, names=None, must_fail=False):
    """None when callscope read `path` (exit 0, unless must_fail) or
    refused it with exit 2 and one line (naming `names`, when given)."""
    try:
        p = subprocess.run([cs, "points", "--format", "json", path],
                           capture_output=True, text=True, timeout=20,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout"
    if p.returncode == 0 and not must_fail:
        return None
    lines = p.stderr.splitlines()
    if p.returncode == 2 and len(lines) == 1 and \
            (not names or names in lines[0]):
        return None
    return "exit %d, stderr %r" % (p.returncode, p.stderr[:200])


def nsight_cases(corpus, tmp):
    """(name, set directory, damaged file's name or None, must fail)
    for damaged copies of two points of the sampled_callchains set."""
    src = os.path.join(corpus, "nsight", "sampled_callchains")
    top = os.path.join(tmp, "nsight")

    def fresh():
        shutil.rmtree(top, ignore_errors=True)
        for p in ("ex-gpu.s10", "ex-gpu.s100"):
            os.makedirs(os.path.join(top, p))
            for ext in (".sqlite", ".ncu-rep"):
                shutil.copyfile(os.path.join(src, p, p + ext),
                                os.path.join(top, p, p + ext))
        return os.path.join(top, "ex-gpu.s100", "ex-gpu.s100")

    stem = fresh()
    with open(stem + ".sqlite", "rb") as f:
        db = f.read()
    with open(stem + ".ncu-rep", "rb") as f:
        ncu = f.read()
    for cut in (0, 10, 100, 1024, 4096, len(db) // 2, len(db) - 1):
        stem = fresh()
        with open(stem + ".sqlite", "wb") as f:
            f.write(db[:cut])
        yield "sqlite_cut%d" % cut, top, "ex-gpu.s100.sqlite", cut < 4096
    for blob in (b"not a database\n" * 100, b"SQLite format 3\0" + b"\xff" * 5000):
        stem = fresh()
        with open(stem + ".sqlite", "wb") as f:
            f.write(blob)
        yield "sqlite_garbage%d" % len(blob), top, "ex-gpu.s100.sqlite", True
    n = len(ncu)
    cuts = sorted(set(range(0, 12)) | set(range(0, n, max(1, n // 16))))
    for cut in cuts:
        stem = fresh()
        with open(stem + ".ncu-rep", "wb") as f:
            f.write(ncu[:cut])
        yield "ncu_cut%d" % cut, top, "ex-gpu.s100.ncu-rep", False
    for off in range(0, n, max(1, n // 24)):
        stem = fresh()
        with open(stem + ".ncu-rep", "wb") as f:
            f.write(ncu[:off] + b"\xff" + ncu[off + 1:])
        yield "ncu_byte%d" % off, top, "ex-gpu.s100.ncu-rep", False
    for blob in (b"", b"NVR\0", b"garbage" * 1000, b"NVR\0\xff\xff\xff\x7f"):
        stem = fresh()
        with open(stem + ".ncu-rep", "wb") as f:
            f.write(blob)
        yield "ncu_garbage%d" % len(blob), top, "ex-gpu.s100.ncu-rep", True
    # times at the ends of 64 bits: exit 2 naming the file, or a read
    for table, col, v in (
            ("CUPTI_ACTIVITY_KIND_KERNEL", "start", -2**63),
            ("CUPTI_ACTIVITY_KIND_KERNEL", "end", 2**63 - 1),
            ("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "end", 2**63 - 1),
            ("EXTRAP_RESOLVED_CALLPATHS", "duration", -2**63)):
        stem = fresh()
        db3 = sqlite3.connect(stem + ".sqlite")
        db3.execute("UPDATE %s SET %s = ? WHERE rowid IN (SELECT rowid "
                    "FROM %s LIMIT 2)" % (table, col, table), (v,))
        db3.commit()
        db3.close()
        yield "huge_%s_%s" % (table, col), top, "ex-gpu.s100.sqlite", False
    stem = fresh()
    for ext in (".sqlite", ".ncu-rep"):
        os.unlink(stem + ext)
    yield "empty_point_dir", top, None, True
    os.unlink(os.path.join(top, "ex-gpu.s10", "ex-gpu.s10.sqlite"))
    yield "ncu_rep_only", top, "not supported", True
    os.unlink(os.path.join(top, "ex-gpu.s10", "ex-gpu.s10.ncu-rep"))
    yield "every_point_dir_empty", top, None, True
    shutil.rmtree(top, ignore_errors=True)


def mp(o):
    """A small MessagePack encoder (str, int >= 0, float, list, dict)."""
    if isinstance(o, str):
        b = o.encode()
        return (bytes([0xa0 | len(b)]) if len(b) < 32
                else b"\xda" + len(b).to_bytes(2, "big")) + b
    if isinstance(o, bool):
        return b"\xc3" if o else b"\xc2"
    if isinstance(o, int):
        return bytes([o]) if o < 128 else b"\xcf" + o.to_bytes(8, "big")
    if isinstance(o, float):
        import struct
        return b"\xcb" + struct.pack(">d", o)
    if isinstance(o, dict):
        return bytes([0x80 | len(o)]) + b"".join(
            mp(k) + mp(v) for k, v in o.items())
    assert len(o) < 65536
    return b"\xdc" + len(o).to_bytes(2, "big") + b"".join(mp(x) for x in o)


def prof_cases(corpus, tmp):
    """(name, set directory, damaged file) for damaged copies of two
    points of extra_prof/test3."""
    src = os.path.join(corpus, "extra_prof", "test3")
    top = os.path.join(tmp, "prof")
    victim = os.path.join(top, "example.s2", "profile.extra-prof.msgpack")

    def fresh(blob):
        shutil.rmtree(top, ignore_errors=True)
        for p in ("example.s2", "example.s3"):
            shutil.copytree(os.path.join(src, p), os.path.join(top, p))
        with open(victim, "wb") as f:
            f.write(blob)
        return top
    with open(os.path.join(src, "example.s2",
                           "profile.extra-prof.msgpack"), "rb") as f:
        data = f.read()
    n = len(data)
    for cut in sorted({0, 1, 5, 12, 13, 40, n // 3, n // 2, n - 1}):
        yield "cut%d" % cut, fresh(data[:cut]), victim
    for off in range(0, n, max(1, n // 16)):
        for b in (b"\xff", b"\xc1", b"\xdd\xff\xff\xff\xff",
                  b"\xdb\xff\xff\xff\xf0", b"\xdf\x7f\xff\xff\xff"):
            yield "at%d-%s" % (off, b[:1].hex()), \
                fresh(data[:off] + b + data[off + len(b):]), victim
    node = ["f", [], 0, 0, 5, 1, 0]
    for name, doc in (
            ("magic", ["EXTRA PRO", "1.0", ["", [node], 0, 0, 0, 0, 0]]),
            ("short", ["EXTRA PROF", "1.0"]),
            ("map-root", ["EXTRA PROF", "1.0", {"a": 1}]),
            ("named-root", ["EXTRA PROF", "1.0", ["x", [], 0, 0, 0, 0, 0]]),
            ("int-name", ["EXTRA PROF", "1.0", ["", [[7, [], 0, 0, 1, 1,
                                                     0]], 0, 0, 0, 0, 0]]),
            ("type", ["EXTRA PROF", "1.0", ["", [["f", [], 9, 0, 1, 1, 0]],
                                            0, 0, 0, 0, 0]]),
            ("str-dur", ["EXTRA PROF", "1.0", ["", [["f", [], 0, 0, "1", 1,
                                                     0]], 0, 0, 0, 0, 0]]),
            ("gpu-names", ["EXTRA PROF", "1.0", ["", [node], 0, 0, 0, 0, 0],
                           "x"]),
            ("add-names", ["EXTRA PROF", "1.0", ["", [node], 0, 0, 0, 0, 0],
                           [], [[1, 2]]]),
            ("short-node", ["EXTRA PROF", "1.0", ["", [["f", []]], 0, 0, 0,
                                                  0, 0]])):
        yield name, fresh(mp(doc)), victim
    deep = b"\x91" * 5000 + b"\xc0"
    yield "deep", fresh(b"\x93" + mp("EXTRA PROF") + mp("1.0") + deep), \
        victim


def variants(data, binary):
    n = len(data)
    cuts = set(range(0, min(n, 12)))
    cuts |= set(range(0, n, max(1, n // 20)))
    for c in sorted(cuts):
        yield "cut%d" % c, data[:c]
    for off in range(0, n, max(1, n // 12)):
        for b in (b"\xff", b"{"):
            yield "byte%d_%02x" % (off, b[0]), data[:off] + b + data[off + 1:]
    if binary:
        for off in range(2, min(n, 160), 4):
            for pat in (b"\xff\xff\xff\x7f", b"\x00\x00\x00\x80"):
                yield "big%d_%s" % (off, pat.hex()), \
                    data[:off] + pat + data[off + 4:]


def main():
    cs, corpus, tmp = sys.argv[1:4]
    bad = 0
    total = 0
    for seed in SEEDS:
        path = os.path.join(corpus, seed)
        with open(path, "rb") as f:
            data = f.read()
        base = os.path.basename(seed)
        for name, blob in variants(data, seed.endswith("experiment_3")):
            out = os.path.join(tmp, base + "." + name)
            # keep the name's extension-free content sniffing honest
            with open(out, "wb") as f:
                f.write(blob)
            total += 1
            why = run(cs, out)
            if why:
                bad += 1
                print("FAIL %s %s: %s" % (seed, name, why))
            os.unlink(out)
    for name, path, names, must_fail in nsight_cases(corpus, tmp):
        total += 1
        why = run(cs, path, names, must_fail)
        if why:
            bad += 1
            print("FAIL nsight %s: %s" % (name, why))
    for name, path, victim in prof_cases(corpus, tmp):
        total += 1
        why = run(cs, path, victim, True)
        if why and why.startswith("exit 0"):
            why = run(cs, path, victim)  # the damage left a valid file
        if why:
            bad += 1
            print("FAIL extra-prof %s: %s" % (name, why))
    print("%d damaged inputs, %d failures" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
