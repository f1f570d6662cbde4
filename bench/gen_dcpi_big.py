#!/usr/bin/env python3
"""Write a large DCPI profile database (../shared/specs/dcpiformat.txt) for
bench/bench-dcpi.sh: IMAGES images, each with ADDRS sampled addresses of
one event (cycles) in one epoch, one file per image
(OUT/2611260000/IMAGEHEX.cycles), images not on this machine (addresses
are shown grouped by image).  Counts are 1..1000 from a fixed-seed LCG,
rotated per image, so every run writes the same bytes.  Also writes
OUT.answers.json: every image's total (computed here, apart from the
reader) and the grand total.

usage: gen_dcpi_big.py OUT [IMAGES] [ADDRS]   (default 1000 100000)"""
import array
import json
import os
import struct
import sys


def header(image_id, tsize):
    lines = ["version pdb-0.7", "image " + image_id, "epoch 2611260000",
             "platform x86_64 bench host", "event cycles", "period 62000",
             "tsize %d" % tsize, "cpuspeed 2400", "tstart 400000",
             "path /opt/bench/lib/libbench%s.so" % image_id]
    text = "\n".join(lines) + "\nsamples"
    while (len(text) + 1) % 4:  # spec: the binary section 4-byte aligned
        text += " "
    return (text + "\n").encode()


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out = sys.argv[1]
    images = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    addrs = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    x, base = 12345, array.array("I")
    for _ in range(addrs):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        base.append(x % 1000 + 1)
    if sys.byteorder != "little":
        base.byteswap()
    epoch = os.path.join(out, "2611260000")
    os.makedirs(epoch, exist_ok=True)
    totals, grand = {}, 0
    base_sum = sum(base) if sys.byteorder == "little" else None
    for k in range(images):
        image_id = "%08x" % (0x1000 + k)
        r = k % addrs
        counts = base[r:] + base[:r]  # rotated: the same sum
        total = base_sum if base_sum is not None else sum(counts)
        body = struct.pack("<II", 0, addrs) + counts.tobytes()
        footer = struct.pack("<II", addrs, total & 0xFFFFFFFF)
        with open(os.path.join(epoch, image_id + ".cycles"), "wb") as f:
            f.write(header(image_id, addrs + 16) + body + footer)
        totals[image_id] = total
        grand += total
    with open(out.rstrip("/") + ".answers.json", "w") as f:
        json.dump({"images": images, "addresses": addrs, "total": grand,
                   "image_totals": totals}, f)


if __name__ == "__main__":
    main()
