#!/usr/bin/env python3
"""Mechanically corrupted variants of a good HPCToolkit v4 database, each run
through `callscope report` and `callscope trace`.

usage: corrupt_v4.py CALLSCOPE DB WORKDIR [--flips N]

Variants (per file present: meta.db, profile.db, cct.db, trace.db):
 - truncation at and around every section edge and the header/footer edges;
 - bad magic, bad format id, major version 5;
 - every section pointer set past the end of the file, every section size
   set huge;
 - the first u32 count field of every section set to 0xffffffff;
 - meta.db: the first context's children pointer aimed back at its own
   array (a child that points at an ancestor);
 - N random byte flips inside sections (fixed seed).
Structural damage must give exit status 2 with exactly one line on stderr
naming the file; every variant must finish in 20 s with status 0 or 2 (no
crash, no sanitizer report, no hang)."""
import os
import random
import shutil
import struct
import subprocess
import sys

NSECTIONS = {b"meta": 8, b"prof": 2, b"ctxt": 1, b"trce": 1}
problems = 0
runs = 0


def sections(data):
    fmt = data[10:14]
    out = []
    for i in range(NSECTIONS.get(fmt, 0)):
        off = 0x10 + 16 * i
        if off + 16 > len(data):
            break
        sz, p = struct.unpack_from("<QQ", data, off)
        out.append((off, sz, p))
    return out


def check(cs, variant_dir, label, must_fail):
    global problems, runs
    runs += 1
    cmds = [[cs, "report", variant_dir, "--format", "json", "--metric", "all"],
            [cs, "trace", variant_dir, "--at", "+0.5s", "--format", "json"],
            [cs, "report", variant_dir, "--view", "bottom-up", "--format", "csv"]]
    for i, cmd in enumerate(cmds):
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            print("FAIL %s: %s hung" % (label, cmd[1]))
            problems += 1
            return
        err = p.stderr.decode(errors="replace")
        ok_codes = (2,) if (must_fail and i == 0) else (0, 2)
        if p.returncode not in ok_codes or "Sanitizer" in err or "runtime error" in err:
            print("FAIL %s: %s exit %d: %s" % (label, cmd[1], p.returncode, err[:500]))
            problems += 1
            return
        if p.returncode == 2 and cmd[1] == "report":
            lines = err.strip().split("\n")
            if len(lines) != 1 or "callscope" not in lines[0]:
                print("FAIL %s: stderr is not one line: %r" % (label, err[:300]))
                problems += 1


def main():
    cs, db, work = sys.argv[1:4]
    flips = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--flips" else 40
    rng = random.Random(20261121)
    files = [f for f in ("meta.db", "profile.db", "cct.db", "trace.db")
             if os.path.exists(os.path.join(db, f))]
    vdir = os.path.join(work, "variant")

    def variant(name, data, label, must_fail):
        if os.path.exists(vdir):
            shutil.rmtree(vdir)
        shutil.copytree(db, vdir)
        with open(os.path.join(vdir, name), "wb") as fh:
            fh.write(data)
        check(cs, vdir, "%s %s" % (name, label), must_fail)

    for name in files:
        good = open(os.path.join(db, name), "rb").read()
        secs = sections(good)
        # meta.db and profile.db are read at open: any damage must be seen.
        # cct.db and trace.db are read lazily, but their headers and
        # footers are checked at open too.
        cuts = {0, 1, 8, 15, 16, len(good) - 8, len(good) - 1}
        for off, sz, p in secs:
            for edge in (off, off + 8, p, p + sz):
                for d in (-1, 0, 1):
                    if 0 <= edge + d < len(good):
                        cuts.add(edge + d)
        for cut in sorted(cuts):
            variant(name, good[:cut], "truncated at %d" % cut, True)
        variant(name, b"XPCTOOLKIT" + good[10:], "bad magic", True)
        variant(name, good[:10] + b"zzzz" + good[14:], "bad format", True)
        variant(name, good[:14] + b"\x05" + good[15:], "major 5", True)
        for off, sz, p in secs:
            bad = bytearray(good)
            struct.pack_into("<Q", bad, off + 8, len(good) + 4096)
            variant(name, bytes(bad), "section at 0x%x past the end" % off, True)
            bad = bytearray(good)
            struct.pack_into("<Q", bad, off, 0xFFFFFFFFFFFF0000)
            variant(name, bytes(bad), "section at 0x%x huge" % off, True)
            if sz >= 12 and p + 12 <= len(good):
                bad = bytearray(good)
                struct.pack_into("<I", bad, p + 8, 0xFFFFFFFF)
                variant(name, bytes(bad), "count at 0x%x huge" % (p + 8), False)
        if name == "meta.db" and len(secs) >= 4:
            _, ctx_sz, ctx_p = secs[3]
            if ctx_sz >= 11:
                p_entries, n_entries, sz_entry = struct.unpack_from("<QHB", good, ctx_p)
                if n_entries:
                    szc, pch = struct.unpack_from("<QQ", good, p_entries)
                    if pch and pch + 16 <= len(good):
                        bad = bytearray(good)
                        # first child's pChildren -> its own array (cycle)
                        struct.pack_into("<QQ", bad, pch, szc, pch)
                        variant(name, bytes(bad), "child points at an ancestor", True)
        for i in range(flips):
            if not secs:
                break
            off, sz, p = rng.choice(secs)
            if sz == 0 or p >= len(good):
                continue
            bad = bytearray(good)
            pos = p + rng.randrange(min(sz, len(good) - p))
            bad[pos] ^= 1 << rng.randrange(8)
            variant(name, bytes(bad), "bit flip at %d" % pos, False)
    print("%s: %d variants, %d problems" % (db, runs, problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
