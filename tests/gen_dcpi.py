#!/usr/bin/python3
"""Write DCPI profiles from ../shared/specs/dcpiformat.txt for a real ELF
image, with the answers computed apart from callscope.

The image's .text and function symbols come from binutils (readelf), not
from libelf; a function covers [value, value + size), a size-0 symbol
reaches the next symbol (or the end of .text), aliases at one address
count once (the larger, then the first by name); any other sampled
address is "unknown" and callscope must show it as [IMAGE @ 0xADDR].

    gen_dcpi.py ELF OUT --seed N [--layout file|db] [--no-nt]
                [--path-recorded P] [--answers A.json]
    gen_dcpi.py ELF OUT --hostile      (one corrupt file per case in OUT/)

--layout file writes one file OUT (one event); db writes a database
directory OUT/<epoch>/<image>.<event> with two events and the first event
again in a second epoch (the reader sums epochs).  --no-nt leaves out the
NT edition's `version pdb-0.7` and `tstart` lines (the shared spec's
grammar): the reader then takes the image's .text start.  Answers:
{"events": [...], "functions": {name: {event: n}}, "unknown": {hexaddr:
{event: n}}, "addresses": {hexaddr: {event: n}}, "totals": {event: n}}.
"""
import argparse
import json
import os
import random
import re
import struct
import subprocess
import sys

IMAGE_ID = "1f3a9c"


