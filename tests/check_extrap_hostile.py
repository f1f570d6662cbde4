#!/usr/bin/python3
"""Mechanically damaged Extra-P inputs: every reader must refuse them with
exit 2 and exactly one line on stderr (or read them, exit 0, when the
damage left a valid file), never crash or hang.

usage: check_extrap_hostile.py CALLSCOPE CORPUS_DATA_DIR TMPDIR

Variants per seed file: truncations at evenly spread offsets (every byte
of the first 12), single
bytes overwritten with 0xff / '{', and for Extra-P 3 huge
counts and lengths written over each 4- and 8-byte field of the head."""
import os
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


def run(cs, path):
    try:
        p = subprocess.run([cs, "points", "--format", "json", path],
                           capture_output=True, text=True, timeout=20,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout"
    if p.returncode == 0:
        return None
    lines = p.stderr.splitlines()
    if p.returncode == 2 and len(lines) == 1:
        return None
    return "exit %d, stderr %r" % (p.returncode, p.stderr[:200])


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
    print("%d damaged inputs, %d failures" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