def text_section(elf):
    out = subprocess.run(["readelf", "-SW", elf], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.search(r"\]\s+\.text\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            return int(m.group(1), 16), int(m.group(2), 16)
    sys.exit("no .text in " + elf)


def functions(elf, taddr, tsize):
    out = subprocess.run(["readelf", "-sW", elf], check=True,
                         capture_output=True, text=True).stdout
    syms, sect = {}, None
    for line in out.splitlines():
        if "Symbol table" in line:
            sect = ".symtab" if ".symtab" in line else ".dynsym"
            syms.setdefault(sect, [])
            continue
        f = line.split()
        if sect is None or len(f) < 8 or f[3] != "FUNC" or f[6] == "UND":
            continue
        value, size = int(f[1], 16), int(f[2], 0)
        if value == 0:
            continue
        syms[sect].append((value, size, f[7].split("@")[0]))
    lst = syms.get(".symtab") or syms.get(".dynsym") or []
    lst.sort(key=lambda s: (s[0], -s[1], s[2]))
    uniq = []
    for s in lst:
        if uniq and uniq[-1][0] == s[0]:
            continue
        uniq.append(s)
    res = []
    for i, (v, sz, n) in enumerate(uniq):
        if sz == 0:
            if i + 1 < len(uniq):
                sz = uniq[i + 1][0] - v
            elif taddr + tsize > v:
                sz = taddr + tsize - v
            else:
                sz = 1
        res.append((v, sz, n))
    return res


def owner(funcs, addr):
    for v, sz, n in funcs:
        if v <= addr < v + sz:
            return n
    return None


def samples(rng, tsize, funcs, taddr, n):
    """offset -> count: first and last byte of .text, padding, random."""
    offs = {0, tsize - 1}
    pad = [a - taddr for a in range(taddr, taddr + tsize) if owner(funcs, a) is None]
    offs.update(rng.sample(pad, min(3, len(pad))))
    while len(offs) < min(n, tsize):
        offs.add(rng.randrange(tsize))
    res = {}
    for o in sorted(offs):
        res[o] = rng.choice([1, 2, 7, rng.randrange(1, 100000)])
    big = rng.choice(sorted(offs))
    res[big] = 0xFFFFFFFF  # a count of 2^32-1: the footer sum wraps
    return res


def encode(counts, tsize):
    """chunks (runs of offsets, short gaps filled with zero counts) and
    the footer"""
    offs = sorted(counts)
    out, i = b"", 0
    while i < len(offs):
        j = i
        while j + 1 < len(offs) and offs[j + 1] - offs[j] <= 3:
            j += 1
        start, end = offs[i], offs[j] + 1
        out += struct.pack("<II", start, end - start)
        out += b"".join(struct.pack("<I", counts.get(o, 0)) for o in range(start, end))
        i = j + 1
    total = sum(counts.values()) & 0xFFFFFFFF
    return out + struct.pack("<II", len(counts), total)


def header(event, tsize, taddr, nt, path, epoch="2611241530", extra=()):
    lines = []
    if nt:
        lines.append("version pdb-0.7")
    lines += ["image " + IMAGE_ID, "epoch\t" + epoch, "platform x86_64 test host",
              "event " + event, "period 62000", "tsize %d" % tsize,
              "cpuspeed 2400", "cpucount 2", "label run-1"]
    if nt:
        lines.append("tstart %x" % taddr)
    if path:
        lines.append("path " + path)
    lines += list(extra)
    text = "\n".join(lines) + "\nsamples"
    # spec: pad the last line so the binary section is 4-byte aligned
    while (len(text) + 1) % 4:
        text += " "
    return (text + "\n").encode()


def write(path, data):
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def hostile(elf, out, taddr, tsize):
    os.makedirs(out, exist_ok=True)
    good_body = encode({0: 5, 1: 0, 8: 3}, tsize)
    h = header("cycles", tsize, taddr, True, elf)
    cases = {
        "truncated-footer": h + good_body[:-3],
        "truncated-chunk": h + good_body[:10],
        "no-samples-line": h.replace(b"samples", b"sampler"),
        "header-only-eof": b"image 1f\nepoch 2611241530\n",
        "missing-event": h.replace(b"event cycles\n", b""),
        "twice-tsize": h.replace(b"tsize", b"tsize 5\ntsize", 1) + good_body,
        "bad-epoch": h.replace(b"epoch\t2611241530", b"epoch\t26112"),
        "bad-image-hex": h.replace(b"image " + IMAGE_ID.encode(), b"image xyz"),
        "version-1": h.replace(b"pdb-0.7", b"pdb-1.01") + good_body,
        "absurd-count": h + struct.pack("<II", 0, 0xFFFFFFF0) + struct.pack("<III", 1, 1, 1),
        "zero-number": h + struct.pack("<II", 0, 0) + struct.pack("<II", 0, 0),
        "past-tsize": h + struct.pack("<III", tsize, 1, 4) + struct.pack("<II", 1, 4),
        "overlap": h + struct.pack("<IIII", 4, 2, 1, 1) + struct.pack("<III", 5, 1, 1)
        + struct.pack("<II", 3, 3),
        "decreasing": h + struct.pack("<III", 9, 1, 1) + struct.pack("<III", 2, 1, 1)
        + struct.pack("<II", 2, 2),
        "footer-mismatch": h + encode({0: 5}, tsize)[:-8] + struct.pack("<II", 1, 6),
        "bad-line": h.replace(b"cpucount 2", b"cpucount"),
        "empty": b"",
    }
    for name, data in cases.items():
        write(os.path.join(out, name), data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("elf")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layout", choices=["file", "db"], default="file")
    ap.add_argument("--no-nt", action="store_true")
    ap.add_argument("--path-recorded")
    ap.add_argument("--answers")
    ap.add_argument("--samples", type=int, default=60)
    ap.add_argument("--hostile", action="store_true")
    a = ap.parse_args()
    taddr, tsize = text_section(a.elf)
    funcs = functions(a.elf, taddr, tsize)
    if a.hostile:
        hostile(a.elf, a.out, taddr, tsize)
        return
    rng = random.Random(a.seed)
    recorded = a.path_recorded if a.path_recorded is not None else os.path.abspath(a.elf)
    events = ["cycles"] if a.layout == "file" else ["cycles", "imiss"]
    files = []  # (relative name, event, counts, epoch)
    for ev in events:
        files.append((ev, samples(rng, tsize, funcs, taddr, a.samples), "2611241530"))
    if a.layout == "db":
        files.append(("cycles", samples(rng, tsize, funcs, taddr, a.samples // 2),
                      "261124160000"))
    ans = {"events": events, "functions": {}, "unknown": {}, "addresses": {},
           "totals": {}}
    for ev, counts, epoch in files:
        data = header(ev, tsize, taddr, not a.no_nt, recorded, epoch) + encode(counts, tsize)
        if a.layout == "file":
            write(a.out, data)
        else:
            write(os.path.join(a.out, epoch, "%s.%s" % (IMAGE_ID, ev)), data)
        for off, c in counts.items():
            addr = taddr + off
            key = "%x" % addr
            ans["addresses"].setdefault(key, {}).setdefault(ev, 0)
            ans["addresses"][key][ev] += c
            ans["totals"][ev] = ans["totals"].get(ev, 0) + c
            fn = owner(funcs, addr)
            tgt = ans["functions"].setdefault(fn, {}) if fn else \
                ans["unknown"].setdefault(key, {})
            tgt[ev] = tgt.get(ev, 0) + c
    if a.answers:
        with open(a.answers, "w") as f:
            json.dump(ans, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
